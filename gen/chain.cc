#include "gen/chain.h"

#include <algorithm>
#include <string>
#include <vector>

namespace planck::gen {
namespace {

std::string device_of(std::size_t buffer, std::size_t devices) {
  return devices > 1 ? "CUDA:" + std::to_string(buffer % devices) : "CUDA";
}

// Each top-level entry on a stream in turn, and after every sync_every of
// them a ring of events: stream t records, stream t + 1 waits.
void spread_over_streams(Schedule& s, const ChainOptions& options) {
  const std::size_t streams = std::min<std::size_t>(options.streams, kMaxStreams);
  for (std::size_t t = 1; t < streams; ++t) s.streams.emplace_back("s" + std::to_string(t));
  const std::size_t every = std::max<std::size_t>(options.sync_every, 1);
  std::vector<Entry> out;
  out.reserve(s.entries.size() + 2 * streams * (s.entries.size() / every + 1));
  std::size_t events = 0;
  for (std::size_t i = 0; i < s.entries.size(); ++i) {
    s.entries[i].stream = static_cast<StreamId>(i % streams);
    out.push_back(std::move(s.entries[i]));
    if ((i + 1) % every != 0) continue;
    for (std::size_t t = 0; t < streams; ++t) {
      const std::string name = "e" + std::to_string(events++);
      Entry record{.kind = Entry::Kind::Record, .stream = static_cast<StreamId>(t)};
      record.name = name;
      Entry wait{.kind = Entry::Kind::Wait, .stream = static_cast<StreamId>((t + 1) % streams)};
      wait.name = name;
      out.push_back(std::move(record));
      out.push_back(std::move(wait));
    }
  }
  s.entries = std::move(out);
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
  if (options.streams > 1) spread_over_streams(s, options);
  return s;
}

}  // namespace planck::gen
