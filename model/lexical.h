#pragma once
// The lexical scaffold of the three readers (.sched, .plan, CSV): the bytes
// they refuse, a cursor over one input text that knows its line and column,
// the error for a place in it, words and decimal numbers
// (docs/formats.md#bad-input, docs/formats.md#limits). Each reader keeps only
// its grammar.

#include <climits>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "model/result.h"
#include "model/schedule.h"

namespace planck {

// A control byte: below 0x20, or 0x7f. No text format takes one, but for its
// line ends and, where it has blanks between words, the tab. Defined here,
// as the two below, since the readers ask it of every byte.
inline bool is_control(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7f;
}

// A blank between words: a space or a tab.
inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

// a == b, byte by byte in line: the names and keywords the readers and
// planners compare for every statement are a few bytes long, fewer than a
// call to memcmp costs.
inline bool same_word(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// Whether text starts with prefix, compared as same_word does.
inline bool starts_with_word(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && same_word(text.substr(0, prefix.size()), prefix);
}

// Where the first control byte of `text` is, or npos. With `tab_is_blank`
// (.sched and .plan) a tab is not one; a CSV has no blanks and refuses it.
std::size_t find_control(std::string_view text, bool tab_is_blank);

// "control byte 0x07", for the messages that refuse one.
std::string control_byte(char c);

// Text made printable ASCII for a message: every byte below 0x20 or from
// 0x7f up is written as \xNN, but for the bytes `kept` names (a planner's
// messages keep their tabs and line ends).
std::string escaped(std::string_view text, std::string_view kept = {});

// A word for a message, in backquotes, cut to 40 characters so that a huge
// token does not make a huge message; escaped.
std::string quoted(std::string_view word);

// The 1-based line or column of a 0-based count, saturated: positions only
// appear in messages.
inline int one_based(std::size_t offset) {
  return offset < INT_MAX ? static_cast<int>(offset) + 1 : INT_MAX;
}

// A number of decimal digits only, below kMaxBytes. The error has no place
// (the caller knows it) and says "<what> `<text>` is not a decimal number"
// or "<what> at or above 2^62: `<text>`". The value never overflows while
// it is accumulated.
Result<Bytes> parse_decimal(std::string_view text, std::string_view what);

// `text` without the UTF-8 byte order mark it may start with: an editor
// shows none, so it is no content and counts for no column.
std::string_view skip_byte_order_mark(std::string_view text);

// A word of the input, where it starts.
struct Word {
  std::string_view text;
  SourcePos pos;
};

// One line of the input, without its line end.
struct Line {
  std::string_view text;
  int number = 0;  // 1-based

  // The place of the byte at `offset` in text.
  SourcePos at(std::size_t offset) const { return {number, one_based(offset)}; }
};

// A reading position in one input text, with the file's name for messages.
// Lines end at "\n"; the column counts bytes from the start of the line.
// Both saturate instead of overflowing on absurdly long inputs. A byte order
// mark at the start of the text is skipped.
class Cursor {
 public:
  Cursor(std::string_view text, std::string_view file);

  std::string_view file() const { return file_; }

  // "FILE:LINE:COL: what".
  Error error_at(SourcePos pos, std::string what) const;

  // parse_decimal of a word, its error placed at the word.
  Result<Bytes> decimal(const Word& word, std::string_view what) const;

  bool at_end() const { return i_ == text_.size(); }
  // The byte at the cursor; only when not at_end().
  char peek() const { return text_[i_]; }
  bool starts_with(std::string_view s) const { return text_.substr(i_).starts_with(s); }
  SourcePos pos() const { return {line_, one_based(i_ - line_start_)}; }
  // The place of the byte at p, in the text and not after the cursor, from
  // the lines before it: for a reader that keeps only a word's bytes, and
  // asks where the word is only for a message.
  SourcePos pos_of(const char* p) const;

  // The next n bytes, none of them a "\n", moved past.
  std::string_view take(std::size_t n) {
    const std::string_view taken = text_.substr(i_, n);
    i_ += taken.size();
    return taken;
  }

  // The bytes from the cursor up to the first one `stop` holds for (or the
  // end of the text), moved past; `stop` must hold for '\n'.
  template <class Stop>
  std::string_view take_until(Stop stop) {
    std::size_t end = i_;
    while (end < text_.size() && !stop(text_[end])) ++end;
    return take(end - i_);
  }

  // The bytes from the cursor to the end of the text, not moved past.
  std::string_view rest() const { return text_.substr(i_); }

  // The line end at the cursor, "\n" or "\r\n", moved past; empty if there
  // is none here.
  std::string_view take_line_end();

  // The rest of the current line, moved past with its "\n"; nullopt at the
  // end of the text. A "\r" before the "\n", or at the end of the text, is
  // part of the line end, not of the line.
  std::optional<Line> take_line();

 private:
  std::string_view text_;
  std::string_view file_;
  std::size_t i_ = 0;
  std::size_t line_start_ = 0;
  int line_ = 1;
};

}  // namespace planck
