#include "oracle/optimum/skyline_search.h"

#include <algorithm>

namespace planck::oracle {
namespace {

// The clock is read once per this many choices.
constexpr std::int64_t kClockEvery = 256;

struct Frame {
  std::int32_t lo = 0;  // the stretch of pieces [lo, hi) at height `height`
  std::int32_t hi = 0;
  std::int64_t height = 0;
  std::vector<std::int32_t> candidates;  // items starting at lo, ending within the stretch
  std::size_t next = 0;
  std::int32_t applied = -1;  // the item placed now, -1 for none
  bool raised = false;        // piece lo raised instead, from `height`
};

class Skyline {
 public:
  Skyline(const std::vector<UnitItem>& items, std::int64_t capacity) : items_(items), capacity_(capacity) {
    std::vector<std::int64_t> times;
    for (const UnitItem& it : items) {
      times.push_back(it.lower);
      times.push_back(it.upper);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    const std::size_t pieces = times.empty() ? 0 : times.size() - 1;
    floor_.assign(pieces, 0);
    total_.assign(pieces, 0);
    cross_.assign(pieces == 0 ? 0 : pieces - 1, 0);
    starting_.assign(pieces, {});
    ending_.assign(pieces, {});
    first_.resize(items.size());
    end_.resize(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      first_[i] = static_cast<std::int32_t>(std::lower_bound(times.begin(), times.end(), items[i].lower) - times.begin());
      end_[i] = static_cast<std::int32_t>(std::lower_bound(times.begin(), times.end(), items[i].upper) - times.begin());
      for (std::int32_t s = first_[i]; s < end_[i]; ++s) total_[s] += items[i].size;
      for (std::int32_t b = first_[i]; b + 1 < end_[i]; ++b) cross_[b] += items[i].size;
      starting_[first_[i]].push_back(static_cast<std::int32_t>(i));
      ending_[end_[i] - 1].push_back(static_cast<std::int32_t>(i));
    }
    // The longest first, then the largest, then by index.
    for (std::vector<std::int32_t>& list : starting_) {
      std::sort(list.begin(), list.end(), [&](std::int32_t a, std::int32_t b) {
        if (items_[a].size != items_[b].size) return items_[a].size > items_[b].size;
        if (end_[a] != end_[b]) return end_[a] > end_[b];
        return a < b;
      });
    }
    placed_.assign(items.size(), false);
    offsets_.assign(items.size(), 0);
  }

  Fit run(std::int64_t node_limit, Clock::time_point deadline) {
    for (std::size_t s = 0; s < total_.size(); ++s) {
      if (total_[s] > capacity_) return {FitOutcome::Timeout, {}};
    }
    std::vector<Frame> frames;
    if (!open(frames)) return {FitOutcome::Found, offsets_};
    std::int64_t nodes = 0;
    while (!frames.empty()) {
      Frame& f = frames.back();
      undo(f);
      if (++nodes > node_limit || (nodes % kClockEvery == 1 && Clock::now() > deadline)) break;
      if (!choose(f)) {
        frames.pop_back();
        continue;
      }
      if (!open(frames)) return {FitOutcome::Found, offsets_};
    }
    return {FitOutcome::Timeout, {}};
  }

 private:
  // Pushes the frame of the lowest stretch; false when every item is placed.
  bool open(std::vector<Frame>& frames) {
    std::int32_t lo = -1;
    for (std::int32_t s = 0; s < static_cast<std::int32_t>(floor_.size()); ++s) {
      if (total_[s] > 0 && (lo < 0 || floor_[s] < floor_[lo])) lo = s;
    }
    if (lo < 0) return false;
    Frame f;
    f.lo = lo;
    f.height = floor_[lo];
    f.hi = lo + 1;
    while (f.hi < static_cast<std::int32_t>(floor_.size()) && total_[f.hi] > 0 && floor_[f.hi] == f.height) ++f.hi;
    for (std::int32_t i : starting_[lo]) {
      if (!placed_[i] && end_[i] <= f.hi && f.height + items_[i].size <= capacity_) f.candidates.push_back(i);
    }
    frames.push_back(std::move(f));
    return true;
  }

  // Applies the frame's next choice; false when none is left.
  bool choose(Frame& f) {
    if (f.next < f.candidates.size()) {
      const std::int32_t i = f.candidates[f.next++];
      f.applied = i;
      placed_[i] = true;
      offsets_[i] = f.height;
      for (std::int32_t s = first_[i]; s < end_[i]; ++s) {
        floor_[s] = f.height + items_[i].size;
        total_[s] -= items_[i].size;
      }
      for (std::int32_t b = first_[i]; b + 1 < end_[i]; ++b) cross_[b] -= items_[i].size;
      // Only the steps at its two ends changed.
      if (!step_fills(first_[i] - 1) || !step_fills(end_[i] - 1) || !edges_coverable()) return choose_again(f);
      return true;
    }
    if (f.next == f.candidates.size()) {
      ++f.next;  // the raise is tried once, last
      // To the lower neighbour with items left; the top when there is none.
      std::int64_t to = capacity_;
      if (f.lo > 0 && total_[f.lo - 1] > 0) to = std::min(to, floor_[f.lo - 1]);
      if (f.lo + 1 < static_cast<std::int32_t>(floor_.size()) && total_[f.lo + 1] > 0 &&
          floor_[f.lo + 1] > f.height) {
        to = std::min(to, floor_[f.lo + 1]);
      }
      if (to + total_[f.lo] > capacity_) return false;
      f.raised = true;
      floor_[f.lo] = to;
      if (!step_fills(f.lo - 1) || !step_fills(f.lo)) return choose_again(f);
      return true;
    }
    return false;
  }

  // The choice just applied leaves a step that cannot be filled: the next one.
  bool choose_again(Frame& f) {
    undo(f);
    return choose(f);
  }

  // A full piece lower than its left neighbour (or with none) needs an item
  // that starts there and can rest on its floor: one over no higher piece.
  // Likewise at a right edge, one that ends there.
  bool edges_coverable() const {
    const auto pieces = static_cast<std::int32_t>(floor_.size());
    auto rests = [&](std::int32_t i, std::int64_t h) {
      if (placed_[i]) return false;
      for (std::int32_t s = first_[i]; s < end_[i]; ++s) {
        if (floor_[s] > h) return false;
      }
      return true;
    };
    for (std::int32_t s = 0; s < pieces; ++s) {
      if (total_[s] == 0 || floor_[s] + total_[s] != capacity_) continue;
      const std::int64_t h = floor_[s];
      const bool left_edge = s == 0 || total_[s - 1] == 0 || floor_[s - 1] > h;
      const bool right_edge = s + 1 == pieces || total_[s + 1] == 0 || floor_[s + 1] > h;
      if (left_edge && std::none_of(starting_[s].begin(), starting_[s].end(), [&](std::int32_t i) { return rests(i, h); })) {
        return false;
      }
      if (right_edge && std::none_of(ending_[s].begin(), ending_[s].end(), [&](std::int32_t i) { return rests(i, h); })) {
        return false;
      }
    }
    return true;
  }

  // Between pieces b and b + 1, the lower one's room up to the higher one's
  // floor can hold only its items that do not reach the other piece, or
  // room given up, at most what it has to spare.
  bool step_fills(std::int32_t b) const {
    if (b < 0 || b + 1 >= static_cast<std::int32_t>(floor_.size())) return true;
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
      f.applied = -1;
    }
    if (f.raised) {
      floor_[f.lo] = f.height;
      f.raised = false;
    }
  }

  const std::vector<UnitItem>& items_;
  std::int64_t capacity_;
  std::vector<std::int64_t> floor_;  // by piece
  std::vector<std::int64_t> total_;  // by piece: the sizes of the items left there
  std::vector<std::int64_t> cross_;  // by boundary b (between pieces b and b + 1): of those, the ones alive on both
  std::vector<std::vector<std::int32_t>> starting_;  // by piece: the items that start there
  std::vector<std::vector<std::int32_t>> ending_;    // by piece: the items that end there
  std::vector<std::int32_t> first_;  // by item: its pieces are [first, end)
  std::vector<std::int32_t> end_;
  std::vector<bool> placed_;
  std::vector<std::int64_t> offsets_;
};

}  // namespace

Fit skyline_fit(const std::vector<UnitItem>& items, std::int64_t capacity, std::int64_t node_limit,
                Clock::time_point deadline) {
  return Skyline(items, capacity).run(node_limit, deadline);
}

}  // namespace planck::oracle
