#pragma once
// The words of the .sched format, as both of its paths read them (the token
// path of schedule_reader.cc and the plain-line path of line_parser.cc):
// which bytes end a word, the keywords that start a statement or a view, the
// words storage may not take as its name, and what a storage name is made
// of (docs/formats.md#limits). Internal to the .sched reader.

#include <array>
#include <optional>
#include <string_view>

#include "model/lexical.h"
#include "model/schedule.h"

namespace planck::schedule_text {

// A word is a maximal run of bytes that are neither blanks, nor one of the
// punctuation bytes, nor '#', nor control bytes.

// The printable bytes that end a word: the blank, punctuation and '#'.
inline constexpr std::string_view kPrintableEnds = " (),{}=#";

// Which bytes end a word, one lookup per byte: the inner loop of both paths.
inline constexpr std::array<bool, 256> kEndsWord = [] {
  std::array<bool, 256> ends{};
  for (int c = 0; c < 0x20; ++c) ends[c] = true;  // control bytes, tab and line ends included
  ends[0x7f] = true;
  for (char c : kPrintableEnds) ends[static_cast<unsigned char>(c)] = true;
  return ends;
}();

inline bool ends_word(char c) { return kEndsWord[static_cast<unsigned char>(c)]; }

// Words that start a statement or a view. Storage may not take these names,
// so that an argument never reads two ways.
bool is_reserved(std::string_view name);

// The kind of storage a statement's keyword declares, if it is one.
inline std::optional<StorageKind> declaration_kind(std::string_view keyword) {
  switch (keyword.size()) {
    case 5:
      if (same_word(keyword, "alloc")) return StorageKind::Alloc;
      if (same_word(keyword, "param")) return StorageKind::Param;
      return std::nullopt;
    case 6:
      if (same_word(keyword, "buffer")) return StorageKind::Buffer;
      return std::nullopt;
    default: return std::nullopt;
  }
}

// The view a word opens (`shrink`, `bitcast`, `after`), if it is one.
std::optional<Arg::Kind> view_kind(std::string_view word);

constexpr bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The bytes a storage name is made of, one lookup per byte: every
// declaration's name is checked.
inline constexpr std::array<bool, 256> kInStorageName = [] {
  std::array<bool, 256> in{};
  for (int c = 0; c < 256; ++c) {
    in[c] = is_ascii_letter(static_cast<char>(c)) || is_digit(static_cast<char>(c)) || c == '_' || c == '.';
  }
  return in;
}();

// Letters, digits, `_` and `.`, starting with a letter or `_`.
inline bool is_storage_name(std::string_view name) {
  if (name.empty() || !(is_ascii_letter(name.front()) || name.front() == '_')) return false;
  for (char c : name) {
    if (!kInStorageName[static_cast<unsigned char>(c)]) return false;
  }
  return true;
}

}  // namespace planck::schedule_text
