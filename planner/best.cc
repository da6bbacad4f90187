// "best": runs the planners the registry marks for it (every other one) and
// keeps the plan with the fewest arena bytes in total, the earliest of them
// in the registry's order on a tie. A planner that fails (the reference
// planner's allocator capacity, twice the planned total, can pass 2^64
// where a plan itself fits) is passed over; only when all fail is the first
// one's error returned.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/live_bytes.h"
#include "planner/best.h"
#include "planner/factories.h"
#include "planner/registry.h"

namespace planck {
namespace {

class BestPlanner final : public Planner {
 public:
  std::string_view name() const override { return "best"; }

  Result<Plan> plan(const Schedule& s) const override {
    std::vector<Result<Plan>> results;
    for (const std::string& name : best_candidates()) {
      Result<Plan> r = make_planner(name)->plan(s);
      // A planner of one stream refusing several is no candidate.
      if (!r && r.error().kind == "planner-streams") continue;
      results.push_back(std::move(r));
    }
    if (results.empty()) return Error{"", "best has no candidate planner"};
    return std::move(results[best_of(results)]);
  }
};

}  // namespace

std::size_t best_of(std::span<const Result<Plan>> results) {
  std::size_t best = 0;
  std::optional<Bytes> best_total;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!results[i]) continue;
    // Saturating at 2^64 - 1: a plan whose total would pass 2^64 then ties
    // only with another such plan, never beats one that fits.
    const Bytes total = arena_total(*results[i]).value_or(~Bytes{0});
    if (!best_total || total < *best_total) {
      best = i;
      best_total = total;
    }
  }
  return best;
}

std::unique_ptr<Planner> make_best_planner() { return std::make_unique<BestPlanner>(); }

}  // namespace planck
