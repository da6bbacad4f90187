#include "oracle/optimum/skyline_search.h"

#include <algorithm>
#include <array>
#include <bit>
#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <random>
#include <system_error>
#include <thread>
#include <utility>

namespace planck::oracle {
namespace {

// The clock is read once per this many choices.
constexpr std::int64_t kClockEvery = 256;

// Run r of the portfolio takes variant r mod kVariants.size() and may make
// kRestartBase x luby(r / kVariants.size() + 1) choices.
constexpr std::int64_t kRestartBase = 1000;

// Every run but the first of each distinct variant tries first, at this
// percentage of its branching points, a candidate drawn at random.
constexpr int kShufflePercent = 15;

// A point where the search branches: the lowest cell of a stretch of pieces
// lower than both its neighbours, at its left or its right end.
struct Frame {
  std::int32_t piece = 0;  // the stretch's end piece the point is on
  std::int64_t height = 0;
  std::vector<std::int32_t> candidates;  // items that can cover the point, in the order tried
  bool can_raise = false;                // the piece has room to spare: leaving the point empty is a choice too
  std::size_t next = 0;
  std::int32_t applied = -1;  // the item placed now, -1 for none
  bool raised = false;        // the piece raised instead, from `height`
};

enum class Step { Done, Branch, DeadEnd };

// How one run picks its branching points.
struct Variant {
  bool reversed = false;  // on the timeline turned back to front
  // Points with at least this many candidates count as equally hard.
  std::size_t ways_cap = SIZE_MAX;
  bool lowest_on_ties = false;  // of equally hard points, the lowest; else the leftmost
};

// Forward and reversed, with the plain order of points and three others;
// the first kDistinct are all different, and the rest repeat the plain
// orders, with random candidates from their first run on.
constexpr std::array<Variant, 12> kVariants = {{
    {false, SIZE_MAX, false},
    {false, SIZE_MAX, true},
    {false, 3, true},
    {true, SIZE_MAX, false},
    {true, SIZE_MAX, true},
    {true, 3, true},
    {false, 5, true},
    {true, 5, true},
    {false, SIZE_MAX, false},
    {false, SIZE_MAX, true},
    {true, SIZE_MAX, false},
    {true, SIZE_MAX, true},
}};
constexpr std::int64_t kDistinct = 8;

// The i-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 ...
std::int64_t luby(std::int64_t i) {
  for (;;) {
    std::int64_t k = 1;
    while ((std::int64_t{1} << k) - 1 < i) ++k;
    if ((std::int64_t{1} << k) - 1 == i) return std::int64_t{1} << (k - 1);
    i -= (std::int64_t{1} << (k - 1)) - 1;
  }
}

class Skyline {
 public:
  Skyline(const std::vector<UnitItem>& items, std::int64_t capacity) : items_(items), capacity_(capacity) {
    std::vector<std::int64_t> times;
    for (const UnitItem& it : items) {
      times.push_back(it.alive.begin);
      times.push_back(it.alive.end);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    const std::size_t pieces = times.empty() ? 0 : times.size() - 1;
    pieces_ = static_cast<std::int32_t>(pieces);
    floor_.assign(pieces, 0);
    total_.assign(pieces, 0);
    cross_.assign(pieces == 0 ? 0 : pieces - 1, 0);
    starting_.assign(pieces, {});
    ending_.assign(pieces, {});
    first_.resize(items.size());
    end_.resize(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      first_[i] = static_cast<std::int32_t>(std::lower_bound(times.begin(), times.end(), items[i].alive.begin) - times.begin());
      end_[i] = static_cast<std::int32_t>(std::lower_bound(times.begin(), times.end(), items[i].alive.end) - times.begin());
      for (std::int32_t s = first_[i]; s < end_[i]; ++s) total_[s] += items[i].size;
      for (std::int32_t b = first_[i]; b + 1 < end_[i]; ++b) cross_[b] += items[i].size;
      starting_[first_[i]].push_back(static_cast<std::int32_t>(i));
      ending_[end_[i] - 1].push_back(static_cast<std::int32_t>(i));
    }
    auto in_order = [this](std::int32_t a, std::int32_t b) { return tried_before(a, b); };
    for (std::vector<std::int32_t>& list : starting_) std::sort(list.begin(), list.end(), in_order);
    for (std::vector<std::int32_t>& list : ending_) std::sort(list.begin(), list.end(), in_order);
    // Items over the same pieces, each group in the order tried.
    std::vector<std::int32_t> by_span(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) by_span[i] = static_cast<std::int32_t>(i);
    std::sort(by_span.begin(), by_span.end(), [&](std::int32_t a, std::int32_t b) {
      if (first_[a] != first_[b]) return first_[a] < first_[b];
      if (end_[a] != end_[b]) return end_[a] < end_[b];
      return tried_before(a, b);
    });
    rank_.resize(items.size());
    group_.resize(items.size());
    for (std::size_t k = 0; k < by_span.size(); ++k) {
      const std::int32_t i = by_span[k];
      if (k == 0 || first_[by_span[k - 1]] != first_[i] || end_[by_span[k - 1]] != end_[i]) groups_.emplace_back();
      rank_[i] = static_cast<std::int32_t>(groups_.back().size());
      group_[i] = static_cast<std::int32_t>(groups_.size() - 1);
      groups_.back().push_back(i);
    }
    placed_.assign(items.size(), false);
    offsets_.assign(items.size(), 0);
    breaks_.assign(static_cast<std::size_t>(pieces_) / 64 + 1, 0);
    refresh_breaks(0, pieces_);
    reach_right_.assign(pieces, 0);
    reach_left_.assign(pieces, pieces_);
    for (std::size_t i = 0; i < items.size(); ++i) {
      reach_right_[first_[i]] = std::max(reach_right_[first_[i]], end_[i]);
      reach_left_[end_[i] - 1] = std::min(reach_left_[end_[i] - 1], first_[i]);
      longest_ = std::max(longest_, end_[i] - first_[i]);
    }
  }

  // Some piece holds more than the capacity: nothing fits.
  bool overfull() const {
    return std::any_of(total_.begin(), total_.end(), [&](std::int64_t t) { return t > capacity_; });
  }

  enum class Run { Found, Stopped, Exhausted };

  // One depth-first run of at most `node_limit` choices, all of them counted
  // in `nodes`: Found with every item placed, else none placed, Exhausted
  // when every choice was tried (no other run can find a placement either).
  // `cancelled`, read with the clock, says whether another run has made
  // this one pointless.
  template <class Cancelled>
  Run run(const Variant& variant, std::uint64_t seed, std::int64_t node_limit, Clock::time_point deadline,
          std::int64_t& nodes, Cancelled cancelled) {
    variant_ = variant;
    rng_.seed(seed);
    shuffle_ = seed != 0;
    std::vector<Frame> frames;
    Step step = open(frames);
    std::int64_t mine = 0;
    while (step != Step::Done && !frames.empty()) {
      Frame& f = frames.back();
      undo(f);
      ++nodes;
      if (++mine > node_limit || (nodes % kClockEvery == 1 && (Clock::now() > deadline || cancelled()))) break;
      if (!choose(f)) {
        frames.pop_back();
        continue;
      }
      step = open(frames);
    }
    if (step == Step::Done) return Run::Found;
    if (frames.empty()) return Run::Exhausted;
    for (; !frames.empty(); frames.pop_back()) undo(frames.back());
    return Run::Stopped;
  }

  const std::vector<std::int64_t>& offsets() const { return offsets_; }

 private:
  // The largest first, then the longest, then by index.
  bool tried_before(std::int32_t a, std::int32_t b) const {
    if (items_[a].size != items_[b].size) return items_[a].size > items_[b].size;
    if (end_[a] - first_[a] != end_[b] - first_[b]) return end_[a] - first_[a] > end_[b] - first_[b];
    return a < b;
  }

  // A piece with no items left is a wall: nothing more goes there.
  bool higher(std::int32_t s, std::int64_t h) const {
    return s < 0 || s >= pieces_ || total_[s] == 0 || floor_[s] > h;
  }

  // Of every stretch lower than both its neighbours, the end point with the
  // fewest ways to cover it; Done when every item is placed, DeadEnd when
  // some point has none.
  Step open(std::vector<Frame>& frames) {
    Frame best;
    std::size_t best_ways = 0;
    bool any = false;
    bool best_left = true;
    std::int32_t best_lo = 0, best_hi = 0;
    for (std::int32_t s = 0; s < pieces_;) {
      if (total_[s] == 0) {
        ++s;
        continue;
      }
      const std::int32_t lo = s;
      const std::int64_t h = floor_[lo];
      // The stretch ends at the next break.
      const std::int32_t hi = next_break(lo + 1);
      s = hi;
      if (!higher(lo - 1, h) || !higher(hi, h)) continue;
      for (const bool left : {true, false}) {
        const std::int32_t piece = left ? lo : hi - 1;
        const bool can_raise = capacity_ - h - total_[piece] > 0;
        // Past the best so far, the count no longer matters.
        const std::size_t enough = any ? best_ways + 1 : SIZE_MAX;
        const std::size_t ways = cover(left, lo, hi, h, enough, nullptr) + (can_raise ? 1 : 0);
        if (ways == 0) return Step::DeadEnd;
        const std::size_t hard = std::min(ways, variant_.ways_cap);
        const bool better = !any || hard < best_ways ||
                            (hard == best_ways && variant_.lowest_on_ties && h < best.height);
        if (better) {
          any = true;
          best_ways = hard;
          best.piece = piece;
          best.height = h;
          best.can_raise = can_raise;
          best_left = left;
          best_lo = lo;
          best_hi = hi;
        }
      }
    }
    if (!any) return Step::Done;
    cover(best_left, best_lo, best_hi, best.height, SIZE_MAX, &best.candidates);
    if (shuffle_ && best.candidates.size() > 1 && std::uniform_int_distribution<int>(0, 99)(rng_) < kShufflePercent) {
      const std::size_t k = std::uniform_int_distribution<std::size_t>(1, best.candidates.size() - 1)(rng_);
      std::swap(best.candidates[0], best.candidates[k]);
    }
    frames.push_back(std::move(best));
    return Step::Branch;
  }

  // The items that can cover the lowest cell at the left (or right) end of
  // the stretch [lo, hi) at height h, in the order tried, into `out` when
  // given; how many, counting no further than `enough`.
  std::size_t cover(bool left, std::int32_t lo, std::int32_t hi, std::int64_t h, std::size_t enough,
                    std::vector<std::int32_t>* out) const {
    std::size_t count = 0;
    std::int32_t last = -1;
    for (std::int32_t i : left ? starting_[lo] : ending_[hi - 1]) {
      if (placed_[i] || (left ? end_[i] > hi : first_[i] < lo) || h + items_[i].size > capacity_) continue;
      // An item like the last one taken would only repeat its subtree.
      if (last >= 0 && same(last, i)) continue;
      last = i;
      if (out) out->push_back(i);
      if (++count >= enough) break;
    }
    return count;
  }

  bool same(std::int32_t a, std::int32_t b) const {
    return items_[a].size == items_[b].size && first_[a] == first_[b] && end_[a] == end_[b];
  }

  // Two items over the same pieces, one right on top of the other, can trade
  // places: of the two orders only the one with the earlier tried below is
  // searched.
  bool out_of_order(std::int32_t i, std::int64_t h) const {
    return std::any_of(groups_[group_[i]].begin(), groups_[group_[i]].end(), [&](std::int32_t j) {
      return rank_[j] > rank_[i] && placed_[j] && offsets_[j] + items_[j].size == h;
    });
  }

  // Applies the frame's next choice; false when none is left.
  bool choose(Frame& f) {
    while (f.next < f.candidates.size()) {
      const std::int32_t i = f.candidates[f.next++];
      if (out_of_order(i, f.height)) continue;
      f.applied = i;
      placed_[i] = true;
      offsets_[i] = f.height;
      for (std::int32_t s = first_[i]; s < end_[i]; ++s) {
        floor_[s] = f.height + items_[i].size;
        total_[s] -= items_[i].size;
      }
      for (std::int32_t b = first_[i]; b + 1 < end_[i]; ++b) cross_[b] -= items_[i].size;
      refresh_breaks(first_[i], end_[i]);
      // Only the steps at its two ends changed.
      if (step_fills(first_[i] - 1) && step_fills(end_[i] - 1) && edges_coverable(first_[i], end_[i])) return true;
      undo(f);
    }
    if (f.next == f.candidates.size() && f.can_raise) {
      ++f.next;  // the raise is tried once, last
      // To the lower neighbour that is higher; the top when there is none.
      const std::int32_t p = f.piece;
      std::int64_t to = capacity_;
      for (const std::int32_t n : {p - 1, p + 1}) {
        if (n >= 0 && n < pieces_ && total_[n] > 0 && floor_[n] > f.height) to = std::min(to, floor_[n]);
      }
      if (to + total_[p] > capacity_) return false;
      f.raised = true;
      floor_[p] = to;
      refresh_breaks(p, p + 1);
      if (step_fills(p - 1) && step_fills(p)) return true;
      undo(f);
    }
    return false;
  }

  // A full piece lower than its left neighbour (or with none) needs an item
  // that starts there and can rest on its floor: one over no higher piece.
  // Likewise at a right edge, one that ends there. Every piece met this
  // before an item went over pieces [a, b), so only those it can change are
  // looked at: the pieces next to them, and those with an item over them.
  bool edges_coverable(std::int32_t a, std::int32_t b) const {
    const std::int32_t from = std::max(a - longest_ - 1, 0);
    const std::int32_t to = std::min(b + longest_ + 1, pieces_);
    // A piece at an edge has a break on its left or right (breaks_), so only
    // the pieces on either side of a break are looked at.
    std::int32_t done = from - 1;  // the last piece looked at
    for (std::int32_t k = next_break(from); k <= to; k = next_break(k + 1)) {
      for (std::int32_t s = std::max(k - 1, done + 1); s <= k && s < to; ++s) {
        done = s;
        if (!edge_fine(s, a, b)) return false;
      }
    }
    return true;
  }

  // The check of edges_coverable at piece s.
  bool edge_fine(std::int32_t s, std::int32_t a, std::int32_t b) const {
    auto rests = [&](std::int32_t i, std::int64_t h) {
      if (placed_[i]) return false;
      for (std::int32_t p = first_[i]; p < end_[i]; ++p) {
        if (floor_[p] > h) return false;
      }
      return true;
    };
    if (total_[s] == 0 || floor_[s] + total_[s] != capacity_) return true;
    const bool near = a - 1 <= s && s <= b;
    if (!near && !(s < b && reach_right_[s] > a) && !(s >= a && reach_left_[s] < b)) return true;
    const std::int64_t h = floor_[s];
    auto none_rests = [&](const std::vector<std::int32_t>& list) {
      return std::none_of(list.begin(), list.end(), [&](std::int32_t i) { return rests(i, h); });
    };
    if (higher(s - 1, h) && none_rests(starting_[s])) return false;
    return !(higher(s + 1, h) && none_rests(ending_[s]));
  }

  // Break k (0 <= k <= pieces) lies between pieces k - 1 and k when they are
  // not one stretch: either is missing or full of items, or their floors differ.
  bool is_break(std::int32_t k) const {
    return k == 0 || k == pieces_ || total_[k - 1] == 0 || total_[k] == 0 || floor_[k - 1] != floor_[k];
  }

  // Recomputes breaks lo to hi, both included.
  void refresh_breaks(std::int32_t lo, std::int32_t hi) {
    for (std::int32_t k = std::max(lo, 0); k <= std::min(hi, pieces_); ++k) {
      const std::uint64_t bit = std::uint64_t{1} << (k % 64);
      std::uint64_t& word = breaks_[static_cast<std::size_t>(k / 64)];
      word = is_break(k) ? word | bit : word & ~bit;
    }
  }

  // The first break at k or after; pieces + 1 when there is none.
  std::int32_t next_break(std::int32_t k) const {
    if (k > pieces_) return pieces_ + 1;
    auto w = static_cast<std::size_t>(k / 64);
    std::uint64_t word = breaks_[w] & (~std::uint64_t{0} << (k % 64));
    while (word == 0) {
      if (++w == breaks_.size()) return pieces_ + 1;
      word = breaks_[w];
    }
    return static_cast<std::int32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(word)));
  }

