// The .sched format's v3 (streams, events and loop-local storage):
// `stream=S` on top-level calls and loops, `record E` and `wait E`, the word
// `local` on a buffer; canonical printing with the lowest header a schedule
// needs; and each bad v3 input at its place.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <string_view>

#include "model/schedule_printer.h"
#include "model/schedule_reader_test_util.h"

namespace planck {
namespace {

using ::testing::HasSubstr;

using testing::parse_error;
using testing::parse_ok;

constexpr std::string_view kV3 = R"(schedule v3
device CUDA align=64
buffer x CUDA float32 1024 input
buffer a CUDA float32 1024
buffer b CUDA float32 1024
buffer s0 CUDA float32 256 local
buffer s1 CUDA float32 256 local
buffer y CUDA float32 1024 output
kernel embed a x
record ready
kernel side b x stream=copy
wait ready stream=copy
range stream=compute {
  kernel pre s0 a
  kernel mid s1 s0 inplace=s1:s0
  kernel post a s1
}
record done stream=compute
wait done
kernel add y a b
)";

TEST(TextV3, EveryFeatureReadsIntoTheModel) {
  const Schedule s = parse_ok(kV3);
  ASSERT_EQ(s.streams.size(), 3u);
  EXPECT_EQ(s.streams[0], "");
  EXPECT_EQ(s.streams[1], "copy");
  EXPECT_EQ(s.streams[2], "compute");
  EXPECT_EQ(s.find_stream("compute"), StreamId{2});
  EXPECT_EQ(s.find_stream(""), StreamId{0});
  EXPECT_FALSE(s.find_stream("other"));
  ASSERT_EQ(s.entries.size(), 8u);
  EXPECT_EQ(s.entries[0].stream, 0);
  EXPECT_EQ(s.entries[1].kind, Entry::Kind::Record);
  EXPECT_EQ(s.entries[1].name, "ready");
  EXPECT_EQ(s.entries[1].stream, 0);
  EXPECT_EQ(s.entries[2].stream, 1);
  EXPECT_EQ(s.entries[3].kind, Entry::Kind::Wait);
  EXPECT_EQ(s.entries[3].stream, 1);
  EXPECT_EQ(s.entries[4].kind, Entry::Kind::Range);
  EXPECT_EQ(s.entries[4].stream, 2);
  for (const Entry& inner : s.entries[4].body()) EXPECT_EQ(inner.stream, 0);
  EXPECT_EQ(s.entries[5].stream, 2);
  EXPECT_EQ(s.entries[6].stream, 0);
  EXPECT_TRUE(s.storage[*s.find("s0")].local);
  EXPECT_FALSE(s.storage[*s.find("a")].local);
  EXPECT_EQ(s.version(), 3);
}

TEST(TextV3, PrintingIsCanonical) {
  const std::string printed = print_schedule(parse_ok(kV3));
  EXPECT_EQ(printed, kV3);
  EXPECT_EQ(print_schedule(parse_ok(printed)), printed);
}

TEST(TextV3, PrintsTheLowestHeaderTheScheduleNeeds) {
  EXPECT_EQ(print_schedule(parse_ok("schedule v3\nbuffer a CPU int8 256\nkernel k a\n")),
            "schedule v1\nbuffer a CPU int8 256\nkernel k a\n");
  EXPECT_EQ(print_schedule(parse_ok("schedule v3\ndevice CPU\nbuffer a CPU int8 256\nkernel k a\n")),
            "schedule v2\ndevice CPU\nbuffer a CPU int8 256\nkernel k a\n");
  EXPECT_EQ(print_schedule(parse_ok("schedule v3\nbuffer a CPU int8 256 local\nrange {\n  kernel k a\n}\n")),
            "schedule v3\nbuffer a CPU int8 256 local\nrange {\n  kernel k a\n}\n");
  EXPECT_EQ(print_schedule(parse_ok("schedule v3\nrecord e\nwait e\n")), "schedule v3\nrecord e\nwait e\n");
}

TEST(TextV3, WordsThatAreNotOptionsStillNameStorage) {
  const Schedule s = parse_ok("schedule v3\nbuffer stream CPU int8 256\nbuffer local CPU int8 256\n"
                              "kernel record stream local stream=wait\n");
  ASSERT_EQ(s.entries[0].args.size(), 2u);
  EXPECT_EQ(s.entries[0].name, "record");
  EXPECT_EQ(s.streams[s.entries[0].stream], "wait");
}

TEST(TextV3, AWaitOnTheRecordingStreamIsAllowed) {
  const Schedule s = parse_ok("schedule v3\nrecord e stream=s\nwait e stream=s\n");
  EXPECT_EQ(s.entries[1].stream, 1);
}

TEST(TextV3, ALocalBufferMayBeSharedByTwoInnerLoops) {
  parse_ok("schedule v3\nbuffer t CPU int8 256 local\nrange {\n  range {\n    kernel a t\n  }\n  range {\n"
           "    kernel b t\n  }\n}\n");
}

TEST(TextV3, ALocalBufferThatNothingTakesIsAllowed) {
  parse_ok("schedule v3\nbuffer t CPU int8 256 local\nbuffer u CPU int8 256\nkernel k u\n");
}

TEST(TextV3, ALocalFlagOfAnInnerLoop) {
  const Schedule s = parse_ok("schedule v3\nbuffer f CPU bool 1 local\nrange {\n  loop flag=f {\n    kernel k f\n"
                              "  }\n}\n");
  EXPECT_TRUE(s.storage[0].local);
}

struct V3Error {
  std::string name;
  std::string text;
  std::string where;  // LINE:COL
  std::string what;
};

void PrintTo(const V3Error& e, std::ostream* os) { *os << e.name; }

class TextV3Error : public ::testing::TestWithParam<V3Error> {};

TEST_P(TextV3Error, SaysWhereAndWhat) {
  const V3Error& c = GetParam();
  const Error e = parse_error(c.text);
  EXPECT_EQ(e.where, "t.sched:" + c.where) << e.message();
  EXPECT_THAT(e.message(), HasSubstr(c.what));
}

constexpr std::string_view kT = "buffer t CPU int8 256\n";
constexpr std::string_view kLocal = "buffer t CPU int8 256 local\n";

INSTANTIATE_TEST_SUITE_P(
    Cases, TextV3Error,
    ::testing::Values(
        V3Error{"StreamInV2", "schedule v2\n" + std::string(kT) + "kernel k t stream=s\n", "3:12",
                "`stream=` needs the header `schedule v3`"},
        V3Error{"RecordInV1", "schedule v1\nrecord e\n", "2:1", "`record` needs the header `schedule v3`"},
        V3Error{"LocalInV2", "schedule v2\nbuffer t CPU int8 256 local\n", "2:23", "`local` needs the header"},
        V3Error{"StreamTwice", "schedule v3\n" + std::string(kT) + "kernel k t stream=s stream=u\n", "3:21",
                "`stream=` given twice"},
        V3Error{"StreamNotLast", "schedule v3\n" + std::string(kT) + "kernel k stream=s t\n", "3:19",
                "expected the end of the statement"},
        V3Error{"InplaceAfterStream",
                "schedule v3\n" + std::string(kT) + "buffer u CPU int8 256\nkernel k t u stream=s inplace=t:u\n",
                "4:23", "expected the end of the statement"},
        V3Error{"StreamInsideALoop", "schedule v3\n" + std::string(kT) + "range {\n  kernel k t stream=s\n}\n",
                "4:14", "inside a loop"},
        V3Error{"StreamOnAnInnerLoop", "schedule v3\n" + std::string(kT) + "range {\n  range stream=s {\n"
                "    kernel k t\n  }\n}\n",
                "4:9", "inside a loop"},
        V3Error{"StreamWithoutName", "schedule v3\n" + std::string(kT) + "kernel k t stream=\n", "3:19",
                "a stream name"},
        V3Error{"BadStreamName", "schedule v3\n" + std::string(kT) + "kernel k t stream=9x\n", "3:19",
                "not a valid stream name"},
        V3Error{"RecordTwice", "schedule v3\nrecord e\nrecord e\n", "3:8", "event `e` is recorded twice, first at 2:1"},
        V3Error{"WaitBeforeRecord", "schedule v3\nwait e\nrecord e\n", "2:6", "`wait e` before `record e`"},
        V3Error{"RecordInALoop", "schedule v3\nrange {\n  record e\n}\n", "3:3", "top level"},
        V3Error{"WaitInALoop", "schedule v3\nrecord e\nrange {\n  wait e\n}\n", "4:3", "top level"},
        V3Error{"RecordWithoutEvent", "schedule v3\nrecord\n", "2:7", "an event name"},
        V3Error{"RecordWithTwoEvents", "schedule v3\nrecord e f\n", "2:10", "expected the end of the statement"},
        V3Error{"LocalTwice", "schedule v3\nbuffer t CPU int8 256 local local\n", "2:29", "`local` given twice"},
        V3Error{"LocalAndHeld", "schedule v3\nbuffer t CPU int8 256 held local\n", "2:28",
                "both `held` and `local`"},
        V3Error{"LocalAndOutput", "schedule v3\nbuffer t CPU int8 256 local output\n", "2:29",
                "both `local` and `output`"},
        V3Error{"LocalOnAParam", "schedule v3\nparam t CPU int8 256 local\n", "2:22", "applies to a buffer only"},
        V3Error{"LocalTakenAtTheTopLevel",
                "schedule v3\n" + std::string(kLocal) + "range {\n  kernel a t\n}\nkernel b t\n", "6:1",
                "is taken at the top level here"},
        V3Error{"LocalTakenOnlyAtTheTopLevel", "schedule v3\n" + std::string(kLocal) + "kernel b t\n", "3:1",
                "is taken at the top level here"},
        V3Error{"LocalInTwoTopLevelLoops",
                "schedule v3\n" + std::string(kLocal) + "range {\n  kernel a t\n}\nrange {\n  kernel b t\n}\n",
                "6:1", "taken here and in the loop at line 3"},
        V3Error{"LocalFlagOfATopLevelLoop",
                "schedule v3\nbuffer f CPU bool 1 local\nloop flag=f {\n  kernel k f\n}\n", "3:1",
                "is the flag of this top-level loop"}),
    [](const ::testing::TestParamInfo<V3Error>& info) { return info.param.name; });

}  // namespace
}  // namespace planck
