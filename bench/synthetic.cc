#include "bench/synthetic.h"

#include <random>
#include <string>

namespace planck::bench {

Schedule synthetic_schedule(std::size_t buffers, std::uint64_t seed, std::size_t window) {
  std::mt19937_64 rng(seed);
  Schedule s;
  s.source = "synthetic";
  s.storage.push_back(Storage{.kind = StorageKind::Param, .name = "input", .device = "CUDA",
                              .dtype = Dtype::Float32, .bytes = 4096});
  std::uniform_int_distribution<Bytes> elements(0, 1 << 18);
  std::uniform_int_distribution<int> reads(1, 3);
  std::uniform_int_distribution<int> phased(0, 15);
  for (std::size_t i = 0; i < buffers; ++i) {
    Storage b{.kind = StorageKind::Buffer, .name = "t" + std::to_string(i), .device = "CUDA",
              .dtype = Dtype::Float32, .bytes = 4 * elements(rng)};
    if (phased(rng) == 0) b.phase = 64;
    s.storage.push_back(std::move(b));

    Entry k{.kind = Entry::Kind::Kernel, .name = "k" + std::to_string(i)};
    k.args.push_back(Arg{.kind = Arg::Kind::Storage, .storage = static_cast<StorageId>(i + 1)});
    const int n = reads(rng);
    for (int r = 0; r < n; ++r) {
      // An input made by one of the last `window` kernels, or the param at the start.
      std::uniform_int_distribution<std::size_t> back(1, window);
      const std::size_t d = back(rng);
      const StorageId id = d > i ? 0 : static_cast<StorageId>(i - d + 1);
      k.args.push_back(Arg{.kind = Arg::Kind::Storage, .storage = id});
    }
    s.entries.push_back(std::move(k));
  }
  return s;
}

}  // namespace planck::bench
