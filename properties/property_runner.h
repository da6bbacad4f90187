#pragma once
// Runs RapidCheck properties as GoogleTest cases.
//
//  - RC_PARAMS is RapidCheck's own: its seed, max_success, max_size and
//    reproduce are honoured as given. Without max_success a property runs
//    its own default number of cases, chosen to keep the suite fast in CI;
//    the nightly run raises it with RC_PARAMS="max_success=...".
//  - A failure reports RapidCheck's shrunk counterexample (a schedule in
//    .sched text), the command that reproduces it, and writes the schedule
//    to $PLANCK_FAILURE_DIR (else failures/ in the build directory) as
//    <property>-<seed>.sched, with a comment header saying which property
//    failed and how to reproduce it: ready for corpus/regressions.
//  - A success prints one line, `[ property ] N cases, seed S`, which the
//    benchmark script reads.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace planck::props {

// A property: picks its inputs with `*gen` (RapidCheck's generators) and
// asserts with RC_ASSERT or RC_FAIL.
using Property = std::function<void()>;

// The cases a property runs when RC_PARAMS does not say: `default_cases`,
// or a fifth of it (at least one) in a sanitizer build, where each case is
// some 25 times slower.
int default_case_count(int default_cases);

// Runs `property` as the current GoogleTest case and fails it with a report
// when RapidCheck finds a counterexample (or gives up).
void check(const Property& property, int default_cases);

// A counterexample RapidCheck found and shrank, and how to find it again.
struct Failure {
  std::string property;  // the name it ran under, as GoogleTest's filter takes it
  std::uint64_t seed = 0;
  int cases = 0;               // the run's max_success
  int max_size = 0;            // the run's max_size
  int passed = 0;              // cases that passed before the failing one
  std::string message;         // RapidCheck's report: the counterexample and why it failed
  std::string description;     // why the shrunk case failed
  std::optional<std::string> schedule;  // the first schedule it picked, in .sched text
  std::string replay;          // the RC_PARAMS that run the shrunk case alone
};

// The report of a failure: what failed, the shrunk counterexample, how to
// reproduce it. Writes the failure file when the counterexample holds a
// schedule, and names it in the report.
std::string failure_report(const Failure& failure);

// Runs a property quietly with a fixed seed and case count (RC_PARAMS does
// not apply), under the name `property` (by default the current test's), for
// tests whose expected outcome is a failure: the failure, if any.
std::optional<Failure> find_counterexample(const Property& property, std::uint64_t seed, int cases,
                                           const std::string& property_name = "");

}  // namespace planck::props
