#pragma once
// The two switches of docs/planners.md#the-reference-planner-tlsf that come from the environment: rule 9's
// NO_MEMORY_PLANNER and rule 10's DEBUG.

#include "model/result.h"

namespace planck {

struct PlanOptions {
  bool no_memory_planner = false;  // rule 9: plan nothing, leave the input as it is
  int debug = 0;                   // rule 10: at 1 or more, the debug line

  // NO_MEMORY_PLANNER (set at 1 or more) and DEBUG, each an integer; unset or
  // empty is 0. A value that is not an integer is an error naming it.
  static Result<PlanOptions> from_environment();
};

}  // namespace planck
