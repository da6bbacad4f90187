#include "oracle/optimum/optimum.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "oracle/optimum/optimum_greedy.h"
#include "oracle/optimum/skyline_search.h"

namespace planck::oracle {
namespace {

// The search keeps, for each item, the items alive with it; past this many
// such pairs in one part it is not built, so that memory stays bounded.
constexpr std::size_t kSearchMaxPairs = std::size_t{1} << 23;

// The skyline search (oracle/optimum/skyline_search.h) goes first on each
// capacity, for at most this many choices per item and a quarter of the
// trial's time: it finds most placements at once, and proves nothing. When
// the complete search then neither finds nor refutes one within a quarter of
// the time left, the skyline search has the rest, without a limit on its
// choices: on a tight part it is the one that finds the placement, if any does. Each part
// keeps its skyline search, which goes on where it stopped when the same
// capacity comes again.
constexpr std::int64_t kSkylineChoicesPerItem = 1000;

// Time limits beyond this are taken as this (about 115 days), so that the
// deadline cannot overflow the clock.
constexpr double kMaxTimeoutSeconds = 1e7;

enum class Answer { Fits, DoesNotFit, Unknown };

// One independent part of the timeline and what is known about it.
struct Part {
  std::vector<std::size_t> members;  // item indices of the whole problem
  PackingProblem problem;            // its items, in bytes, for the checker
  std::vector<UnitItem> units;       // its items, sizes divided by `unit`
  Bytes unit = 1;                    // the gcd of its sizes
  std::optional<std::size_t> pairs;  // pairs of its items alive together, once a search may need them
  Bytes peak = 0;                    // the most bytes alive at once
  Bytes lower = 0;                   // proven: no smaller arena fits
  std::string lower_by = "peak";
  Bytes upper = 0;                   // the arena of `best`
  std::string upper_by;
  Offsets best;                      // by member
  std::unique_ptr<SkylineSearch> skyline;
  std::unique_ptr<PlacementSearch> search;
  std::unique_ptr<Z3Packing> z3;
  Together together;  // by lifetimes, or the part's explicit conflicts (v3)
};

std::size_t pairs_alive_together(const std::vector<UnitItem>& items) {
  std::vector<std::int64_t> starts;
  std::vector<std::int64_t> ends;
  for (const UnitItem& u : items) {
    starts.push_back(u.alive.begin);
    ends.push_back(u.alive.end);
  }
  std::sort(starts.begin(), starts.end());
  std::sort(ends.begin(), ends.end());
  // Each item pairs with the items that started before it (or with it,
  // earlier in order) and have not ended by its start.
  std::size_t pairs = 0;
  std::size_t ended = 0;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    while (ended < ends.size() && ends[ended] <= starts[k]) ++ended;
    pairs += k - ended;
  }
  return pairs;
}

class Solver {
 public:
  Solver(const PackingProblem& p, const OptimumOptions& o) : problem_(p), options_(o) {}

  Result<OptimumResult> run();

 private:
  Status set_up_parts();
  Status offer(Part& part, Offsets offsets, const std::string& by,
               std::optional<Bytes> capacity = std::nullopt);
  Result<Answer> fit_part(Part& part, Bytes capacity, Clock::time_point until);
  Result<Answer> fit_all(Bytes capacity, Clock::time_point until);
  Status minimize();
  Bytes lower() const;
  Bytes upper() const;
  OptimumResult result() const;

