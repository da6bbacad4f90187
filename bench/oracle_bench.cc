// The oracles on the reference planner's plans: the static checker (fast,
// and plain quadratic at small sizes), the shadow executor, and the optimum
// oracle's bounds (peak of live bytes and greedy by size, without the
// search or Z3).
//   build/dev/bench/oracle_bench --benchmark_filter='check/fast/flat'

#include <benchmark/benchmark.h>

#include "bench/chains.h"
#include "oracle/check/checker.h"
#include "oracle/check/shadow.h"
#include "oracle/optimum/optimum.h"
#include "oracle/optimum/optimum_input.h"
#include "planner/planner.h"

namespace planck::bench {
namespace {

// The plain checker compares every two placements.
constexpr std::size_t kQuadraticChecker = 10'000;
// Greedy by size takes time quadratic in a part's buffers.
constexpr std::size_t kQuadraticBounds = 100'000;

// The reference planner's plan, or on several streams, which it refuses,
// bysize's.
Plan reference_plan(const Schedule& s) {
  Result<Plan> p = make_planner("tlsf")->plan(s);
  return p ? *std::move(p) : *make_planner("bysize")->plan(s);
}

template <std::vector<oracle::Violation> (*kCheck)(const Schedule&, const Plan&)>
void check(benchmark::State& state, Shape shape, std::size_t buffers) {
  const Schedule& s = chain(shape, buffers);
  const Plan p = reference_plan(s);
  measure(state, buffers, [&] {
    auto violations = kCheck(s, p);
    if (!violations.empty()) state.SkipWithError("the reference plan failed the checker");
    return violations;
  });
}

void shadow(benchmark::State& state, Shape shape, std::size_t buffers) {
  const Schedule& s = chain(shape, buffers);
  const Plan p = reference_plan(s);
  measure(state, buffers, [&] {
    auto run = oracle::run_shadow(s, p);
    if (run && (run->clobber || run->outside)) state.SkipWithError("the reference plan failed the shadow executor");
    return run;
  });
}

void bounds(benchmark::State& state, Shape shape, std::size_t buffers) {
  const auto devices = oracle::schedule_packings(chain(shape, buffers));
  if (!devices) {
    state.SkipWithError(devices.error().message().c_str());
    return;
  }
  for (const oracle::DevicePacking& d : *devices) {
    if (d.unpaired) {
      state.SkipWithError("a device of model v3 too large for the oracle's conflict pairs");
      return;
    }
  }
  const oracle::OptimumOptions options{.timeout_seconds = 3600, .use_search = false, .use_z3 = false};
  measure(state, buffers, [&] {
    for (const oracle::DevicePacking& d : *devices) {
      auto r = oracle::solve_optimum(d.problem, options);
      if (!r) state.SkipWithError(r.error().message().c_str());
      benchmark::DoNotOptimize(r);
    }
  });
}

}  // namespace

void register_benchmarks() {
  using oracle::check_plan;
  using oracle::check_plan_quadratic;
  register_chains("check/fast", check<check_plan>);
  register_chains("check/quadratic", check<check_plan_quadratic>, kQuadraticChecker);
  register_chains("shadow", shadow);
  register_chains("bounds", bounds, kQuadraticBounds);
}

}  // namespace planck::bench
