#include "model/lexical.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <utility>

namespace planck {

std::size_t find_control(std::string_view text, bool tab_is_blank) {
  const auto it = std::find_if(text.begin(), text.end(),
                               [&](char c) { return is_control(c) && !(tab_is_blank && c == '\t'); });
  return it == text.end() ? std::string_view::npos : static_cast<std::size_t>(it - text.begin());
}

std::string control_byte(char c) {
  return fmt::format("control byte 0x{:02x}", static_cast<unsigned char>(c));
}

std::string escaped(std::string_view text, std::string_view kept) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 || byte >= 0x7f) && kept.find(c) == std::string_view::npos) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
  }
  return out;
}

std::string quoted(std::string_view word) {
  constexpr std::size_t kShown = 40;
  return "`" + escaped(word.substr(0, kShown)) + (word.size() > kShown ? "...`" : "`");
}

Result<Bytes> parse_decimal(std::string_view text, std::string_view what) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return Error{"", fmt::format("{} {} is not a decimal number", what, quoted(text))};
  }
  Bytes value = 0;
  for (char c : text) {
    const Bytes digit = static_cast<Bytes>(c - '0');
    if (value > (kMaxBytes - 1 - digit) / 10) {
      return Error{"", fmt::format("{} at or above 2^62: {}", what, quoted(text))};
    }
    value = value * 10 + digit;
  }
  return value;
}

std::string_view skip_byte_order_mark(std::string_view text) {
  constexpr std::string_view kByteOrderMark = "\xef\xbb\xbf";
  return text.starts_with(kByteOrderMark) ? text.substr(kByteOrderMark.size()) : text;
}

Cursor::Cursor(std::string_view text, std::string_view file)
    : text_(skip_byte_order_mark(text)), file_(file) {}

Error Cursor::error_at(SourcePos pos, std::string what) const {
  return Error{fmt::format("{}:{}:{}", file_, pos.line, pos.col), std::move(what)};
}

Result<Bytes> Cursor::decimal(const Word& word, std::string_view what) const {
  Result<Bytes> value = parse_decimal(word.text, what);
  if (!value) return error_at(word.pos, std::move(value).error().what);
  return value;
}

SourcePos Cursor::pos_of(const char* p) const {
  const std::string_view before = text_.substr(0, static_cast<std::size_t>(p - text_.data()));
  // Each "\n" the cursor passed ended a line, as take_line_end counts them.
  const auto line_ends = static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  const std::size_t line_start = before.rfind('\n') + 1;  // 0 when there is none (npos + 1 = 0)
  return {one_based(line_ends), one_based(before.size() - line_start)};
}

std::string_view Cursor::take_line_end() {
  const std::size_t start = i_;
  const std::size_t left = text_.size() - i_;
  if (left >= 1 && text_[i_] == '\n') {
    i_ += 1;
  } else if (left >= 2 && text_[i_] == '\r' && text_[i_ + 1] == '\n') {
    i_ += 2;
  } else {
    return {};
  }
  if (line_ < INT_MAX) ++line_;
  line_start_ = i_;
  return text_.substr(start, i_ - start);
}

std::optional<Line> Cursor::take_line() {
  if (at_end()) return std::nullopt;
  Line line{take_until([](char c) { return c == '\n'; }), line_};
  take_line_end();
  if (line.text.ends_with('\r')) line.text.remove_suffix(1);
  return line;
}

}  // namespace planck
