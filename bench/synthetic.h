#pragma once
// Large synthetic schedules for benchmarks: a chain of kernels, each writing
// one new buffer and reading a few recent ones, as an ML graph's
// intermediate values are mostly read soon after they are made.

#include <cstdint>

#include "model/schedule.h"

namespace planck::bench {

// `buffers` planned buffers of 0 to 1 MiB (a few with a phase) on one
// device, read by the kernels that follow within a window of `window`
// entries, plus one param read by the first kernel. Same seed, same schedule.
Schedule synthetic_schedule(std::size_t buffers, std::uint64_t seed, std::size_t window = 16);

}  // namespace planck::bench
