#include "planner/placed_in_time.h"

#include <algorithm>

namespace planck {

PlacedInTime::PlacedInTime(const std::vector<PlannedBuffer>& buffers)
    : span_(huge_vector<Span>(buffers.size())), reach_(huge_vector<std::size_t>(buffers.size())) {
  const std::size_t n = buffers.size();
  // Begins: the first buffer whose last entry reaches b's first is the first
  // at which the running maximum of last entries does. That maximum and the
  // first entries only grow, so one pass finds them all; it stops at b at
  // the latest, which reaches its own first entry.
  std::size_t reaching = 0;
  std::size_t latest = n > 0 ? buffers[0].last : 0;  // the largest last entry of buffers 0..reaching
  for (std::size_t b = 0; b < n; ++b) {
    while (latest < buffers[b].first) latest = std::max(latest, buffers[++reaching].last);
    span_[b].begin = reaching;
    span_[b].first = buffers[b].first + 1;
    span_[b].reach = buffers[b].last + 1;
  }
  // Ends: found by galloping on from b itself, which starts by its own last
  // entry, since most buffers end soon after they start.
  auto starts_after = [&](std::size_t k, std::size_t last) { return buffers[k].first > last; };
  for (std::size_t b = 0; b < n; ++b) {
    const std::size_t last = buffers[b].last;
    std::size_t low = b;  // starts by `last`
    std::size_t high = b + 1;
    for (std::size_t step = 1; high < n && !starts_after(high, last); step *= 2) {
      low = high;
      high = std::min(n, high + step);
    }
    while (low + 1 < high) {  // low starts by `last`; high is n or starts after it
      const std::size_t mid = low + (high - low) / 2;
      (starts_after(mid, last) ? high : low) = mid;
    }
    span_[b].end = high;
    searched_ = searched_ || high - span_[b].begin > kScanned;
  }
  if (searched_) {
    while (blocks_ * kBlock < n) blocks_ *= 2;
    tree_.assign(2 * blocks_, 0);
  }
}

void PlacedInTime::place(std::size_t b) {
  const std::size_t reach = span_[b].reach;
  reach_[b] = reach;
  if (!searched_) return;
  // Reaches only grow, so the nodes above one that already reaches as far stay.
  for (std::size_t node = blocks_ + b / kBlock; node > 0 && tree_[node] < reach; node /= 2) tree_[node] = reach;
}

void PlacedInTime::alive_with(std::size_t b, std::vector<std::size_t>& out) const {
  const Span& span = span_[b];
  const std::size_t reach = span.first;
  if (span.end - span.begin <= kScanned) {
    for (std::size_t at = span.begin; at < span.end; ++at) {
      if (reach_[at] >= reach) out.push_back(at);
    }
    return;
  }
  collect(1, blocks_, span, reach, out);
}

// The placed buffers of the span whose reach is at least `reach`, among the
// blocks below `node`, which has `width` of them: a walk down the tree, left
// to right, with the nodes still to visit on a stack as deep as the tree.
void PlacedInTime::collect(std::size_t node, std::size_t width, const Span& span, std::size_t reach,
                           std::vector<std::size_t>& out) const {
  struct Visit {
    std::size_t node, begin, width;  // begin, width: its blocks
  };
  Visit stack[2 * 64];
  std::size_t depth = 0;
  stack[depth++] = {node, 0, width};
  while (depth > 0) {
    const Visit v = stack[--depth];
    const std::size_t first = v.begin * kBlock;
    const std::size_t past = (v.begin + v.width) * kBlock;
    if (first >= span.end || past <= span.begin || tree_[v.node] < reach) continue;
    if (v.width == 1) {
      for (std::size_t at = std::max(first, span.begin); at < std::min(past, span.end); ++at) {
        if (reach_[at] >= reach) out.push_back(at);
      }
      continue;
    }
    const std::size_t half = v.width / 2;
    stack[depth++] = {2 * v.node + 1, v.begin + half, half};  // after the left half
    stack[depth++] = {2 * v.node, v.begin, half};
  }
}

}  // namespace planck
