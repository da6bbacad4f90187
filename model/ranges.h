#pragma once
// Half-open ranges, the one vocabulary of intervals: of times (top-level
// entries, or the columns of an interval problem) and of bytes (places in an
// arena). [begin, end) holds begin and not end. A lifetime
// (model/lifetime.h) is written inclusive, [first, last], as the planners'
// rules state it (docs/planners.md#rule-3-lifetimes); times_of is the one
// conversion between the two.

#include <cstdint>

#include "model/lifetime.h"
#include "model/schedule.h"

namespace planck {

template <class T>
struct HalfOpen {
  T begin = 0;
  T end = 0;

  bool empty() const { return end <= begin; }
  // Whether some point lies in both (never for an empty range): the later
  // begin comes before the earlier end.
  bool overlaps(const HalfOpen& other) const {
    return (begin < other.begin ? other.begin : begin) < (end < other.end ? end : other.end);
  }
  friend bool operator==(const HalfOpen&, const HalfOpen&) = default;
};

// Bytes [begin, end) of an arena.
using ByteRange = HalfOpen<Bytes>;

// Times [begin, end): top-level entries, or the times of an interval problem.
using TimeRange = HalfOpen<std::int64_t>;

// The entries of a lifetime, [first, last + 1): its bytes are free from
// last + 1 on.
inline TimeRange times_of(const Lifetime& life) {
  return {static_cast<std::int64_t>(life.first), static_cast<std::int64_t>(life.last) + 1};
}

}  // namespace planck
