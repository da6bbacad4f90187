#pragma once
// Generated packing instances for the optimum oracle's tests: small, with
// identical items now and then (for the symmetry breaking), from a fixed seed.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "oracle/optimum_problem.h"

namespace planck::oracle::testing {

struct Shape {
  int min_items = 1;
  int max_items = 7;
  std::int64_t horizon = 8;     // lifetimes start in [0, horizon)
  std::int64_t max_length = 6;  // and last 1..max_length
  std::int64_t max_size = 6;    // sizes 1..max_size
};

inline std::vector<UnitItem> random_items(std::mt19937_64& rng, const Shape& shape) {
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  const auto n = static_cast<std::size_t>(pick(shape.min_items, shape.max_items));
  std::vector<UnitItem> items;
  while (items.size() < n) {
    if (!items.empty() && pick(0, 4) == 0) {
      items.push_back(items[static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(items.size()) - 1))]);
      continue;
    }
    const std::int64_t lower = pick(0, shape.horizon - 1);
    items.push_back({pick(1, shape.max_size), lower, lower + pick(1, shape.max_length)});
  }
  return items;
}

inline PackingProblem as_problem(const std::vector<UnitItem>& items) {
  PackingProblem p;
  for (std::size_t i = 0; i < items.size(); ++i) {
    p.items.push_back({"b" + std::to_string(i), static_cast<Bytes>(items[i].size), items[i].lower,
                       items[i].upper});
  }
  return p;
}

inline Offsets as_offsets(const std::vector<std::int64_t>& units) {
  return Offsets(units.begin(), units.end());
}

// A readable form of an instance, for failure messages.
inline std::string describe(const std::vector<UnitItem>& items) {
  std::string s;
  for (const UnitItem& u : items) {
    s += "{" + std::to_string(u.size) + ", [" + std::to_string(u.lower) + ", " +
         std::to_string(u.upper) + ")} ";
  }
  return s;
}

}  // namespace planck::oracle::testing
