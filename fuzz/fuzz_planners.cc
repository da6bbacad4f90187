// Bytes decoded into a schedule that is always valid (every feature of the
// model; gen/random_schedules.h) of at most 64 top-level entries, planned by
// every planner of this project or, built as fuzz_planner_lib, by the
// planner library that PLANCK_PLANNER_LIB names (docs/c-abi.md#the-contract,
// called in-process). Each plan must pass the checker and the shadow executor
// (harness/judge.h); the schedule rewritten by one of the plans, which the
// input chooses, must leave nothing to plan but the arenas themselves. Any
// disagreement aborts, with the schedule in .sched text.
//
// Each planner plans once: best's plan is the one of its candidates' plans
// that best's own rule chooses (planner/best.h), and a plan equal to one already
// judged for this input (planners often agree on small schedules) is not
// judged again, since the checks depend on the plan alone.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gen/choices.h"
#include "gen/random_schedules.h"
#include "harness/judge.h"
#include "model/live_bytes.h"
#include "model/resolve.h"
#include "model/schedule_printer.h"
#include "oracle/check/lifetimes.h"
#include "planner/planner.h"
#include "planner/rewrite.h"
#ifdef PLANCK_FUZZ_PLANNER_LIB
#include "planner/external.h"
#else
#include "planner/best.h"
#include "planner/registry.h"
#endif

