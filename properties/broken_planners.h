#pragma once
// Planners with one deliberate bug each, to show that the properties catch
// the bugs they guard against. Each is the reference planner of docs/planners.md#the-reference-planner-tlsf
// (on planner/'s Tlsf allocator) but for the one rule it breaks.

#include <memory>
#include <string_view>
#include <vector>

#include "planner/planner.h"

namespace planck::props {

enum class Bug {
  // A buffer's bytes are freed at its last entry instead of after it (but
  // never before the entry after its first): last - 1.
  OffByOneLifetimes,
  // Lifetimes are counted in calls, each call inside a loop on its own, so a
  // loop's buffers are not kept alive for the whole loop.
  LoopsNotExtended,
  // Sizes and arena ends leave out the phase.
  PhaseIgnored,
  // Sizes are not rounded up to 256 and the allocator's block is 32 bytes,
  // so places are not multiples of 256.
  AlignmentIgnored,
  // An open runs before a close at equal times, so a buffer cannot take the
  // bytes of one that dies just before it.
  FreeAfterPlace,
};

std::string_view bug_name(Bug bug);
std::vector<Bug> all_bugs();

std::unique_ptr<Planner> make_broken_planner(Bug bug);

}  // namespace planck::props
