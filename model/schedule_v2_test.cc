// The .sched format's v2 (docs/model-v2.md): device lines, planned inputs,
// outputs and state, in-place kernels; canonical printing that falls back
// to v1 when nothing of v2 is used; and each bad v2 input at its place.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <string_view>

#include "model/dump.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"

namespace planck {
namespace {

using ::testing::HasSubstr;

Schedule parse_ok(std::string_view text) {
  Result<Schedule> r = parse_schedule(text, "t.sched");
  const std::optional<std::string> differ = parse_results_differ(r, parse_schedule_by_tokens(text, "t.sched"));
  EXPECT_FALSE(differ) << *differ;
  if (!r) {
    ADD_FAILURE() << r.error().message();
    return {};
  }
  return *std::move(r);
}

Error parse_error(std::string_view text) {
  Result<Schedule> r = parse_schedule(text, "t.sched");
  const std::optional<std::string> differ = parse_results_differ(r, parse_schedule_by_tokens(text, "t.sched"));
  EXPECT_FALSE(differ) << *differ;
  if (r) {
    ADD_FAILURE() << "parsed, but should not:\n" << text;
    return {};
  }
  return r.error();
}

constexpr std::string_view kV2 = R"(schedule v2
device CUDA align=16 capacity=1048576
device CPU
buffer x CUDA float32 1024 input
buffer kv CUDA float16 512 state
buffer t CUDA float32 1024
buffer y CUDA float32 1024 phase=64 output
buffer h CPU float32 1024
kernel relu t x inplace=t:x
loop flag=t {
  kernel attend kv t
}
kernel add y t kv
copy h y
)";

TEST(TextV2, EveryFeatureReadsIntoTheModel) {
  const Schedule s = parse_ok(kV2);
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_EQ(s.devices[0].name, "CUDA");
  EXPECT_EQ(s.devices[0].align, 16u);
  EXPECT_EQ(s.devices[0].capacity, Bytes{1048576});
  EXPECT_EQ(s.devices[0].pos.line, 2);
  EXPECT_EQ(s.devices[1].align, kPlaceAlign);
  EXPECT_FALSE(s.devices[1].capacity.has_value());
  EXPECT_EQ(s.align_of("CUDA"), 16u);
  EXPECT_EQ(s.align_of("CPU"), kPlaceAlign);
  EXPECT_EQ(s.align_of("DISK"), kPlaceAlign);
  EXPECT_EQ(s.capacity_of("CUDA"), Bytes{1048576});
  EXPECT_EQ(s.storage[*s.find("x")].io, kInput);
  EXPECT_EQ(s.storage[*s.find("kv")].io, kState);
  EXPECT_EQ(s.storage[*s.find("y")].io, kOutput);
  EXPECT_EQ(s.storage[*s.find("y")].phase, 64u);
  EXPECT_EQ(s.storage[*s.find("t")].io, 0);
  ASSERT_EQ(s.entries[0].inplace().size(), 1u);
  EXPECT_EQ(s.entries[0].inplace()[0], (InPlace{*s.find("t"), *s.find("x")}));
  EXPECT_TRUE(s.entries[1].inplace().empty());
  EXPECT_TRUE(s.uses_v2());
}

TEST(TextV2, PrintingIsCanonical) {
  const std::string printed = print_schedule(parse_ok(kV2));
  EXPECT_EQ(printed, kV2);
  EXPECT_EQ(print_schedule(parse_ok(printed)), printed);
}

TEST(TextV2, AV2FileWithNothingOfV2PrintsAsV1) {
  EXPECT_EQ(print_schedule(parse_ok("schedule v2\nbuffer a CPU int8 256\nkernel k a\n")),
            "schedule v1\nbuffer a CPU int8 256\nkernel k a\n");
}

TEST(TextV2, ADeviceLineWithDefaultsStillMakesTheFileV2) {
  EXPECT_EQ(print_schedule(parse_ok("schedule v2\ndevice CPU align=256\nbuffer a CPU int8 256\nkernel k a\n")),
            "schedule v2\ndevice CPU\nbuffer a CPU int8 256\nkernel k a\n");
}

TEST(TextV2, InputOutputAndStateMayCombineInAnyOrder) {
  const Schedule s = parse_ok("schedule v2\nbuffer a CPU int8 256 output held input\nkernel k a\n");
  EXPECT_EQ(s.storage[0].io, kInput | kOutput);
  EXPECT_TRUE(s.storage[0].held);
  EXPECT_EQ(print_schedule(s), "schedule v2\nbuffer a CPU int8 256 held input output\nkernel k a\n");
}

TEST(TextV2, AStorageNamedInplaceIsStillAnArgument) {
  const Schedule s = parse_ok("schedule v2\nbuffer inplace CPU int8 256\nbuffer o CPU int8 256\n"
                              "kernel k o inplace inplace=o:inplace\n");
  EXPECT_EQ(s.entries[0].args.size(), 2u);
  EXPECT_EQ(s.entries[0].inplace()[0], (InPlace{1, 0}));
}

TEST(TextV2, SeveralInPlacePairsOnOneKernel) {
  const Schedule s = parse_ok("schedule v2\nbuffer a CPU int8 256\nbuffer b CPU int8 256\nbuffer c CPU int8 256\n"
                              "buffer d CPU int8 256\nkernel k c d a b inplace=c:a inplace=d:b\n");
  EXPECT_EQ(s.entries[0].inplace().size(), 2u);
}

struct V2Error {
  std::string name;
  std::string text;
  std::string where;  // LINE:COL
  std::string what;
};

void PrintTo(const V2Error& e, std::ostream* os) { *os << e.name; }

class TextV2Error : public ::testing::TestWithParam<V2Error> {};

TEST_P(TextV2Error, SaysWhereAndWhat) {
  const V2Error& c = GetParam();
  const Error e = parse_error(c.text);
  EXPECT_EQ(e.where, "t.sched:" + c.where) << e.message();
  EXPECT_THAT(e.message(), HasSubstr(c.what));
}

constexpr std::string_view kAB = "buffer a CPU int8 256\nbuffer b CPU int8 256\n";

INSTANTIATE_TEST_SUITE_P(
    Cases, TextV2Error,
    ::testing::Values(
        V2Error{"DeviceInV1", "schedule v1\ndevice CPU\n", "2:1", "a `device` line needs the header `schedule v2`"},
        V2Error{"InputInV1", "schedule v1\nbuffer a CPU int8 256 input\n", "2:23", "`input` needs the header"},
        V2Error{"InplaceInV1", "schedule v1\n" + std::string(kAB) + "kernel k a b inplace=a:b\n", "4:14",
                "`inplace=` needs the header"},
        V2Error{"AlignNotAPowerOfTwo", "schedule v2\ndevice CPU align=24\n", "2:18",
                "align=24 is not a power of two from 1 to 1048576"},
        V2Error{"AlignZero", "schedule v2\ndevice CPU align=0\n", "2:18", "not a power of two"},
        V2Error{"AlignTooLarge", "schedule v2\ndevice CPU align=2097152\n", "2:18", "not a power of two"},
        V2Error{"CapacityTooLarge", "schedule v2\ndevice CPU capacity=4611686018427387904\n", "2:21", "capacity"},
        V2Error{"CapacityNegative", "schedule v2\ndevice CPU capacity=-1\n", "2:21", "capacity"},
        V2Error{"DeviceTwice", "schedule v2\ndevice CPU\ndevice CPU align=16\n", "3:8",
                "device `CPU` is given twice, first at 2:1"},
        V2Error{"DeviceAfterUse", "schedule v2\nbuffer a CPU int8 256\ndevice CPU align=16\n", "3:8",
                "comes after its first use by buffer `a` at 2:1"},
        V2Error{"DeviceInLoop", "schedule v2\nrange {\n  device CPU\n}\n", "3:3", "top level"},
        V2Error{"UnknownDeviceOption", "schedule v2\ndevice CPU size=4\n", "2:12", "unknown option `size`"},
        V2Error{"AlignTwice", "schedule v2\ndevice CPU align=16 align=16\n", "2:21", "`align=` given twice"},
        V2Error{"InputTwice", "schedule v2\nbuffer a CPU int8 256 input input\n", "2:29", "`input` given twice"},
        V2Error{"StateOnAParam", "schedule v2\nparam a CPU int8 256 state\n", "2:22", "applies to a buffer only"},
        V2Error{"InplaceNamesAView", "schedule v2\n" + std::string(kAB) + "kernel k shrink(a, 0, 16) b inplace=a:b\n",
                "4:37", "takes `a` only through a view"},
        V2Error{"InplaceNotTaken", "schedule v2\n" + std::string(kAB) + "buffer c CPU int8 256\nkernel k a b inplace=c:b\n",
                "5:22", "kernel k does not take `c`"},
        V2Error{"InplaceSameBothSides", "schedule v2\n" + std::string(kAB) + "kernel k a b inplace=a:a\n", "4:24",
                "names `a` on both sides"},
        V2Error{"InplaceUndeclared", "schedule v2\n" + std::string(kAB) + "kernel k a b inplace=a:z\n", "4:24",
                "undeclared name `z`"},
        V2Error{"InplaceWithoutColon", "schedule v2\n" + std::string(kAB) + "kernel k a b inplace=ab\n", "4:22",
                "expected `OUT:IN`"},
        V2Error{"InplaceEmptySide", "schedule v2\n" + std::string(kAB) + "kernel k a b inplace=a:\n", "4:22",
                "expected `OUT:IN`"},
        V2Error{"ArgumentAfterInplace", "schedule v2\n" + std::string(kAB) + "kernel k a inplace=a:b b\n", "4:24",
                "expected `inplace=` or the end of the statement"},
        V2Error{"InplaceOnACopy", "schedule v2\n" + std::string(kAB) + "copy a b inplace=a:b\n", "4:10",
                "copy takes exactly 2 arguments"}),
    [](const ::testing::TestParamInfo<V2Error>& info) { return info.param.name; });

}  // namespace
}  // namespace planck
