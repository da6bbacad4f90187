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
#include <utility>
#include <vector>

#include "model/huge_pages.h"
#include "planner/per_device.h"

namespace planck {

// Asks the memory for the cache lines of [first, past), for reading.
template <class T>
void prefetch_range(const T* first, const T* past) {
  constexpr std::size_t kLine = 64;
  if (first == past) return;
  const char* at = reinterpret_cast<const char*>(first);
  const char* end = reinterpret_cast<const char*>(past);
  for (; at < end; at += kLine) __builtin_prefetch(at);
  __builtin_prefetch(end - 1);
}

class PlacedInTime {
 public:
  // `buffers` in order of first entry; none is placed yet.
  explicit PlacedInTime(const std::vector<PlannedBuffer>& buffers);

  // Buffer b (an index into the buffers) is placed from now on.
  void place(std::size_t b);

  // Appends to `out` every placed buffer alive with b (overlap_in_time), in
  // increasing order, b itself included if placed.
  void alive_with(std::size_t b, std::vector<std::size_t>& out) const;

  // Asks the memory for what alive_with(b) reads: first_ahead for b's span,
  // then, once that has come, scan_ahead for the reaches in it.
  void first_ahead(std::size_t b) const { __builtin_prefetch(&span_[b]); }
  // [begin, end): the buffers alive_with(b) scans one by one, empty when it
  // searches the tree instead; the span must be in the cache by now.
  std::pair<std::size_t, std::size_t> scan_ahead(std::size_t b) const {
    const Span& span = span_[b];
    if (span.end - span.begin > kScanned) return {0, 0};
    prefetch_range(reach_.data() + span.begin, reach_.data() + span.end);
    return {span.begin, span.end};
  }

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
// loop. The order of the buffers is known ahead, and their places are
// scattered through the memory, so the loop asks for what a buffer's turn
// will read some buffers before it comes: its span, then its size, the
// reaches of the buffers in its span, and through ahead(b, begin, end) what
// place(b, ...) will read of b and of those buffers.
template <class Place, class Ahead>
Status place_each_by_size(const std::vector<PlannedBuffer>& buffers, const Placing& placing, Place& place,
                          Ahead& ahead) {
  const Deadline& deadline = placing.deadline;
  constexpr std::size_t kSpanAhead = 16;  // buffers ahead whose spans are asked for
  constexpr std::size_t kScanAhead = 8;   // buffers ahead whose reaches and places are asked for
  PlacedInTime placed(buffers);
  std::vector<std::size_t> alive;
  const std::vector<std::size_t> order = by_size_descending(buffers);
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (deadline.passed(k)) return timeout_error();
    if (k + kSpanAhead < order.size()) placed.first_ahead(order[k + kSpanAhead]);
    if (k + kScanAhead < order.size()) {
      const std::size_t later = order[k + kScanAhead];
      __builtin_prefetch(&buffers[later]);
      const auto [begin, end] = placed.scan_ahead(later);
      ahead(later, begin, end);
    }
    const std::size_t b = order[k];
    alive.clear();
    placed.alive_with(b, alive);
    if (placing.rule) std::erase_if(alive, [&](std::size_t p) { return p != b && !placing.conflict(b, p); });
    PLANCK_TRY(place(b, alive));
    placed.place(b);
  }
  return Ok{};
}

}  // namespace planck
