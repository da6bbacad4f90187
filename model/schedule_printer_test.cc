#include "model/schedule_printer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <ostream>
#include <string>
#include <utility>

#include "model/schedule.h"
#include "model/schedule_reader_test_util.h"
#include "tests/spec_example.h"

namespace planck {
namespace {

using ::testing::HasSubstr;
using testing::kSpecExample;
using testing::parse_ok;
using testing::repeat;

TEST(TextPrint, SpecExampleIsPrintedCanonically) {
  EXPECT_EQ(print_schedule(parse_ok(kSpecExample)),
            "schedule v1\n"
            "param x CUDA float32 4096\n"
            "buffer w CUDA float32 4096 held\n"
            "buffer t0 CUDA float32 4096\n"
            "buffer t1 CUDA float32 4096 phase=64\n"
            "buffer f CUDA bool 256\n"
            "buffer h CPU float32 4096\n"
            "kernel matmul t0 x w\n"
            "loop flag=f {\n"
            "  kernel relu t1 t0\n"
            "  kernel step t0 shrink(t1, 0, 1024) f\n"
            "}\n"
            "copy h bitcast(t0, float32)\n");
}

TEST(TextPrint, DeclarationsComeFirstAndCommentsGo) {
  EXPECT_EQ(print_schedule(parse_ok("schedule v1 # c\nbuffer a CPU int8 4 held phase=0007\nkernel k a\n"
                                    "alloc b CPU int8 4 # c\nrange { kernel k b }\n")),
            "schedule v1\n"
            "buffer a CPU int8 4 phase=7 held\n"
            "alloc b CPU int8 4\n"
            "kernel k a\n"
            "range {\n"
            "  kernel k b\n"
            "}\n");
}

TEST(TextPrint, NestedLoopsIndentTwoSpacesPerLevel) {
  EXPECT_EQ(print_schedule(parse_ok("schedule v1\nbuffer f CPU bool 1\n"
                                    "range { loop flag=after(f) { kernel k f }\nkernel barrier }\n")),
            "schedule v1\n"
            "buffer f CPU bool 1\n"
            "range {\n"
            "  loop flag=after(f) {\n"
            "    kernel k f\n"
            "  }\n"
            "  kernel barrier\n"
            "}\n");
}

TEST(TextPrint, PrintArgPrintsOneArgument) {
  Schedule s = parse_ok("schedule v1\nbuffer a CPU int8 64\nkernel k after(bitcast(shrink(a,8,32),int32))\n");
  EXPECT_EQ(print_arg(s, s.entries[0].args[0]), "after(bitcast(shrink(a, 8, 32), int32))");
  EXPECT_EQ(print_arg(s, s.entries[0].args[0].view->base.view->base.view->base), "a");
}

TEST(TextPrint, AModelDeeperThanTheParserAllowsStillPrints) {
  Schedule s;
  Storage a;
  a.name = "a";
  a.device = "CPU";
  s.storage.push_back(a);
  Entry innermost;
  innermost.name = "k";
  constexpr int kDepth = 1000;
  Entry e = innermost;
  for (int i = 0; i < kDepth; ++i) {
    Entry loop;
    loop.kind = Entry::Kind::Range;
    loop.mutable_body().push_back(std::move(e));
    e = std::move(loop);
  }
  s.entries.push_back(std::move(e));
  const std::string text = print_schedule(s);
  EXPECT_THAT(text, HasSubstr("\n" + std::string(2 * kDepth, ' ') + "kernel k\n"));
  EXPECT_TRUE(text.ends_with("\n}\n"));
}

const std::string kHead = "schedule v1\nbuffer a CPU float32 64\nbuffer f CPU bool 1\n";

// Canonical: printing what was parsed from a printed schedule gives the same text.
struct RoundTripCase {
  const char* name;
  std::string text;
};

void PrintTo(const RoundTripCase& c, std::ostream* os) { *os << c.name; }

class TextRoundTrip : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(TextRoundTrip, PrintParsePrintIsStable) {
  const std::string once = print_schedule(parse_ok(GetParam().text));
  const std::string twice = print_schedule(parse_ok(once));
  EXPECT_EQ(once, twice);
  EXPECT_TRUE(once.starts_with("schedule v1\n"));
  EXPECT_TRUE(once.ends_with("\n"));
}

INSTANTIATE_TEST_SUITE_P(
    Text, TextRoundTrip,
    ::testing::Values(RoundTripCase{"SpecExample", std::string(kSpecExample)},
                      RoundTripCase{"HeaderOnly", "schedule v1\n"},
                      RoundTripCase{"OneBufferTakenThrice", "schedule v1\nbuffer a CPU bool 0\nkernel k a a a\n"},
                      RoundTripCase{"CrlfLinesAndEveryKindOfStorage",
                                    "schedule v1\r\nparam w DISK:/w.bin uint64 16\r\nalloc s CPU uint8 3\r\n"
                                    "buffer b CUDA:0 bfloat16 2 phase=255 held\r\n"
                                    "kernel load b w s\r\ncopy after(b) bitcast(w, int16)\r\n"},
                      RoundTripCase{"NestedLoopsAndViews",
                                    "schedule v1\nbuffer f CPU bool 1\nbuffer x CPU float64 64\n"
                                    "range { range { range {} }\nloop flag=shrink(f, 0, 1) { copy x x\n"
                                    "kernel k bitcast(shrink(after(x), 8, 16), uint16) } }\n"},
                      RoundTripCase{"Views200Deep",
                                    kHead + "kernel k " + repeat("after(", 200) + "a" + repeat(")", 200) + "\n"},
                      RoundTripCase{"Ranges200Deep",
                                    kHead + repeat("range {\n", 200) + "kernel k a\n" + repeat("}\n", 200)}),
    [](const ::testing::TestParamInfo<RoundTripCase>& info) { return std::string(info.param.name); });

TEST(TextModelRoundTrip, TheModelSurvivesPrinting) {
  Schedule first = parse_ok(kSpecExample);
  Schedule second = parse_ok(print_schedule(first));
  ASSERT_EQ(first.storage.size(), second.storage.size());
  for (std::size_t i = 0; i < first.storage.size(); ++i) {
    EXPECT_EQ(first.storage[i].name, second.storage[i].name);
    EXPECT_EQ(first.storage[i].kind, second.storage[i].kind);
    EXPECT_EQ(first.storage[i].phase, second.storage[i].phase);
    EXPECT_EQ(first.storage[i].held, second.storage[i].held);
  }
  ASSERT_EQ(second.entries.size(), 3u);
  EXPECT_EQ(second.entries[1].body()[1].args[1].view->length, 1024u);
}

}  // namespace
}  // namespace planck
