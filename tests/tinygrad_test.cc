// The `tinygrad` planner (docs/model-v2.md) on schedules whose plans are
// derived by hand in the comments: lanes, the copy lane's held closes, copies
// inside loops, two devices, a zero-byte buffer; and tlsf's plan wherever no
// copy takes a planned buffer.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>

#include "model/plan.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"
#include "oracle/check/checker.h"
#include "planner/planner.h"
#include "tests/parsed.h"

namespace planck {
namespace {

using testing::sched;

std::string tinygrad_plan(std::string_view text) {
  const Schedule s = sched(text);
  auto p = make_planner("tinygrad")->plan(s);
  EXPECT_TRUE(p.ok()) << p.error().message();
  if (!p.ok()) return "";
  std::string violations;
  for (const auto& v : oracle::check_plan(s, *p)) violations += v.message + "\n";
  EXPECT_EQ(violations, "");
  return print_plan(*p);
}

// Lifetimes a [0,2], t [0,1], b [2,4], h [4,5]. a and b are copied: the
// copy lane of CUDA, created first (a opens first); t is CUDA's compute
// lane; h the copy lane of CPU. Closes: a at 2+1+3 = 6, t at 2, b at
// 4+1+3 = 8, h at 5+1+2 = 8. Events: @0 open a, open t; @2 close t,
// open b; @4 open h; @6 close a; @8 close b, close h. In the copy lane a
// still holds [0,1024) when b opens, so b goes to 1024 (tlsf, with one
// arena for CUDA and a closed at 3, would also put b at 1024, over t).
TEST(Tinygrad, CopiedBuffersHaveALaneOfTheirOwnAndCloseLate) {
  EXPECT_EQ(tinygrad_plan(R"(schedule v1
buffer a CUDA float32 1024
buffer t CUDA float32 1024
buffer b CUDA float32 1024
buffer h CPU float32 1024
kernel k0 a t
kernel k1 t
copy b a
kernel k3 b
copy h b
kernel k5 h
)"),
            R"(plan v1
arena arena0 CUDA 2048
arena arena1 CUDA 1024
arena arena2 CPU 1024
place a arena0 0
place t arena1 0
place b arena0 1024
place h arena2 0
)");
}

// Lifetimes x [0,2], e [0,0], y [1,1], s [1,2]; the copy inside the range
// puts y in CUDA's copy lane and s in CPU's. Lanes in order: CUDA compute
// (x), CUDA copy (y), CPU copy (s). Capacity 2 x (2048 + 256 + 2048 + 2048)
// = 12800. In the compute lane x takes [0,2048) and the zero-byte e one
// block of 256 at 2048; e's arena end is 2048 + 0.
TEST(Tinygrad, ACopyInsideALoopAndAZeroByteBuffer) {
  EXPECT_EQ(tinygrad_plan(R"(schedule v1
buffer w CUDA float32 4096 held
buffer x CUDA float32 2048
buffer e CUDA float32 0
buffer y CUDA float32 2048
buffer s CPU float32 2048
kernel init x e
range {
  kernel step y x w
  copy s y
}
kernel fin x s
)"),
            R"(plan v1
arena arena0 CUDA 2048
arena arena1 CUDA 2048
arena arena2 CPU 2048
place x arena0 0
place e arena0 2048
place y arena1 0
place s arena2 0
)");
}

// A buffer copied in and out of a loop body lives over the whole loop
// entry; its hold doubles that span.
TEST(Tinygrad, TheHoldIsTheSpanOfTheLifetimeAgain) {
  // c [0,1], k [1,3], d [2,2], all copied, so one copy lane. c closes at
  // 1+1+2 = 4, not at 2: d, opening at 2, cannot take c's bytes, as it
  // would under tlsf.
  EXPECT_EQ(tinygrad_plan(R"(schedule v1
buffer c GPU int8 256
buffer k GPU int8 256
buffer d GPU int8 256
kernel w c
loop flag=k {
  copy k c
}
copy d k
kernel r k
)"),
            R"(plan v1
arena arena0 GPU 768
place c arena0 0
place k arena0 256
place d arena0 512
)");
}

// Where no copy takes a planned buffer, tinygrad's plan is tlsf's.
TEST(Tinygrad, WithoutCopiesThePlanIsTlsfs) {
  const std::filesystem::path dir = std::filesystem::path(PLANCK_SOURCE_DIR) / "corpus" / "schedules";
  int compared = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".sched") continue;
    auto s = read_schedule(e.path().string());
    ASSERT_TRUE(s.ok()) << s.error().message();
    auto tlsf = make_planner("tlsf")->plan(*s);
    auto tinygrad = make_planner("tinygrad")->plan(*s);
    ASSERT_TRUE(tlsf.ok() && tinygrad.ok()) << e.path();
    bool copies = false;
    for (const Entry& entry : s->entries) copies = copies || entry.kind == Entry::Kind::Copy;
    if (copies) continue;
    EXPECT_EQ(print_plan(*tinygrad), print_plan(*tlsf)) << e.path();
    ++compared;
  }
  EXPECT_GT(compared, 10);
}

}  // namespace
}  // namespace planck
