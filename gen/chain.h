#pragma once
// Large schedules for benchmarks: a chain of kernels, each writing one new
// buffer and reading a few recent ones, as an ML graph's intermediate values
// are mostly read soon after they are made. Flat by default; optionally with
// loops around runs of kernels, and with the buffers spread over devices
// (`planck generate chain`, docs/commands.md#planck-generate).

#include <cstddef>

#include "gen/choices.h"
#include "model/schedule.h"

namespace planck::gen {

struct ChainOptions {
  std::size_t buffers = 1000;  // planned buffers, one per kernel
  // Each kernel reads 1 to 3 buffers made by the `window` kernels before it
  // (the param, for a kernel near the start with fewer before it).
  std::size_t window = 16;
  Bytes max_bytes = Bytes{1} << 20;  // each buffer 0 to max_bytes, float32
  // With loop_body > 0, the kernels come in runs of loop_body, and every
  // other run (the second, the fourth, ...) is the body of a `range` loop,
  // so the buffers it uses live through the whole loop.
  std::size_t loop_body = 0;
  // With devices > 1, buffer t<i> is on device `CUDA:<i mod devices>`; with
  // 1, every buffer is on `CUDA`.
  std::size_t devices = 1;
  // Model v3: with streams > 1, top-level entry i runs on stream i mod
  // streams (0 the default one, then s1, s2, ...), and after every
  // sync_every entries each stream records an event that the next one waits
  // for, so that some reuse across streams is ordered and some is not.
  std::size_t streams = 1;
  std::size_t sync_every = 64;
};

// `buffers` float32 buffers of 0 to max_bytes, one in 16 with phase 64;
// kernel k<i> writes t<i> and reads 1 to 3 of the buffers made within the
// window before it. One float32 param, `input`, on `CUDA`, stands for the
// schedule's input. Same draws, same schedule; the loops and devices take
// no draws, so the flat single-device chain of a seed is the same buffers
// and reads as the chain with loops or devices.
Schedule generate_chain_schedule(Choices& choices, const ChainOptions& options = {});

}  // namespace planck::gen
