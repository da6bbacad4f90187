#include "model/lexical.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planck {
namespace {

std::vector<Line> lines_of(std::string_view text) {
  Cursor cur(text, "f");
  std::vector<Line> lines;
  while (std::optional<Line> line = cur.take_line()) lines.push_back(*line);
  return lines;
}

TEST(Lexical, ControlBytesAreThoseBelow0x20And0x7f) {
  EXPECT_TRUE(is_control('\0'));
  EXPECT_TRUE(is_control('\t'));
  EXPECT_TRUE(is_control('\n'));
  EXPECT_TRUE(is_control('\x1f'));
  EXPECT_TRUE(is_control('\x7f'));
  EXPECT_FALSE(is_control(' '));
  EXPECT_FALSE(is_control('~'));
  EXPECT_FALSE(is_control('\x80'));
  EXPECT_FALSE(is_control('\xef'));
}

TEST(Lexical, TheTabIsAControlByteOnlyWhereTheFormatHasNoBlanks) {
  EXPECT_EQ(find_control("a\tb\x01", true), 3u);
  EXPECT_EQ(find_control("a\tb\x01", false), 1u);
  EXPECT_EQ(find_control("plain text", false), std::string_view::npos);
  EXPECT_EQ(control_byte('\x1b'), "control byte 0x1b");
}

TEST(Lexical, EscapedTextWritesEveryByteOutsidePrintableAsciiAsHex) {
  EXPECT_EQ(escaped("plain ~text"), "plain ~text");
  EXPECT_EQ(escaped(std::string_view("a\0b\x1f\x7f\x80\xff", 7)), "a\\x00b\\x1f\\x7f\\x80\\xff");
  EXPECT_EQ(escaped("caf\xc3\xa9"), "caf\\xc3\\xa9");
  EXPECT_EQ(escaped("a\tb\nc\r"), "a\\x09b\\x0ac\\x0d");
  EXPECT_EQ(escaped("a\tb\nc\r", "\t\n"), "a\tb\nc\\x0d");
  EXPECT_EQ(escaped(""), "");
}

TEST(Lexical, QuotedWordsEscapeWhatIsNotPrintableAscii) {
  EXPECT_EQ(planck::quoted("a\tb\xef"), "`a\\x09b\\xef`");
  EXPECT_EQ(planck::quoted(std::string(41, 'x')), "`" + std::string(40, 'x') + "...`");
}

TEST(Lexical, DecimalsStopBelow2To62) {
  EXPECT_EQ(*parse_decimal("4611686018427387903", "n"), kMaxBytes - 1);
  EXPECT_EQ(parse_decimal("4611686018427387904", "n").error().what,
            "n at or above 2^62: `4611686018427387904`");
  EXPECT_EQ(parse_decimal("-1", "n").error().what, "n `-1` is not a decimal number");
  EXPECT_EQ(parse_decimal("", "n").error().what, "n `` is not a decimal number");
}

TEST(Lexical, WordsCompareByEveryByteAndTheirLength) {
  EXPECT_TRUE(same_word("kernel", "kernel"));
  EXPECT_FALSE(same_word("kernel", "kernal"));
  EXPECT_FALSE(same_word("kernel", "kernels"));
  EXPECT_TRUE(same_word("", ""));
  EXPECT_TRUE(starts_with_word("arena12", "arena"));
  EXPECT_TRUE(starts_with_word("arena", "arena"));
  EXPECT_FALSE(starts_with_word("aren", "arena"));
  EXPECT_FALSE(starts_with_word("Arena0", "arena"));
}

TEST(Cursor, ErrorsNameFileLineAndColumn) {
  Cursor cur("text", "dir/a.plan");
  const Error e = cur.error_at({3, 7}, "what is wrong");
  EXPECT_EQ(e.where, "dir/a.plan:3:7");
  EXPECT_EQ(e.message(), "dir/a.plan:3:7: what is wrong");
}

TEST(Cursor, AnErrorInADecimalIsPlacedAtItsWord) {
  Cursor cur("", "f");
  const Result<Bytes> bad = cur.decimal({"12x", {2, 5}}, "size");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message(), "f:2:5: size `12x` is not a decimal number");
  EXPECT_EQ(*cur.decimal({"12", {2, 5}}, "size"), 12u);
}

