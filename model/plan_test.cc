#include "model/plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace planck {
namespace {

using ::testing::HasSubstr;

// The example of docs/formats.md#plans-plan.
constexpr std::string_view kSpecExample = R"(plan v1
arena arena0 CUDA 8192
place t0 arena0 0
place t1 arena0 4096     # the buffer's bytes start at place + phase
)";

Plan parse_ok(std::string_view text) {
  Result<Plan> r = parse_plan(text, "p.plan");
  if (!r) {
    ADD_FAILURE() << r.error().message();
    return {};
  }
  return std::move(r).value();
}

Error parse_error(std::string_view text) {
  Result<Plan> r = parse_plan(text, "p.plan");
  if (r) {
    ADD_FAILURE() << "parsed, but should not have:\n" << text;
    return {};
  }
  return r.error();
}

TEST(PlanFile, SpecExampleParses) {
  Plan p = parse_ok(kSpecExample);
  EXPECT_EQ(p.source, "p.plan");
  ASSERT_EQ(p.arenas.size(), 1u);
  EXPECT_EQ(p.arenas[0].name, "arena0");
  EXPECT_EQ(p.arenas[0].device, "CUDA");
  EXPECT_EQ(p.arenas[0].size, 8192u);
  EXPECT_EQ(p.arenas[0].pos.line, 2);
  EXPECT_EQ(p.arenas[0].pos.col, 1);
  ASSERT_EQ(p.placements.size(), 2u);
  EXPECT_EQ(p.placements[1].buffer, "t1");
  EXPECT_EQ(p.placements[1].arena, "arena0");
  EXPECT_EQ(p.placements[1].place, 4096u);
  EXPECT_EQ(p.placements[1].pos.line, 4);
}

TEST(PlanFile, CommentsBlankLinesCrlfAndIndentAreIgnored) {
  Plan p = parse_ok("# written by a planner\r\n\r\n  plan v1\t# header\r\n\tplace b a 256\r\n# end");
  ASSERT_EQ(p.placements.size(), 1u);
  EXPECT_EQ(p.placements[0].place, 256u);
  EXPECT_EQ(p.placements[0].pos.line, 4);
  EXPECT_EQ(p.placements[0].pos.col, 2);
}

TEST(PlanFile, AByteOrderMarkAtTheStartIsSkipped) {
  Plan p = parse_ok("\xef\xbb\xbfplan v1\narena a CPU 256\n");
  ASSERT_EQ(p.arenas.size(), 1u);
  EXPECT_EQ(p.arenas[0].pos.line, 2);
  EXPECT_EQ(parse_error("\xef\xbb\xbfplan v2\n").where, "p.plan:1:6");
  EXPECT_EQ(parse_error("\xef\xbb\xbf").message(),
            "p.plan:1:1: expected the header `plan v1`, found the end of the file");
}

TEST(PlanFile, PlanWordsHaveNoBlankCommentSignOrControlByte) {
  EXPECT_TRUE(is_plan_word("t0"));
  EXPECT_TRUE(is_plan_word("0"));
  EXPECT_TRUE(is_plan_word("a(b),c=d"));
  EXPECT_FALSE(is_plan_word(""));
  EXPECT_FALSE(is_plan_word("a b"));
  EXPECT_FALSE(is_plan_word("a\tb"));
  EXPECT_FALSE(is_plan_word("a#b"));
  EXPECT_FALSE(is_plan_word("a\x7f"));
}

TEST(PlanFile, OnlySyntaxIsJudged) {
  // Unknown arenas, misaligned and overlapping places, duplicates: the checker's business.
  Plan p = parse_ok("plan v1\nplace x nowhere 3\nplace x nowhere 3\narena a CPU 0\narena a CPU 0\n");
  EXPECT_EQ(p.placements.size(), 2u);
  EXPECT_EQ(p.arenas.size(), 2u);
}

TEST(PlanFile, NumbersJustBelow2To62AreAccepted) {
  Plan p = parse_ok("plan v1\narena a CPU 4611686018427387903\nplace b a 4611686018427387903\n");
  EXPECT_EQ(p.arenas[0].size, kMaxBytes - 1);
  EXPECT_EQ(p.placements[0].place, kMaxBytes - 1);
}

TEST(PlanFile, PrintWritesArenasThenPlacements) {
  Plan p;
  p.placements.push_back({"t1", "arena1", 512, {}});
  p.arenas.push_back({"arena0", "CUDA:0", 8192, {}});
  p.arenas.push_back({"arena1", "CPU", 1024, {}});
  EXPECT_EQ(print_plan(p),
            "plan v1\n"
            "arena arena0 CUDA:0 8192\n"
            "arena arena1 CPU 1024\n"
            "place t1 arena1 512\n");
}

