#pragma once
// The static checker (docs/verification.md#the-static-checker; its rules: docs/formats.md#plans-plan). It derives lifetimes with code of its
// own and shares nothing with planner/ but the schedule model, the parsers and
// plan resolution, so that a bug in the planner's lifetime analysis or
// allocator cannot hide itself from the check.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "model/plan.h"
#include "model/resolve.h"
#include "model/schedule.h"
#include "oracle/check/lifetimes.h"
#include "oracle/check/violation.h"

namespace planck::oracle {

// A plan with every buffer at place 0 has an overlap for each pair of its
// buffers alive together; past this many, the `planck check` command lists
// only the first and counts the rest.
inline constexpr std::size_t kOverlapsListed = 100;
inline constexpr std::size_t kEveryOverlap = std::numeric_limits<std::size_t>::max();

struct CheckReport {
  std::vector<Violation> violations;  // every violation but the overlaps past the limit
  std::uint64_t unlisted_overlaps = 0;  // overlaps found past the limit, not in `violations`
};

// Judges a plan for a schedule; no violations when the plan is valid.
// Violations come in a fixed order: arenas (in plan order), placements (in
// plan order), planned buffers left unplaced (in order of first use), devices
// with no arena or several (in order of first use) and arenas on devices
// without planned buffers (in plan order), then overlaps (by the plan order
// of the pair's two placements), of which the first `max_overlaps` are listed.
//
// A placement is judged by the first of these rules it breaks: unknown
// storage, not planned, placed twice, unknown arena. One that breaks none is
// judged for its device, its alignment and its end, and joins the overlap
// check unless its end passes 2^64. So a later placement of a buffer is only
// reported as placed twice. Likewise a later arena of a name already declared
// is only reported as declared twice, and placements naming it refer to the
// first.
//
// Overlaps are judged per arena (with one arena per device, per device).
// O(n log n) in the number of storage, entries, arguments, arenas and
// placements, plus the violations it reports: it reports at least one
// overlap whenever two buffers overlap, though not every overlapping pair.
CheckReport check_plan(const Schedule& s, const Plan& p, std::size_t max_overlaps);
std::vector<Violation> check_plan(const Schedule& s, const Plan& p);  // every overlap it finds
// The same judgement from what it works out first: r is resolve(s, p) and
// planned is planned_buffers(s), which a caller judging several plans for
// one schedule works out once.
CheckReport check_plan(const Schedule& s, const Plan& p, const Resolution& r,
                       const std::vector<Lifetime>& planned, std::size_t max_overlaps);

// The same judgement with overlaps found by code of its own, comparing every
// pair of placed buffers, for tests to compare check_plan against. It finds
// every overlapping pair; all its other violations are exactly check_plan's.
// O(n^2).
CheckReport check_plan_quadratic(const Schedule& s, const Plan& p, std::size_t max_overlaps);
std::vector<Violation> check_plan_quadratic(const Schedule& s, const Plan& p);

}  // namespace planck::oracle
