// The plain twin of check_plan. It shares the rules on arenas, placements
// and devices with it, but finds overlaps by itself: it takes every placed
// buffer's bytes and lifetime afresh and compares every pair, so that a
// mistake in check_plan's sweep shows as a disagreement between the two.

#include <algorithm>
#include <optional>
#include <utility>

#include "model/resolve.h"
#include "oracle/check/checker.h"
#include "oracle/check/inplace.h"
#include "oracle/check/lifetimes.h"
#include "oracle/check/plan_rules.h"

namespace planck::oracle {
namespace {

// A buffer the overlap rule judges, as the plain twin sees it.
struct Judged {
  std::size_t placement = 0;
  std::size_t arena = 0;
  StorageId id = 0;
  const Storage* storage = nullptr;
  std::size_t first = 0;  // its top-level entries, first..last
  std::size_t last = 0;
  Bytes begin = 0;  // its block [begin, end) = [place, place + rounded)
  Bytes end = 0;
};

// Every placement that resolves (known storage placed here first, in a known
// arena), of a planned buffer, whose end is a number: the buffers the overlap
// rule judges. Lifetimes are looked up one by one.
std::vector<Judged> judged_buffers(const Schedule& s, const Plan& p, const Resolution& r,
                                   const std::vector<Lifetime>& planned) {
  std::vector<Judged> out;
  for (std::size_t i = 0; i < p.placements.size(); ++i) {
    const ResolvedPlacement& at = r.placements[i];
    if (!at.ok()) continue;
    const auto life = std::find_if(planned.begin(), planned.end(),
                                   [&](const Lifetime& l) { return l.buffer == *at.storage; });
    if (life == planned.end()) continue;
    const Storage& st = s.storage[*at.storage];
    const Result<Bytes> rounded = rounded_size(st, s.align_of(st.device));
    if (!rounded) continue;
    const Bytes place = p.placements[i].place;
    const std::optional<Bytes> end = checked_add(place, *rounded);
    if (!end) continue;
    out.push_back({i, *at.arena, *at.storage, &st, life->first, life->last, place, *end});
  }
  return out;
}

bool overlap(const Judged& x, const Judged& y) {
  const bool same_arena = x.arena == y.arena;
  const bool alive_together = x.first <= y.last && y.first <= x.last;
  const bool share_bytes = std::max(x.begin, y.begin) < std::min(x.end, y.end);
  return same_arena && alive_together && share_bytes;
}

// An overlap of x and y; where a kernel declares them in place, OUT first
// and why the declaration does not allow it.
Violation overlap_violation(const Schedule& s, const Plan& p, const InPlaceRule& inplace, const Judged& x,
                            const Judged& y) {
  const InPlaceDeclaration* d = inplace.empty() ? nullptr : inplace.declared(x.id, y.id);
  if (d && d->pair.out != x.id) return overlap_violation(s, p, inplace, y, x);
  Violation v{.rule = Rule::Overlap};
  if (d) {
    v.rule = Rule::InPlaceNotAllowed;
    v.declared_at = entry_span(s, d->entry, d->entry);
    v.refusal = inplace.refusal(*d, {x.arena, x.begin}, {y.arena, y.begin}).value_or("another pair of the kernel shares these bytes");
  }
  v.arenas.push_back(p.arenas[x.arena].name);
  for (const Judged* b : {&x, &y}) {
    v.buffers.push_back(b->storage->name);
    v.plan_lines.push_back(p.placements[b->placement].pos.line);
    v.lives.push_back(entry_span(s, b->first, b->last));
    v.blocks.push_back({b->begin, b->end});
    const Bytes own = b->begin + b->storage->phase;
    v.own_bytes.push_back({own, own + b->storage->bytes});
  }
  v.during = entry_span(s, std::max(x.first, y.first), std::min(x.last, y.last));
  v.shared = ByteRange{std::max(x.begin, y.begin), std::min(x.end, y.end)};
  return v;
}

}  // namespace

CheckReport check_plan_quadratic(const Schedule& s, const Plan& p, std::size_t max_overlaps) {
  const Resolution r = resolve(s, p);
  const std::vector<Lifetime> planned = planned_buffers(s);
  CheckReport report{.violations = judge_plan_rules(s, p, r, planned).violations};
  const std::vector<Judged> buffers = judged_buffers(s, p, r, planned);
  const InPlaceRule inplace(s, planned);
  std::size_t listed = 0;
  for (std::size_t x = 0; x < buffers.size(); ++x) {
    for (std::size_t y = x + 1; y < buffers.size(); ++y) {
      const Judged& a = buffers[x];
      const Judged& b = buffers[y];
      if (!overlap(a, b)) continue;
      if (!inplace.empty() && inplace.allows(a.id, {a.arena, a.begin}, b.id, {b.arena, b.begin})) continue;
      if (listed < max_overlaps) {
        report.violations.push_back(overlap_violation(s, p, inplace, a, b));
        ++listed;
      } else {
        ++report.unlisted_overlaps;
      }
    }
  }
  for (Violation& v : report.violations) v.message = describe(v);
  return report;
}

std::vector<Violation> check_plan_quadratic(const Schedule& s, const Plan& p) {
  return check_plan_quadratic(s, p, kEveryOverlap).violations;
}

}  // namespace planck::oracle
