#pragma once
// Every field of a schedule's records, one record a line, the places where
// they were read included: what print_schedule leaves out. For the tests
// that hold two ways of making a schedule to the same records
// (docs/performance.md#how-the-hot-paths-are-built).

#include <optional>
#include <string>

#include "model/result.h"
#include "model/schedule.h"

namespace planck {

// Lines such as "storage 3 buffer t3 CUDA float32 1024 phase=0 held=0 at 5:1",
// "entry 2.0 kernel k1 args=2 at 9:3" and "arg 2.0.1 shrink int8 storage=0
// start=0 length=512" (an argument is at its entry's place): an entry's path is its index in each enclosing
// body, an argument's adds its index in the call (a loop's flag is "flag"),
// and a view's base follows it as the view's path and ".base".
std::string dump_schedule(const Schedule& s);

// How two readings of one text differ, for a test's message: one parses and
// the other does not, they fail with different messages, or they make
// different records (both dumps). nullopt when they agree.
std::optional<std::string> parse_results_differ(const Result<Schedule>& a, const Result<Schedule>& b);

}  // namespace planck
