#pragma once
// The static checker (SPEC section 7). It derives lifetimes with code of its
// own and shares nothing with planner/ but the schedule model and the parsers,
// so that a bug in the planner's lifetime analysis or allocator cannot hide
// itself from the check.

#include <string>
#include <string_view>
#include <vector>

#include "model/plan.h"
#include "model/schedule.h"

namespace planck::oracle {

enum class Rule {
  NotPlaced,          // a planned buffer has no placement
  PlacedTwice,        // a buffer has more than one placement
  NotPlanned,         // a placement names storage that is not planned: held, disk, alloc,
                      // param, or never taken
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
  std::vector<std::string> buffers;  // the buffers (storage) involved, if any
  std::vector<std::string> arenas;   // the arenas involved, if any
  std::string message;  // "RULE: ..." with the buffers, entries, source lines, byte ranges

  friend bool operator==(const Violation&, const Violation&) = default;
};

// Judges a plan for a schedule. Empty when the plan is valid. Violations come
// in a fixed order: arenas (in plan order), placements (in plan order),
// planned buffers left unplaced (in order of first use), devices with no
// arena or several (in order of first use) and arenas on devices without
// planned buffers (in plan order), then overlaps (by the plan order of the
// pair's two placements).
//
// A placement is judged by the first of these rules it breaks: unknown
// storage, not planned, placed twice, unknown arena. One that breaks none is
// judged for its device, its alignment and its end, and joins the overlap
// check unless its end passes 2^64. So a later placement of a buffer is only
// reported as placed twice. Likewise a later arena of a name already declared
// is only reported as declared twice, and placements naming it refer to the
// first.
//
// Overlaps are judged per arena (with one arena per device, per device).
// O(n log n) in the number of storage, entries, arguments, arenas and
// placements, plus the violations it reports: it reports at least one
// overlap whenever two buffers overlap, though not every overlapping pair.
std::vector<Violation> check_plan(const Schedule& s, const Plan& p);

// The same judgement by plain O(n^2) lookups and pairwise comparison, for
// tests to compare check_plan against. It reports every overlapping pair;
// all its other violations are exactly check_plan's.
std::vector<Violation> check_plan_quadratic(const Schedule& s, const Plan& p);

}  // namespace planck::oracle