  const PackingProblem& problem_;
  const OptimumOptions& options_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point deadline_;
  std::vector<Part> parts_;
};

Status Solver::set_up_parts() {
  for (std::vector<std::size_t>& members : independent_parts(problem_)) {
    Part part;
    part.members = std::move(members);
    for (std::size_t i : part.members) part.problem.items.push_back(problem_.items[i]);
    if (problem_.conflicts) {
      // The part's own pairs, by its own indices (members are in order).
      auto& pairs = part.problem.conflicts.emplace();
      const auto local = [&](std::size_t i) {
        return static_cast<std::size_t>(std::lower_bound(part.members.begin(), part.members.end(), i) -
                                        part.members.begin());
      };
      // Items of no bytes belong to no part.
      const auto member = [&](std::size_t at, std::size_t i) {
        return at < part.members.size() && part.members[at] == i;
      };
      for (const auto& [i, j] : *problem_.conflicts) {
        const std::size_t a = local(i);
        const std::size_t b = local(j);
        if (member(a, i) && member(b, j)) pairs.emplace_back(a, b);
      }
      part.together = Together(part.members.size(), pairs);
    }
    part.unit = 0;
    for (const PackingItem& item : part.problem.items) part.unit = std::gcd(part.unit, item.size);
    for (const PackingItem& item : part.problem.items) {
      part.units.push_back({static_cast<std::int64_t>(item.size / part.unit), item.alive});
    }
    if (part.problem.conflicts) {
      part.peak = conflict_lower_bound(part.problem, &part.lower_by);
    } else {
      part.peak = *peak_live(part.problem);  // the problem passed check_problem
    }
    part.lower = part.peak;
    // Greedy by size takes time quadratic in a part's items: past the
    // deadline, the part's items stacked one above another stand instead.
    std::optional<std::vector<std::int64_t>> greedy = best_greedy_by_size(part.units, deadline_, part.together);
    const std::string by = greedy ? "greedy by size" : "stacked";
    if (!greedy) greedy = stacked(part.units);
    Offsets bytes(greedy->size());
    for (std::size_t k = 0; k < greedy->size(); ++k) bytes[k] = static_cast<Bytes>((*greedy)[k]) * part.unit;
    part.upper = std::numeric_limits<Bytes>::max();  // above any arena: the first offer wins
    parts_.push_back(std::move(part));
    if (Status s = offer(parts_.back(), std::move(bytes), by); !s) return s;
  }
  if (options_.incumbent) {
    const Offsets& inc = *options_.incumbent;
    if (std::string e = placement_error(problem_, inc); !e.empty()) {
      return Error{"", "the incumbent placement is invalid: " + e};
    }
    for (Part& part : parts_) {
      Offsets mine;
      for (std::size_t i : part.members) mine.push_back(inc[i]);
      if (Status s = offer(part, std::move(mine), "incumbent"); !s) return s;
    }
  }
  return Ok{};
}

// Judges a placement of the part by the checker (within the capacity it was
// found for, if any) and keeps it when it beats the best so far.
Status Solver::offer(Part& part, Offsets offsets, const std::string& by,
                     std::optional<Bytes> capacity) {
  if (std::string e = placement_error(part.problem, offsets, capacity); !e.empty()) {
    return Error{"", fmt::format("internal error: the {} placement is invalid: {}", by, e)};
  }
  const std::optional<Bytes> arena = arena_size(part.problem, offsets);
  if (!arena) return Error{"", fmt::format("internal error: the {} placement overflows", by)};
  if (*arena < part.lower) {
    return Error{"", fmt::format("internal error: the {} placement's arena {} is below the proven "
                                 "lower bound {} (by {})",
                                 by, *arena, part.lower, part.lower_by)};
  }
  if (*arena < part.upper) {
    part.upper = *arena;
    part.upper_by = by;
    part.best = std::move(offsets);
  }
  return Ok{};
}

Result<Answer> Solver::fit_part(Part& part, Bytes capacity, Clock::time_point until) {
  if (capacity >= part.upper) return Answer::Fits;
  if (capacity < part.lower) return Answer::DoesNotFit;
  // Setting up a search or a solver for a part costs time of its own, for
  // each of what may be thousands of parts.
  if (Clock::now() >= until) return Answer::Unknown;
  // Offsets of a placement pushed down are sums of sizes, so multiples of the
  // unit: the part fits c bytes exactly when it fits floor(c / unit) units.
  const auto units = static_cast<std::int64_t>(capacity / part.unit);
  const Bytes proven_lower = (capacity / part.unit + 1) * part.unit;
  auto found = [&](const Fit& f, const std::string& by) -> Result<Answer> {
    Offsets bytes(f.offsets.size());
    for (std::size_t k = 0; k < f.offsets.size(); ++k) {
      if (f.offsets[k] < 0) return Error{"", "internal error: the " + by + " gave a negative offset"};
      bytes[k] = static_cast<Bytes>(f.offsets[k]) * part.unit;
    }
    PLANCK_TRY(offer(part, std::move(bytes), by, capacity));
    return Answer::Fits;
  };
  const bool z3_fits_part = options_.use_z3 && part.units.size() <= options_.z3_max_items;
  auto z3 = [&]() -> Z3Packing& {
    if (!part.z3) part.z3 = std::make_unique<Z3Packing>(part.units, options_.z3, part.together);
    return *part.z3;
  };

  // Counted only here, after the clock: it sorts the part's items twice.
  if (options_.use_search && !part.pairs) part.pairs = pairs_alive_together(part.units);
  // The searches place by lifetimes: explicit conflicts go to Z3.
  const bool search_fits_part =
      options_.use_search && part.together.by_lifetimes() && *part.pairs <= kSearchMaxPairs;
  if (search_fits_part) {
    if (!part.skyline) part.skyline = std::make_unique<SkylineSearch>(part.units);
    const Clock::time_point now = Clock::now();
    const Fit quick = part.skyline->fit(units, kSkylineChoicesPerItem * static_cast<std::int64_t>(part.units.size()),
                                        now + (until - now) / 4);
    if (quick.outcome == FitOutcome::Found) return found(quick, "skyline search");
    if (!part.search) part.search = std::make_unique<PlacementSearch>(part.units, options_.search);
    const Clock::time_point searched = Clock::now();
    const Fit f = part.search->fit(units, searched + (until - searched) / 4);
    if (f.outcome == FitOutcome::Found) return found(f, "search");
    if (f.outcome == FitOutcome::Timeout) {
      const Fit again = part.skyline->fit(units, std::numeric_limits<std::int64_t>::max(), until);
      if (again.outcome == FitOutcome::Found) return found(again, "skyline search");
    }
    if (f.outcome == FitOutcome::Infeasible) {
      std::string by = "search";
      if (z3_fits_part) {
        const double seconds = std::clamp(options_.z3_confirm_seconds, 0.0, kMaxTimeoutSeconds);
        const Clock::time_point confirm_until = std::min(
            until, Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(seconds)));
        const Fit check = z3().fit(units, confirm_until);
        if (check.outcome == FitOutcome::Found) {
          // Z3's placement, once it passes the checker, shows the search wrong.
          PLANCK_TRY(found(check, "z3"));
          return Error{"", fmt::format("internal error: the search proved that no placement fits "
                                       "{} bytes, but Z3 found one",
                                       capacity)};
        }
        if (check.outcome == FitOutcome::Infeasible) by = "search and z3";
      }
      part.lower = proven_lower;
      part.lower_by = by;
      return Answer::DoesNotFit;
    }
  } else if (z3_fits_part) {
    const Fit f = z3().fit(units, until);
    if (f.outcome == FitOutcome::Found) return found(f, "z3");
    if (f.outcome == FitOutcome::Infeasible) {
      part.lower = proven_lower;
      part.lower_by = "z3";
      return Answer::DoesNotFit;
    }
  }
  return Answer::Unknown;
}

