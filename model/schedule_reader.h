#pragma once
// The .sched text format (docs/formats.md#schedules-sched): its reader. The printer that
// writes it back is schedule_printer.h.

#include <string>
#include <string_view>

#include "model/result.h"
#include "model/schedule.h"

namespace planck {

// Parses a schedule; errors are "FILE:LINE:COL: what is wrong".
Result<Schedule> parse_schedule(std::string_view text, std::string_view file);

// parse_schedule reading every statement token by token, without its
// fast path for plain lines: for the tests that hold the two to the same
// schedule, or the same error.
Result<Schedule> parse_schedule_by_tokens(std::string_view text, std::string_view file);

// Reads and parses a schedule file (`-` is standard input); a file that
// cannot be read is an error too.
Result<Schedule> read_schedule(const std::string& path);

}  // namespace planck