  // Between pieces b and b + 1, the lower one's room up to the higher one's
  // floor can hold only its items that do not reach the other piece, or
  // room given up, at most what it has to spare.
  bool step_fills(std::int32_t b) const {
    if (b < 0 || b + 1 >= pieces_) return true;
    const std::int32_t low = floor_[b] < floor_[b + 1] ? b : b + 1;
    const std::int32_t high = low == b ? b + 1 : b;
    if (total_[low] == 0 || total_[high] == 0) return true;
    const std::int64_t step = floor_[high] - floor_[low];
    const std::int64_t spare = capacity_ - floor_[low] - total_[low];
    return total_[low] - cross_[b] + spare >= step;
  }

  void undo(Frame& f) {
    if (f.applied >= 0) {
      const std::int32_t i = f.applied;
      placed_[i] = false;
      for (std::int32_t s = first_[i]; s < end_[i]; ++s) {
        floor_[s] = f.height;
        total_[s] += items_[i].size;
      }
      for (std::int32_t b = first_[i]; b + 1 < end_[i]; ++b) cross_[b] += items_[i].size;
      refresh_breaks(first_[i], end_[i]);
      f.applied = -1;
    }
    if (f.raised) {
      floor_[f.piece] = f.height;
      refresh_breaks(f.piece, f.piece + 1);
      f.raised = false;
    }
  }