// Whether every part fits the capacity. One part that does not settles it, so
// the parts most in doubt go first.
Result<Answer> Solver::fit_all(Bytes capacity, Clock::time_point until) {
  std::vector<Part*> order;
  for (Part& part : parts_) order.push_back(&part);
  std::stable_sort(order.begin(), order.end(), [](const Part* a, const Part* b) { return a->upper > b->upper; });
  Answer all = Answer::Fits;
  for (Part* part : order) {
    PLANCK_ASSIGN(const Answer a, fit_part(*part, capacity, until));
    if (a == Answer::DoesNotFit) return Answer::DoesNotFit;
    if (a == Answer::Unknown) all = Answer::Unknown;
  }
  return all;
}

Bytes Solver::lower() const {
  Bytes b = 0;
  for (const Part& part : parts_) b = std::max(b, part.lower);
  return b;
}

Bytes Solver::upper() const {
  Bytes b = 0;
  for (const Part& part : parts_) b = std::max(b, part.upper);
  return b;
}

Result<OptimumResult> Solver::run() {
  PLANCK_TRY(check_problem(problem_));
  if (options_.incumbent && options_.incumbent->size() != problem_.items.size()) {
    return Error{"", fmt::format("the incumbent placement has {} offsets for {} items",
                                 options_.incumbent->size(), problem_.items.size())};
  }
  const double timeout = std::clamp(options_.timeout_seconds, 0.0, kMaxTimeoutSeconds);
  deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout));
  PLANCK_TRY(set_up_parts());

  // A capacity asked about is a question of feasibility: it has all the time
  // there is, and the first placement that fits it is the answer.
  if (const std::optional<Bytes> cap = options_.capacity) {
    if (*cap >= lower() && *cap < upper()) PLANCK_TRY(fit_all(*cap, deadline_));
    return result();
  }
  PLANCK_TRY(minimize());
  return result();
}

