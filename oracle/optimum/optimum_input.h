#pragma once
// The packing problems of `planck oracle`, and the plans it writes back.
//
// A CSV interval problem is taken as it is: its rows are the items, sizes in
// bytes, alignment 1, one device. A schedule gives one problem per device
// with planned buffers (docs/verification.md): the planned buffers in order of first
// appearance, each of round_up(phase + bytes, A) / A units alive on
// [first, last + 1) in top-level entries, by the oracle's own lifetimes
// (oracle/check/lifetimes.h), never the planner's. A is the device's align
// (256 unless a `device` line says otherwise, docs/model-v2.md). The figure
// leaves in-place sharing out: it is the least arena in which no two buffers
// alive together share bytes, which an in-place kernel may undercut.

#include <optional>
#include <string>
#include <vector>

#include "oracle/optimum/optimum_problem.h"
#include "model/intervals.h"
#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck::oracle {

PackingProblem interval_packing(const IntervalProblem& p);

// The plan of a placement of interval_packing(p): arena "arena0" on device
// "CSV" of `arena` bytes, each row placed at its offset under its id. An id
// that cannot be a word of a plan file is an error at its line.
Result<Plan> interval_plan(const IntervalProblem& p, const Offsets& offsets, Bytes arena);

struct DevicePacking {
  std::string device;
  std::vector<StorageId> buffers;  // item k of `problem` is buffers[k]
  PackingProblem problem;          // sizes in units of `unit` bytes
  Bytes unit = kPlaceAlign;        // the device's align
  std::optional<Bytes> capacity;   // the device's capacity, in bytes, if a `device` line gives one
  bool has_inplace = false;        // a kernel of the schedule declares an in-place pair on the device
  // Model v3: a device of more than kConflictItems buffers, whose conflicts
  // are not listed; its problem's lifetimes do not bound them, so it is
  // given no search, only the lower bound of its largest buffer.
  bool unpaired = false;
};

// The most buffers of a device whose conflicts schedule_packings lists in
// model v3 (a pass over every pair).
inline constexpr std::size_t kConflictItems = 5000;

// In order of the devices' first appearance among the planned buffers. An
// error names the buffer whose rounded size overflows, at its declaration.
// In model v3 (streams or local buffers) each problem lists its conflicting
// pairs (docs/model-v3.md#the-conflict-rule), by the oracle's own order of
// uses (oracle/check/order.h).
Result<std::vector<DevicePacking>> schedule_packings(const Schedule& s);

// The lower bound on any plan's arena for the device, in bytes: the peak of
// its buffers' live rounded bytes, by the oracle's own lifetimes. The
// figure `planck check` and `planck stats` report. An error when it passes
// 2^64.
Result<Bytes> arena_lower_bound(const DevicePacking& d);

// The plan of one placement per device (offsets and arena in units): an arena
// per device, named arenaK with the smallest K no storage is named by, in
// order; places and sizes in bytes.
Result<Plan> schedule_plan(const Schedule& s, const std::vector<DevicePacking>& devices,
                           const std::vector<Offsets>& offsets, const std::vector<Bytes>& arenas);

}  // namespace planck::oracle