  const std::vector<UnitItem>& items_;
  std::int64_t capacity_;
  std::int32_t pieces_ = 0;
  std::vector<std::int64_t> floor_;  // by piece
  std::vector<std::int64_t> total_;  // by piece: the sizes of the items left there
  std::vector<std::int64_t> cross_;  // by boundary b (between pieces b and b + 1): of those, the ones alive on both
  std::vector<std::vector<std::int32_t>> starting_;  // by piece: the items that start there, in the order tried
  std::vector<std::vector<std::int32_t>> ending_;    // by piece: the items that end there, in the order tried
  std::int32_t longest_ = 0;                // the most pieces an item spans
  std::vector<std::int32_t> reach_right_;  // by piece: the end of the longest item that starts there
  std::vector<std::int32_t> reach_left_;   // by piece: the first piece of the longest item that ends there
  std::vector<std::int32_t> first_;  // by item: its pieces are [first, end)
  std::vector<std::int32_t> end_;
  std::vector<std::vector<std::int32_t>> groups_;  // the items over the same pieces, in the order tried
  std::vector<std::int32_t> group_;                // by item: its group
  std::vector<std::int32_t> rank_;                 // by item: its place in its group
  std::vector<bool> placed_;
  std::vector<std::int64_t> offsets_;
  std::vector<std::uint64_t> breaks_;  // bit k: is_break(k), for 0 <= k <= pieces
  Variant variant_;
  std::mt19937_64 rng_;
  bool shuffle_ = false;
};

// The same items on the timeline turned back to front: a placement of one is
// a placement of the other.
std::vector<UnitItem> reversed(const std::vector<UnitItem>& items) {
  std::int64_t end = 0;
  for (const UnitItem& it : items) end = std::max(end, it.alive.end);
  std::vector<UnitItem> out = items;
  for (UnitItem& it : out) it = {it.size, end - it.alive.end, end - it.alive.begin};
  return out;
}

}  // namespace

