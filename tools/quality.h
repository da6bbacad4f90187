#pragma once
// A plan's quality beside its validity, for `check` and `stats`
// (docs/commands.md#planck-check-and-planck-stats): per device, its arena
// against the lower bound the oracle reads from the schedule (the peak of
// live rounded bytes, by the oracle's own lifetimes, never the planner's),
// and on request the oracle's least arena within a time limit.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/plan.h"
#include "model/schedule.h"
#include "oracle/check/checker.h"
#include "oracle/optimum/optimum.h"
#include "oracle/optimum/optimum_input.h"

namespace planck::cli {

// The offsets, in the oracle's units (the device's align), that `plan`
// gives the items of `d`; nullopt when it leaves one unplaced, off the
// grid, or in another arena than the rest, and on a device with in-place
// kernels, where a plan may share bytes that the oracle's problem keeps
// apart. For a plan that places each buffer once (the judge of one that
// does not is the checker).
std::optional<oracle::Offsets> plan_offsets(const Plan& plan, const oracle::DevicePacking& d);

struct DeviceQuality {
  std::string device;
  std::size_t buffers = 0;
  Bytes arena = 0;        // the plan's arenas on the device, added up, in bytes (0: none)
  Bytes lower_bound = 0;  // in bytes
  std::optional<oracle::OptimumResult> optimum;  // in units of `unit` bytes
  Bytes unit = kPlaceAlign;  // the device's align
  // A kernel on the device works in place: the bound and the optimum leave
  // the sharing out, so a plan that shares may fall below them.
  bool inplace_excluded = false;
};

// Per device of the schedule, in order of first appearance. With a deadline
// the oracle seeks each device's least arena until then, starting from the
// plan's placement when `plan_valid` (the checker found nothing). Errors: a
// schedule the oracle cannot read as packing problems (a rounded size
// overflows), or one of the oracle's own internal errors.
Result<std::vector<DeviceQuality>> plan_quality(const Schedule& s, const Plan& plan, bool plan_valid,
                                                std::optional<std::chrono::steady_clock::time_point> deadline);

// `units` of `unit` bytes, in bytes; nullopt above kMaxBytes, the most a
// plan file, a schedule or an interval problem can hold.
std::optional<Bytes> unit_bytes(Bytes units, Bytes unit);
// Its decimal figure, or "more than 4611686018427387904 (2^62)".
std::string bytes_text(Bytes units, Bytes unit);
// Its number, or null.
nlohmann::ordered_json bytes_json(Bytes units, Bytes unit);

// "1.250": arena over lower bound; "-" when the bound is 0 and the arena not.
std::string ratio_text(Bytes arena, Bytes lower);

// One line per device, e.g. "p.plan: device cuda:0: arena 4096, lower bound
// 3072 (ratio 1.333), optimum 3584 (optimal)"; byte figures divided by
// `scale`, for an interval problem judged in blocks (tools/commands.h).
std::string quality_text(const std::string& plan, const std::vector<DeviceQuality>& q, Bytes scale);
nlohmann::ordered_json quality_json(const std::vector<DeviceQuality>& q, Bytes scale);

// The checker's verdict: the violations listed and the overlaps past them.
std::uint64_t violation_count(const oracle::CheckReport& found);
// Adds the verdict to a report's object: valid, violation_count, violations
// (each {rule, message}), unlisted_overlaps.
void add_check_json(nlohmann::ordered_json& object, const oracle::CheckReport& found);

}  // namespace planck::cli