TEST(Cursor, ColumnsCountBytesFromTheStartOfTheLine) {
  Cursor cur("ab cd\n\tx", "f");
  EXPECT_EQ(cur.take_until([](char c) { return c == ' ' || c == '\n'; }), "ab");
  EXPECT_EQ(cur.pos().line, 1);
  EXPECT_EQ(cur.pos().col, 3);
  EXPECT_EQ(cur.take(1), " ");
  EXPECT_EQ(cur.take_until([](char c) { return c == '\n'; }), "cd");
  EXPECT_EQ(cur.take_line_end(), "\n");
  EXPECT_EQ(cur.pos().line, 2);
  EXPECT_EQ(cur.pos().col, 1);
  EXPECT_EQ(cur.take(1), "\t");
  EXPECT_EQ(cur.pos().col, 2);
  EXPECT_EQ(cur.peek(), 'x');
  EXPECT_EQ(cur.take(5), "x");
  EXPECT_TRUE(cur.at_end());
}

TEST(Cursor, ALineEndsAtNewlineOrCarriageReturnNewlineOnly) {
  Cursor cur("\r\n\rx", "f");
  EXPECT_EQ(cur.take_line_end(), "\r\n");
  EXPECT_EQ(cur.pos().line, 2);
  EXPECT_EQ(cur.take_line_end(), "");
  EXPECT_TRUE(cur.starts_with("\rx"));
}

TEST(Cursor, LinesLoseTheirEndsAndAFinalCarriageReturn) {
  const std::vector<Line> lines = lines_of("a\r\nb\rc\n\nlast\r");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].text, "a");
  EXPECT_EQ(lines[1].text, "b\rc");
  EXPECT_EQ(lines[2].text, "");
  EXPECT_EQ(lines[3].text, "last");
  EXPECT_EQ(lines[3].number, 4);
  EXPECT_EQ(lines[3].at(2).line, 4);
  EXPECT_EQ(lines[3].at(2).col, 3);
}

TEST(Cursor, AFinalNewlineStartsNoLine) {
  EXPECT_EQ(lines_of("a\n").size(), 1u);
  EXPECT_EQ(lines_of("\n").size(), 1u);
  EXPECT_TRUE(lines_of("").empty());
}

TEST(Cursor, AByteOrderMarkIsSkippedAndCountsForNoColumn) {
  Cursor cur("\xef\xbb\xbfid\nx", "f");
  std::optional<Line> first = cur.take_line();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->text, "id");
  EXPECT_EQ(first->at(0).col, 1);
  EXPECT_EQ(skip_byte_order_mark("\xef\xbb\xbfx"), "x");
  // Only at the start of the text, and only whole.
  EXPECT_EQ(skip_byte_order_mark("x\xef\xbb\xbf"), "x\xef\xbb\xbf");
  EXPECT_EQ(skip_byte_order_mark("\xef\xbb"), "\xef\xbb");
}

TEST(Cursor, APlacePassedIsFoundFromItsByte) {
  const std::string text = "\xef\xbb\xbf" "ab cd\r\n\n\tx";
  Cursor cur(text, "f");
  const char* const start = cur.rest().data();
  while (cur.take_line()) {
  }
  const auto at = [&](std::size_t offset) {
    const SourcePos pos = cur.pos_of(start + offset);
    return std::pair(pos.line, pos.col);
  };
  EXPECT_EQ(at(0), std::pair(1, 1));  // after the byte order mark
  EXPECT_EQ(at(3), std::pair(1, 4));
  EXPECT_EQ(at(5), std::pair(1, 6));  // the "\r" of the line end
  EXPECT_EQ(at(7), std::pair(2, 1));
  EXPECT_EQ(at(9), std::pair(3, 2));
  EXPECT_EQ(at(10), std::pair(cur.pos().line, cur.pos().col));  // the end, where the cursor is
}

TEST(Cursor, TheEndOfTheTextIsAPlaceToo) {
  Cursor cur("ab\ncd", "f");
  while (cur.take_line()) {
  }
  EXPECT_EQ(cur.pos().line, 2);
  EXPECT_EQ(cur.pos().col, 3);
}

}  // namespace
}  // namespace planck
