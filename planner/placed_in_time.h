#pragma once
// The buffers of one device placed so far, indexed by lifetime. What greedy
// and bysize ask each time they place a buffer is which placed buffers are
// alive with it; asking every placed buffer makes a device of n buffers cost
// n^2, while a schedule's buffers are mostly alive with a few others only.
// Internal to planner/.
//
// The buffers come in order of first entry (as a device's buffers do, in
// order of first appearance), and each gets its span once: the buffers that
// can be alive with b lie between the first buffer still alive at b's first
// entry and the last that starts by b's last entry, a contiguous run of the
// order. A placed buffer has its reach, its last entry + 1 (0 before it is
// placed); those of a span that reach past b's first entry are the ones alive
// with it. A short span is scanned whole. A long one (a buffer alive with
// many, or one long-lived buffer early on that every span must include) is
// searched through a tree over blocks of kBlock buffers holding the largest
// reach below each node, which leads to exactly the blocks holding one of
// them. Placing costs O(1), or O(log n) once a span is long; a query the
// length of its span when short, else O(log n) plus O(kBlock) per block that
// holds a buffer it finds.

#include <cstddef>
#include <vector>

#include "planner/per_device.h"

namespace planck {

class PlacedInTime {
 public:
  // `buffers` in order of first entry; none is placed yet.
  explicit PlacedInTime(const std::vector<PlannedBuffer>& buffers);

  // Buffer b (an index into the buffers) is placed from now on.
  void place(std::size_t b);

  // Appends to `out` every placed buffer alive with b (overlap_in_time), in
  // increasing order, b itself included if placed.
  void alive_with(std::size_t b, std::vector<std::size_t>& out) const;

 private:
  static constexpr std::size_t kBlock = 64;
  // Spans up to this long are scanned; longer ones searched in the tree.
  static constexpr std::size_t kScanned = 2 * kBlock;

  // What a query and a placing read of a buffer, together.
  struct Span {
    std::size_t begin = 0;  // the first buffer still alive at the buffer's first entry
    std::size_t end = 0;    // past the last buffer whose first entry is at most its last
    std::size_t first = 0;  // the buffer's first entry + 1: the reach of those alive with it
    std::size_t reach = 0;  // its own once placed: its last entry + 1
  };

  void collect(std::size_t node, std::size_t width, const Span& span, std::size_t reach,
               std::vector<std::size_t>& out) const;


  std::vector<Span> span_;          // by buffer
  std::vector<std::size_t> reach_;  // by buffer: last entry + 1 once placed, else 0
  bool searched_ = false;           // some span is longer than kScanned, so the tree is kept
  std::size_t blocks_ = 1;          // leaves of the tree: a power of two, at least the blocks
  std::vector<std::size_t> tree_;   // root 1, block k's leaf at blocks_ + k: the largest reach below
};

// The loop greedy and bysize share: each buffer, largest first
// (by_size_descending), goes to place(b, alive) with the placed buffers alive
// with it (alive_with), and is placed from then on. place returns a Status;
// its first error, or timeout_error() once the deadline has passed, stops the
// loop.
template <class Place>
Status place_each_by_size(const std::vector<PlannedBuffer>& buffers, const Deadline& deadline, Place& place) {
  PlacedInTime placed(buffers);
  std::vector<std::size_t> alive;
  const std::vector<std::size_t> order = by_size_descending(buffers);
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (deadline.passed(k)) return timeout_error();
    const std::size_t b = order[k];
    alive.clear();
    placed.alive_with(b, alive);
    PLANCK_TRY(place(b, alive));
    placed.place(b);
  }
  return Ok{};
}

}  // namespace planck
