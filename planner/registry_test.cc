// The registry of planners: every name it lists is what make_planner makes,
// and best runs exactly the planners it marks for best.

#include "planner/registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/plan.h"
#include "tests/parsed.h"

namespace planck {
namespace {

using ::testing::HasSubstr;
using testing::sched;
using ::testing::Not;

Bytes total(const Plan& p) {
  Bytes sum = 0;
  for (const Arena& a : p.arenas) sum += a.size;
  return sum;
}

TEST(PlannerRegistry, EveryEntryIsThePlannerMakePlannerMakesByItsName) {
  std::vector<std::string> names;
  for (const PlannerEntry& e : planner_registry()) {
    names.emplace_back(e.name);
    ASSERT_NE(e.make, nullptr) << e.name;
    EXPECT_EQ(e.make()->name(), e.name);
    auto made = make_planner(e.name);
    ASSERT_NE(made, nullptr) << e.name;
    EXPECT_EQ(made->name(), e.name);
    EXPECT_FALSE(e.description.empty()) << e.name;
    EXPECT_THAT(std::string(e.description), Not(HasSubstr("\n"))) << e.name;
  }
  EXPECT_EQ(planner_names(), names);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size()) << "a name twice";
}

TEST(PlannerRegistry, TheReferencePlannerComesFirstAndUnknownNamesGiveNoPlanner) {
  ASSERT_FALSE(planner_registry().empty());
  EXPECT_EQ(planner_registry().front().name, "tlsf");
  EXPECT_EQ(make_planner("no-such-planner"), nullptr);
  EXPECT_EQ(make_planner(""), nullptr);
}

TEST(PlannerRegistry, BestRunsEveryOtherPlannerAndTheyAreTheEntriesMarkedInBest) {
  std::vector<std::string> marked;
  for (const PlannerEntry& e : planner_registry()) {
    if (e.in_best) marked.emplace_back(e.name);
    // docs/planners.md#the-other-planners: best runs all the others of that section; it cannot
    // run itself. tinygrad (docs/model-v2.md#the-tinygrad-planner) keeps a copy lane and a compute lane
    // per device, two arenas, where best and the optimal planner built on it
    // improve one arena per device.
    EXPECT_EQ(e.in_best, e.name != "best" && e.name != "tinygrad") << e.name;
  }
  EXPECT_EQ(best_candidates(), marked);
}

TEST(PlannerRegistry, BestKeepsTheSmallestPlanOfItsCandidatesTheEarliestOnATie) {
  const std::vector<Schedule> schedules = {
      // Reuse: c can take a's bytes; naive alone keeps the three apart.
      sched(R"(schedule v1
buffer a CPU int8 2048
buffer b CPU int8 512
buffer c CPU int8 2000
kernel k0 a b
kernel k1 b c
)"),
      // TLSF rounds up's request to its bin and passes over feat's freed
      // block (corpus/schedules/18-tlsf-rounding.sched); first-fit planners reuse it.
      sched(R"(schedule v1
buffer feat CUDA float32 16640
buffer pooled CUDA float32 256
buffer up CUDA float32 16640
kernel conv feat
kernel avgpool pooled feat
kernel expand up pooled
kernel relu up
)"),
      // Nothing to reuse: every candidate ties, and the first one wins.
      sched(R"(schedule v1
buffer a CPU int8 300
buffer b CUDA int8 100 phase=64
kernel k a b
)"),
  };
  bool later_won = false;  // a candidate beat the ones before it
  for (const Schedule& s : schedules) {
    std::optional<Plan> expected;
    for (const std::string& name : best_candidates()) {
      auto p = make_planner(name)->plan(s);
      ASSERT_TRUE(p.ok()) << name << ": " << p.error().message();
      if (!expected || total(*p) < total(*expected)) {
        later_won = later_won || expected.has_value();
        expected = *p;
      }
    }
    auto best = make_planner("best")->plan(s);
    ASSERT_TRUE(best.ok()) << best.error().message();
    EXPECT_EQ(print_plan(*best), print_plan(*expected));
  }
  // Otherwise the first candidate's plan would do for best's in every case.
  EXPECT_TRUE(later_won);
}

}  // namespace
}  // namespace planck
