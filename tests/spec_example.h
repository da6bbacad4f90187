#pragma once
// The example schedule of docs/formats.md#schedules-sched, shared by the tests of the parser,
// the checker and the shadow executor, with the plan the reference planner
// makes for it.

#include <string_view>

namespace planck::testing {

// Entries: 0 (line 8) takes t0, x, w; 1 (line 9, the loop) takes t1, t0, f;
// 2 (line 13) takes h, t0. So t0 lives over 0..2, t1 and f over 1, h over 2.
// Rounded sizes: t0 4096, t1 4352 (phase 64), f 256, h 4096.
inline constexpr std::string_view kSpecExample = R"(schedule v1
param  x  CUDA float32 4096
buffer w  CUDA float32 4096 held
buffer t0 CUDA float32 4096
buffer t1 CUDA float32 4096 phase=64
buffer f  CUDA bool 256
buffer h  CPU  float32 4096
kernel matmul t0 x w
loop flag=f {
  kernel relu t1 t0
  kernel step t0 shrink(t1, 0, 1024) f
}
copy h bitcast(t0, float32)
)";

// t0 [0, 4096), t1 [4160, 8256) (bytes from place + phase 64), f [8448, 8704);
// h alone on the CPU.
inline constexpr std::string_view kSpecExamplePlan = R"(plan v1
arena arena0 CUDA 8704
arena arena1 CPU 4096
place t0 arena0 0
place t1 arena0 4096
place f arena0 8448
place h arena1 0
)";

}  // namespace planck::testing
