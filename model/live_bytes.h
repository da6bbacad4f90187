#pragma once
// What sized lifetimes ask of memory, and what a plan's arenas hold: the
// figures `planck stats`, `planck check`, the oracle and the planners share.
// A load is a size alive over a span of time; the peak of live bytes over
// loads is the least any arena that holds them all can be
// (docs/verification.md#the-optimum-oracle).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/lifetime.h"
#include "model/plan.h"
#include "model/ranges.h"
#include "model/schedule.h"

namespace planck {

// `size` bytes alive over a range of times.
struct Load {
  TimeRange alive;
  Bytes size = 0;
};

// A buffer of `size` bytes over its lifetime: entries [first, last + 1).
inline Load load_of(const Lifetime& life, Bytes size) { return {times_of(life), size}; }

// The peak of live bytes: the most bytes the loads hold at once, a load
// that ends at a time freed before one that begins then. Loads alive
// together need disjoint bytes, so no arena that holds them all is smaller.
// nullopt when the live bytes pass 2^64. Needs a load alive over no empty range.
// O(n) for loads in order of their begins and of their ends (the order of
// first appearance is of the begins), else O(n log n).
std::optional<Bytes> peak_live_bytes(const std::vector<Load>& loads);

// The sum of a plan's arena sizes; nullopt when it passes 2^64.
std::optional<Bytes> arena_total(const Plan& p);
// The same over the arenas on `device`.
std::optional<Bytes> arena_total(const Plan& p, std::string_view device);

// A device with a capacity that its planned buffers (`planned`, each on its
// storage's device) do not fit side by side, each in blocks of max(256,
// align), the coarsest any planner of docs/model-v2.md rounds to: where a
// planner may refuse to plan. A sentence with the device and its figures,
// or nullopt when every capacity holds its buffers so.
std::optional<std::string> capacity_too_small(const Schedule& s, const std::vector<Lifetime>& planned);

}  // namespace planck
