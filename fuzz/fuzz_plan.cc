// Any bytes as a .plan file, judged against a fixed schedule: the parser
// fails with a placed error or the checker (both versions) returns a
// verdict; the two agree on validity.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "fuzz/fuzz_target.h"
#include "oracle/check/checker.h"
#include "model/plan.h"
#include "model/schedule_reader.h"

namespace {

constexpr std::string_view kSchedule = R"(schedule v1
param x CUDA float32 4096
buffer w CUDA float32 4096 held
buffer t0 CUDA float32 4096
buffer t1 CUDA float32 1000 phase=64
buffer f CUDA bool 1
buffer h CPU int8 0
kernel matmul t0 x w
loop flag=after(f) {
  kernel relu t1 t0
  kernel step t0 shrink(t1, 0, 512) f
}
copy h bitcast(t0, int8)
)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace planck;
  static const Schedule schedule = *parse_schedule(kSchedule, "fixed.sched");
  const std::string_view text = fuzz::input_text(data, size);
  auto plan = parse_plan(text, "fuzz.plan");
  if (!plan) {
    if (plan.error().where.rfind("fuzz.plan:", 0) != 0) std::abort();
    return 0;
  }
  if (parse_plan(print_plan(*plan), "printed.plan")->placements.size() != plan->placements.size()) std::abort();
  const bool fast_valid = oracle::check_plan(schedule, *plan).empty();
  const bool slow_valid = oracle::check_plan_quadratic(schedule, *plan).empty();
  if (fast_valid != slow_valid) {
    std::fprintf(stderr, "the checkers disagree on\n%s", print_plan(*plan).c_str());
    std::abort();
  }
  return 0;
}
