#include "model/lexical.h"

#include <fmt/format.h>

#include <climits>

namespace planck {

std::string quoted(std::string_view word) {
  constexpr std::size_t kShown = 40;
  std::string out = "`";
  for (char c : word.substr(0, kShown)) {
    const auto byte = static_cast<unsigned char>(c);
    // Bytes outside printable ASCII are shown as escapes, so that a message
    // about binary input is still readable text.
    if (byte < 0x20 || byte >= 0x7f) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
  }
  out += word.size() > kShown ? "...`" : "`";
  return out;
}

int one_based(std::size_t offset) { return offset < INT_MAX ? static_cast<int>(offset) + 1 : INT_MAX; }

Result<Bytes> parse_decimal(std::string_view text, std::string_view what) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
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

}  // namespace planck