// Narrows the bounds until they meet or the time runs out. The lower bound is
// tried first (it is often the answer); while capacities do not fit, the next
// rises in doubling steps; once one fits, bisection. The first trial gets three
// quarters of the time: the lower bound is often the least arena (the perfect
// packings, MiniMalloc's benchmarks), and then only a placement at it proves
// so. Each later trial gets half the time left, so that one hard capacity
// cannot take it all: when a trial runs out of time, the next goes halfway
// from it to the upper bound, where placements are easier to find, and the
// lower bound gets one last try with whatever time is left once no capacity
// remains between the two.
Status Solver::minimize() {
  Bytes step = 0;  // the gcd of the parts' units: capacities between its multiples change nothing
  for (const Part& part : parts_) step = std::gcd(step, part.unit);
  bool gallop = true;  // no capacity below the first upper bound has fit yet
  bool stuck = false;  // some trial ran out of time, at `hard` at the highest
  Bytes hard = 0;
  bool first = true;
  while (lower() < upper()) {
    const Clock::time_point now = Clock::now();
    if (now >= deadline_) break;
    const Bytes lo = lower();
    const Bytes hi = upper();
    if (stuck && hard < lo) stuck = false;
    Bytes c = lo;
    bool last_try = false;
    if (first) {
      c = lo;
    } else if (stuck) {
      last_try = hi - hard < 2;
      c = last_try ? lo : hard + (hi - hard) / 2;
    } else if (gallop) {
      c = std::min(lo + step - 1, hi - 1);
    } else {
      c = lo + (hi - 1 - lo) / 2;
    }
    const Clock::duration left = deadline_ - now;
    const Clock::time_point until = last_try ? deadline_ : now + (first ? left * 3 / 4 : left / 2);
    first = false;
    PLANCK_ASSIGN(const Answer a, fit_all(c, until));
    switch (a) {
      case Answer::Fits:
        gallop = false;
        break;
      case Answer::DoesNotFit:
        if (gallop && step <= kMaxBytes) step *= 2;
        break;
      case Answer::Unknown:
        if (last_try) return Ok{};
        hard = stuck ? std::max(hard, c) : c;
        stuck = true;
        break;
    }
  }
  return Ok{};
}

OptimumResult Solver::result() const {
  OptimumResult r;
  r.parts = parts_.size();
  // The parts are apart in time, and the items left out of them have no bytes.
  for (const Part& part : parts_) r.peak = std::max(r.peak, part.peak);
  r.lower_bound = lower();
  r.upper_bound = upper();
  r.offsets.assign(problem_.items.size(), 0);
  for (const Part& part : parts_) {
    for (std::size_t k = 0; k < part.members.size(); ++k) r.offsets[part.members[k]] = part.best[k];
    if (r.upper_bound_by.empty() && part.upper == r.upper_bound) r.upper_bound_by = part.upper_by;
    if (r.lower_bound_by.empty() && part.lower == r.lower_bound) r.lower_bound_by = part.lower_by;
  }
  if (r.upper_bound_by.empty()) r.upper_bound_by = "greedy by size";
  if (r.lower_bound_by.empty()) r.lower_bound_by = "peak";
  const std::optional<Bytes> cap = options_.capacity;
  if (cap && r.lower_bound > *cap) {
    r.status = OptimumStatus::Infeasible;
  } else if (r.lower_bound == r.upper_bound) {
    r.status = OptimumStatus::Optimal;
  } else if (cap && r.upper_bound <= *cap) {
    r.status = OptimumStatus::Feasible;
  } else {
    r.status = OptimumStatus::Unknown;
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  return r;
}

}  // namespace

std::string_view status_name(OptimumStatus s) {
  switch (s) {
    case OptimumStatus::Optimal: return "optimal";
    case OptimumStatus::Feasible: return "feasible";
    case OptimumStatus::Infeasible: return "infeasible";
    case OptimumStatus::Unknown: return "unknown";
  }
  return "unknown";
}

Result<OptimumResult> solve_optimum(const PackingProblem& p, const OptimumOptions& options) {
  Solver solver(p, options);
  PLANCK_ASSIGN(OptimumResult r, solver.run());
  // The whole placement, once more, by the checker.
  if (std::string e = placement_error(p, r.offsets); !e.empty()) {
    return Error{"", "internal error: the combined placement is invalid: " + e};
  }
  if (arena_size(p, r.offsets) != r.upper_bound) {
    return Error{"", "internal error: the combined placement's arena is not the upper bound"};
  }
  return r;
}

}  // namespace planck::oracle