SkylineSearch::SkylineSearch(std::vector<UnitItem> items) : items_(std::move(items)), turned_(reversed(items_)) {}

// The portfolio's runs are handed out in order, each with the choices the
// runs before it would leave of node_limit had none of them succeeded, and
// the lowest run that finds a placement or tries every choice decides: the
// answer is the one a single thread would give, whichever thread gets there
// first. A run above the deciding one is cancelled; one below it goes on,
// since it could still decide.
class SkylineSearch::Portfolio {
 public:
  static constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();

  Portfolio(std::int64_t first_run, std::int64_t node_limit, Clock::time_point deadline)
      : next_(first_run), node_limit_(node_limit), deadline_(deadline) {}

  // Runs, at most `runs` of them, until the portfolio is decided, out of
  // choices or out of time, on the calling thread's own skylines of the
  // items, forward and turned around, at the portfolio's capacity.
  void work(Skyline& forward, Skyline& backward, std::int64_t runs = kNone) {
    const auto variants = static_cast<std::int64_t>(kVariants.size());
    std::int64_t nodes = 0;
    for (; runs > 0; --runs) {
      std::int64_t r = 0, limit = 0;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (over_locked()) return;
        r = next_++;
        limit = std::min(kRestartBase * luby(r / variants + 1), node_limit_ - used_);
        used_ += limit + 1;  // a run stopped at its limit has made one choice more
      }
      const Variant& v = kVariants[static_cast<std::size_t>(r % variants)];
      Skyline& sky = v.reversed ? backward : forward;
      const auto cancelled = [&] { return decided_.load(std::memory_order_relaxed) < r; };
      const Skyline::Run outcome =
          sky.run(v, r < kDistinct ? 0 : static_cast<std::uint64_t>(r), limit, deadline_, nodes, cancelled);
      std::lock_guard<std::mutex> lock(mutex_);
      if (outcome == Skyline::Run::Stopped) {
        // Cut short by the clock rather than by its limit: the next question
        // at this capacity starts over from it.
        if (Clock::now() > deadline_) cut_ = std::min(cut_, r);
        continue;
      }
      if (r < decided_) {
        decided_ = r;
        fit_ = outcome == Skyline::Run::Found ? Fit{FitOutcome::Found, sky.offsets()} : Fit{FitOutcome::Timeout, {}};
      }
    }
  }

  bool over() {
    std::lock_guard<std::mutex> lock(mutex_);
    return over_locked();
  }

  // The answer, and the run the next question at this capacity starts from:
  // the deciding run, which decides again at once, or the first run cut
  // short, or the first not handed out.
  Fit answer(std::int64_t& next_run) const {
    next_run = decided_ < kNone ? decided_.load() : std::min(cut_, next_);
    return fit_;
  }

 private:
  bool over_locked() const { return next_ >= decided_ || used_ >= node_limit_ || Clock::now() > deadline_; }

  std::mutex mutex_;
  std::int64_t next_;     // the next run to hand out
  std::int64_t used_ = 0;  // the choices granted to the runs handed out
  const std::int64_t node_limit_;
  const Clock::time_point deadline_;
  std::atomic<std::int64_t> decided_{kNone};  // the lowest run that found a placement or tried every choice
  std::int64_t cut_ = kNone;                  // the lowest run cut short by the clock
  Fit fit_{FitOutcome::Timeout, {}};
};

