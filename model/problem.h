#pragma once
// An input of either format the planners and oracles read (docs/formats.md#schedules-sched):
// a schedule in .sched text, or an interval problem as CSV.

#include <string>
#include <string_view>
#include <variant>

#include "model/intervals.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck {

using Problem = std::variant<Schedule, IntervalProblem>;

// An interval problem when the file's name ends in `.csv` or its text starts
// with `id,` (no schedule can), else a schedule; a byte order mark is skipped.
bool is_interval_text(std::string_view text, std::string_view file);

// Parses either format; errors are "FILE:LINE:COL: what is wrong".
Result<Problem> parse_problem(std::string_view text, std::string_view file);
// Reads and parses a file of either format (`-` is standard input).
Result<Problem> read_problem(const std::string& path);

// The schedule a problem is, or stands for (model/interval_schedule.h).
Result<Schedule> problem_schedule(Problem problem);

}  // namespace planck
