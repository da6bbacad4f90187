#include "tests/run_command.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace planck::testing {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string temp_dir() {
  std::string tmpl = "/tmp/planck-test-XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

std::string planck_bin() {
  const char* bin = std::getenv("PLANCK_BIN");
  return bin != nullptr ? bin : PLANCK_BIN_DEFAULT;
}

CommandResult run_command(const std::string& command) {
  const std::string dir = temp_dir();
  const std::string out = dir + "/out", err = dir + "/err";
  const std::string full = "(" + command + ") >" + out + " 2>" + err + " </dev/null";
  int status = std::system(full.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_text(out);
  r.err = read_text(err);
  std::filesystem::remove_all(dir);
  return r;
}

void PlanckCommandTest::SetUp() { dir_ = temp_dir(); }

void PlanckCommandTest::TearDown() {
  if (!dir_.empty()) std::filesystem::remove_all(dir_);
}

std::string PlanckCommandTest::write(const std::string& name, const std::string& text) {
  const std::string path = dir_ + "/" + name;
  write_text(path, text);
  return path;
}

CommandResult PlanckCommandTest::planck(const std::string& args, const std::string& env) {
  return run_command(env + " " + planck_bin() + " " + args);
}

}  // namespace planck::testing
