// Which features of the model a schedule uses, read from the schedule itself.

#include "model/features.h"

#include <gtest/gtest.h>

#include <string>

#include "model/schedule_reader.h"
#include "tests/spec_example.h"

namespace planck {
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

TEST(UsedFeatures, OfModelV2) {
  EXPECT_EQ(on(used_by(R"(schedule v2
device CPU align=64
device GPU capacity=4096
buffer x CPU int8 64 input
buffer y CPU int8 64 output
buffer kv GPU int8 64 state
kernel relu y x inplace=y:x
kernel step kv
)")),
            "devices align capacity inputs outputs state inplace");
  // A device line with neither an align nor a capacity is a v2 line.
  EXPECT_EQ(on(used_by("schedule v2\ndevice CPU\nbuffer a CPU int8 256\nkernel k a\n")), "align");
  EXPECT_EQ(on(used_by("schedule v2\ndevice CPU align=256 capacity=512\nbuffer a CPU int8 256\nkernel k a\n")),
            "capacity");
}

TEST(UsedFeatures, OfModelV3) {
  EXPECT_EQ(on(used_by("schedule v3\nbuffer a CPU int8 256\nkernel k a stream=s\n")), "streams");
  EXPECT_EQ(on(used_by("schedule v3\nrecord e\nwait e\n")), "streams");
  EXPECT_EQ(on(used_by("schedule v3\nbuffer a CPU int8 256 local\nrange {\n  kernel k a\n}\n")),
            "range-loops local");
}

TEST(FeatureLists, ReadTheNamesAndTheGroups) {
  EXPECT_EQ(on(*parse_features("v3")), on(Features{}));
  EXPECT_EQ(on(*parse_features("v2")), on(v2_features()));
  EXPECT_EQ(on(*parse_features("v1")), on(v1_features()));
  EXPECT_EQ(on(*parse_features("v2,streams")), on(v2_features()) + " streams");
  EXPECT_EQ(on(*parse_features("none")), "");
  EXPECT_EQ(on(*parse_features("copies,align")), "copies align");
  Features v1_align = v1_features();
  v1_align.align = true;
  EXPECT_EQ(on(*parse_features("align,v1")), on(v1_align));
  for (const char* bad : {"", ",", "v1,", "v4", "copies,,align", "ALIGN"}) {
    EXPECT_FALSE(parse_features(bad).ok()) << bad;
  }
  EXPECT_NE(parse_features("v4").error().message().find("'v4'"), std::string::npos);
}

TEST(FeatureLists, TextReadsBackAsTheSameFeatures) {
  Features v1_inplace = v1_features();
  v1_inplace.inplace = true;
  Features few = no_features();
  few.copies = true;
  few.capacity = true;
  Features v2_local = v2_features();
  v2_local.local = true;
  const std::pair<Features, std::string> cases[] = {{Features{}, "v3"},
                                                    {v2_features(), "v2"},
                                                    {v2_local, "v2,local"},
                                                    {v1_features(), "v1"},
                                                    {v1_inplace, "v1,inplace"},
                                                    {few, "copies,capacity"},
                                                    {no_features(), "none"}};
  for (const auto& [f, text] : cases) {
    EXPECT_EQ(features_text(f), text);
    EXPECT_TRUE(*parse_features(text) == f) << text;
  }
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
}  // namespace planck
