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

}  // namespace planck::cli
