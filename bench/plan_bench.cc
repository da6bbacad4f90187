// The planners and their stages: the lifetimes (rules 1 to 3 of
// docs/planners.md#the-reference-planner-tlsf), the TLSF allocator alone,
// each planner from schedule to plan, and the rewrite of rule 8.
//   build/dev/bench/plan_bench --benchmark_filter='plan/tlsf/flat'

#include <algorithm>
#include <optional>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/chains.h"
#include "planner/plain_planners.h"
#include "planner/planner.h"
#include "planner/rewrite.h"
#include "planner/rules.h"
#include "planner/tlsf.h"

namespace planck::bench {
namespace {

// The plain twins of greedy and bysize (planner/plain_planners.h) compare
// each buffer with every buffer placed before it: they run up to this size.
constexpr std::size_t kQuadraticPlanners = 10'000;

void lifetimes(benchmark::State& state, Shape shape, std::size_t buffers) {
  const Schedule& s = chain(shape, buffers);
  measure(state, buffers, [&] { return planned_lifetimes(s); });
}

// One call of the reference planner's TLSF run: an alloc of `size` bytes
// for lifetime `buffer`, or the free of its place.
struct Call {
  std::size_t device;
  std::size_t buffer;
  std::optional<Bytes> alloc;
};

// The reference planner's allocators and calls on a schedule
// (docs/planners.md#rule-5-arenas, #rule-6-order-of-events): opens and
// closes by time, closes first at equal times.
struct TlsfRun {
  std::size_t devices = 0;
  Bytes capacity = 0;
  std::vector<Call> calls;
};

TlsfRun tlsf_run(const Schedule& s) {
  const std::vector<Lifetime> lives = planned_lifetimes(s);
  const SizesAndDevices both = *sizes_and_devices(s, lives);
  const std::vector<Bytes>& sizes = both.sizes;
  const Devices& devices = both.devices;
  TlsfRun run{.devices = devices.names.size()};
  for (Bytes size : sizes) run.capacity += 2 * std::max(kPlaceAlign, size);
  struct Timed {
    std::size_t time;
    Call call;
  };
  std::vector<Timed> timed;
  for (std::size_t i = 0; i < lives.size(); ++i) timed.push_back({lives[i].first, {devices.of_lifetime(i), i, sizes[i]}});
  for (std::size_t i = 0; i < lives.size(); ++i) timed.push_back({lives[i].last + 1, {devices.of_lifetime(i), i, {}}});
  std::stable_sort(timed.begin(), timed.end(), [](const Timed& a, const Timed& b) {
    if (a.time != b.time) return a.time < b.time;
    return !a.call.alloc && b.call.alloc;
  });
  for (const Timed& t : timed) run.calls.push_back(t.call);
  return run;
}

void tlsf_allocator(benchmark::State& state, Shape shape, std::size_t buffers) {
  const TlsfRun run = tlsf_run(chain(shape, buffers));
  std::vector<Tlsf::Allocation> placed(buffers);
  measure(state, buffers, [&] {
    std::vector<Tlsf> tlsf(run.devices, *Tlsf::create(run.capacity, kPlaceAlign, 32));
    for (const Call& c : run.calls) {
      if (c.alloc) {
        placed[c.buffer] = tlsf[c.device].alloc_block(*c.alloc);
      } else if (!tlsf[c.device].free_block(placed[c.buffer].block)) {
        state.SkipWithError("a free failed");
      }
    }
    benchmark::DoNotOptimize(placed);
  });
}

// The planner of that name, or with kPlain its plain twin.
template <const char* kPlanner, bool kPlain = false>
void plan(benchmark::State& state, Shape shape, std::size_t buffers) {
  const Schedule& s = chain(shape, buffers);
  const auto planner = kPlain ? plain_twin(kPlanner) : make_planner(kPlanner);
  measure(state, buffers, [&] { return planner->plan(s); });
}

void rewrite_schedule(benchmark::State& state, Shape shape, std::size_t buffers) {
  const Schedule& s = chain(shape, buffers);
  const Plan p = *make_planner("tlsf")->plan(s);
  measure(state, buffers, [&] { return rewrite(s, p); });
}

constexpr char kTlsf[] = "tlsf";
constexpr char kGreedy[] = "greedy";
constexpr char kBySize[] = "bysize";
constexpr char kNaive[] = "naive";
constexpr char kBest[] = "best";

}  // namespace

void register_benchmarks() {
  register_chains("lifetimes", lifetimes);
  register_chains("tlsf_allocator", tlsf_allocator);
  register_chains("plan/tlsf", plan<kTlsf>);
  register_chains("plan/greedy", plan<kGreedy>);
  register_chains("plan/greedy_plain", plan<kGreedy, true>, kQuadraticPlanners);
  register_chains("plan/bysize", plan<kBySize>);
  register_chains("plan/bysize_plain", plan<kBySize, true>, kQuadraticPlanners);
  register_chains("plan/naive", plan<kNaive>);
  register_chains("plan/best", plan<kBest>);
  register_chains("rewrite", rewrite_schedule);
}

}  // namespace planck::bench
