#pragma once
// The static checker (SPEC section 7). It derives lifetimes with code of its
// own and shares nothing with planner/ but the schedule model and the parsers,
// so that a bug in the planner's lifetime analysis or allocator cannot hide
// itself from the check.

#include <string>
#include <string_view>
#include <vector>

#include "planner/plan.h"
#include "planner/schedule.h"

namespace planck::oracle {

enum class Rule {
  NotPlaced,          // a planned buffer has no placement
  PlacedTwice,        // a buffer has more than one placement
  NotPlanned,         // a placement names storage that is not planned (held, disk, alloc, param, unused)
  UnknownStorage,     // a placement names storage the schedule does not declare
  UnknownArena,       // a placement names an arena the plan does not declare
  ArenaTwice,         // two arenas share a name, or an arena's name is already storage's
  DeviceArenas,       // a device with planned buffers has no arena, or more than one
  WrongDevice,        // a buffer placed in an arena of another device
  ArenaSize,          // an arena size that is not a multiple of 256
  Misaligned,         // place % 256 != 0
  OutsideArena,       // place + rounded > arena size
  Overlap,            // two buffers alive together share bytes
};
std::string_view rule_name(Rule r);

struct Violation {
  Rule rule;
  std::vector<std::string> buffers;  // the buffers involved, if any
  std::string message;               // says the rule, buffers, entries, source lines, byte ranges
};

// O(n log n) in the number of planned buffers and placements (plus the
// violations it reports). Empty when the plan is valid.
std::vector<Violation> check_plan(const Schedule& s, const Plan& p);

// The same judgement by plain O(n^2) pairwise comparison, for tests to
// compare check_plan against. It reports every overlapping pair.
std::vector<Violation> check_plan_quadratic(const Schedule& s, const Plan& p);

}  // namespace planck::oracle
