#include "oracle/optimum/z3_packing.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

#include <fmt/format.h>

namespace planck::oracle {

struct Z3Packing::Impl {
  Impl(std::vector<UnitItem> items_in, Z3Switches sw, Together t)
      : items(std::move(items_in)), switches(sw), together(std::move(t)), solver(ctx, "QF_IDL") {
    build();
  }

  std::vector<UnitItem> items;
  Z3Switches switches;
  Together together;
  z3::context ctx;
  z3::solver solver;
  std::vector<z3::expr> offsets;
  std::optional<std::size_t> mirrored;                // the item kept in the lower half
  std::map<std::int64_t, z3::expr> capacity_literal;  // capacity -> its assumption
  std::string reason;

  z3::expr num(std::int64_t v) { return ctx.int_val(v); }

  void build();
  z3::expr assumption(std::int64_t capacity);
  Fit fit(std::int64_t capacity, Clock::time_point deadline);
};

void Z3Packing::Impl::build() {
  const std::size_t n = items.size();
  for (std::size_t i = 0; i < n; ++i) {
    offsets.push_back(ctx.int_const(fmt::format("o{}", i).c_str()));
    solver.add(offsets[i] >= 0);
  }

  // Identical items form chains in index order, which also orders every
  // two members of a chain. `twin[i]` says whether item i has an identical one.
  auto key = [&](std::size_t i) { return std::tie(items[i].size, items[i].alive.begin, items[i].alive.end); };
  auto chained = [&](std::size_t a, std::size_t b) {
    return switches.symmetry_breaking && key(a) == key(b);
  };
  std::vector<bool> twin(n, false);
  if (switches.symmetry_breaking) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    for (std::size_t k = 0; k + 1 < n; ++k) {
      const std::size_t a = order[k];
      const std::size_t b = order[k + 1];
      if (key(a) != key(b)) continue;
      twin[a] = twin[b] = true;
      solver.add(offsets[a] + num(items[a].size) <= offsets[b]);
    }
    if (!switches.canonical) {
      for (std::size_t i = 0; i < n; ++i) {
        if (twin[i]) continue;
        if (!mirrored || items[i].size > items[*mirrored].size) mirrored = i;
      }
    }
  }

  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) {
      if (!together(items, a, b)) continue;
      if (chained(a, b)) continue;
      solver.add(offsets[a] + num(items[a].size) <= offsets[b] ||
                 offsets[b] + num(items[b].size) <= offsets[a]);
    }
  }

  if (switches.canonical) {
    for (std::size_t i = 0; i < n; ++i) {
      z3::expr_vector rests(ctx);
      rests.push_back(offsets[i] == 0);
      for (std::size_t j = 0; j < n; ++j) {
        if (j != i && together(items, i, j)) {
          rests.push_back(offsets[i] == offsets[j] + num(items[j].size));
        }
      }
      solver.add(z3::mk_or(rests));
    }
  }
}

// A literal that, when assumed, puts every item within [0, capacity).
z3::expr Z3Packing::Impl::assumption(std::int64_t capacity) {
  auto it = capacity_literal.find(capacity);
  if (it != capacity_literal.end()) return it->second;
  z3::expr literal = ctx.bool_const(fmt::format("fits{}", capacity).c_str());
  z3::expr_vector within(ctx);
  for (std::size_t i = 0; i < items.size(); ++i) {
    within.push_back(offsets[i] <= num(capacity - items[i].size));
  }
  if (mirrored) {
    // 2 o + size <= c, in difference logic: o <= floor((c - size) / 2). When
    // c < size the bound above is already unsatisfiable.
    const std::int64_t room = capacity - items[*mirrored].size;
    if (room >= 0) within.push_back(offsets[*mirrored] <= num(room / 2));
  }
  solver.add(z3::implies(literal, z3::mk_and(within)));
  capacity_literal.emplace(capacity, literal);
  return literal;
}

Fit Z3Packing::Impl::fit(std::int64_t capacity, Clock::time_point deadline) {
  reason.clear();
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  if (left.count() <= 0) {
    reason = "timeout";
    return {FitOutcome::Timeout, {}};
  }
  try {
    const unsigned timeout_ms = static_cast<unsigned>(
        std::min<std::int64_t>(left.count(), std::numeric_limits<unsigned>::max()));
    z3::params params(ctx);
    params.set("timeout", timeout_ms);
    solver.set(params);
    z3::expr_vector assumptions(ctx);
    assumptions.push_back(assumption(capacity));
    switch (solver.check(assumptions)) {
      case z3::unsat:
        return {FitOutcome::Infeasible, {}};
      case z3::sat: {
        z3::model model = solver.get_model();
        Fit found{FitOutcome::Found, {}};
        for (const z3::expr& o : offsets) {
          std::int64_t v = 0;
          if (!model.eval(o, true).is_numeral_i64(v)) {
            reason = "an offset in the model does not fit 64 bits";
            return {FitOutcome::Timeout, {}};
          }
          found.offsets.push_back(v);
        }
        return found;
      }
      case z3::unknown:
        reason = solver.reason_unknown();
        return {FitOutcome::Timeout, {}};
    }
  } catch (const z3::exception& e) {
    reason = e.msg();
  }
  return {FitOutcome::Timeout, {}};
}

Z3Packing::Z3Packing(std::vector<UnitItem> items, Z3Switches switches, Together together)
    : impl_(std::make_unique<Impl>(std::move(items), together.by_lifetimes() ? switches : Z3Switches{false, false},
                                   std::move(together))) {}

Z3Packing::~Z3Packing() = default;

Fit Z3Packing::fit(std::int64_t capacity, Clock::time_point deadline) {
  return impl_->fit(capacity, deadline);
}

const std::string& Z3Packing::reason_unknown() const { return impl_->reason; }

}  // namespace planck::oracle
