#pragma once
// Small schedules of model v3 that the tests of the checker, the shadow
// executor, the planners and the optimum oracle judge alike: each shows one
// rule of docs/model-v3.md. a and b are 256 bytes on CUDA.

#include <string_view>

namespace planck::testing {

// a on stream s1, then b on s2, nothing between: the two may run at once.
inline constexpr std::string_view kTwoStreams = R"(schedule v3
buffer a CUDA float32 256
buffer b CUDA float32 256
kernel k1 a stream=s1
kernel k2 b stream=s2
)";

// The same, with s2 waiting for an event s1 records after a's use.
inline constexpr std::string_view kTwoStreamsOrdered = R"(schedule v3
buffer a CUDA float32 256
buffer b CUDA float32 256
kernel k1 a stream=s1
record e stream=s1
wait e stream=s2
kernel k2 b stream=s2
)";

// s2 waits for s1, but b runs on s3, which nothing orders.
inline constexpr std::string_view kWaitOnAnotherStream = R"(schedule v3
buffer a CUDA float32 256
buffer b CUDA float32 256
kernel k1 a stream=s1
record e stream=s1
wait e stream=s2
kernel k2 b stream=s3
)";

// Scratch of one loop body: a at positions 0..1, b at 2..3, x over the
// whole loop.
inline constexpr std::string_view kLoopScratch = R"(schedule v3
buffer x CUDA float32 256
buffer a CUDA float32 256 local
buffer b CUDA float32 256 local
range {
  kernel k1 a x
  kernel k2 x a
  kernel k3 b x
  kernel k4 x b
}
)";

// A plan of a and b at the same place.
inline constexpr std::string_view kSamePlace = "plan v1\narena arena0 CUDA 1024\nplace a arena0 0\nplace b arena0 0\n";

}  // namespace planck::testing
