#pragma once
// The .sched text format (SPEC section 2): its reader and its canonical
// printer. print_schedule(parse_schedule(print_schedule(s))) == print_schedule(s).

#include "model/schedule_printer.h"
#include "model/schedule_reader.h"
