#pragma once
// Perfect packings: schedules whose least arena is known by construction, for
// measuring the optimum oracle. A rectangle `width` units of 256 bytes wide
// and `entries` entries long is cut in two by a straight cut across it (in
// bytes or in time), and the pieces again, until there are `buffers` pieces
// (guillotine cuts). Each piece is a buffer of its width and its span of
// entries; the kernel at the first entry of its span writes it and the
// kernel at the last reads it, so its lifetime (docs/planners.md#the-reference-planner-tlsf) is exactly
// that span. The pieces tile the rectangle: at every entry the buffers alive
// hold `width` units, so the peak is width x 256 bytes, and the pieces' own
// places fit the arena of that size. The least arena equals the peak.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gen/choices.h"
#include "model/schedule.h"

namespace planck::gen {

struct PerfectPackingOptions {
  // Planned buffers; at most width x entries (every piece is at least one
  // unit by one entry), fewer when the rectangle has no room for more.
  std::size_t buffers = 100;
  std::int64_t width = 1024;   // the rectangle's width in units of kPlaceAlign bytes, at least 1
  std::int64_t entries = 0;    // its length in top-level entries; 0: as many as buffers
};

// One piece: buffer b<k> is storage k + 1, placed at `offset` units.
struct PackingPiece {
  std::int64_t offset = 0;  // units of kPlaceAlign bytes
  std::int64_t size = 0;    // units
  std::size_t first = 0;    // its first and last entry, inclusive
  std::size_t last = 0;
};

struct PerfectPacking {
  Schedule schedule;                // param x, then b0, b1, ... on device CUDA, int8
  std::vector<PackingPiece> pieces; // by buffer, in the order of the storage
  std::int64_t width = 0;           // the least arena, in units
};

// The same draws give the same packing. Each entry is a kernel k<e> that
// takes the buffers whose span starts at e, then those whose span ends there
// (x alone when there are none).
PerfectPacking generate_perfect_packing(Choices& choices, const PerfectPackingOptions& options = {});

}  // namespace planck::gen
