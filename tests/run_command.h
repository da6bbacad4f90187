#pragma once
// Runs a shell command for end-to-end tests and captures what it printed.

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

}  // namespace planck::testing
