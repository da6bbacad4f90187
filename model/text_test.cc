#include "model/schedule_printer.h"
#include "model/schedule_reader.h"

#include "model/dump.h"
#include "model/file.h"
#include "model/intervals.h"
#include "model/plan.h"
#include "tests/spec_example.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace planck {
namespace {

using ::testing::HasSubstr;

using testing::kSpecExample;

// The parser reads plain lines by a fast path and the others token by
// token: read token by token alone, text must give the same records, or
// the same error.
void expect_both_paths_agree(std::string_view text, const Result<Schedule>& r) {
  const std::optional<std::string> differ = parse_results_differ(r, parse_schedule_by_tokens(text, "t.sched"));
  EXPECT_FALSE(differ) << "plain lines first, tokens second: " << *differ << "\n" << text;
}

// Parses text both ways, for the test's failures if they differ.
void parse_both_ways(std::string_view text) {
  expect_both_paths_agree(text, parse_schedule(text, "t.sched"));
}

Schedule parse_ok(std::string_view text) {
  Result<Schedule> r = parse_schedule(text, "t.sched");
  expect_both_paths_agree(text, r);
  if (!r) {
    ADD_FAILURE() << r.error().message();
    return {};
  }
  return std::move(r).value();
}

Error parse_error(std::string_view text) {
  Result<Schedule> r = parse_schedule(text, "t.sched");
  expect_both_paths_agree(text, r);
  if (r) {
    ADD_FAILURE() << "parsed, but should not have:\n" << text;
    return {};
  }
  return r.error();
}

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// ---------------------------------------------------------------- the model

TEST(TextPlainLines, EachShapeMakesTheRecordsOfTheTokenPath) {
  const Schedule s = parse_ok(
      "schedule v1\n"
      "param x CUDA float32 4096\n"
      "alloc\tw  CPU int8 16\n"
      "buffer t0 CUDA:1 float16 2 \n"
      "  buffer t1 CUDA bfloat16 0\n"
      "kernel k0 t0 x x\n"
      "kernel lonely\n"
      "copy t1 t0\n"
      "range {\n"
      "  kernel k1 t1 t0\n"
      "\tcopy t0 t1\n"
      "}\n"
      "loop flag=t0 { kernel k2 t0\n"
      "}\n"
      "kernel last t1 t0");
  ASSERT_EQ(s.storage.size(), 4u);
  EXPECT_EQ(s.storage[1].name, "w");
  EXPECT_EQ(s.storage[1].pos.col, 1);
  EXPECT_EQ(s.storage[3].pos.col, 3);
  ASSERT_EQ(s.entries.size(), 6u);
  EXPECT_EQ(s.entries[0].pos.col, 1);
  EXPECT_EQ(s.entries[3].body()[1].args[1].storage, 3u);
  EXPECT_EQ(s.entries[3].body()[1].pos.col, 2);
  EXPECT_EQ(s.entries[4].body()[0].pos.col, 16);
}

TEST(TextPlainLines, ParseResultsDifferSaysHowTwoReadingsDiffer) {
  const auto read = [](std::string_view text) { return parse_schedule(text, "t.sched"); };
  const std::string one = "schedule v1\nbuffer t CUDA int8 4\n";
  EXPECT_FALSE(parse_results_differ(read(one), read(one)));
  EXPECT_FALSE(parse_results_differ(read("schedule v1\nkernel k t\n"), read("schedule v1\nkernel k t\n")));
  EXPECT_THAT(parse_results_differ(read(one), read("schedule v1\nkernel k t\n")).value_or(""),
              HasSubstr("only the first reading parses; the other fails: t.sched:2:10: undeclared name `t`"));
  EXPECT_THAT(parse_results_differ(read("schedule v1\nkernel k u\n"), read("schedule v1\nkernel k t\n")).value_or(""),
              HasSubstr("different errors"));
  EXPECT_THAT(parse_results_differ(read(one), read("schedule v1\n buffer t CUDA int8 4\n")).value_or(""),
              HasSubstr("different records"));
}

TEST(TextPlainLines, EveryByteAtEveryPlaceInAWordEndsItOrNotAsTheTokenPathSays) {
  for (int byte = 0; byte < 256; ++byte) {
    for (int at = 0; at < 20; ++at) {
      std::string name = "t" + std::string(20, 'a');
      name[1 + at] = static_cast<char>(byte);
      parse_both_ways("schedule v1\nbuffer " + name + " CUDA int8 4\nkernel k " + name + "\n");
      parse_both_ways("schedule v1\nbuffer t CUDA int8 4\nkernel " + name + " t\n");
    }
  }
}

// A plain line shorter than 64 bytes with 64 bytes of text from its start
// is split into words by vector compares, 16 bytes at a time, any other
// byte by byte: a byte that may end a word, at each place of a name of
// lengths around those bounds, reads as the token path reads it, in a
// declaration, a kernel's name and an argument, on a line followed by more
// text or the last of the file. Each text has one changed name, so that
// its first error is that name's.
TEST(TextPlainLines, LinesAroundSixtyFourBytesReadAsTheTokenPathReadsThem) {
  const std::string kBytes("\0\t\n\r\x1f !#(),.={}_a\x7f\x80\xff", 20);
  const std::string kMore = repeat("kernel pad t\n", 6);
  for (std::size_t length : {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49, 52, 53, 54, 55, 56, 60, 64}) {
    const std::string plain = "t" + std::string(length - 1, 'a');
    const std::string head = "schedule v1\nbuffer t CUDA int8 4\nbuffer " + plain + " CUDA int8 4\n";
    for (std::size_t at = 0; at < length; ++at) {
      for (char byte : kBytes) {
        std::string name = plain;
        name[at] = byte;
        parse_both_ways("schedule v1\nbuffer t CUDA int8 4\nbuffer " + name + " CUDA int8 4\n" + kMore);
        parse_both_ways(head + "kernel " + name + " t\n" + kMore);
        parse_both_ways(head + "kernel k " + name + " t\n" + kMore);
        parse_both_ways(head + "kernel k t " + name);
      }
    }
  }
}

// A buffer's options on a plain line: `held`, and `phase=P` written with no
// blanks, whose `=` is the one punctuation byte such a line may hold. Every
// byte at each place of the options, on lines around 64 bytes long, in a
// text that goes on or ends with them, reads as the token path reads it.
TEST(TextPlainLines, OptionsReadAsTheTokenPathReadsThem) {
  const std::string kBytes("\0\t\n\r !#(),={}_a0\x7f", 17);
  const std::string kMore = repeat("kernel pad t\n", 6);
  const std::string_view kOptions[] = {" held",       " phase=64",        " phase=64 held",
                                       " held phase=0", " phase=1 phase=2", " held held",
                                       " phase=99999999999999999999"};
  for (const std::string_view kind : {"buffer", "alloc"}) {
    for (std::size_t pad : {1, 20, 30, 40, 50}) {
      for (const std::string_view options : kOptions) {
        for (std::size_t at = 0; at <= options.size(); ++at) {
          for (char byte : kBytes) {
            std::string changed(options);
            if (at < options.size()) changed[at] = byte;
            const std::string line = fmt::format("{} t CUDA{} int8 4{}", kind, std::string(pad, 'x'), changed);
            parse_both_ways("schedule v1\n" + line + "\n" + kMore);
            parse_both_ways("schedule v1\n" + line);
          }
        }
      }
    }
  }
}

TEST(TextPlainLines, WhatTheTokenPathWouldRefuseItRefusesTheSame) {
  const char* const kTexts[] = {
      "schedule v1\nbuffer range CUDA int8 4\n",            // a reserved word
      "schedule v1\nbuffer 9t CUDA int8 4\n",               // not a storage name
      "schedule v1\nbuffer t CUDA int9 4\n",                // no such dtype
      "schedule v1\nbuffer t CUDA int32 6\n",               // not a multiple of the dtype
      "schedule v1\nbuffer t CUDA int32 x6\n",              // not a number
      "schedule v1\nbuffer t CUDA int32 99999999999999999999\n",
      "schedule v1\nbuffer t CUDA int32\n",                 // too few words
      "schedule v1\nbuffer t CUDA int32 4 helld\n",         // an unknown option
      "schedule v1\nparam t CUDA int32 4 held\n",           // an option on a param
      "schedule v1\nbuffer t CUDA int8 4\nbuffer t CUDA int8 4\n",   // declared twice
      "schedule v1\nkernel k t\n",                          // undeclared
      "schedule v1\nbuffer t CUDA int8 4\nkernel k shrink t\n",     // a view without `(`
      "schedule v1\nbuffer t CUDA int8 4\nkernel k after\n",
      "schedule v1\nbuffer t CUDA int8 4\ncopy t\n",       // too few for a copy
      "schedule v1\nbuffer t CUDA int8 4\ncopy t t t\n",   // too many
      "schedule v1\nbuffer t CUDA int8 4\nrange {\n  buffer u CUDA int8 4\n}\n",  // inside a loop
      "schedule v1\nbuffer t CUDA int8 4\nkernel k t\r\nkernel k u\r\n",  // CRLF
      "schedule v1\nbuffer t CUDA int8 4\nkernel k t # u\nkernel k u\n",   // a comment
      "schedule v1\nbuffer t CUDA int8 4\nkernel k t\x07\n",             // a control byte
      "schedule v1\nbuffer t CUDA int8 4\nkernel k t }\n",
      "schedule v1\nbuffer t CUDA int8 4\nkernel k t\n}\n",
      "schedule v1\nbuffer t CUDA int8 4\nkernel k u t\nkernel k v\n",  // the first of two errors
      "schedule v1\nbuffer t CUDA int8 4\nkernel k t u\nbuffer t CUDA int8 4\n",
      "schedule v1\nbuffer t CUDA int8 4\nkernel k t t t t t t t t t t t t t t t t t u\n",  // many words
  };
  for (const char* text : kTexts) parse_error(text);
}

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
  EXPECT_EQ(parse_error("\xef\xbb\xbfschedule v2\n").where, "t.sched:1:10");
}

