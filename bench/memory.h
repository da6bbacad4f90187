#pragma once
// Heap use of the benchmark programs: memory.cc replaces the global
// operator new and delete with ones that count the bytes in use (as malloc
// reports them, malloc_usable_size) and their peak, so that a benchmark can
// report the most heap its work held at once. The lists of the pool
// (model/pool.h) count as the pool hands them out and takes them back.

#include <cstddef>

#include <benchmark/benchmark.h>

namespace planck::bench {

// Bytes allocated through operator new, or taken from the pool, and not yet
// given back.
std::size_t heap_in_use();

// The most bytes in use at once since the last reset_heap_peak().
std::size_t heap_peak();

// Starts a new peak at the bytes in use now.
void reset_heap_peak();

// The heap a benchmark's iterations hold at their peak, above what was in
// use when they started (the input, made before the loop):
//
//   const HeapPeak heap;           // before the loop
//   for (auto _ : state) { ... }
//   heap.report(state);            // the counter peak_MB
class HeapPeak {
 public:
  HeapPeak();
  void report(benchmark::State& state) const;

 private:
  std::size_t base_;
};

}  // namespace planck::bench
