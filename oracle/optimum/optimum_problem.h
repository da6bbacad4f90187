#pragma once
// The packing problem of the optimum oracle (docs/verification.md#the-optimum-oracle): items with a
// size and a lifetime, to be given offsets so that items alive at a common
// time occupy disjoint [offset, offset + size). The arena of a placement is
// its largest offset + size.
//
// Two levels of the same problem live here. PackingProblem is what callers
// give: named items, sizes in bytes (or in any unit the caller chose, such
// as 256-byte blocks). UnitItem is what the engines (search, Z3, brute
// force, greedy) solve: one independent part of the timeline, sizes divided
// by the part's gcd, every number a signed 64-bit integer that cannot wrap.
// The plain checker below judges every placement before it is reported, and
// shares no code with the engines.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "model/ranges.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck::oracle {

struct PackingItem {
  std::string name;
  Bytes size = 0;
  TimeRange alive;

  PackingItem() = default;
  PackingItem(std::string name, Bytes size, TimeRange alive) : name(std::move(name)), size(size), alive(alive) {}
  PackingItem(std::string name, Bytes size, std::int64_t begin, std::int64_t end)
      : PackingItem(std::move(name), size, TimeRange{begin, end}) {}
};

struct PackingProblem {
  std::vector<PackingItem> items;
  // Model v3 (docs/model-v3.md#the-conflict-rule): the pairs of items (i <
  // j) that may not share bytes, where lifetimes do not say it. Then two
  // items must be apart exactly when they form a pair, the lifetimes only
  // group the items, and the item order is one in which an item that comes
  // wholly before another has the lower index.
  std::optional<std::vector<std::pair<std::size_t, std::size_t>>> conflicts;
};

// Where each item starts, by item index.
using Offsets = std::vector<Bytes>;

// Items together may hold at most this much, so that every offset + size an
// engine forms fits a signed 64-bit integer with room to spare.
inline constexpr Bytes kMaxTotalSize = kMaxBytes;

// A problem the oracle takes: lower < upper for every item, and all sizes
// together at most kMaxTotalSize. The error names the first item at fault.
Status check_problem(const PackingProblem& p);

// The most bytes alive at once (model/live_bytes.h): a lower bound on every
// arena. nullopt when that passes 2^64, never for a problem that passes
// check_problem. With explicit conflicts, the heaviest set of pairwise
// conflicting items instead (conflict_lower_bound).
std::optional<Bytes> peak_live(const PackingProblem& p);

// With explicit conflicts: the heaviest set of items that pairwise conflict,
// a lower bound on every arena. The items that do not conflict are ordered
// (an item wholly before another), a partial order whose antichains are
// these sets; by Dilworth's theorem with weights, the heaviest antichain
// weighs the sizes' total less the largest flow from each item to the
// items after it (a bipartite network with a source edge of each item's
// size and a sink edge of each item's size). Up to kFlowItems items; past
// that, the largest item alone. The method is named in `by`.
inline constexpr std::size_t kFlowItems = 2000;
Bytes conflict_lower_bound(const PackingProblem& p, std::string* by = nullptr);

// The largest offset + size, 0 without items; nullopt when an offset + size
// passes the largest Bytes.
std::optional<Bytes> arena_size(const PackingProblem& p, const Offsets& offsets);

// The plain checker, O(n^2) at worst: one offset per item, every offset +
// size at most the capacity (when given), and every two items alive together
// (their half-open lifetimes intersect) on disjoint half-open byte ranges.
// Empty when the placement is valid, else what is wrong, naming the items.
std::string placement_error(const PackingProblem& p, const Offsets& offsets,
                            std::optional<Bytes> capacity = std::nullopt);

// The parts of the timeline no item crosses, each a list of item indices in
// increasing order; the parts in order of time. The least arena of the whole
// problem is the largest of the parts' least arenas.
std::vector<std::vector<std::size_t>> independent_parts(const PackingProblem& p);

// --- What the engines solve ---

// An item in units: size >= 1, alive over a range that is not empty.
struct UnitItem {
  std::int64_t size = 0;
  TimeRange alive;

  UnitItem() = default;
  UnitItem(std::int64_t size, TimeRange alive) : size(size), alive(alive) {}
  UnitItem(std::int64_t size, std::int64_t begin, std::int64_t end) : UnitItem(size, TimeRange{begin, end}) {}
};

inline bool alive_together(const UnitItem& a, const UnitItem& b) { return a.alive.overlaps(b.alive); }

// Which items of a part may not share bytes: those alive together, or with
// explicit conflicts (model v3) the pairs listed, as a matrix of bits.
class Together {
 public:
  Together() = default;  // by lifetimes
  Together(std::size_t n, const std::vector<std::pair<std::size_t, std::size_t>>& pairs);
  bool by_lifetimes() const { return n_ == 0 && bits_.empty(); }
  bool operator()(const std::vector<UnitItem>& items, std::size_t a, std::size_t b) const {
    if (by_lifetimes()) return alive_together(items[a], items[b]);
    const std::size_t bit = a * n_ + b;
    return (bits_[bit / 64] >> (bit % 64)) & 1U;
  }

 private:
  std::size_t n_ = 0;
  std::vector<std::uint64_t> bits_;
};

// An engine's answer to "do these items fit in this capacity?".
enum class FitOutcome {
  Found,       // offsets holds a placement within the capacity
  Infeasible,  // proven: no placement fits
  Timeout,     // the time (or, for the search, node) budget ran out first
};

struct Fit {
  FitOutcome outcome = FitOutcome::Timeout;
  std::vector<std::int64_t> offsets;  // when Found, by item index
};

using Clock = std::chrono::steady_clock;

}  // namespace planck::oracle
