// The plain-line path of the .sched reader: on every line, it makes the
// records, or the error, that the token path alone makes.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "model/dump.h"
#include "model/schedule.h"
#include "model/schedule_reader.h"
#include "model/schedule_reader_test_util.h"

namespace planck {
namespace {

using ::testing::HasSubstr;
using testing::parse_both_ways;
using testing::parse_error;
using testing::parse_ok;
using testing::repeat;

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

}  // namespace
}  // namespace planck