namespace {

using namespace planck;

// The first line, "planner NAME fails with KIND", is what the nightly
// report groups crashes by; KIND is the verdict's (harness/judge.h) or one of
// the rewrite's and best's own below.
[[noreturn]] void fail(std::string_view planner, std::string_view kind, const std::string& what,
                       const Schedule& s) {
  std::fprintf(stderr, "planner %.*s fails with %.*s\n%s\n%s", static_cast<int>(planner.size()), planner.data(),
               static_cast<int>(kind.size()), kind.data(), what.c_str(), print_schedule(s).c_str());
  std::abort();
}

struct Named {
  std::string name;
  std::unique_ptr<Planner> planner;
};

// The features of the schedules generated: every one, or those the planner
// library supports.
Features& generated_features() {
  static Features features;
  return features;
}

// The planners that plan each input, made once per process: the library, or
// every planner of the registry but best, which plans nothing of its own.
const std::vector<Named>& planners() {
  static const std::vector<Named> all = [] {
    std::vector<Named> out;
#ifdef PLANCK_FUZZ_PLANNER_LIB
    const char* path = std::getenv("PLANCK_PLANNER_LIB");
    if (path == nullptr || *path == '\0') {
      std::fprintf(stderr, "fuzz_planner_lib: set PLANCK_PLANNER_LIB to the planner library to fuzz\n");
      std::exit(2);
    }
    auto lib = make_library_planner(path);
    if (!lib) {
      std::fprintf(stderr, "fuzz_planner_lib: %s\n", lib.error().message().c_str());
      std::exit(2);
    }
    std::string name(lib.value()->name());
    // Schedules of the features the library says it supports only.
    generated_features() = lib.value()->claimed_features().value_or(v1_features());
    out.push_back({std::move(name), std::move(lib).value()});
#else
    for (const std::string& name : planner_names()) {
      if (name != "best") out.push_back({name, make_planner(name)});
    }
#endif
    return out;
  }();
  return all;
}

bool same_plan(const Plan& a, const Plan& b) {
  if (a.arenas.size() != b.arenas.size() || a.placements.size() != b.placements.size()) return false;
  for (std::size_t i = 0; i < a.arenas.size(); ++i) {
    const Arena& x = a.arenas[i];
    const Arena& y = b.arenas[i];
    if (x.size != y.size || x.name != y.name || x.device != y.device) return false;
  }
  for (std::size_t i = 0; i < a.placements.size(); ++i) {
    const Placement& x = a.placements[i];
    const Placement& y = b.placements[i];
    if (x.place != y.place || x.buffer != y.buffer || x.arena != y.arena) return false;
  }
  return true;
}

// The checker's and the shadow executor's verdict on one planner's result
// for s; aborts if either fails it. `judged` holds the plans of this input
// that passed already: an equal plan passes again. The plan comes back, for
// best to choose from and for the rewrite.
Result<Plan> examine(std::string_view name, Result<Plan> planned, const harness::ScheduleJudge& judge,
                     const Schedule& s, const std::vector<const Result<Plan>*>& judged) {
  if (planned) {
    for (const Result<Plan>* other : judged) {
      if (*other && same_plan(**other, *planned)) return planned;
    }
  }
  harness::Verdict v = judge.judge(std::move(planned));
  if (v.failed()) fail(name, v.kind, v.explanation, s);
  // A refusal the judge accepts: no device with a capacity could take the
  // buffers side by side.
  if (!v.plan) return Error{"", v.note, kOverCapacity};
  return std::move(*v.plan);
}

// The rewrite of s by a valid plan: it must leave nothing to plan but the
// arenas themselves; aborts if it fails or does.
void check_rewrite(std::string_view name, const Plan& plan, const harness::ScheduleJudge& judge,
                   const Schedule& s) {
  auto rewritten = rewrite(s, plan, resolve(judge.names(), plan));
  if (!rewritten) {
    // The one refusal a valid plan may get: views nested past the limit.
    if (rewritten.error().what.find("nest deeper") != std::string::npos) return;
    fail(name, "rewrite-error", "the rewrite of a valid plan failed: " + rewritten.error().message(), s);
  }
  for (const Lifetime& l : oracle::planned_buffers(*rewritten)) {
    const Name& left = rewritten->storage[l.buffer].name;
    bool is_arena = false;
    for (const Arena& a : plan.arenas) is_arena = is_arena || a.name == left;
    if (!is_arena) fail(name, "rewrite-still-plans", "the rewritten schedule still plans " + left, s);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gen::ByteChoices choices(std::span<const std::uint8_t>(data, size));
  const std::vector<Named>& all = planners();
  gen::ScheduleOptions options;
  options.features = generated_features();
  // Up to 64 top-level entries (40 at size 100).
  options.size = choices.between(1, 160);
  const Schedule s = gen::generate_schedule(choices, options);

  const harness::ScheduleJudge judge(s);
  std::vector<Result<Plan>> results;
  results.reserve(all.size());
  std::vector<const Result<Plan>*> judged;
  judged.reserve(all.size() + 1);
  for (const Named& p : all) {
    results.push_back(examine(p.name, p.planner->plan(s), judge, s, judged));
    judged.push_back(&results.back());
  }
  // The rewrite (rule 8) is the same code whoever planned, so one plan of
  // each input is rewritten: the one the input's next byte chooses.
  const std::size_t rewritten = choices.below(all.size());
  if (results[rewritten]) check_rewrite(all[rewritten].name, *results[rewritten], judge, s);
#ifndef PLANCK_FUZZ_PLANNER_LIB
  // best's plan is the candidate's plan it chooses, judged above; what is
  // left to check is that no candidate's plan has fewer arena bytes.
  // Every result is a plan here, or a refusal to pass a capacity the judge
  // accepted; a planner's other errors have failed the input.
  std::vector<std::string> names;
  std::vector<Result<Plan>> candidates;
  for (const std::string& name : best_candidates()) {
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (all[i].name != name) continue;
      names.push_back(name);
      candidates.push_back(std::move(results[i]));
    }
  }
  if (!candidates.empty()) {
    const std::size_t chosen = best_of(candidates);
    if (chosen >= candidates.size()) fail("best", "best-chooses-none", "best chooses no candidate", s);
    // The generated schedules keep each total below 2^62.
    const bool planned = candidates[chosen].ok();
    const Bytes kept = planned ? *arena_total(*candidates[chosen]) : 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (!candidates[i]) continue;
      if (!planned) fail("best", "best-not-least", "best refuses though " + names[i] + " plans", s);
      const Bytes total = *arena_total(*candidates[i]);
      if (total < kept) {
        fail("best", "best-not-least",
             "best keeps a plan of " + std::to_string(kept) + " arena bytes, though " + names[i] + "'s has " +
                 std::to_string(total),
             s);
      }
    }
  }
#endif
  return 0;
}
