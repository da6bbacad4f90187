#pragma once
// The checker's rules on each arena, each placement and each device (docs/formats.md#plans-plan):
// everything it judges but overlaps, which check_plan and its
// plain twin each find by code of their own.

#include <cstddef>
#include <vector>

#include "model/plan.h"
#include "model/resolve.h"
#include "model/schedule.h"
#include "oracle/check/inplace.h"
#include "oracle/check/lifetimes.h"
#include "oracle/check/violation.h"

namespace planck::oracle {

// A placement that broke none of the rules on who is placed where (known
// storage, a planned buffer, placed here first, in a known arena) and whose
// end is a number: what the overlap rule judges.
struct PlacedBuffer {
  std::size_t placement = 0;  // into Plan::placements
  std::size_t arena = 0;      // into Plan::arenas: the first arena of the name placed in
  Lifetime life;
  ByteRange block;  // [place, place + rounded)
  // An output that an in-place kernel at its first entry lets share the bytes
  // of a dying input, no larger than the largest buffer it shares them
  // with there, which the overlap check meets at that entry in its stead: the
  // check takes this one from the entry after.
  bool starts_late = false;
};

struct PlanRulesResult {
  std::vector<Violation> violations;  // in the order of check_plan's, without messages
  std::vector<PlacedBuffer> placed;   // in plan order
  InPlaceRule inplace;
  // Pairs (x < y, into `placed`) of buffers that the overlap check may not
  // meet, as one of them starts late, that share bytes at the in-place
  // kernel's entry without a declaration that allows it.
  std::vector<std::pair<std::size_t, std::size_t>> inplace_overlaps;
};

// `r` is resolve(s, p) and `planned` is planned_buffers(s).
PlanRulesResult judge_plan_rules(const Schedule& s, const Plan& p, const Resolution& r,
                                 const std::vector<Lifetime>& planned);

}  // namespace planck::oracle
