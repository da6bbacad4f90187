#include "planner/options.h"

#include <fmt/format.h>

#include <cerrno>
#include <climits>
#include <cstdlib>

namespace planck {
namespace {

// The integer value of an environment variable, 0 when unset or empty.
Result<int> env_level(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return 0;
  errno = 0;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (*end != '\0' || errno == ERANGE || n < INT_MIN || n > INT_MAX) {
    return Error{"environment", fmt::format("{}={} is not an integer", name, v)};
  }
  return static_cast<int>(n);
}

}  // namespace

Result<PlanOptions> PlanOptions::from_environment() {
  PlanOptions o;
  PLANCK_ASSIGN(const int no_planner, env_level("NO_MEMORY_PLANNER"));
  o.no_memory_planner = no_planner >= 1;
  PLANCK_ASSIGN(o.debug, env_level("DEBUG"));
  return o;
}

}  // namespace planck
