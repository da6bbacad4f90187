#pragma once
// The schedules every benchmark runs on: chains of 1,000 to 1,000,000
// kernels (gen/chain.h), flat, with loops, or over several devices, the
// loop that measures a benchmark's work on one, and the registration that
// names each benchmark NAME/SHAPE/BUFFERS.

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include <benchmark/benchmark.h>

#include "bench/memory.h"
#include "model/schedule.h"

namespace planck::bench {

enum class Shape {
  Flat,     // the chain as it is: one device, no loops
  Loops,    // every other run of 16 kernels inside a range loop
  Devices,  // the buffers spread over four devices in turn
  Streams,  // model v3: the kernels on four streams in turn, a ring of events every 64
};

// The sizes benchmarks run at, in buffers: 1,000, 10,000, ... kLargest.
inline constexpr std::size_t kSmallest = 1000;
inline constexpr std::size_t kLargest = 1'000'000;

// The chain of `buffers` kernels of a shape, seed 1, the same on every call.
// The last one asked for is kept, so that the benchmarks of one size and
// shape, registered together, make it once.
const Schedule& chain(Shape shape, std::size_t buffers);

// The .sched text of chain(shape, buffers), kept as the schedule is.
const std::string& chain_text(Shape shape, std::size_t buffers);

// Reports the time per buffer (the counter per_buffer) and the buffers per
// second of the benchmark's iterations.
void report_per_buffer(benchmark::State& state, std::size_t buffers);

// Runs `work` once per iteration of the benchmark, then reports the heap it
// held at its peak (HeapPeak: what is in use before the call, the input made
// for the work, does not count) and the time per buffer. What `work`
// returns is kept from the optimizer; a Result that holds an error ends the
// benchmark with its message.
template <class Work>
void measure(benchmark::State& state, std::size_t buffers, Work work) {
  const HeapPeak heap;
  for (auto _ : state) {
    if constexpr (std::is_void_v<decltype(work())>) {
      work();
    } else {
      auto out = work();
      if constexpr (requires { out.error().message(); }) {
        if (!out) state.SkipWithError(out.error().message().c_str());
      }
      benchmark::DoNotOptimize(out);
    }
  }
  heap.report(state);
  report_per_buffer(state, buffers);
}

using ChainBenchmark = void (*)(benchmark::State& state, Shape shape, std::size_t buffers);

// Registers `run` as NAME/SHAPE/BUFFERS for every shape and every size from
// kSmallest up to max_buffers, in milliseconds of wall time (Google
// Benchmark names it NAME/SHAPE/BUFFERS/real_time).
void register_chains(std::string_view name, ChainBenchmark run, std::size_t max_buffers = kLargest);

// Registers the program's benchmarks with register_chains: each benchmark
// program defines it, and the main function of chains.cc calls it, then
// runs what the command line selects.
void register_benchmarks();

}  // namespace planck::bench