TEST(TextParse, AByteOrderMarkAnywhereElseIsNoBlank) {
  Error e = parse_error("schedule v1\n\xef\xbb\xbf\n");
  EXPECT_EQ(e.message(),
            "t.sched:2:1: unknown statement `\\xef\\xbb\\xbf` (expected buffer, alloc, param, kernel, "
            "copy, range or loop)");
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
        ErrorCase{"EmptyFile", "", "1:1", "expected the header `schedule v1`, found the end of the file"},
        ErrorCase{"MissingHeader", "# c\nbuffer a CPU int8 4\n", "2:1", "expected the header `schedule v1`"},
        ErrorCase{"WrongVersion", "schedule v2\n", "1:10", "unsupported version `v2`"},
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

// ---------------------------------------------------------------- printing

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

// ---------------------------------------------------------------- files

class TextFile : public ::testing::Test {
 protected:
  // One directory per test and process, since several builds may run the tests at once.
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ =
        std::filesystem::path(::testing::TempDir()) / fmt::format("planck_text_test_{}_{}", ::getpid(), name);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(std::string_view name, std::string_view text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::filesystem::path dir_;
};

TEST_F(TextFile, ReadScheduleParsesTheFileAndNamesIt) {
  const std::string path = write("a.sched", kSpecExample);
  Result<Schedule> s = read_schedule(path);
  ASSERT_TRUE(s) << s.error().message();
  EXPECT_EQ(s->source, path);
  EXPECT_EQ(s->storage.size(), 6u);
}

TEST_F(TextFile, ParseErrorsNameThePath) {
  const std::string path = write("bad.sched", "schedule v1\nkernel k a\n");
  Result<Schedule> s = read_schedule(path);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().where, path + ":2:10");
}

TEST_F(TextFile, AMissingFileCannotBeRead) {
  const std::string path = (dir_ / "missing.sched").string();
  Result<Schedule> s = read_schedule(path);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().where, path);
  EXPECT_EQ(s.error().what, "cannot read: No such file or directory");
}

