// The plain twin of check_plan. It shares the rules on arenas, placements
// and devices with it, but finds overlaps by itself: it takes every placed
// buffer's bytes and lifetime afresh and compares every pair, so that a
// mistake in check_plan's sweep shows as a disagreement between the two.

#include <algorithm>
#include <optional>
#include <utility>

#include "model/resolve.h"
#include "oracle/check/checker.h"
#include "oracle/check/conflicts.h"
#include "oracle/check/inplace.h"
#include "oracle/check/lifetimes.h"
#include "oracle/check/order.h"
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

// Model v3's conflict rule, the plain way: happens-before as reachability
// in the graph whose edges join each entry to the next on its stream and
// each `record E` to each `wait E`; every use of a buffer kept, each as the
// path of positions from the top level down to the call (or loop) that
// takes it; a local buffer's loop as the longest path that every use path
// continues.
class PlainOrder {
 public:
  PlainOrder(const Schedule& s, const std::vector<Lifetime>& planned) : s_(s), uses_(s.storage.size()) {
    const std::size_t n = s.entries.size();
    reach_.assign(n, std::vector<bool>(n, false));
    std::vector<std::vector<std::size_t>> next(n);
    for (std::size_t e = 0; e < n; ++e) {
      for (std::size_t f = e + 1; f < n; ++f) {
        if (s.entries[f].stream == s.entries[e].stream) {
          next[e].push_back(f);
          break;
        }
      }
      if (s.entries[e].kind != Entry::Kind::Record) continue;
      for (std::size_t f = e + 1; f < n; ++f) {
        if (s.entries[f].kind == Entry::Kind::Wait && s.entries[f].name == s.entries[e].name) next[e].push_back(f);
      }
    }
    for (std::size_t e = 0; e < n; ++e) {
      std::vector<std::size_t> todo = next[e];
      while (!todo.empty()) {
        const std::size_t f = todo.back();
        todo.pop_back();
        if (reach_[e][f]) continue;
        reach_[e][f] = true;
        todo.insert(todo.end(), next[f].begin(), next[f].end());
      }
    }
    for (const Lifetime& life : planned) {
      const Storage& st = s.storage[life.buffer];
      uses_[life.buffer].planned = true;
      uses_[life.buffer].bottom = lives_from_start(st);
      uses_[life.buffer].top = lives_to_end(st);
    }
    for (std::size_t e = 0; e < n; ++e) walk(s.entries[e], {e});
  }

  bool conflict(StorageId b, StorageId c) const { return !before(b, c) && !before(c, b); }

 private:
  struct Uses {
    bool planned = false;
    bool bottom = false;
    bool top = false;
    std::vector<std::vector<std::size_t>> paths;
  };

  void walk(const Entry& e, const std::vector<std::size_t>& path) {
    for (const Arg& a : e.args) note(storage_of(a), path);
    for (const Arg& a : e.flag()) note(storage_of(a), path);
    for (std::size_t p = 0; p < e.body().size(); ++p) {
      std::vector<std::size_t> inner = path;
      inner.push_back(p);
      walk(e.body()[p], inner);
    }
  }
  void note(StorageId id, const std::vector<std::size_t>& path) {
    if (uses_[id].planned) uses_[id].paths.push_back(path);
  }

  // The path of a buffer's loop: empty for the top level.
  std::vector<std::size_t> scope(StorageId b) const {
    if (!s_.storage[b].local) return {};
    const auto& paths = uses_[b].paths;
    std::vector<std::size_t> common = paths.front();
    std::size_t shortest = common.size();
    for (const auto& p : paths) {
      std::size_t k = 0;
      while (k < common.size() && k < p.size() && common[k] == p[k]) ++k;
      common.resize(k);
      shortest = std::min(shortest, p.size());
    }
    if (common.size() >= shortest) common.resize(shortest - 1);
    return common;
  }

