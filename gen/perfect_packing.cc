#include "gen/perfect_packing.h"

#include <algorithm>
#include <string>

namespace planck::gen {
namespace {

// Widths past this are taken as this, so that every size in bytes, and the
// rectangle's, stays far below kMaxBytes.
constexpr std::int64_t kMaxWidth = std::int64_t{1} << 40;

struct Piece {
  std::int64_t offset, size;  // units
  std::int64_t begin, end;    // entries, half-open
};

bool splittable(const Piece& p) { return p.size >= 2 || p.end - p.begin >= 2; }

// In doubles: only compared, and a product of two large numbers may pass 2^63.
double area(const Piece& p) { return static_cast<double>(p.size) * static_cast<double>(p.end - p.begin); }

// Cuts pieces until there are `count` or none can be cut. The piece to cut
// is the larger of two drawn among the ones that can be, the direction drawn
// among those it allows, the place of the cut uniformly along it.
std::vector<Piece> cut(Choices& choices, std::size_t count, std::int64_t width, std::int64_t entries) {
  std::vector<Piece> pieces{{0, width, 0, entries}};
  std::vector<std::size_t> open;  // indices of the pieces that can be cut
  if (splittable(pieces[0])) open.push_back(0);
  while (pieces.size() < count && !open.empty()) {
    // Of two pieces drawn, the larger: pieces are cut more evenly than by
    // one draw, which leaves many a sliver next to a few large pieces.
    std::size_t at = choices.below(open.size());
    const std::size_t other_at = choices.below(open.size());
    if (area(pieces[open[other_at]]) > area(pieces[open[at]])) at = other_at;
    Piece& p = pieces[open[at]];
    const bool can_bytes = p.size >= 2;
    const bool can_time = p.end - p.begin >= 2;
    const bool in_bytes = can_bytes && (!can_time || choices.percent(50));
    Piece other = p;
    if (in_bytes) {
      const auto keep = static_cast<std::int64_t>(choices.draw(1, static_cast<std::uint64_t>(p.size - 1)));
      other.offset = p.offset + keep;
      other.size = p.size - keep;
      p.size = keep;
    } else {
      const auto keep = static_cast<std::int64_t>(choices.draw(1, static_cast<std::uint64_t>(p.end - p.begin - 1)));
      other.begin = p.begin + keep;
      p.end = other.begin;
    }
    if (!splittable(p)) {
      open[at] = open.back();
      open.pop_back();
    }
    pieces.push_back(other);
    if (splittable(other)) open.push_back(pieces.size() - 1);
  }
  return pieces;
}

Arg storage_arg(StorageId id) { return Arg{.kind = Arg::Kind::Storage, .storage = id}; }

}  // namespace

PerfectPacking generate_perfect_packing(Choices& choices, const PerfectPackingOptions& options) {
  const std::int64_t width = std::clamp<std::int64_t>(options.width, 1, kMaxWidth);
  const std::int64_t entries =
      options.entries > 0 ? options.entries : static_cast<std::int64_t>(std::max<std::size_t>(options.buffers, 1));
  const std::vector<Piece> pieces = cut(choices, std::max<std::size_t>(options.buffers, 1), width, entries);

  PerfectPacking out;
  out.width = width;
  Schedule& s = out.schedule;
  s.source = "perfect-packing";
  s.storage.push_back(Storage{.kind = StorageKind::Param, .dtype = Dtype::Int8, .name = "x",
                              .device = "CUDA", .bytes = kPlaceAlign});
  std::vector<std::vector<StorageId>> starting(static_cast<std::size_t>(entries));
  std::vector<std::vector<StorageId>> ending(static_cast<std::size_t>(entries));
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const Piece& p = pieces[k];
    const auto id = static_cast<StorageId>(k + 1);
    s.storage.push_back(Storage{.kind = StorageKind::Buffer, .dtype = Dtype::Int8, .name = "b" + std::to_string(k),
                                .device = "CUDA", .bytes = static_cast<Bytes>(p.size) * kPlaceAlign});
    const auto first = static_cast<std::size_t>(p.begin);
    const auto last = static_cast<std::size_t>(p.end - 1);
    out.pieces.push_back({p.offset, p.size, first, last});
    starting[first].push_back(id);
    if (last != first) ending[last].push_back(id);
  }
  for (std::size_t e = 0; e < starting.size(); ++e) {
    Entry k{.kind = Entry::Kind::Kernel, .name = "k" + std::to_string(e)};
    for (StorageId id : starting[e]) k.args.push_back(storage_arg(id));
    for (StorageId id : ending[e]) k.args.push_back(storage_arg(id));
    if (k.args.empty()) k.args.push_back(storage_arg(0));
    s.entries.push_back(std::move(k));
  }
  return out;
}

}  // namespace planck::gen
