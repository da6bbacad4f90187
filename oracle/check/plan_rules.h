#pragma once
// The checker's rules on each arena, each placement and each device (SPEC
// section 7): everything it judges but overlaps, which check_plan and its
// plain twin each find by code of their own.

#include <cstddef>
#include <vector>

#include "model/plan.h"
#include "model/resolve.h"
#include "model/schedule.h"
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
};

struct PlanRulesResult {
  std::vector<Violation> violations;  // in the order of check_plan's, without messages
  std::vector<PlacedBuffer> placed;   // in plan order
};

// `r` is resolve(s, p) and `planned` is planned_buffers(s).
PlanRulesResult judge_plan_rules(const Schedule& s, const Plan& p, const Resolution& r,
                                 const std::vector<Lifetime>& planned);

}  // namespace planck::oracle
