// perfect_packing: prints a perfect packing (gen/perfect_packing.h) as
// a .sched schedule, for the oracle's benchmark
// (docs/performance.md#on-perfect-packings).
//
//   perfect_packing --buffers 300 --seed 4 [--width 1024] [--entries 0] > p.sched

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "gen/perfect_packing.h"
#include "model/schedule_printer.h"

int main(int argc, char** argv) {
  CLI::App app{"Print a perfect packing: a schedule whose least arena equals its peak, by construction"};
  planck::gen::PerfectPackingOptions options;
  std::uint64_t seed = 1;
  app.add_option("--buffers", options.buffers, "planned buffers")->capture_default_str()->check(CLI::Range(1, 10000000));
  app.add_option("--width", options.width, "the least arena, in units of 256 bytes")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app.add_option("--entries", options.entries, "top-level entries; 0: as many as buffers")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{10000000}));
  app.add_option("--seed", seed, "the seed of the draws")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  planck::gen::SeededChoices choices(seed);
  const planck::gen::PerfectPacking p = planck::gen::generate_perfect_packing(choices, options);
  // The comment goes after the first line, which must be `schedule v1`.
  std::string text = planck::print_schedule(p.schedule);
  text.insert(text.find('\n') + 1, "# perfect packing: seed " + std::to_string(seed) + ", least arena " +
                                       std::to_string(p.width * 256) + " bytes\n");
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "perfect_packing: cannot write the schedule to standard output\n");
    return 2;
  }
  return 0;
}
