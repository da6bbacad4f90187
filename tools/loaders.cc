#include <cerrno>
#include <climits>
#include <cstdlib>

#include "model/text.h"
#include "tools/commands.h"

namespace planck::cli {

Schedule load_schedule(const std::string& path) {
  auto s = read_schedule(path);
  if (!s) throw Exit{kExitBadInput, s.error().message()};
  return std::move(s).value();
}

Plan load_plan(const std::string& path) {
  auto p = read_plan(path);
  if (!p) throw Exit{kExitBadInput, p.error().message()};
  return std::move(p).value();
}

int env_level(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return 0;
  errno = 0;
  char* end = nullptr;
  long n = std::strtol(v, &end, 10);
  if (*end != '\0' || errno == ERANGE || n < INT_MIN || n > INT_MAX) {
    throw Exit{kExitBadInput, std::string("environment: ") + name + "=" + v + " is not an integer"};
  }
  return static_cast<int>(n);
}

}  // namespace planck::cli
