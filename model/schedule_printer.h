#pragma once
// The canonical .sched text of a schedule (docs/formats.md#schedules-sched), which the reader
// (schedule_reader.h) reads back to the same schedule:
// print_schedule(parse_schedule(print_schedule(s))) == print_schedule(s).

#include <string>

#include "model/schedule.h"

namespace planck {

// The canonical text: the header, every declaration in order, then the entries,
// two spaces of indent per loop level, single spaces, no comments.
std::string print_schedule(const Schedule& s);

// One argument in canonical text, e.g. "shrink(t1, 0, 1024)".
std::string print_arg(const Schedule& s, const Arg& arg);

}  // namespace planck