// The threads a search runs on: one a core, up to four.
unsigned search_threads() { return std::clamp(std::thread::hardware_concurrency(), 1u, 4u); }

Fit SkylineSearch::fit(std::int64_t capacity, std::int64_t node_limit, Clock::time_point deadline) {
  if (items_.empty()) return {FitOutcome::Found, {}};
  Skyline forward(items_, capacity);
  if (forward.overfull()) return {FitOutcome::Timeout, {}};
  Skyline backward(turned_, capacity);
  std::int64_t& next_run = next_run_[capacity];
  Portfolio portfolio(next_run, node_limit, deadline);
  // Most parts are settled by their first run, too soon for a thread to pay.
  portfolio.work(forward, backward, 1);
  if (!portfolio.over()) {
    const auto help = [&] {
      Skyline own_forward(items_, capacity);
      Skyline own_backward(turned_, capacity);
      portfolio.work(own_forward, own_backward);
    };
    std::vector<std::jthread> helpers;
    try {
      for (unsigned k = 1; k < search_threads(); ++k) helpers.emplace_back(help);
    } catch (const std::system_error&) {
      // No thread to be had: the threads there are share the runs.
    }
    portfolio.work(forward, backward);
  }
  return portfolio.answer(next_run);
}

Fit skyline_fit(const std::vector<UnitItem>& items, std::int64_t capacity, std::int64_t node_limit,
                Clock::time_point deadline) {
  return SkylineSearch(items).fit(capacity, node_limit, deadline);
}

}  // namespace planck::oracle