// Names held in place and on the heap (Name::kInline is 15), and numbers of
// every width up to 2^64 - 1, print as fmt prints them.
TEST(PlanFile, PrintWritesNamesOfEveryLengthAndNumbersOfEveryWidth) {
  Plan p;
  std::string expected = "plan v1\n";
  p.arenas.push_back({std::string(16, 'a'), "", UINT64_MAX, {}});
  expected += fmt::format("arena {}  {}\n", std::string(16, 'a'), UINT64_MAX);
  Bytes place = 0;
  for (std::size_t length = 0; length <= 40; ++length) {
    const std::string buffer(length, static_cast<char>('b' + length % 20));
    const std::string arena(40 - length, 'z');
    p.placements.push_back({buffer, arena, place, {}});
    expected += fmt::format("place {} {} {}\n", buffer, arena, place);
    // 0, 9, 99, ... up to 19 nines, then 2^64 - 1: every count of digits.
    place = place <= (UINT64_MAX - 9) / 10 ? place * 10 + 9 : UINT64_MAX;
  }
  p.placements.push_back({"t", "x", 10000, {}});
  expected += "place t x 10000\n";
  EXPECT_EQ(print_plan(p), expected);
}

TEST(PlanFile, PrintThenParseRoundTrips) {
  const std::string text = print_plan(parse_ok(kSpecExample));
  EXPECT_EQ(text, "plan v1\narena arena0 CUDA 8192\nplace t0 arena0 0\nplace t1 arena0 4096\n");
  Plan again = parse_ok(text);
  ASSERT_EQ(again.placements.size(), 2u);
  EXPECT_EQ(again.placements[0].buffer, "t0");
  EXPECT_EQ(again.placements[1].place, 4096u);
  EXPECT_EQ(print_plan(again), text);
}

TEST(PlanFile, AnEmptyPlanRoundTrips) {
  Plan p = parse_ok("plan v1\n");
  EXPECT_TRUE(p.arenas.empty());
  EXPECT_EQ(print_plan(p), "plan v1\n");
}

struct ErrorCase {
  const char* name;
  std::string text;
  std::string where;  // "LINE:COL" in p.plan
  std::string what;   // a fragment of the message
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.name; }

class PlanFileError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(PlanFileError, SaysWhereAndWhat) {
  const ErrorCase& c = GetParam();
  Error e = parse_error(c.text);
  EXPECT_EQ(e.where, "p.plan:" + c.where) << e.message();
  EXPECT_THAT(e.what, HasSubstr(c.what)) << e.message();
}

INSTANTIATE_TEST_SUITE_P(
    PlanFile, PlanFileError,
    ::testing::Values(
        ErrorCase{"EmptyFile", "", "1:1", "expected the header `plan v1`, found the end of the file"},
        ErrorCase{"OnlyComments", "# nothing\n\n", "3:1", "expected the header `plan v1`"},
        ErrorCase{"CommentWithoutNewline", "# nothing", "1:10", "found the end of the file"},
        ErrorCase{"MissingHeader", "arena a CPU 256\n", "1:1",
                  "expected the header `plan v1`, found `arena`"},
        ErrorCase{"WrongVersion", "plan v2\n", "1:6", "unsupported version `v2`"},
        ErrorCase{"HeaderWithoutVersion", "plan\n", "1:5", "expected the version `v1`"},
        ErrorCase{"HeaderTrailingGarbage", "plan v1 x\n", "1:9", "unexpected `x` after plan"},
        ErrorCase{"UnknownStatement", "plan v1\nplace a b 0\nplaces a b 0\n", "3:1",
                  "unknown statement `places` (expected arena or place)"},
        ErrorCase{"SecondHeader", "plan v1\nplan v1\n", "2:1", "unknown statement `plan`"},
        ErrorCase{"ArenaWithoutSize", "plan v1\narena a CPU\n", "2:12", "expected the arena's size in bytes"},
        ErrorCase{"ArenaWithoutDevice", "plan v1\narena a   # CPU 256\n", "2:11",
                  "expected the arena's device"},
        ErrorCase{"PlaceWithoutPlace", "plan v1\nplace b a\n", "2:10", "expected the place in bytes"},
        ErrorCase{"ArenaTrailingWord", "plan v1\narena a CPU 256 extra\n", "2:17",
                  "unexpected `extra` after arena (it takes NAME DEVICE SIZE)"},
        ErrorCase{"PlaceTrailingWord", "plan v1\nplace b a 0 1\n", "2:13",
                  "after place (it takes BUFFER ARENA PLACE)"},
        ErrorCase{"BadNumber", "plan v1\nplace b a 0x100\n", "2:11", "place `0x100` is not a decimal number"},
        ErrorCase{"NegativeNumber", "plan v1\nplace b a -256\n", "2:11", "is not a decimal number"},
        ErrorCase{"SizeAt2To62", "plan v1\narena a CPU 4611686018427387904\n", "2:13",
                  "arena size at or above 2^62"},
        ErrorCase{"FortyDigitPlace", "plan v1\nplace b a 1234567890123456789012345678901234567890\n", "2:11",
                  "place at or above 2^62"},
        ErrorCase{"NulByte", std::string("plan v1\nplace b\0 a 0\n", 21), "2:8",
                  "control byte 0x00 is not allowed"},
        ErrorCase{"ControlByteInComment", "plan v1 # \x1b[31m\n", "1:11", "control byte 0x1b"},
        ErrorCase{"LoneCarriageReturn", "plan v1\rarena a CPU 0\n", "1:8", "control byte 0x0d"}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return std::string(info.param.name); });

TEST(PlanFileRead, AMissingFileCannotBeRead) {
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / "planck_plan_test_missing.plan").string();
  Result<Plan> p = read_plan(path);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message(), path + ": cannot read: No such file or directory");
}

}  // namespace
}  // namespace planck
