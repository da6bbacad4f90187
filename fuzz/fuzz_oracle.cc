// Bytes decoded into a tiny packing problem (at most kBruteForceMaxItems
// items, small sizes and lifetimes), solved three ways: the optimum oracle
// with the search alone, with Z3 alone, and by brute force. Each oracle run
// must prove its answer optimal, give a placement the plain checker accepts,
// and agree with brute force on the least arena; any disagreement aborts,
// with the problem as CSV.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "oracle/optimum/brute_force.h"
#include "oracle/optimum/optimum.h"
#include "oracle/optimum/optimum_problem.h"
#include "properties/choices.h"

namespace {

using namespace planck;
using namespace planck::oracle;

[[noreturn]] void fail(const std::string& what, const PackingProblem& p) {
  std::fprintf(stderr, "oracle: %s\nid,lower,upper,size\n", what.c_str());
  for (const PackingItem& item : p.items) {
    std::fprintf(stderr, "%s,%lld,%lld,%llu\n", item.name.c_str(), static_cast<long long>(item.lower),
                 static_cast<long long>(item.upper), static_cast<unsigned long long>(item.size));
  }
  std::abort();
}

void agree(const char* engine, const PackingProblem& p, const OptimumOptions& options, std::int64_t least) {
  Result<OptimumResult> r = solve_optimum(p, options);
  if (!r) fail(std::string(engine) + ": " + r.error().message(), p);
  // Tiny problems are proven within the time limit; a slow machine's
  // Unknown is no disagreement.
  if (r->status == OptimumStatus::Unknown) return;
  if (r->status != OptimumStatus::Optimal) fail(std::string(engine) + ": status " + std::string(status_name(r->status)), p);
  if (const std::string e = placement_error(p, r->offsets); !e.empty()) fail(std::string(engine) + ": " + e, p);
  if (r->upper_bound != static_cast<Bytes>(least) || r->lower_bound != static_cast<Bytes>(least)) {
    fail(std::string(engine) + ": least arena " + std::to_string(r->lower_bound) + ".." +
             std::to_string(r->upper_bound) + ", brute force " + std::to_string(least),
         p);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gen::ByteChoices choices(std::span<const std::uint8_t>(data, size));
  PackingProblem p;
  std::vector<UnitItem> units;
  const std::size_t n = choices.draw(0, kBruteForceMaxItems);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t lower = choices.between(0, 7);
    const std::int64_t upper = lower + choices.between(1, 4);
    const std::int64_t bytes = choices.between(1, 24);
    p.items.push_back({"i" + std::to_string(i), static_cast<Bytes>(bytes), lower, upper});
    units.push_back({bytes, lower, upper});
  }
  Result<BruteForceAnswer> brute = brute_force_least_arena(units);
  if (!brute) fail("brute force: " + brute.error().message(), p);

  OptimumOptions search_only{.timeout_seconds = 5, .use_z3 = false};
  agree("search", p, search_only, brute->arena);
  OptimumOptions z3_only{.timeout_seconds = 5, .use_search = false};
  agree("z3", p, z3_only, brute->arena);
  return 0;
}