TEST_F(TextFile, ADirectoryCannotBeRead) {
  Result<FileText> text = read_file(dir_.string());
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().what, "cannot read: Is a directory");
}

TEST_F(TextFile, APathThroughAFileCannotBeRead) {
  Result<FileText> text = read_file(write("plain", "x") + "/inside");
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().what, "cannot read: Not a directory");
}

TEST_F(TextFile, AFileWithoutReadPermissionCannotBeRead) {
  if (::geteuid() == 0) GTEST_SKIP() << "the superuser reads any file";
  const std::string path = write("secret.sched", kSpecExample);
  std::filesystem::permissions(path, std::filesystem::perms::none);
  Result<FileText> text = read_file(path);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().message(), path + ": cannot read: Permission denied");
}

TEST_F(TextFile, ADashReadsStandardInputAndNamesIt) {
  ASSERT_NE(std::freopen(write("in.sched", "schedule v1\nkernel k a\n").c_str(), "rb", stdin), nullptr);
  std::cin.clear();
  Result<Schedule> s = read_schedule("-");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message(), "<stdin>:2:10: undeclared name `a`");
  EXPECT_EQ(source_name("-"), "<stdin>");
  EXPECT_EQ(source_name("a.sched"), "a.sched");
}

TEST_F(TextFile, StandardInputKeepsEveryByte) {
  const std::string bytes = std::string("\xef\xbb\xbf") + std::string(100000, 'x') + std::string("\0\r\n", 3);
  ASSERT_NE(std::freopen(write("bytes", bytes).c_str(), "rb", stdin), nullptr);
  std::cin.clear();
  Result<FileText> text = read_file("-");
  ASSERT_TRUE(text) << text.error().message();
  EXPECT_EQ(text->view(), bytes);
}

