#pragma once
// A picture in characters, for a terminal and for small plans
// (docs/commands.md#planck-draw): per arena, rows of addresses (the highest
// on top) against columns of top-level entries, each cell showing the letter
// of the buffer that holds most of it, its name written where the box is wide
// enough, `#` where a violation is (bytes two live buffers share, bytes past
// the arena's end), `.` in a loop's columns where nothing is; below, the
// entries with their lines and calls, then a key from letters to buffers (a
// `!` before each buffer a violation names) and the arena's violations.

#include <cstddef>
#include <string>

#include "draw/picture.h"

namespace planck::draw {

inline constexpr std::size_t kMinTextWidth = 40;
inline constexpr std::size_t kMaxTextRows = 24;       // rows of addresses per arena, at most
inline constexpr std::size_t kMaxColumnsPerEntry = 12;  // characters of one entry, at most
inline constexpr std::size_t kKeyBuffers = 62;        // buffers with a letter of their own

struct TextOptions {
  std::size_t width = 100;  // characters per line; less than kMinTextWidth is taken as it
  bool violating_only = false;  // only the arenas with a violation
  bool messages = true;  // the violations' messages under each arena, and of no arena at the end
};

std::string text_picture(const Picture& p, const TextOptions& options = {});

}  // namespace planck::draw
