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

#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "properties/show.h"

namespace planck::props {

// The cases a property runs when RC_PARAMS does not say: `default_cases`,
// or a fifth of it (at least one) in a sanitizer build, where each case is
// some 25 times slower.
int default_case_count(int default_cases);

// The parameters a property runs with: RapidCheck's configuration, with
// default_case_count(default_cases) cases unless RC_PARAMS (or
// rc_params.txt) sets max_success.
rc::detail::TestParams property_params(int default_cases);

// Runs `property` as the current GoogleTest case and fails it with a report
// when RapidCheck finds a counterexample (or gives up).
void check_property(const rc::detail::Property& property, int default_cases);

// A property, or a callable that picks its inputs with `*gen` and asserts
// with RC_ASSERT, as a Property.
template <class Testable>
rc::detail::Property as_property(Testable&& testable) {
  if constexpr (std::is_same_v<std::decay_t<Testable>, rc::detail::Property>) {
    return std::forward<Testable>(testable);
  } else {
    return rc::detail::toProperty(std::forward<Testable>(testable));
  }
}

template <class Testable>
void check(Testable&& testable, int default_cases) {
  check_property(as_property(std::forward<Testable>(testable)), default_cases);
}

// The report of a failure: what failed, the shrunk counterexample, how to
// reproduce it. Writes the failure file when the counterexample holds a
// schedule, and names it in the report.
std::string failure_report(const std::string& property, const rc::detail::TestParams& params,
                           const rc::detail::FailureResult& failure);

// The .sched text of the first schedule in a counterexample, if it has one.
std::optional<std::string> counterexample_schedule(const rc::detail::Example& example);

// Runs a property quietly with a fixed seed and case count; RC_PARAMS does
// not apply. For tests whose expected outcome is a failure.
rc::detail::TestResult run_quietly(const rc::detail::Property& property, std::uint64_t seed, int cases);

// run_quietly's shrunk failure, if any.
struct Counterexample {
  std::string description;              // why the last shrunk case failed
  std::optional<std::string> schedule;  // its schedule's .sched text, if it picked one
};
std::optional<Counterexample> find_property_counterexample(const rc::detail::Property& property, std::uint64_t seed,
                                                           int cases);

template <class Testable>
std::optional<Counterexample> find_counterexample(Testable&& testable, std::uint64_t seed, int cases) {
  return find_property_counterexample(as_property(std::forward<Testable>(testable)), seed, cases);
}

}  // namespace planck::props