  bool before(StorageId b, StorageId c) const {
    const std::vector<std::size_t> sb = scope(b);
    const std::vector<std::size_t> sc = scope(c);
    std::size_t k = 0;
    while (k < sb.size() && k < sc.size() && sb[k] == sc[k]) ++k;
    if (k == 0) {
      if (uses_[b].top || uses_[c].bottom) return false;
      for (const auto& u : uses_[b].paths) {
        for (const auto& v : uses_[c].paths) {
          if (!reach_[u[0]][v[0]]) return false;
        }
      }
      return true;
    }
    // Inside the loop of path sb[0..k): each use's position in its body.
    std::size_t b_last = 0;
    std::size_t c_first = static_cast<std::size_t>(-1);
    for (const auto& u : uses_[b].paths) b_last = std::max(b_last, u[k]);
    for (const auto& v : uses_[c].paths) c_first = std::min(c_first, v[k]);
    return b_last < c_first;
  }

  const Schedule& s_;
  std::vector<std::vector<bool>> reach_;
  std::vector<Uses> uses_;
};

// Compares every two buffers: a pair that `overlap(a, b)` says shares bytes
// it may not, and that the in-place rule does not allow, is a violation.
// Lists the first max_overlaps of them in the report, each as
// `violation(a, b)` makes it, and counts the rest.
template <class Overlap, class Describe>
void judge_pairs(const std::vector<Judged>& buffers, const InPlaceRule& inplace, std::size_t max_overlaps,
                 CheckReport& report, Overlap overlap, Describe violation) {
  std::size_t listed = 0;
  for (std::size_t x = 0; x < buffers.size(); ++x) {
    for (std::size_t y = x + 1; y < buffers.size(); ++y) {
      const Judged& a = buffers[x];
      const Judged& b = buffers[y];
      if (!overlap(a, b)) continue;
      if (!inplace.empty() && inplace.allows(a.id, {a.arena, a.begin}, b.id, {b.arena, b.begin})) continue;
      if (listed < max_overlaps) {
        report.violations.push_back(violation(a, b));
        ++listed;
      } else {
        ++report.unlisted_overlaps;
      }
    }
  }
}

// The overlaps of model v3, by PlainOrder, every pair compared.
void judge_conflicts(const Schedule& s, const Plan& p, const std::vector<Lifetime>& planned,
                     const std::vector<Judged>& buffers, std::size_t max_overlaps, CheckReport& report) {
  const PlainOrder plain(s, planned);
  const UseOrder order(s, planned);
  InPlaceRule inplace(s, planned);
  inplace.use_order(&order);
  const InPlaceRule file_order_inplace(s, planned);
  const auto facts = [](const Judged& j) {
    return ConflictFacts{.buffer = j.id, .placement = j.placement, .arena = j.arena, .block = {j.begin, j.end}};
  };
  const auto conflict = [&](const Judged& a, const Judged& b) {
    const bool share = a.arena == b.arena && std::max(a.begin, b.begin) < std::min(a.end, b.end);
    return share && plain.conflict(a.id, b.id);
  };
  judge_pairs(buffers, inplace, max_overlaps, report, conflict, [&](const Judged& a, const Judged& b) {
    return conflict_violation(s, p, order, inplace, file_order_inplace, facts(a), facts(b));
  });
}

}  // namespace

CheckReport check_plan_quadratic(const Schedule& s, const Plan& p, std::size_t max_overlaps) {
  const Resolution r = resolve(s, p);
  const std::vector<Lifetime> planned = planned_buffers(s);
  CheckReport report{.violations = judge_plan_rules(s, p, r, planned).violations};
  const std::vector<Judged> buffers = judged_buffers(s, p, r, planned);
  if (s.version() >= 3) {
    judge_conflicts(s, p, planned, buffers, max_overlaps, report);
    for (Violation& v : report.violations) v.message = describe(v);
    return report;
  }
  const InPlaceRule inplace(s, planned);
  judge_pairs(buffers, inplace, max_overlaps, report, overlap,
              [&](const Judged& a, const Judged& b) { return overlap_violation(s, p, inplace, a, b); });
  for (Violation& v : report.violations) v.message = describe(v);
  return report;
}

std::vector<Violation> check_plan_quadratic(const Schedule& s, const Plan& p) {
  return check_plan_quadratic(s, p, kEveryOverlap).violations;
}

}  // namespace planck::oracle
