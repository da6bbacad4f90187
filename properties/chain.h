#pragma once
// Large flat schedules for benchmarks: a chain of kernels, each writing one
// new buffer and reading a few recent ones, as an ML graph's intermediate
// values are mostly read soon after they are made.

#include <cstddef>

#include "model/schedule.h"
#include "properties/choices.h"

namespace planck::gen {

struct ChainOptions {
  std::size_t buffers = 1000;  // planned buffers, one per kernel
  // Each kernel reads 1 to 3 buffers made by the `window` kernels before it
  // (the param, for a kernel near the start with fewer before it).
  std::size_t window = 16;
  Bytes max_bytes = Bytes{1} << 20;  // each buffer 0 to max_bytes, float32
};

// `buffers` float32 buffers of 0 to max_bytes on one device, one in 16 with
// phase 64; kernel k<i> writes t<i> and reads 1 to 3 of the buffers made
// within the window before it. One float32 param, `input`, stands for the
// schedule's input. Same draws, same schedule.
Schedule generate_chain_schedule(Choices& choices, const ChainOptions& options = {});

}  // namespace planck::gen
