#include "bench/chains.h"

#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "gen/chain.h"
#include "model/schedule_printer.h"

namespace planck::bench {
namespace {

constexpr Shape kShapes[] = {Shape::Flat, Shape::Loops, Shape::Devices, Shape::Streams};

std::string_view shape_name(Shape shape) {
  switch (shape) {
    case Shape::Flat: return "flat";
    case Shape::Loops: return "loops";
    case Shape::Devices: return "devices";
    case Shape::Streams: return "streams";
  }
  return "?";
}

gen::ChainOptions chain_options(Shape shape, std::size_t buffers) {
  gen::ChainOptions options{.buffers = buffers};
  if (shape == Shape::Loops) options.loop_body = 16;
  if (shape == Shape::Devices) options.devices = 4;
  if (shape == Shape::Streams) options.streams = 4;
  return options;
}

struct Made {
  Shape shape;
  std::size_t buffers;
  Schedule schedule;
  std::optional<std::string> text;
};

// The last chain made; a new one replaces it, so that at most one large
// schedule is held at a time.
Made& made(Shape shape, std::size_t buffers) {
  static std::optional<Made> last;
  if (!last || last->shape != shape || last->buffers != buffers) {
    last.reset();
    gen::SeededChoices choices(1);
    last.emplace(Made{shape, buffers, gen::generate_chain_schedule(choices, chain_options(shape, buffers)), {}});
  }
  return *last;
}

}  // namespace

const Schedule& chain(Shape shape, std::size_t buffers) { return made(shape, buffers).schedule; }

const std::string& chain_text(Shape shape, std::size_t buffers) {
  Made& m = made(shape, buffers);
  if (!m.text) m.text = print_schedule(m.schedule);
  return *m.text;
}

void report_per_buffer(benchmark::State& state, std::size_t buffers) {
  const auto n = static_cast<double>(buffers);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(buffers));
  state.counters["per_buffer"] =
      benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

namespace {

struct Registered {
  std::string name;
  ChainBenchmark run;
  std::size_t max_buffers;
};

std::vector<Registered>& registered() {
  static std::vector<Registered> all;
  return all;
}

}  // namespace

void register_chains(std::string_view name, ChainBenchmark run, std::size_t max_buffers) {
  registered().push_back({std::string(name), run, max_buffers});
}

namespace {

// Initializes Google Benchmark with the command line and runs what it selects.
int run_benchmarks(int argc, char** argv) {
  // Shape and size outermost, so that each chain is made once for all the
  // benchmarks that run on it.
  for (Shape shape : kShapes) {
    for (std::size_t n = kSmallest; n <= kLargest; n *= 10) {
      for (const Registered& r : registered()) {
        if (n > r.max_buffers) continue;
        benchmark::RegisterBenchmark(fmt::format("{}/{}/{}", r.name, shape_name(shape), n).c_str(),
                                     [run = r.run, shape, n](benchmark::State& state) { run(state, shape, n); })
            ->Unit(benchmark::kMillisecond)
            // Wall time: the reference planner makes a large plan on a
            // second thread, whose time the main thread's CPU time leaves out.
            ->UseRealTime();
      }
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace planck::bench

int main(int argc, char** argv) {
  planck::bench::register_benchmarks();
  return planck::bench::run_benchmarks(argc, argv);
}
