#pragma once
// `planck verify` (docs/verification.md#planck-verify): judges one planner,
// of this project or written elsewhere, on the corpus, the regressions, then
// generated schedules growing in size, until a failure or the budget's end. A
// failure is shrunk while it keeps its kind, re-running the planner on every
// candidate.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gen/random_schedules.h"
#include "harness/judge.h"
#include "model/schedule.h"
#include "planner/planner.h"

namespace planck::harness {

struct VerifyOptions {
  std::uint64_t seed = 1;
  bool generate = true;            // false: the files only
  std::uint64_t max_cases = 1000;  // generated cases; 0 for no limit but the time
  std::chrono::steady_clock::duration time = std::chrono::seconds(60);  // corpus and generation
  std::chrono::steady_clock::duration shrink_time = std::chrono::seconds(30);
  // The largest generated schedule, on the generator's size scale (100 is
  // its nominal size, some 40 entries); cases grow from 1 up to it.
  int max_size = 300;
  Features features;          // what the planner claims to support
};

// How far a run of judged schedules has gone, for progress and reports.
struct Progress {
  std::uint64_t cases = 0;  // schedules judged, files included
  std::uint64_t files = 0;
  std::uint64_t skipped = 0;  // files using features switched off
  double seconds = 0;
  std::size_t largest_entries = 0;  // the largest schedule judged so far
  std::size_t largest_storage = 0;
  // By feature switch (feature_switches()), the generated cases that
  // used it; empty until a case is generated.
  std::vector<std::uint64_t> feature_cases;

  std::uint64_t generated() const { return cases - files; }
  // Counts `s` as judged, `seconds` into the run.
  void judged(const Schedule& s, double seconds_now);
  // Counts the features a generated case used.
  void generated_uses(const Schedule& s);
  // Adds a run that started when this one ended.
  void add(const Progress& more);
};

struct Failure {
  std::string origin;     // the file, or "generated case N (seed S)"
  Schedule original;      // the schedule as it first failed
  Verdict first;          // its verdict
  Schedule minimized;     // the smallest schedule that fails with the same kind
  Verdict verdict;        // the minimized schedule's verdict
  std::size_t shrinks = 0;
  std::size_t tries = 0;
  bool minimal = false;   // no shrink of `minimized` still fails that way
};

struct VerifyResult {
  Progress progress;
  std::optional<Failure> failure;
};

// Judges the files in order (skipping those that use a feature switched
// off), then generated schedules: case k uses the seeded draws of
// (seed, k) and grows in size with k. Stops at the first failure, which it
// shrinks within shrink_time, or when max_cases or time is spent.
// on_progress is called after each schedule judged.
VerifyResult verify(const Planner& planner, const std::vector<Schedule>& files, const VerifyOptions& options,
                    const std::function<void(const Progress&)>& on_progress = {});

// A failure for a message: "PLANNER fails with KIND on ORIGIN, shrunk from N
// to M entries (S shrinks, T tries)", with ", stopped by the time limit"
// inside the parentheses when it may shrink further, and a line end; then
// the explanation of the minimized schedule's verdict.
std::string failure_summary(const Failure& f, std::string_view planner);

// Shrinks a failing schedule while it fails with the kind of `first`.
Failure shrink_failure(const Planner& planner, std::string origin, Schedule failing, Verdict first,
                       std::chrono::steady_clock::duration time);

// The generator options of case k: its size, growing from 1 to max_size over
// the first cases, and the features.
gen::ScheduleOptions case_options(std::uint64_t k, const VerifyOptions& options);

// The seed of case k's draws, from the run's seed: a mix, so that
// neighbouring cases and neighbouring seeds share no draws.
std::uint64_t case_seed(std::uint64_t seed, std::uint64_t k);

}  // namespace planck::harness
