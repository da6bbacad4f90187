#pragma once
// Interval problems (docs/formats.md#interval-problems-csv): the CSV of
// Google's MiniMalloc benchmarks, header "id,lower,upper,size", one buffer
// per row alive on the half-open [lower, upper).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.h"
#include "model/schedule.h"

namespace planck {

struct Interval {
  std::string id;
  std::int64_t lower = 0;  // half-open: alive on [lower, upper)
  std::int64_t upper = 0;
  Bytes size = 0;
  int line = 0;
};

struct IntervalProblem {
  std::string source;
  std::vector<Interval> buffers;
};

// Errors are "FILE:LINE:COL: what is wrong". Rows need 0 <= lower < upper
// and size < 2^62; ids are unique.
Result<IntervalProblem> parse_intervals(std::string_view text, std::string_view file);
Result<IntervalProblem> read_intervals(const std::string& path);

// Writes the CSV back, header included.
std::string print_intervals(const IntervalProblem& p);

}  // namespace planck
