#pragma once
// A picture as SVG, for a browser (docs/commands.md#planck-draw): per arena a
// panel with the top-level entries along (loops shaded, each labelled with
// its line and call), the addresses up (ticks in bytes, the arena's end
// marked), one rectangle per buffer (its name written where it fits, a
// <title> with its name, bytes, place, lifetime and lines), the buffers the
// checker's violations name in red, and the bytes and entries of each
// violation hatched, with its bytes and entries marked on the axes; the
// arena's violations below it and a legend at the bottom. The output is the
// same for the same picture.
//
// Past kOutlineAbove buffers the other buffers are outlines only, without
// names or titles, so that the file stays small enough for a browser; the
// picture says so.

#include <cstddef>
#include <string>
#include <string_view>

#include "draw/picture.h"

namespace planck::draw {

inline constexpr std::size_t kOutlineAbove = 2000;
inline constexpr int kSvgWidth = 1000;

std::string svg_picture(const Picture& p);

// The SVG's height in pixels for a picture (its width is kSvgWidth).
int svg_height(const Picture& p);

// Text with &, <, >, " and ' written as XML's entities.
std::string xml_escaped(std::string_view text);

}  // namespace planck::draw
