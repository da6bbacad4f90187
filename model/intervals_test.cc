#include "model/intervals.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "model/file.h"

namespace planck {
namespace {

using ::testing::HasSubstr;

IntervalProblem parse_ok(std::string_view text) {
  Result<IntervalProblem> r = parse_intervals(text, "i.csv");
  if (!r) {
    ADD_FAILURE() << r.error().message();
    return {};
  }
  return std::move(r).value();
}

Error parse_error(std::string_view text) {
  Result<IntervalProblem> r = parse_intervals(text, "i.csv");
  if (r) {
    ADD_FAILURE() << "parsed, but should not have:\n" << text;
    return {};
  }
  return r.error();
}

TEST(Intervals, RowsBecomeBuffersAliveOnHalfOpenRanges) {
  IntervalProblem p = parse_ok("id,lower,upper,size\nx,0,3,1024\nb7,2,5,0\n");
  EXPECT_EQ(p.source, "i.csv");
  ASSERT_EQ(p.buffers.size(), 2u);
  EXPECT_EQ(p.buffers[0].id, "x");
  EXPECT_EQ(p.buffers[0].lower, 0);
  EXPECT_EQ(p.buffers[0].upper, 3);
  EXPECT_EQ(p.buffers[0].size, 1024u);
  EXPECT_EQ(p.buffers[0].line, 2);
  EXPECT_EQ(p.buffers[1].id, "b7");
  EXPECT_EQ(p.buffers[1].size, 0u);
  EXPECT_EQ(p.buffers[1].line, 3);
}

TEST(Intervals, CrlfAndTrailingBlankLinesAreTolerated) {
  IntervalProblem p = parse_ok("id,lower,upper,size\r\n0,0,1,8\r\n1,1,2,8\r\n\r\n\n");
  ASSERT_EQ(p.buffers.size(), 2u);
  EXPECT_EQ(p.buffers[1].size, 8u);
}

TEST(Intervals, AByteOrderMarkBeforeTheHeaderIsSkipped) {
  IntervalProblem p = parse_ok("\xef\xbb\xbfid,lower,upper,size\nx,0,3,1024\n");
  ASSERT_EQ(p.buffers.size(), 1u);
  EXPECT_EQ(p.buffers[0].id, "x");
  EXPECT_EQ(p.buffers[0].line, 2);
  EXPECT_EQ(parse_error("\xef\xbb\xbf").message(),
            "i.csv:1:1: expected the header `id,lower,upper,size`, found an empty file");
}

TEST(Intervals, TheLastRowNeedsNoNewline) {
  EXPECT_EQ(parse_ok("id,lower,upper,size\n0,0,1,8").buffers.size(), 1u);
}

TEST(Intervals, AHeaderAloneIsAnEmptyProblem) {
  EXPECT_TRUE(parse_ok("id,lower,upper,size\n").buffers.empty());
  EXPECT_TRUE(parse_ok("id,lower,upper,size").buffers.empty());
}

TEST(Intervals, BoundsJustBelow2To62AreAccepted) {
  IntervalProblem p =
      parse_ok("id,lower,upper,size\na,4611686018427387902,4611686018427387903,4611686018427387903\n");
  EXPECT_EQ(p.buffers[0].upper, static_cast<std::int64_t>(kMaxBytes - 1));
  EXPECT_EQ(p.buffers[0].size, kMaxBytes - 1);
}

TEST(Intervals, PrintWritesTheCsvBack) {
  const std::string text = "id,lower,upper,size\nx,0,3,1024\nb7,2,5,0\n";
  EXPECT_EQ(print_intervals(parse_ok(text)), text);
  EXPECT_EQ(print_intervals(parse_ok("id,lower,upper,size\r\nx,00,3,1024\r\n\r\n")),
            "id,lower,upper,size\nx,0,3,1024\n");
}

struct ErrorCase {
  const char* name;
  std::string text;
  std::string where;  // "LINE:COL" in i.csv
  std::string what;   // a fragment of the message
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.name; }

class IntervalsError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(IntervalsError, SaysWhereAndWhat) {
  const ErrorCase& c = GetParam();
  Error e = parse_error(c.text);
  EXPECT_EQ(e.where, "i.csv:" + c.where) << e.message();
  EXPECT_THAT(e.what, HasSubstr(c.what)) << e.message();
}

const std::string kHeader = "id,lower,upper,size\n";

INSTANTIATE_TEST_SUITE_P(
    Intervals, IntervalsError,
    ::testing::Values(
        ErrorCase{"EmptyFile", "", "1:1", "expected the header `id,lower,upper,size`, found an empty file"},
        ErrorCase{"WrongHeader", "id,start,end,size\n", "1:1", "found `id,start,end,size`"},
        ErrorCase{"HeaderWithAlignment", "id,lower,upper,size,alignment\n", "1:1", "expected the header"},
        ErrorCase{"TooFewFields", kHeader + "a,0,1\n", "2:6",
                  "expected 4 fields (id,lower,upper,size), found 3"},
        ErrorCase{"TooManyFields", kHeader + "a,0,1,8,9\n", "2:9", "found 5"},
        ErrorCase{"EmptyId", kHeader + ",0,1,8\n", "2:1", "empty id"},
        ErrorCase{"DuplicateId", kHeader + "a,0,1,8\nb,0,1,8\na,2,3,8\n", "4:1",
                  "duplicate id `a`, first on line 2"},
        ErrorCase{"NegativeLower", kHeader + "a,-1,1,8\n", "2:3", "lower `-1` is negative"},
        ErrorCase{"UpperNotAboveLower", kHeader + "a,5,5,8\n", "2:5", "upper 5 is not above lower 5"},
        ErrorCase{"UpperBelowLower", kHeader + "a,5,3,8\n", "2:5", "upper 3 is not above lower 5"},
        ErrorCase{"BadNumber", kHeader + "a,0,1,8k\n", "2:7", "size `8k` is not a decimal number"},
        ErrorCase{"EmptyNumber", kHeader + "a,,1,8\n", "2:3", "lower `` is not a decimal number"},
        ErrorCase{"SpaceInNumber", kHeader + "a, 0,1,8\n", "2:3", "lower ` 0` is not a decimal number"},
        ErrorCase{"SizeAt2To62", kHeader + "a,0,1,4611686018427387904\n", "2:7", "size at or above 2^62"},
        ErrorCase{"FortyDigitUpper", kHeader + "a,0,1234567890123456789012345678901234567890,1\n", "2:5",
                  "upper at or above 2^62"},
        ErrorCase{"BlankLineBetweenRows", kHeader + "a,0,1,8\n\nb,0,1,8\n", "3:1", "blank line between rows"},
        ErrorCase{"NulByte", kHeader + std::string("a\0,0,1,8\n", 9), "2:2",
                  "control byte 0x00 is not allowed"},
        ErrorCase{"LoneCarriageReturn", kHeader + "a,0,1,8\rb,0,1,8\n", "2:8", "control byte 0x0d"}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return std::string(info.param.name); });

TEST(IntervalsRead, AMissingFileCannotBeRead) {
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / "planck_intervals_missing.csv").string();
  Result<IntervalProblem> p = read_intervals(path);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message(), path + ": cannot read: No such file or directory");
}

// Every public interval problem shipped beside the project reads, and prints
// back to the very bytes it was read from.
class IntervalsShared : public ::testing::TestWithParam<std::string> {};

TEST_P(IntervalsShared, EveryCsvReadsAndPrintsBackUnchanged) {
  const std::filesystem::path dir = std::filesystem::path(PLANCK_SHARED_DIR) / GetParam();
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " is absent";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".csv") files.push_back(entry.path());
  }
  if (files.empty()) GTEST_SKIP() << "no CSV in " << dir;
  std::sort(files.begin(), files.end());
  for (const std::filesystem::path& file : files) {
    SCOPED_TRACE(file.string());
    Result<FileText> text = read_file(file.string());
    ASSERT_TRUE(text) << text.error().message();
    Result<IntervalProblem> p = parse_intervals(text->view(), file.string());
    ASSERT_TRUE(p) << p.error().message();
    EXPECT_FALSE(p->buffers.empty());
    EXPECT_EQ(print_intervals(*p), text->view());
  }
}

INSTANTIATE_TEST_SUITE_P(Intervals, IntervalsShared, ::testing::Values("intervals", "minimalloc"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace planck
