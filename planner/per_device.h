#pragma once
// What the per-device heuristics (greedy, bysize, naive) share around their
// placement rule: the planned buffers of one device as the rule sees them,
// and the plan made from the places it picks, through the rules of docs/planners.md#the-reference-planner-tlsf
// (rules.h). Internal to planner/.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"
#include "planner/planner.h"

namespace planck {

inline constexpr std::size_t kNoShare = static_cast<std::size_t>(-1);

// A planned buffer as a per-device placement rule sees it.
struct PlannedBuffer {
  const Storage* storage = nullptr;  // for error messages
  Bytes size = 0;                    // rounded; a zero size takes no bytes
  std::size_t first = 0;             // lifetime in top-level entries, inclusive
  std::size_t last = 0;
  // The buffer of the same device it may share its place with through an
  // in-place kernel (inplace.h), as an index into the device's buffers, or
  // kNoShare. A rule may ignore it.
  std::size_t share = kNoShare;
};

inline bool overlap_in_time(const PlannedBuffer& a, const PlannedBuffer& b) {
  return a.first <= b.last && b.first <= a.last;
}

// The buffers' indices by size, largest first; equal sizes keep their order
// (of first appearance), which is what makes the heuristics deterministic.
std::vector<std::size_t> by_size_descending(const std::vector<PlannedBuffer>& buffers);

// When a placement must be done by. A placer that can stop between buffers
// asks every so many buffers and gives up with timeout_error() once it has
// passed; one that cannot ignores it.
struct Deadline {
  std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max();
  // Reads the clock once every kBuffersPerClockRead buffers placed, so that
  // asking for each costs nothing.
  static constexpr std::size_t kBuffersPerClockRead = 1024;
  bool passed(std::size_t placed) const {
    return placed % kBuffersPerClockRead == 0 && until != std::chrono::steady_clock::time_point::max() &&
           std::chrono::steady_clock::now() >= until;
  }
};
Error timeout_error();  // kind "planner-timeout"

class ConflictRule;

// What a placer is given beside the buffers: its deadline and, for a
// schedule of model v3, the rule that says which buffers conflict.
struct Placing {
  Deadline deadline;
  // Null when two buffers conflict exactly when alive together. Else the
  // buffers' lifetimes are windows (conflicts.h), and of two buffers alive
  // together those that the rule says do not conflict may share bytes.
  const ConflictRule* rule = nullptr;
  const std::vector<std::size_t>* lives = nullptr;  // by buffer: its lifetime, for the rule

  // Whether buffers a and b, alive together, conflict.
  bool conflict(std::size_t a, std::size_t b) const;
};

// Whether buffers a and b may not share bytes: alive together and, in v3,
// conflicting.
inline bool alive_together(const Placing& placing, const std::vector<PlannedBuffer>& buffers, std::size_t a,
                           std::size_t b) {
  return overlap_in_time(buffers[a], buffers[b]) && (placing.rule == nullptr || placing.conflict(a, b));
}

// Places (multiples of the device's unit, parallel to the buffers) for one
// device's buffers, given in order of first entry, such that buffers alive
// together (alive_together) have disjoint [place, place + size), but for a
// buffer and its `share` at one place.
using DevicePlacer = Result<std::vector<Bytes>> (*)(const std::vector<PlannedBuffer>& buffers,
                                                     const Placing& placing);

// A plan that places each device's buffers apart with place: rules 1 to 5
// for the buffers, their sizes and devices, rule 7 for the result.
Result<Plan> plan_per_device(const Schedule& s, DevicePlacer place, const Deadline& deadline = {});

// The planner called `name` that plans by
// plan_per_device with `place`, handing it plan_until's deadline.
std::unique_ptr<Planner> per_device_planner(std::string_view name, DevicePlacer place);

}  // namespace planck
