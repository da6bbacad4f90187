#pragma once
// Runs a shell command for end-to-end tests and captures what it printed.

#include <gtest/gtest.h>

#include <string>

namespace planck::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `command` with /bin/sh, standard output and error captured apart.
CommandResult run_command(const std::string& command);

// The planck binary under test: $PLANCK_BIN, else the one this build made.
std::string planck_bin();

// A fresh temporary directory for one test.
std::string temp_dir();

std::string read_text(const std::string& path);
void write_text(const std::string& path, const std::string& text);

// A test of the planck command: each case gets a fresh folder for its files.
class PlanckCommandTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Writes a file into the case's folder and returns its path.
  std::string write(const std::string& name, const std::string& text);
  // Runs `planck ARGS`, with `env` (e.g. "DEBUG=1") set for it.
  CommandResult planck(const std::string& args, const std::string& env = "");

  std::string dir_;
};

}  // namespace planck::testing
