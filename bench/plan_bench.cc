// Time to plan, check and parse large generated schedules.
//   build/dev/bench/plan_bench --benchmark_filter=100000

#include <benchmark/benchmark.h>

#include "model/text.h"
#include "oracle/check/checker.h"
#include "planner/planner.h"
#include "properties/chain.h"

namespace planck::bench {
namespace {

// A chain of `buffers` kernels (properties/chain.h), the same for every run.
Schedule chain(std::int64_t buffers) {
  gen::SeededChoices choices(1);
  return gen::generate_chain_schedule(choices, gen::ChainOptions{.buffers = static_cast<std::size_t>(buffers)});
}

void BM_PlanTlsf(benchmark::State& state) {
  const Schedule s = chain(state.range(0));
  auto planner = make_planner("tlsf");
  for (auto _ : state) {
    auto plan = planner->plan(s);
    if (!plan) state.SkipWithError(plan.error().message().c_str());
    benchmark::DoNotOptimize(plan);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_PlanTlsf)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_CheckPlan(benchmark::State& state) {
  const Schedule s = chain(state.range(0));
  const Plan plan = *make_planner("tlsf")->plan(s);
  for (auto _ : state) {
    auto violations = oracle::check_plan(s, plan);
    if (!violations.empty()) state.SkipWithError("the reference plan failed the checker");
    benchmark::DoNotOptimize(violations);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_CheckPlan)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_ParseSchedule(benchmark::State& state) {
  const std::string text = print_schedule(chain(state.range(0)));
  for (auto _ : state) {
    auto s = parse_schedule(text, "synthetic.sched");
    if (!s) state.SkipWithError(s.error().message().c_str());
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}
BENCHMARK(BM_ParseSchedule)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace planck::bench

BENCHMARK_MAIN();