TEST_F(TextFile, ReadFileKeepsEveryByte) {
  const std::string bytes("a\0b\r\n", 5);
  Result<FileText> text = read_file(write("bytes", bytes));
  ASSERT_TRUE(text);
  EXPECT_EQ(text->view(), bytes);
}

TEST_F(TextFile, AFileIsReadWholeAtEverySizeAroundAPage) {
  // A regular file is mapped: its text ends where the file does, whether or
  // not that is the end of a page, and an empty file is an empty text.
  for (const std::size_t size : {0, 1, 4095, 4096, 4097, 8192, 100000}) {
    std::string bytes(size, 'x');
    for (std::size_t i = 0; i < size; i += 7) bytes[i] = static_cast<char>('a' + i % 26);
    Result<FileText> text = read_file(write("sized", bytes));
    ASSERT_TRUE(text) << text.error().message();
    EXPECT_EQ(text->view(), bytes) << size;
  }
}

TEST_F(TextFile, AFileOfWholePagesParsesInEachFormat) {
  // A text that ends at the end of a page has no byte after it to read: each
  // reader stops at the text's end. Each file is padded to 4096 bytes, then
  // to 8192, and ends without a line end.
  auto padded = [](std::string text, std::size_t size) {
    text += "#";
    text += std::string(size - text.size(), 'p');
    return text;
  };
  for (const std::size_t size : {4096, 8192}) {
    Result<Schedule> s = read_schedule(write("a.sched", padded(std::string(kSpecExample), size)));
    ASSERT_TRUE(s) << s.error().message();
    EXPECT_EQ(s->storage.size(), 6u);
    Result<Plan> p = read_plan(write("a.plan", padded("plan v1\narena a0 CPU 256\nplace t a0 0\n", size)));
    ASSERT_TRUE(p) << p.error().message();
    EXPECT_EQ(p->placements.size(), 1u);
    // A CSV has no comments: its one row's id fills the page.
    const std::string header = "id,lower,upper,size\n";
    const std::string row_end = ",0,1,8";
    Result<IntervalProblem> i =
        read_intervals(write("a.csv", header + std::string(size - header.size() - row_end.size(), 'z') + row_end));
    ASSERT_TRUE(i) << i.error().message();
    EXPECT_EQ(i->buffers.size(), 1u);
  }
}

}  // namespace
}  // namespace planck
