// Reading and writing the text formats: the .sched parser, and the plan
// printer `planck plan` writes its result with.
//   build/dev/bench/parse_bench --benchmark_filter=flat/1000000

#include <benchmark/benchmark.h>

#include "bench/chains.h"
#include "model/schedule_reader.h"
#include "planner/planner.h"

namespace planck::bench {
namespace {

void parse_schedule_text(benchmark::State& state, Shape shape, std::size_t buffers) {
  const std::string& text = chain_text(shape, buffers);
  // The schedule is freed outside the time measured.
  measure(state, buffers, [&] {
    auto s = parse_schedule(text, "chain.sched");
    if (!s) state.SkipWithError(s.error().message().c_str());
    benchmark::DoNotOptimize(s);
    state.PauseTiming();
    s = Error{};
    state.ResumeTiming();
  });
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}

void print_plan_text(benchmark::State& state, Shape shape, std::size_t buffers) {
  const Plan plan = *make_planner("tlsf")->plan(chain(shape, buffers));
  measure(state, buffers, [&] { return print_plan(plan); });
}

}  // namespace

void register_benchmarks() {
  register_chains("parse", parse_schedule_text);
  register_chains("print_plan", print_plan_text);
}

}  // namespace planck::bench
