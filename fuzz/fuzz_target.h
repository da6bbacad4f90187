#pragma once
// What the fuzz targets share: the input as text, and the end of a target
// that found what it looks for (an abort, which libFuzzer reports with the
// input that led to it).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace planck::fuzz {

// The bytes of an input as text.
inline std::string_view input_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Prints what went wrong and `shown` (what the target made of the input) on
// standard error, then aborts.
[[noreturn]] inline void fail(std::string_view what, std::string_view shown) {
  std::fprintf(stderr, "%.*s\n%.*s\n", static_cast<int>(what.size()), what.data(), static_cast<int>(shown.size()),
               shown.data());
  std::abort();
}

// Fails, saying what and showing `shown`, unless `holds`.
inline void expect(bool holds, std::string_view what, std::string_view shown) {
  if (!holds) fail(what, shown);
}

}  // namespace planck::fuzz
