#pragma once
// The schedules every benchmark runs on: chains of 1,000 to 1,000,000
// kernels (gen/chain.h), flat, with loops, or over several devices,
// and the registration that names each benchmark NAME/SHAPE/BUFFERS.

#include <cstddef>
#include <string>
#include <string_view>

#include <benchmark/benchmark.h>

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

using ChainBenchmark = void (*)(benchmark::State& state, Shape shape, std::size_t buffers);

// Registers `run` as NAME/SHAPE/BUFFERS for every shape and every size from
// kSmallest up to max_buffers, in milliseconds of wall time (Google
// Benchmark names it NAME/SHAPE/BUFFERS/real_time).
void register_chains(std::string_view name, ChainBenchmark run, std::size_t max_buffers = kLargest);

// Initializes Google Benchmark with the command line and runs what it selects.
int run_benchmarks(int argc, char** argv);

}  // namespace planck::bench
