#include "planner/planner.h"

#include <string>
#include <utility>

namespace planck {
namespace {

class PlannerOf final : public Planner {
 public:
  PlannerOf(std::string_view name, PlanUntil plan, std::optional<Features> claimed)
      : name_(name), plan_(std::move(plan)), claimed_(claimed) {}
  std::string_view name() const override { return name_; }
  Result<Plan> plan(const Schedule& s) const override { return plan_(s, std::chrono::steady_clock::time_point::max()); }
  Result<Plan> plan_until(const Schedule& s, std::chrono::steady_clock::time_point until) const override {
    return plan_(s, until);
  }
  std::optional<Features> claimed_features() const override { return claimed_; }

 private:
  std::string name_;
  PlanUntil plan_;
  std::optional<Features> claimed_;
};

}  // namespace

std::unique_ptr<Planner> planner_of(std::string_view name, PlanUntil plan, std::optional<Features> claimed) {
  return std::make_unique<PlannerOf>(name, std::move(plan), claimed);
}

}  // namespace planck
