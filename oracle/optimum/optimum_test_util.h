#pragma once
// Generated packing instances for the optimum oracle's tests: small, with
// identical items now and then (for the symmetry breaking), from a fixed seed.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "oracle/optimum/optimum_problem.h"

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

// Instances whose live bytes equal `capacity` at every step of [0, steps)
// while items remain: at each step some live items end and new ones fill the
// room they leave. Such tight instances are where the least arena exceeds the
// peak, now and then.
inline std::vector<UnitItem> tight_items(std::mt19937_64& rng, std::int64_t capacity,
                                         std::int64_t steps, std::size_t max_items) {
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  std::vector<UnitItem> items;
  std::vector<std::size_t> live;
  for (std::int64_t t = 0; t < steps; ++t) {
    std::int64_t used = 0;
    std::vector<std::size_t> kept;
    for (std::size_t i : live) {
      if (t > 0 && pick(0, 1) == 0) {
        items[i].alive.end = t;
      } else {
        kept.push_back(i);
        used += items[i].size;
      }
    }
    live = kept;
    while (used < capacity && items.size() < max_items) {
      const std::int64_t size = pick(1, capacity - used);
      items.push_back({size, t, steps});
      live.push_back(items.size() - 1);
      used += size;
    }
  }
  return items;
}

// MiniMalloc's InfeasibleTricky case: peak 4, least arena 5.
inline std::vector<UnitItem> tricky_items() {
  return {{3, 0, 1}, {1, 0, 3}, {3, 4, 5}, {1, 2, 5}, {2, 1, 2}, {2, 3, 4}, {1, 1, 4}};
}

// The tricky case transformed in ways that keep its least arena above its
// peak: items in another order, time reversed, sizes and times scaled. Each
// comes with its least arena.
struct Variant {
  std::vector<UnitItem> items;
  std::int64_t least = 0;
};
inline std::vector<Variant> tricky_variants() {
  std::vector<Variant> all;
  const std::vector<UnitItem> base = tricky_items();
  for (int rotate = 0; rotate < 7; rotate += 3) {
    for (bool reverse : {false, true}) {
      for (std::int64_t scale : {1, 3}) {
        Variant v;
        for (std::size_t k = 0; k < base.size(); ++k) {
          UnitItem u = base[(k + static_cast<std::size_t>(rotate)) % base.size()];
          if (reverse) u = {u.size, 5 - u.alive.end, 5 - u.alive.begin};
          v.items.push_back({u.size * scale, u.alive.begin * 2 + 1, u.alive.end * 2 + 1});
        }
        v.least = 5 * scale;
        all.push_back(std::move(v));
      }
    }
  }
  return all;
}

inline PackingProblem as_problem(const std::vector<UnitItem>& items) {
  PackingProblem p;
  for (std::size_t i = 0; i < items.size(); ++i) {
    p.items.push_back({"b" + std::to_string(i), static_cast<Bytes>(items[i].size), items[i].alive.begin,
                       items[i].alive.end});
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
    s += "{" + std::to_string(u.size) + ", [" + std::to_string(u.alive.begin) + ", " +
         std::to_string(u.alive.end) + ")} ";
  }
  return s;
}

}  // namespace planck::oracle::testing
