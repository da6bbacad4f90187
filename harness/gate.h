#pragma once
// `planck gate` (docs/nightly-and-gate.md#planck-gate): whether a planner
// change may land. It fails when any plan is invalid (judge.h) on the
// instances given or on generated cases, or when the arena of an instance
// grows beyond a threshold against a baseline: the arena bytes of each
// instance for one planner, kept as JSON beside the corpus.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/judge.h"
#include "harness/verify.h"
#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"
#include "planner/planner.h"

namespace planck::harness {

// The total arena bytes of each instance, by its name, for one planner.
//   {"planner": "--planner tlsf", "instances": {"corpus/schedules/01-chain.sched": 8192}}
struct Baseline {
  std::string planner;  // how the planner was named when it was made
  std::map<std::string, Bytes> instances;
};

// Errors are "FILE: what is wrong" (for JSON syntax, with the byte offset).
Result<Baseline> parse_baseline(std::string_view text, std::string_view file);
// Sorted by name, two-space indented, ending with a newline.
std::string print_baseline(const Baseline& b);

struct GateInstance {
  std::string name;  // the baseline's key, and the name in reports
  Schedule schedule;
  // Whether its arena is measured (compared with the baseline, written to
  // it) or its plan only judged, as for a regression.
  bool quality = true;
  // Whether --update-baseline writes it: false for instances that live
  // outside the source tree and may be missing where the gate runs.
  bool in_baseline = true;
};

struct GateOptions {
  std::uint64_t seed = 1;
  std::uint64_t cases = 1000;  // generated cases, as `planck verify` makes them; 0: no limit but the time
  // The generated cases stop here too; the instances are all judged.
  std::chrono::steady_clock::duration time = std::chrono::hours(24 * 365);
  double threshold_percent = 0;  // an arena may grow by at most this much
  // What the planner supports: instances that use more are skipped, and
  // cases are generated without it.
  Features features;
};

struct InvalidPlan {
  std::string origin;  // the instance, or "generated case K (seed S)"
  Verdict verdict;
  bool generated = false;  // a generated case, not an instance
};

enum class ChangeKind {
  Same,
  Smaller,
  Grown,      // grown, within the threshold
  Regressed,  // grown beyond the threshold: the gate fails
  New,        // measured, not in the baseline
  Missing,    // in the baseline, not measured
};
std::string_view change_kind_name(ChangeKind k);

struct ArenaChange {
  std::string instance;
  std::optional<Bytes> baseline;
  std::optional<Bytes> now;
  ChangeKind kind = ChangeKind::Same;
  // (now - baseline) / baseline * 100, when both are known and baseline > 0.
  std::optional<double> percent;
  std::optional<Plan> plan;  // Grown, Regressed: the plan measured, for its picture
  std::string picture;       // where its picture is, when one was written: the table links it
};

struct GateResult {
  std::vector<InvalidPlan> invalid;
  std::vector<ArenaChange> arenas;  // every measured instance, then the missing ones
  Progress progress;                // the instances judged (files) and the generated cases
  double threshold_percent = 0;

  std::size_t count(ChangeKind k) const;
  bool passed() const { return invalid.empty() && count(ChangeKind::Regressed) == 0; }
  // Why it passed or failed, one line.
  std::string reason() const;
  // The measured arenas, as a baseline for `planner`: the instances with
  // in_baseline only.
  Baseline measured(const std::string& planner, const std::vector<GateInstance>& instances) const;
};

// Judges the planner on every instance, then on the generated cases
// (stopping at the first invalid one), and compares each quality instance's
// total arena bytes with the baseline's. on_progress is called after each
// schedule judged.
GateResult gate(const Planner& planner, const std::vector<GateInstance>& instances, const Baseline& baseline,
                const GateOptions& options, const std::function<void(const Progress&)>& on_progress = {});

// The rows of `arenas` that are not Same, as a markdown table (instance,
// baseline, now, change %, verdict, with a link to the picture where there
// is one); "no arena changed" when there is none.
std::string changes_table(const GateResult& r);

}  // namespace planck::harness
