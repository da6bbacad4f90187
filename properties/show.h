#pragma once
// How RapidCheck shows the model's values in a counterexample: a schedule as
// its .sched text, a plan as its .plan text, ready to paste into a file.
//
// Every translation unit that picks or asserts on these types includes this
// header before it uses RapidCheck, so that all of them see the same
// showValue (RapidCheck finds it by argument-dependent lookup; a unit that
// missed it would print `<???>` and break the one-definition rule).

#include <ostream>

#include "model/plan.h"
#include "model/schedule.h"
#include "model/schedule_printer.h"

namespace planck {

inline void showValue(const Schedule& s, std::ostream& os) { os << '\n' << print_schedule(s); }

inline void showValue(const Plan& p, std::ostream& os) { os << '\n' << print_plan(p); }

}  // namespace planck
