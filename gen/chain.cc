#include "gen/chain.h"

#include <algorithm>
#include <string>

namespace planck::gen {
namespace {

std::string device_of(std::size_t buffer, std::size_t devices) {
  return devices > 1 ? "CUDA:" + std::to_string(buffer % devices) : "CUDA";
}

}  // namespace

Schedule generate_chain_schedule(Choices& choices, const ChainOptions& options) {
  constexpr Bytes kElement = 4;  // float32
  const std::size_t window = std::max<std::size_t>(options.window, 1);
  Schedule s;
  s.source = "synthetic";
  s.storage.push_back(Storage{.kind = StorageKind::Param, .dtype = Dtype::Float32, .name = "input",
                              .device = "CUDA", .bytes = 4096});
  for (std::size_t i = 0; i < options.buffers; ++i) {
    Storage b{.kind = StorageKind::Buffer, .dtype = Dtype::Float32, .name = "t" + std::to_string(i),
              .device = device_of(i, options.devices),
              .bytes = kElement * choices.draw(0, options.max_bytes / kElement)};
    if (choices.below(16) == 0) b.phase = 64;
    s.storage.push_back(std::move(b));

    Entry k{.kind = Entry::Kind::Kernel, .name = "k" + std::to_string(i)};
    k.args.push_back(Arg{.kind = Arg::Kind::Storage, .storage = static_cast<StorageId>(i + 1)});
    for (int r = choices.between(1, 3); r > 0; --r) {
      // A buffer made by one of the last `window` kernels, or the param at the start.
      const std::size_t back = 1 + choices.below(window);
      const StorageId id = back > i ? 0 : static_cast<StorageId>(i - back + 1);
      k.args.push_back(Arg{.kind = Arg::Kind::Storage, .storage = id});
    }
    const bool in_loop = options.loop_body > 0 && (i / options.loop_body) % 2 == 1;
    if (!in_loop) {
      s.entries.push_back(std::move(k));
      continue;
    }
    if (i % options.loop_body == 0) s.entries.push_back(Entry{.kind = Entry::Kind::Range});
    s.entries.back().mutable_body().push_back(std::move(k));
  }
  return s;
}

}  // namespace planck::gen
