// The reference planner ("tlsf"): rules 1 to 7 of docs/planners.md#the-reference-planner-tlsf
// (rules.h), one after the other; a large schedule is planned on two
// threads instead (tlsf_two_threads.h), to the same plan.

#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "planner/conflicts.h"
#include "planner/tlsf_two_threads.h"
#include "planner/events_planner.h"
#include "planner/factories.h"
#include "planner/rules.h"

namespace planck {
namespace {

// A schedule with a `device` line, or whose lifetimes are stretched by
// planned inputs, outputs or state, is planned over events sorted in full
// (events_planner.h): its opens need not come in order of first
// appearance, and its allocators' blocks follow the devices' align.
Result<Plan> plan_tlsf(const Schedule& s) {
  if (!s.devices.empty()) return plan_by_events(s, planned_lifetimes(s), false);
  if (takes_two_threads(s)) {
    if (std::optional<Result<Plan>> planned = plan_on_two_threads(s)) return std::move(*planned);
  }
  std::vector<Lifetime> lives;
  if (planned_lifetimes(s, lives)) return plan_by_events(s, lives, false);  // rules 1 to 3
  if (lives.empty()) return Plan{};
  PLANCK_ASSIGN(SizesAndDevices both, sizes_and_devices(s, lives));  // rules 4 and 5
  const Devices& devices = both.devices;
  std::vector<Bytes>& place = both.sizes;  // the sizes, then the places (run_tlsf)
  PLANCK_ASSIGN(const Bytes capacity, tlsf_capacity(s, lives, place));
  PLANCK_ASSIGN(std::vector<Tlsf> allocators, make_allocators(s, capacity, devices.names));
  const CloseLists closes = close_lists(lives, s.entries.size());  // rule 6
  RuleProgress quiet;
  PLANCK_TRY(run_tlsf(s, lives, place, closes, devices, allocators, quiet));
  return plan_result(s, lives, devices, place);  // rule 7
}

}  // namespace

std::unique_ptr<Planner> make_tlsf_planner() { return one_stream_planner("tlsf", plan_tlsf); }

}  // namespace planck
