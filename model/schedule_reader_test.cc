#include "model/schedule_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "model/schedule.h"
#include "model/schedule_reader_test_util.h"
#include "tests/spec_example.h"

namespace planck {
namespace {

using ::testing::HasSubstr;
using testing::kSpecExample;
using testing::parse_error;
using testing::parse_ok;
using testing::repeat;

// ---------------------------------------------------------------- the model

TEST(TextParse, EveryReservedWordAndNoOtherIsRefusedAsAStorageName) {
  const std::string_view kReserved[] = {"schedule", "buffer", "alloc", "param", "kernel", "copy",
                                        "range",    "loop",   "shrink", "bitcast", "after"};
  for (std::string_view word : kReserved) {
    const std::string w(word);
    EXPECT_THAT(parse_error("schedule v1\nbuffer " + w + " CPU int8 4\n").message(),
                HasSubstr("`" + w + "` is a reserved word"));
    EXPECT_THAT(parse_error("schedule v1\nparam " + w + " CPU int8 4\n").message(),
                HasSubstr("`" + w + "` is a reserved word"));
    // One byte more, one fewer or another is a name like any other.
    for (const std::string& name : {w + "s", w.substr(0, w.size() - 1), "X" + w.substr(1)}) {
      const Schedule s = parse_ok("schedule v1\nbuffer " + name + " CPU int8 4\nkernel k " + name + "\n");
      ASSERT_EQ(s.storage.size(), 1u);
      EXPECT_EQ(s.storage[0].name, name);
    }
  }
}

TEST(TextParse, SpecExampleBuildsTheModel) {
  Schedule s = parse_ok(kSpecExample);
  EXPECT_EQ(s.source, "t.sched");
  ASSERT_EQ(s.storage.size(), 6u);
  EXPECT_EQ(s.storage[0].kind, StorageKind::Param);
  EXPECT_EQ(s.storage[0].name, "x");
  EXPECT_EQ(s.storage[0].device, "CUDA");
  EXPECT_EQ(s.storage[0].dtype, Dtype::Float32);
  EXPECT_EQ(s.storage[0].bytes, 4096u);
  EXPECT_TRUE(s.storage[1].held);
  EXPECT_EQ(s.storage[3].phase, 64u);
  EXPECT_FALSE(s.storage[3].held);
  EXPECT_EQ(s.storage[4].dtype, Dtype::Bool);
  EXPECT_EQ(s.storage[5].device, "CPU");

  ASSERT_EQ(s.entries.size(), 3u);
  const Entry& matmul = s.entries[0];
  EXPECT_EQ(matmul.kind, Entry::Kind::Kernel);
  EXPECT_EQ(matmul.name, "matmul");
  ASSERT_EQ(matmul.args.size(), 3u);
  EXPECT_EQ(matmul.args[1].kind, Arg::Kind::Storage);
  EXPECT_EQ(matmul.args[1].storage, 0u);

  const Entry& loop = s.entries[1];
  EXPECT_EQ(loop.kind, Entry::Kind::Loop);
  ASSERT_EQ(loop.flag().size(), 1u);
  EXPECT_EQ(storage_of(loop.flag()[0]), 4u);
  ASSERT_EQ(loop.body().size(), 2u);
  const Arg& shrink = loop.body()[1].args[1];
  EXPECT_EQ(shrink.kind, Arg::Kind::Shrink);
  EXPECT_EQ(shrink.view->start, 0u);
  EXPECT_EQ(shrink.view->length, 1024u);
  EXPECT_EQ(storage_of(shrink), 3u);

  const Entry& copy = s.entries[2];
  EXPECT_EQ(copy.kind, Entry::Kind::Copy);
  ASSERT_EQ(copy.args.size(), 2u);
  EXPECT_EQ(copy.args[1].kind, Arg::Kind::Bitcast);
  EXPECT_EQ(copy.args[1].dtype, Dtype::Float32);
}

TEST(TextParse, PositionsAreThoseOfTheFirstToken) {
  Schedule s = parse_ok(kSpecExample);
  EXPECT_EQ(s.storage[0].pos.line, 2);
  EXPECT_EQ(s.storage[0].pos.col, 1);
  const Entry& step = s.entries[1].body()[1];
  EXPECT_EQ(step.pos.line, 11);
  EXPECT_EQ(step.pos.col, 3);
  EXPECT_EQ(s.entries[1].pos.line, 9);
}

TEST(TextParse, ViewsNestAndTakeTheirBasesBytes) {
  Schedule s = parse_ok(
      "schedule v1\n"
      "buffer a CPU int8 64\n"
      "kernel k after(bitcast(shrink(shrink(a, 8, 32), 16, 16), float64))\n");
  const Arg& after = s.entries[0].args[0];
  EXPECT_EQ(after.kind, Arg::Kind::After);
  const Arg& bitcast = after.view->base;
  EXPECT_EQ(bitcast.kind, Arg::Kind::Bitcast);
  EXPECT_EQ(bitcast.dtype, Dtype::Float64);
  const Arg& outer = bitcast.view->base;
  EXPECT_EQ(outer.view->start, 16u);
  EXPECT_EQ(outer.view->length, 16u);
  EXPECT_EQ(outer.view->base.view->start, 8u);
  EXPECT_EQ(storage_of(after), 0u);
}

TEST(TextParse, AShrinkMayEndExactlyAtItsBase) {
  Schedule s = parse_ok("schedule v1\nbuffer a CPU int8 64\nkernel k shrink(a, 64, 0) shrink(a, 0, 64)\n");
  EXPECT_EQ(s.entries[0].args.size(), 2u);
}

TEST(TextParse, CommentsBlankLinesAndCrlfAreIgnored) {
  Schedule s = parse_ok(
      "\r\n# a comment before the header\r\n"
      "schedule v1   # trailing comment\r\n"
      "\r\n"
      "buffer a CPU int8 4#no space needed\r\n"
      "kernel k a\r\n");
  ASSERT_EQ(s.storage.size(), 1u);
  EXPECT_EQ(s.storage[0].bytes, 4u);
  ASSERT_EQ(s.entries.size(), 1u);
  EXPECT_EQ(s.entries[0].pos.line, 6);
}

TEST(TextParse, AByteOrderMarkAtTheStartIsSkipped) {
  Schedule s = parse_ok("\xef\xbb\xbfschedule v1\nbuffer a CPU int8 4\nkernel k a\n");
  ASSERT_EQ(s.storage.size(), 1u);
  EXPECT_EQ(s.storage[0].pos.line, 2);
  // Columns on the first line are those an editor shows, without the mark.
  EXPECT_EQ(parse_error("\xef\xbb\xbfschedule v4\n").where, "t.sched:1:10");
}

TEST(TextParse, AByteOrderMarkAnywhereElseIsNoBlank) {
  Error e = parse_error("schedule v1\n\xef\xbb\xbf\n");
  EXPECT_EQ(e.message(),
            "t.sched:2:1: unknown statement `\\xef\\xbb\\xbf` (expected device, buffer, alloc, param, kernel, "
            "copy, range, loop, record or wait)");
}

TEST(TextParse, DeclarationsMayFollowEntries) {
  Schedule s = parse_ok("schedule v1\nbuffer a CPU int8 4\nkernel k a\nbuffer b CPU int8 4\nkernel k b\n");
  EXPECT_EQ(s.storage.size(), 2u);
  EXPECT_EQ(s.entries.size(), 2u);
}

TEST(TextParse, BracesShareLinesWithStatements) {
  Schedule s =
      parse_ok("schedule v1\nbuffer a CPU int8 4\nrange { kernel k a }\nrange { range { kernel k a } }");
  ASSERT_EQ(s.entries.size(), 2u);
  EXPECT_EQ(s.entries[0].kind, Entry::Kind::Range);
  ASSERT_EQ(s.entries[0].body().size(), 1u);
  EXPECT_EQ(s.entries[1].body()[0].body()[0].name, "k");
}

TEST(TextParse, KernelsMayTakeNoArgumentsAndLoopsMayBeEmpty) {
  Schedule s = parse_ok("schedule v1\nbuffer f CPU bool 1\nkernel barrier\nloop flag=f {\n}\nrange {}\n");
  ASSERT_EQ(s.entries.size(), 3u);
  EXPECT_TRUE(s.entries[0].args.empty());
  EXPECT_TRUE(s.entries[1].body().empty());
  EXPECT_TRUE(s.entries[2].body().empty());
}

TEST(TextParse, OptionsComeInAnyOrder) {
  Schedule s = parse_ok("schedule v1\nbuffer a CPU int8 4 held phase = 32\n");
  EXPECT_TRUE(s.storage[0].held);
  EXPECT_EQ(s.storage[0].phase, 32u);
}

TEST(TextParse, SizesJustBelow2To62AreAccepted) {
  Schedule s = parse_ok("schedule v1\nbuffer a CPU int8 4611686018427387903 phase=4611686018427387903\n");
  EXPECT_EQ(s.storage[0].bytes, kMaxBytes - 1);
  EXPECT_EQ(s.storage[0].phase, kMaxBytes - 1);
}

TEST(TextParse, DevicesAndKernelNamesAreAnyWord) {
  Schedule s = parse_ok("schedule v1\nparam w DISK:/data/w.bin float16 8\nkernel x.y/z@1 w\n");
  EXPECT_EQ(s.storage[0].device, "DISK:/data/w.bin");
  EXPECT_EQ(s.entries[0].name, "x.y/z@1");
}

// ---------------------------------------------------------------- errors

struct ErrorCase {
  const char* name;
  std::string text;
  std::string where;  // "LINE:COL" in t.sched
  std::string what;   // a fragment of the message
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.name; }

class TextError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(TextError, SaysWhereAndWhat) {
  const ErrorCase& c = GetParam();
  Error e = parse_error(c.text);
  EXPECT_EQ(e.where, "t.sched:" + c.where) << e.message();
  EXPECT_THAT(e.what, HasSubstr(c.what)) << e.message();
}

const std::string kHead = "schedule v1\nbuffer a CPU float32 64\nbuffer f CPU bool 1\n";  // lines 1-3

INSTANTIATE_TEST_SUITE_P(
    Text, TextError,
    ::testing::Values(
        ErrorCase{"EmptyFile", "", "1:1",
                  "expected the header `schedule v1`, `schedule v2` or `schedule v3`, found the end of the file"},
        ErrorCase{"MissingHeader", "# c\nbuffer a CPU int8 4\n", "2:1", "expected the header `schedule v1`"},
        ErrorCase{"WrongVersion", "schedule v4\n", "1:10", "unsupported version `v4`"},
        ErrorCase{"HeaderWithoutVersion", "schedule\n", "1:9", "found the end of the line"},
        ErrorCase{"HeaderTrailingGarbage", "schedule v1 extra\n", "1:13", "found `extra`"},
        ErrorCase{"UnknownStatement", kHead + "kernal k a\n", "4:1", "unknown statement `kernal`"},
        ErrorCase{"StatementStartsWithPunctuation", kHead + "(\n", "4:1", "expected a statement, found `(`"},
        ErrorCase{"UndeclaredName", kHead + "kernel k a b\n", "4:12", "undeclared name `b`"},
        ErrorCase{"UseBeforeDeclaration", "schedule v1\nkernel k b\nbuffer b CPU int8 4\n", "2:10",
                  "undeclared name `b`"},
        ErrorCase{"UndeclaredInsideView", kHead + "kernel k shrink(zz, 0, 1)\n", "4:17",
                  "undeclared name `zz`"},
        ErrorCase{"UndeclaredFlag", kHead + "loop flag=g {\n}\n", "4:11", "undeclared name `g`"},
        ErrorCase{"DuplicateName", kHead + "param a CPU int8 4\n", "4:7",
                  "duplicate name `a`, first declared at 2:1"},
        ErrorCase{"ShrinkPastBase", kHead + "kernel k shrink(a, 60, 8)\n", "4:10",
                  "shrink(a, 60, 8) reaches byte 68 of a 64-byte base"},
        ErrorCase{"ShrinkPastShrunkBase", kHead + "kernel k a shrink(shrink(a, 0, 16), 8, 16)\n", "4:12",
                  "reaches byte 24 of a 16-byte base"},
        ErrorCase{"BitcastNotAMultiple", kHead + "kernel k bitcast(shrink(a, 0, 6), float32)\n", "4:10",
                  "views 6 bytes, which is not a multiple of 4, the size of float32"},
        ErrorCase{"BytesNotAMultipleOfDtype", "schedule v1\nbuffer a CPU float32 6\n", "2:22",
                  "size 6 is not a multiple of 4 bytes, the size of float32"},
        ErrorCase{"CloseBraceWithoutOpen", kHead + "kernel k a\n}\n", "5:1", "`}` without a matching `{`"},
        ErrorCase{"CloseBraceAfterStatement", kHead + "kernel k a }\n", "4:12", "`}` without a matching `{`"},
        ErrorCase{"OpenBraceNeverClosed", kHead + "range {\n  loop flag=f { kernel k a }\n  kernel k a\n",
                  "4:7", "`{` is never closed"},
        ErrorCase{"SizeAt2To62", "schedule v1\nbuffer a CPU int8 4611686018427387904\n", "2:19",
                  "size at or above 2^62"},
        ErrorCase{"PhaseAt2To62", "schedule v1\nbuffer a CPU int8 4 phase=4611686018427387904\n", "2:27",
                  "phase at or above 2^62"},
        ErrorCase{"ShrinkStartAt2To62", kHead + "kernel k shrink(a, 4611686018427387904, 0)\n", "4:20",
                  "shrink start at or above 2^62"},
        ErrorCase{"UnknownDtype", "schedule v1\nbuffer a CPU float8 4\n", "2:14", "unknown dtype `float8`"},
        ErrorCase{"UnknownBitcastDtype", kHead + "kernel k bitcast(a, f32)\n", "4:21", "unknown dtype `f32`"},
        ErrorCase{"BadNumber", "schedule v1\nbuffer a CPU int8 12a\n", "2:19",
                  "size `12a` is not a decimal number"},
        ErrorCase{"NegativeNumber", "schedule v1\nbuffer a CPU int8 -4\n", "2:19", "is not a decimal number"},
        ErrorCase{"BadShrinkLength", kHead + "kernel k shrink(a, 0, 0x10)\n", "4:23",
                  "shrink length `0x10` is not a decimal number"},
        ErrorCase{"MissingSize", "schedule v1\nbuffer a CPU int8\n", "2:18", "expected a size in bytes"},
        ErrorCase{"UnknownOption", "schedule v1\nbuffer a CPU int8 4 pinned\n", "2:21",
                  "unknown option `pinned`"},
        ErrorCase{"PhaseTwice", "schedule v1\nbuffer a CPU int8 4 phase=1 phase=2\n", "2:29",
                  "`phase=` given twice"},
        ErrorCase{"HeldTwice", "schedule v1\nbuffer a CPU int8 4 held held\n", "2:26", "`held` given twice"},
        ErrorCase{"PhaseWithoutEquals", "schedule v1\nbuffer a CPU int8 4 phase 64\n", "2:27",
                  "expected `=` after `phase`"},
        ErrorCase{"OptionPunctuation", "schedule v1\nbuffer a CPU int8 4 (\n", "2:21",
                  "expected the end of the statement, found `(`"},
        ErrorCase{"PhaseOnAlloc", "schedule v1\nalloc a CPU int8 4 phase=64\n", "2:20",
                  "`phase` applies to a buffer only, not to alloc `a`"},
        ErrorCase{"HeldOnParam", "schedule v1\nparam a CPU int8 4 held\n", "2:20",
                  "`held` applies to a buffer only, not to param `a`"},
        ErrorCase{"WordAfterParam", "schedule v1\nparam a CPU int8 4 x\n", "2:20", "found `x`"},
        ErrorCase{"CopyWithOneArgument", kHead + "copy a\n", "4:1", "copy takes exactly 2 arguments"},
        ErrorCase{"CopyWithThreeArguments", kHead + "copy a a f\n", "4:10", "this is a third"},
        ErrorCase{"DeclarationInsideLoop", kHead + "range {\n  buffer b CPU int8 4\n}\n", "5:3",
                  "belongs at the top level, not inside a loop"},
        ErrorCase{"LoopWithoutFlag", kHead + "loop f {\n}\n", "4:6",
                  "expected `flag=ARG` after `loop`, found `f`"},
        ErrorCase{"LoopFlagWithoutEquals", kHead + "loop flag f {\n}\n", "4:11",
                  "expected `flag=ARG` after `loop`"},
        ErrorCase{"RangeWithoutBrace", kHead + "range kernel k a\n", "4:7",
                  "expected `{` to open the loop body"},
        ErrorCase{"TrailingGarbageAfterLoop", kHead + "range { kernel k a } kernel k a\n", "4:22",
                  "expected the end of the statement, found `kernel`"},
        ErrorCase{"CommaInArguments", kHead + "kernel k a , a\n", "4:12", "expected an argument, found `,`"},
        ErrorCase{"ViewWithoutParen", kHead + "kernel k shrink a\n", "4:17", "expected `(` after `shrink`"},
        ErrorCase{"ViewUnclosed", kHead + "kernel k after(a\n", "4:17", "expected `)` to close `after(`"},
        ErrorCase{"ShrinkMissingLength", kHead + "kernel k shrink(a, 0)\n", "4:21",
                  "expected `,` before the shrink length"},
        ErrorCase{"KernelWithoutName", kHead + "kernel\n", "4:7",
                  "expected a kernel name, found the end of the line"},
        ErrorCase{"NameStartsWithDigit", "schedule v1\nbuffer 1a CPU int8 4\n", "2:8",
                  "`1a` is not a valid storage name"},
        ErrorCase{"NameWithDash", "schedule v1\nbuffer a-b CPU int8 4\n", "2:8",
                  "is not a valid storage name"},
        ErrorCase{"NameReserved", "schedule v1\nbuffer shrink CPU int8 4\n", "2:8",
                  "`shrink` is a reserved word"},
        ErrorCase{"NameIsKeyword", "schedule v1\nbuffer loop CPU int8 4\n", "2:8",
                  "`loop` is a reserved word"},
        ErrorCase{"NulByte", std::string("schedule v1\nbuffer a CPU int8 4\0\n", 33), "2:20",
                  "control byte 0x00 is not allowed"},
        ErrorCase{"ControlByteInComment", "schedule v1\n# bell \a here\n", "2:8", "control byte 0x07"},
        ErrorCase{"LoneCarriageReturn", "schedule v1\rbuffer a CPU int8 4\n", "1:12", "control byte 0x0d"},
        ErrorCase{"ViewsTooDeep", kHead + "kernel k " + repeat("after(", 201) + "a" + repeat(")", 201) + "\n",
                  "4:1210", "views nested deeper than 200"},
        ErrorCase{"LoopsTooDeep", kHead + repeat("range {\n", 201) + repeat("}\n", 201), "204:1",
                  "loops nested deeper than 200"}),
    [](const ::testing::TestParamInfo<ErrorCase>& info) { return std::string(info.param.name); });

TEST(TextErrorMessage, TheMessageNamesFileLineAndColumn) {
  Error e = parse_error(
      "schedule v1\n"
      "buffer t1 CUDA float32 4096\n"
      "range {\n"
      "  kernel step t1 shrink(t1, 0, 5000)\n"
      "}\n");
  EXPECT_EQ(e.message(), "t.sched:4:18: shrink(t1, 0, 5000) reaches byte 5000 of a 4096-byte base");
}

TEST(TextErrorMessage, AFortyDigitNumberIsTooLargeNotAnOverflow) {
  Error e = parse_error("schedule v1\nbuffer a CPU int8 1234567890123456789012345678901234567890\n");
  EXPECT_EQ(e.message(), "t.sched:2:19: size at or above 2^62: `1234567890123456789012345678901234567890`");
}

TEST(TextErrorMessage, BytesOutsidePrintableAsciiAreEscapedInTheMessage) {
  Error e = parse_error("schedule v1\nbuffer a CPU \xff\xfeint8 256\n");
  EXPECT_EQ(e.message(), "t.sched:2:14: unknown dtype `\\xff\\xfeint8` (expected bool, int8, uint8, int16, "
                         "uint16, float16, bfloat16, int32, uint32, float32, int64, uint64 or float64)");
}

TEST(TextErrorMessage, AHugeTokenIsCutShortInTheMessage) {
  Error e = parse_error("schedule v1\nkernel k " + std::string(100000, 'x') + "\n");
  EXPECT_EQ(e.where, "t.sched:2:10");
  EXPECT_LT(e.what.size(), 100u);
}

// ---------------------------------------------------------------- nesting

// The parser looks names up some statements after it reads them; the error
// a file gets is still the first in the file.
TEST(TextErrorOrder, AnUndeclaredNameComesBeforeALaterSyntaxError) {
  Error e = parse_error(kHead + "kernel k a zz\nkernel k a\nkernel k (\n");
  EXPECT_EQ(e.message(), "t.sched:4:12: undeclared name `zz`");
}

TEST(TextErrorOrder, AnUndeclaredNameComesBeforeALaterErrorInItsStatement) {
  EXPECT_EQ(parse_error(kHead + "kernel k zz a (\n").message(), "t.sched:4:10: undeclared name `zz`");
  EXPECT_EQ(parse_error(kHead + "copy zz a f\n").message(), "t.sched:4:6: undeclared name `zz`");
  EXPECT_EQ(parse_error(kHead + "kernel k zz shrink(a, 0, 999)\n").message(),
            "t.sched:4:10: undeclared name `zz`");
  EXPECT_EQ(parse_error(kHead + "loop flag=zz (\n").message(), "t.sched:4:11: undeclared name `zz`");
}

TEST(TextErrorOrder, ADuplicateNameComesBeforeALaterError) {
  EXPECT_EQ(parse_error(kHead + "param a CPU float8 4\n").message(),
            "t.sched:4:7: duplicate name `a`, first declared at 2:1");
  EXPECT_EQ(parse_error(kHead + "param a CPU int8 4\nkernel k zz\n").message(),
            "t.sched:4:7: duplicate name `a`, first declared at 2:1");
}

TEST(TextErrorOrder, AnErrorBeforeAnUndeclaredNameComesFirst) {
  EXPECT_EQ(parse_error(kHead + "kernel k (\nkernel k zz\n").message(),
            "t.sched:4:10: expected an argument, found `(`");
  EXPECT_EQ(parse_error(kHead + "kernel k shrink(a, 0, 999) zz\n").message(),
            "t.sched:4:10: shrink(a, 0, 999) reaches byte 999 of a 64-byte base");
}

// Many more names than the parser has lookups in flight, in and out of
// loops, declared between entries: each argument names its own storage.
TEST(TextParse, EveryArgumentOfALargeScheduleNamesItsStorage) {
  std::string text = "schedule v1\n";
  for (int i = 0; i < 300; ++i) {
    text += fmt::format("buffer t{} CPU int8 {}\n", i, i + 1);
    if (i > 0) text += fmt::format("kernel k t{} t{}\n", i, i - 1);
    if (i % 7 == 0) text += fmt::format("loop flag=t{} {{\n  kernel k t{} after(t{})\n}}\n", i, i, i);
  }
  Schedule s = parse_ok(text);
  ASSERT_EQ(s.storage.size(), 300u);
  int kernels = 0;
  for (const Entry& e : s.entries) {
    if (e.kind == Entry::Kind::Loop) {
      const StorageId t = e.flag().front().storage;
      EXPECT_EQ(s.storage[t].bytes, t + 1);
      ASSERT_EQ(e.body().size(), 1u);
      EXPECT_EQ(e.body()[0].args[0].storage, t);
      EXPECT_EQ(storage_of(e.body()[0].args[1]), t);
      continue;
    }
    ++kernels;
    ASSERT_EQ(e.args.size(), 2u);
    EXPECT_EQ(e.args[0].storage, static_cast<StorageId>(kernels));
    EXPECT_EQ(e.args[1].storage, static_cast<StorageId>(kernels - 1));
  }
  EXPECT_EQ(kernels, 299);
}

TEST(TextErrorOrder, AnUndeclaredNameFarIntoALargeScheduleIsFound) {
  std::string text = "schedule v1\nbuffer a CPU int8 4\n";
  for (int i = 0; i < 300; ++i) text += "kernel k a a a\n";
  text += "kernel k a zz\n";
  for (int i = 0; i < 300; ++i) text += "kernel k a a a\n";
  EXPECT_EQ(parse_error(text).message(), "t.sched:303:12: undeclared name `zz`");
}

// A name's place is found from the text only for its message: counted
// after a byte order mark, over "\r\n" line ends, on lines the plain-line
// path reads and on those it leaves to the tokens.
TEST(TextErrorOrder, ADuplicateFarIntoALargeScheduleIsPlacedAtItsName) {
  for (const std::string_view end : {"\n", "\r\n"}) {
    std::string text = fmt::format("\xef\xbb\xbfschedule v1{}", end);
    for (int i = 0; i < 300; ++i) text += fmt::format("buffer t{} CPU int8 4{}", i, end);
    text += fmt::format("param \t t7 CPU int8 4{}", end);
    for (int i = 300; i < 600; ++i) text += fmt::format("buffer t{} CPU int8 4{}", i, end);
    EXPECT_EQ(parse_error(text).message(), "t.sched:302:9: duplicate name `t7`, first declared at 9:1");
  }
}

TEST(TextErrorOrder, ADuplicateNameComesBeforeALaterErrorInItsLine) {
  EXPECT_EQ(parse_error(kHead + "buffer a CPU int8 4 phase=x\nkernel k zz\n").message(),
            "t.sched:4:8: duplicate name `a`, first declared at 2:1");
  EXPECT_EQ(parse_error(kHead + "kernel k zz\nbuffer a CPU int8 4 (\n").message(),
            "t.sched:4:10: undeclared name `zz`");
}

TEST(TextNesting, TwoHundredNestedViewsAreAccepted) {
  Schedule s = parse_ok(kHead + "kernel k " + repeat("after(", 200) + "a" + repeat(")", 200) + "\n");
  int depth = 0;
  for (const Arg* a = &s.entries[0].args[0]; a->kind != Arg::Kind::Storage; a = &a->view->base) ++depth;
  EXPECT_EQ(depth, 200);
}

TEST(TextNesting, TwoHundredNestedLoopsAreAccepted) {
  Schedule s = parse_ok(kHead + repeat("loop flag=f {\n", 200) + "kernel k a\n" + repeat("}\n", 200));
  int depth = 0;
  for (const Entry* e = &s.entries[0]; e->kind == Entry::Kind::Loop; e = &e->body()[0]) ++depth;
  EXPECT_EQ(depth, 200);
}

TEST(TextNesting, TenThousandNestedViewsAreAnErrorNotACrash) {
  Error e =
      parse_error(kHead + "kernel k " + repeat("shrink(", 10000) + "a" + repeat(", 0, 1)", 10000) + "\n");
  EXPECT_EQ(e.message(), "t.sched:4:1410: views nested deeper than 200");
}

TEST(TextNesting, TenThousandNestedLoopsAreAnErrorNotACrash) {
  Error e = parse_error(kHead + repeat("range { ", 10000) + repeat("}", 10000));
  EXPECT_EQ(e.message(), "t.sched:4:1601: loops nested deeper than 200");
}

TEST(TextNesting, TenThousandUnclosedLoopsAreAnErrorNotACrash) {
  Error e = parse_error(kHead + repeat("loop flag=f {\n", 10000));
  EXPECT_EQ(e.message(), "t.sched:204:1: loops nested deeper than 200");
}

}  // namespace
}  // namespace planck
