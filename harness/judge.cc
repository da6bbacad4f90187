#include "harness/judge.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/live_bytes.h"
#include "oracle/check/checker.h"
#include "oracle/check/shadow.h"

namespace planck::harness {
namespace {

// The most violations an explanation lists; the count of the rest follows.
constexpr std::size_t kExplainedViolations = 10;

std::string kind_of(oracle::Rule rule) {
  std::string name(oracle::rule_name(rule));
  return "invalid-" + name;
}

// Whether two top-level entries of s run on different streams.
bool runs_on_several_streams(const Schedule& s) {
  for (const Entry& e : s.entries) {
    if (e.stream != s.entries.front().stream) return true;
  }
  return false;
}

}  // namespace

Verdict judge(const Planner& planner, const Schedule& s) { return judge_plan(s, planner.plan(s)); }

Verdict judge_plan(const Schedule& s, Result<Plan> planned) { return ScheduleJudge(s).judge(std::move(planned)); }

ScheduleJudge::ScheduleJudge(const Schedule& s) : s_(s), names_(s), planned_(oracle::planned_buffers(s)) {}

Verdict ScheduleJudge::judge(Result<Plan> planned) const {
  const Schedule& s = s_;
  Verdict v;
  if (!planned) {
    const Error& e = planned.error();
    // A refusal to pass a capacity is right where the capacity is too small
    // for the buffers side by side; it may or may not be right where it is
    // less, which is a matter of quality for the optimum oracle; it is wrong
    // where no device has a capacity, or the buffers fit side by side.
    if (e.kind == kOverCapacity) {
      if (const std::optional<std::string> small = capacity_too_small(s, planned_)) {
        v.note = fmt::format("no plan: {} ({})", e.message(), *small);
        return v;
      }
      v.kind = "capacity-refused";
      v.explanation = fmt::format(
          "capacity-refused: the planner refuses to plan past a capacity ({}), but every device's planned buffers "
          "fit its capacity side by side, in blocks of max(256, align) bytes\n",
          e.message());
      return v;
    }
    // A planner that plans one stream may refuse a schedule whose entries
    // run on several (docs/model-v3.md#what-the-planners-do), and only such.
    if (e.kind == "planner-streams") {
      if (runs_on_several_streams(s)) {
        v.note = fmt::format("no plan: {}", e.message());
        return v;
      }
      v.kind = "streams-refused";
      v.explanation = fmt::format("streams-refused: the planner refuses several streams ({}), but every entry "
                                  "runs on one\n",
                                  e.message());
      return v;
    }
    v.kind = e.kind.empty() ? "planner-error" : e.kind;
    v.explanation = fmt::format("{}: {}", v.kind, e.message());
    return v;
  }
  v.plan = std::move(planned).value();

  const Resolution r = resolve(names_, *v.plan);
  const std::vector<oracle::Violation> found =
      oracle::check_plan(s, *v.plan, r, planned_, oracle::kEveryOverlap).violations;
  if (!found.empty()) {
    v.kind = kind_of(found.front().rule);
    v.explanation = fmt::format("the checker rejects the plan: {} violation{}\n", found.size(),
                                found.size() == 1 ? "" : "s");
    const std::size_t shown = std::min(found.size(), kExplainedViolations);
    for (std::size_t i = 0; i < shown; ++i) v.explanation += found[i].message + "\n";
    if (shown < found.size()) v.explanation += fmt::format("... and {} more\n", found.size() - shown);
    return v;
  }

  Result<oracle::ShadowRun> run = oracle::run_shadow(s, *v.plan, r);
  if (!run) {
    // The checker accepted the plan, so the executor refusing it is the
    // executor's limit (too many calls), not the planner's fault.
    v.note = "the shadow executor did not run it: " + run.error().message();
    return v;
  }
  if (run->clobber) {
    v.kind = "clobber";
    v.explanation = "the shadow executor finds a clobber the checker let through:\n" +
                    run->clobber->message() + "\n";
  }
  return v;
}

}  // namespace planck::harness
