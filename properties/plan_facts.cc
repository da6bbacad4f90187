#include "properties/plan_facts.h"

#include <rapidcheck.h>

#include <optional>
#include <string>
#include <utility>

#include "model/live_bytes.h"
#include "model/schedule_printer.h"
#include "properties/show.h"
#include "properties/tlsf_plain.h"

namespace planck::props {

[[noreturn]] void fail(std::string what) {
  throw rc::detail::CaseResult(rc::detail::CaseResult::Type::Failure, std::move(what));
}

Plan plan_or_fail(const Planner& planner, const Schedule& s) {
  Result<Plan> plan = planner.plan(s);
  if (plan) return std::move(*plan);
  if (plan.error().kind == kOverCapacity) {
    if (const std::optional<std::string> small = capacity_too_small(s, model_lifetimes(s))) {
      throw rc::detail::CaseResult(rc::detail::CaseResult::Type::Success, "refused: " + *small);
    }
    fail(fmt::format("planner {} refuses to pass a capacity its buffers fit side by side: {}", planner.name(),
                     plan.error().message()));
  }
  fail(fmt::format("planner {} failed: {}", planner.name(), plan.error().message()));
}

Bytes rounded(const Storage& st) {
  // Generated schedules keep every rounded size far below 2^64.
  std::optional<Bytes> r = checked_round_up(st.phase + st.bytes, kPlaceAlign);
  if (!r) fail(fmt::format("the rounded size of {} overflows", st.name));
  return *r;
}

bool alive_together(const Lifetime& a, const Lifetime& b) { return times_of(a).overlaps(times_of(b)); }

std::string range(ByteRange r) { return fmt::format("[{}, {})", r.begin, r.end); }

// Fails with every violation `checker` finds in planner's plan of s.
void plan_passes(const Planner& planner, const Schedule& s, std::string_view checker,
                 std::vector<oracle::Violation> (*check)(const Schedule&, const Plan&)) {
  const Plan plan = plan_or_fail(planner, s);
  const std::vector<oracle::Violation> violations = check(s, plan);
  if (violations.empty()) return;
  std::string what = fmt::format("the {} rejects the plan:\n", checker);
  for (const oracle::Violation& v : violations) what += "  " + v.message + "\n";
  fail(what + "plan:\n" + print_plan(plan));
}

std::uint64_t pick_seed() { return *rc::gen::noShrink(rc::gen::arbitrary<std::uint64_t>()); }

std::string fresh_name(const Schedule& s, std::string_view stem) {
  for (int k = 0;; ++k) {
    std::string name = fmt::format("{}{}", stem, k);
    if (!s.find(name)) return name;
  }
}

}  // namespace planck::props
