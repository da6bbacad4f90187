#include "oracle/check/conflicts.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <string>

namespace planck::oracle {
namespace {

// One arena's bytes, each piece held by the buffer that claimed it last.
class Holders {
 public:
  // Calls judge(holder) for each buffer that holds some of [begin, end),
  // once each in order of address, then gives the range to `item`.
  template <class Judge>
  void claim(Bytes begin, Bytes end, std::size_t item, Judge judge) {
    auto it = pieces_.upper_bound(begin);
    if (it != pieces_.begin() && std::prev(it)->second.end > begin) --it;
    std::size_t last_judged = kNone;
    while (it != pieces_.end() && it->first < end) {
      const Bytes piece_begin = it->first;
      const Piece piece = it->second;
      if (piece.holder != last_judged) {
        judge(piece.holder);
        last_judged = piece.holder;
      }
      it = pieces_.erase(it);
      // What the claim leaves of the piece, on either side.
      if (piece_begin < begin) pieces_.emplace(piece_begin, Piece{begin, piece.holder});
      if (piece.end > end) it = pieces_.emplace(end, Piece{piece.end, piece.holder}).first;
    }
    pieces_.emplace(begin, Piece{end, item});
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  struct Piece {
    Bytes end;
    std::size_t holder;
  };
  std::map<Bytes, Piece> pieces_;  // begin -> the piece
};

EntrySpan point_span(const Schedule& s, std::size_t entry) { return entry_span(s, entry, entry); }

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> claim_conflicts(const std::vector<PlacedBuffer>& placed,
                                                                 std::size_t arenas, const UseOrder& order,
                                                                 const InPlaceRule& inplace) {
  // The in-place OUTs: at a tie of order (first taken by one call), the
  // other buffers claim first, so that an input hands its bytes on.
  std::vector<bool> is_out;
  for (const InPlaceDeclaration& d : inplace.declarations()) {
    if (d.pair.out >= is_out.size()) is_out.resize(d.pair.out + 1, false);
    is_out[d.pair.out] = true;
  }
  const auto out_rank = [&](StorageId b) { return b < is_out.size() && is_out[b] ? 1 : 0; };
  std::vector<std::size_t> items;
  for (std::size_t i = 0; i < placed.size(); ++i) {
    if (placed[i].block.begin != placed[i].block.end) items.push_back(i);
  }
  std::vector<const BufferUses*> uses(placed.size(), nullptr);
  for (std::size_t i : items) uses[i] = order.uses(placed[i].life.buffer);
  std::sort(items.begin(), items.end(), [&](std::size_t x, std::size_t y) {
    const std::size_t ox = uses[x]->order;
    const std::size_t oy = uses[y]->order;
    if (ox != oy) return ox < oy;
    const int rx = out_rank(placed[x].life.buffer);
    const int ry = out_rank(placed[y].life.buffer);
    return rx != ry ? rx < ry : x < y;
  });
  std::vector<Holders> holders(arenas);
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t c : items) {
    const PlacedBuffer& pc = placed[c];
    holders[pc.arena].claim(pc.block.begin, pc.block.end, c, [&](std::size_t b) {
      const PlacedBuffer& pb = placed[b];
      if (!order.conflict(*uses[b], *uses[c])) return;
      if (!inplace.empty() &&
          inplace.allows(pb.life.buffer, {pb.arena, pb.block.begin}, pc.life.buffer, {pc.arena, pc.block.begin})) {
        return;
      }
      pairs.emplace_back(std::min(b, c), std::max(b, c));
    });
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

Violation conflict_violation(const Schedule& s, const Plan& p, const UseOrder& order, const InPlaceRule& inplace,
                             const InPlaceRule& file_order_inplace, const ConflictFacts& x, const ConflictFacts& y) {
  const InPlaceDeclaration* d = inplace.empty() ? nullptr : inplace.declared(x.buffer, y.buffer);
  const BufferUses& ux = *order.uses(x.buffer);
  const BufferUses& uy = *order.uses(y.buffer);
  // Both tests are symmetric in the two.
  const bool race = !order.conflict_in_file_order(ux, uy) ||
                    (!file_order_inplace.empty() &&
                     file_order_inplace.allows(x.buffer, {x.arena, x.block.begin}, y.buffer, {y.arena, y.block.begin}));
  // Named in the order the message reads: for a race the one earlier in the
  // file, whose use is the one not ordered before the other's; otherwise,
  // and for a race of two first used together, an in-place pair OUT first,
  // as the declaration names it.
  const bool out_second = d && d->pair.out != x.buffer;
  const bool swap = race && ux.first != uy.first ? uy.first < ux.first : out_second;
  const ConflictFacts& a = swap ? y : x;
  const ConflictFacts& b = swap ? x : y;
  const BufferUses& ua = swap ? uy : ux;
  const BufferUses& ub = swap ? ux : uy;
  Violation v{.rule = Rule::Overlap};
  v.arenas.push_back(p.arenas[a.arena].name);
  for (const auto* f : {&a, &b}) {
    const Storage& st = s.storage[f->buffer];
    const BufferUses& u = *order.uses(f->buffer);
    v.buffers.push_back(st.name);
    v.plan_lines.push_back(p.placements[f->placement].pos.line);
    v.lives.push_back(entry_span(s, u.first, u.last));
    v.blocks.push_back(f->block);
    v.own_bytes.push_back({f->block.begin + st.phase, f->block.begin + st.phase + st.bytes});
  }
  v.shared = ByteRange{std::max(a.block.begin, b.block.begin), std::min(a.block.end, b.block.end)};
  if (race) {
    v.rule = Rule::Race;
    const ConflictWitness w = order.witness(ua, ub);
    for (const UsePoint& u : {*w.b_use, *w.c_use}) {
      v.caller.push_back(u.kind == UsePoint::Kind::BeforeRun ? -1 : u.kind == UsePoint::Kind::AfterRun ? 1 : 0);
      v.unordered.push_back(u.kind == UsePoint::Kind::Entry ? point_span(s, u.entry) : EntrySpan{});
      v.streams.emplace_back(u.kind == UsePoint::Kind::Entry ? s.streams[order.happens_before().stream(u.entry)]
                                                               : Name());
    }
    return v;
  }
  const std::size_t loop = order.common_loop(ua, ub);
  if (loop != LoopNode::kTopLevel) {
    v.loop_line = order.loops()[loop].entry->pos.line;
    v.positions = {order.positions_in(ua, loop), order.positions_in(ub, loop)};
  } else {
    v.during = entry_span(s, std::max(ua.first, ub.first), std::min(ua.last, ub.last));
  }
  if (d) {
    v.rule = Rule::InPlaceNotAllowed;
    v.declared_at = entry_span(s, d->entry, d->entry);
    v.refusal = inplace.refusal(*d, {a.arena, a.block.begin}, {b.arena, b.block.begin})
                    .value_or("another pair of the kernel shares these bytes");
  }
  return v;
}

}  // namespace planck::oracle
