// Writes the .sched text of a chain (gen/chain.h) to a file:
//   write_chain BUFFERS FILE [LOOP_BODY [DEVICES]]
// seed 1, as the benchmarks make it, so that speed.sh can time a command on it.

#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "gen/chain.h"
#include "model/schedule_printer.h"

int main(int argc, char** argv) {
  if (argc < 3 || argc > 5) {
    fmt::print(stderr, "usage: write_chain BUFFERS FILE [LOOP_BODY [DEVICES]]\n");
    return 2;
  }
  planck::gen::ChainOptions options{.buffers = std::stoul(argv[1])};
  if (argc > 3) options.loop_body = std::stoul(argv[3]);
  if (argc > 4) options.devices = std::stoul(argv[4]);
  planck::gen::SeededChoices choices(1);
  const std::string text = planck::print_schedule(planck::gen::generate_chain_schedule(choices, options));
  std::FILE* out = std::fopen(argv[2], "wb");
  if (out == nullptr || std::fwrite(text.data(), 1, text.size(), out) != text.size() || std::fclose(out) != 0) {
    fmt::print(stderr, "write_chain: cannot write {}\n", argv[2]);
    return 2;
  }
  return 0;
}
