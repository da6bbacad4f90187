// "best": runs the planners the registry marks for it (every other one) and
// keeps the plan with the fewest arena bytes in total, the earliest of them
// in the registry's order on a tie. A planner that fails (the reference
// planner's allocator capacity, twice the planned total, can pass 2^64
// where a plan itself fits) is passed over; only when all fail is the first
// one's error returned.

#include <optional>
#include <string>
#include <utility>

#include "planner/factories.h"
#include "planner/registry.h"

namespace planck {
namespace {

// The arenas' total, saturating at 2^64 - 1: a plan whose total would pass
// 2^64 then ties only with another such plan, never beats one that fits.
Bytes total_arena_bytes(const Plan& p) {
  Bytes total = 0;
  for (const Arena& a : p.arenas) total = checked_add(total, a.size).value_or(~Bytes{0});
  return total;
}

class BestPlanner final : public Planner {
 public:
  std::string_view name() const override { return "best"; }

  Result<Plan> plan(const Schedule& s) const override {
    std::optional<Plan> best;
    Bytes best_total = 0;
    std::optional<Error> first_error;
    for (const std::string& name : best_candidates()) {
      Result<Plan> p = make_planner(name)->plan(s);
      if (!p) {
        if (!first_error) first_error = p.error();
        continue;
      }
      const Bytes total = total_arena_bytes(*p);
      if (!best || total < best_total) {
        best = std::move(p).value();
        best_total = total;
      }
    }
    if (!best) return *first_error;
    return std::move(*best);
  }
};

}  // namespace

std::unique_ptr<Planner> make_best_planner() { return std::make_unique<BestPlanner>(); }

}  // namespace planck
