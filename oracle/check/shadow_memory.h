#pragma once
// The shadow memory of the shadow executor (shadow.h,
// docs/verification.md#the-shadow-executor): who owns each byte of an arena.
// Internal to oracle/check/.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <vector>

#include "model/ranges.h"
#include "model/schedule.h"

namespace planck::oracle {

// The shadow of one arena: disjoint byte ranges, each owned by the buffer
// (an index into the shadow executor's tracked buffers) that claimed it
// last, in one vector sorted by their first byte. Bytes are only ever
// handed from one owner to another, never back to nobody, so a buffer's
// range stays covered from its claim on.
class ArenaShadow {
 public:
  // Bytes of the arena and the buffer that owns them.
  struct Segment : ByteRange {
    std::size_t owner = 0;
  };

  // Hands [begin, end) to owner, whoever held it: the segments it overlaps
  // give way to it, but for what they hold outside it on either side.
  void claim(Bytes begin, Bytes end, std::size_t owner) {
    if (begin == end) return;
    ++claims_;
    const auto first = overlapping(begin);
    const auto past = std::partition_point(first, segments_.end(), [&](const Segment& r) { return r.begin < end; });
    Segment replacement[3];
    std::size_t count = 0;
    if (first != past && first->begin < begin) replacement[count++] = {{first->begin, begin}, first->owner};
    replacement[count++] = {{begin, end}, owner};
    if (first != past && std::prev(past)->end > end) {
      replacement[count++] = {{end, std::prev(past)->end}, std::prev(past)->owner};
    }
    const auto at = static_cast<std::size_t>(first - segments_.begin());
    const auto replaced = static_cast<std::size_t>(past - first);
    const std::size_t kept = std::min(count, replaced);
    std::copy(replacement, replacement + kept, segments_.begin() + static_cast<std::ptrdiff_t>(at));
    if (count < replaced) {
      segments_.erase(segments_.begin() + static_cast<std::ptrdiff_t>(at + count),
                      segments_.begin() + static_cast<std::ptrdiff_t>(at + replaced));
    } else {
      segments_.insert(segments_.begin() + static_cast<std::ptrdiff_t>(at + kept), replacement + kept,
                       replacement + count);
    }
  }

  // The lowest bytes of [begin, end) that another buffer holds: the longest
  // stretch from there held by that one buffer. Nullopt if owner holds all.
  std::optional<Segment> first_foreign(Bytes begin, Bytes end, std::size_t owner) const {
    if (begin == end) return std::nullopt;
    for (auto it = overlapping(begin); it != segments_.end() && it->begin < end; ++it) {
      if (it->owner == owner) continue;
      Segment seg{{std::max(it->begin, begin), std::min(it->end, end)}, it->owner};
      for (++it; it != segments_.end() && it->begin == seg.end && seg.end < end && it->owner == seg.owner; ++it) {
        seg.end = std::min(it->end, end);
      }
      return seg;
    }
    return std::nullopt;
  }

  // The segments of [begin, end) and who holds each, in order of address.
  std::vector<Segment> holders(Bytes begin, Bytes end) const {
    std::vector<Segment> out;
    if (begin == end) return out;
    for (auto it = overlapping(begin); it != segments_.end() && it->begin < end; ++it) {
      out.push_back({{std::max(it->begin, begin), std::min(it->end, end)}, it->owner});
    }
    return out;
  }

  // The claims made so far. Bytes change hands only by a claim, so a buffer
  // that held all its bytes when this count was c still holds them while
  // it is c.
  std::uint64_t claims() const { return claims_; }

 private:
  // The first segment that ends past `at`; the segments are disjoint, so
  // their ends are in order too.
  std::vector<Segment>::const_iterator overlapping(Bytes at) const {
    return std::partition_point(segments_.begin(), segments_.end(), [&](const Segment& r) { return r.end <= at; });
  }
  std::vector<Segment>::iterator overlapping(Bytes at) {
    return std::partition_point(segments_.begin(), segments_.end(), [&](const Segment& r) { return r.end <= at; });
  }

  std::vector<Segment> segments_;  // disjoint, by first byte
  std::uint64_t claims_ = 0;
};

}  // namespace planck::oracle
