// Which features of the model a schedule uses, read from the schedule itself.

#include "gen/features.h"

#include <gtest/gtest.h>

#include <string>

#include "model/schedule_reader.h"
#include "tests/spec_example.h"

namespace planck::gen {
namespace {

Features used_by(const std::string& text) {
  Result<Schedule> s = parse_schedule(text, "test.sched");
  EXPECT_TRUE(s.ok()) << s.error().message();
  return s.ok() ? used_features(*s) : Features{};
}

// The names of the switches `f` has on, in the order of the table.
std::string on(const Features& f) {
  std::string out;
  for (const FeatureSwitch& sw : feature_switches()) {
    if (f.*sw.on) out += std::string(out.empty() ? "" : " ") + std::string(sw.name);
  }
  return out;
}

TEST(UsedFeatures, OfTheExampleOfTheSpecification) {
  EXPECT_EQ(on(used_by(std::string(testing::kSpecExample))),
            "flag-loops shrink-views bitcast-views phase held devices alloc-param copies");
}

TEST(UsedFeatures, OfTheRestOfTheModel) {
  EXPECT_EQ(on(used_by(R"(schedule v1
buffer a CPU int8 0
buffer b DISK:/w.bin int8 1099511627776
buffer spare CPU int8 256
range {
  kernel k after(a) b
}
)")),
            "range-loops after-views disk zero-bytes huge unused");
  EXPECT_EQ(on(used_by("schedule v1\nbuffer a CPU int8 256\nkernel k shrink(a, 0, 0)\n")), "shrink-views zero-bytes");
  EXPECT_EQ(on(used_by("schedule v1\nbuffer a CPU int8 256\nkernel k a\n")), "");
}

TEST(UsedFeatures, AreAllowedExactlyWhenEachIsSwitchedOn) {
  Features used = no_features();
  used.flag_loops = true;
  used.phases = true;
  Features allowed;
  EXPECT_TRUE(allows(allowed, used));
  allowed.held = false;
  EXPECT_TRUE(allows(allowed, used));
  allowed.phases = false;
  EXPECT_FALSE(allows(allowed, used));
  EXPECT_TRUE(allows(no_features(), no_features()));
  Features both = no_features();
  both |= used;
  EXPECT_EQ(on(both), "flag-loops phase");
}

}  // namespace
}  // namespace planck::gen
