#pragma once
// The .sched text format (SPEC section 2): parser and canonical printer.
// print_schedule(parse_schedule(print_schedule(s))) == print_schedule(s).

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

// The canonical text: the header, every declaration in order, then the entries,
// two spaces of indent per loop level, single spaces, no comments.
std::string print_schedule(const Schedule& s);

// One argument in canonical text, e.g. "shrink(t1, 0, 1024)".
std::string print_arg(const Schedule& s, const Arg& arg);

}  // namespace planck
