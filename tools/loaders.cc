#include <cerrno>
#include <climits>
#include <cstdlib>
#include <utility>
#include <variant>

#include "model/interval_schedule.h"
#include "model/problem.h"
#include "tools/commands.h"

namespace planck::cli {
namespace {

template <class T>
T or_exit(Result<T> r) {
  if (!r) throw Exit{kExitBadInput, r.error().message()};
  return std::move(r).value();
}

}  // namespace

Problem load_problem(const std::string& path) { return or_exit(read_problem(path)); }

Schedule load_schedule(const std::string& path) { return or_exit(problem_schedule(load_problem(path))); }

Plan load_plan(const std::string& path) { return or_exit(read_plan(path)); }

CheckInput load_check_input(const std::string& schedule, const std::string& plan) {
  Problem problem = load_problem(schedule);
  Plan p = load_plan(plan);
  if (auto* intervals = std::get_if<IntervalProblem>(&problem)) {
    IntervalCheck blocks = or_exit(interval_check(*intervals, p));
    return {std::move(blocks.schedule), std::move(blocks.plan), kPlaceAlign};
  }
  return {std::get<Schedule>(std::move(problem)), std::move(p), 1};
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
