#include "oracle/check/inplace.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/inplace_views.h"

namespace planck::oracle {
namespace {

// The declarations of `entries` and the loops in them, all within top-level entry `top`.
void collect(const std::vector<Entry>& entries, std::size_t top, bool top_level,
             std::vector<InPlaceDeclaration>& out) {
  for (const Entry& e : entries) {
    for (const InPlace& pair : e.inplace()) {
      out.push_back({.pair = pair, .entry = top, .top_level = top_level, .kernel = &e});
    }
    if (!e.body().empty()) collect(e.body(), top, false, out);
  }
}

}  // namespace

InPlaceRule::InPlaceRule(const Schedule& s, const std::vector<Lifetime>& planned) : s_(s) {
  for (std::size_t top = 0; top < s.entries.size(); ++top) {
    const Entry& e = s.entries[top];
    if (!e.parts) continue;  // most entries: a call with no in-place pairs
    for (const InPlace& pair : e.inplace()) {
      declarations_.push_back({.pair = pair, .entry = top, .top_level = true, .kernel = &e});
    }
    collect(e.body(), top, false, declarations_);
  }
  if (declarations_.empty()) return;
  life_of_.assign(s.storage.size(), nullptr);
  for (const Lifetime& life : planned) life_of_[life.buffer] = &life;
}

std::optional<std::string> InPlaceRule::refusal(const InPlaceDeclaration& d, const InPlaceSpot& out,
                                                const InPlaceSpot& in) const {
  const Storage& o = s_.storage[d.pair.out];
  const Storage& i = s_.storage[d.pair.in];
  const Lifetime* ol = life_of_[d.pair.out];
  const Lifetime* il = life_of_[d.pair.in];
  if (!ol || !il) return "only two planned buffers can share bytes";
  if (order_ && (!d.top_level || !order_->happens_before().one_stream())) {
    if (std::optional<std::string> why = order_refusal(d)) return why;
  } else {
    if (!d.top_level) return "the kernel is inside a loop, whose next iteration would read the input over the output";
    if (il->last != d.entry) {
      return fmt::format("{} lives to entry {}, past the kernel's entry {}", i.name, il->last, d.entry);
    }
    if (ol->first != d.entry) {
      return fmt::format("{} lives from entry {}, before the kernel's entry {}", o.name, ol->first, d.entry);
    }
  }
  if (lives_to_end(i)) return fmt::format("{} is {}", i.name, (i.io & kState) ? "state" : "an output");
  if (lives_from_start(o)) return fmt::format("{} is {}", o.name, (o.io & kState) ? "state" : "an input");
  const Entry& kernel = *d.kernel;
  for (const Storage* st : {&o, &i}) {
    if (takes_through_view(kernel, st == &o ? d.pair.out : d.pair.in)) {
      return fmt::format("the kernel also takes {} through a view", st->name);
    }
  }
  if (out.arena != in.arena) return "they are in different arenas";
  if (out.place != in.place) {
    return fmt::format("{} is placed at {}, {} at {}: only the same place can be shared", o.name, out.place, i.name,
                       in.place);
  }
  if (o.phase != i.phase) return fmt::format("their phases differ ({} and {})", o.phase, i.phase);
  if (o.bytes > i.bytes) {
    return fmt::format("{} has {} bytes, more than the {} of {}", o.name, o.bytes, i.bytes, i.name);
  }
  return std::nullopt;
}

std::optional<std::string> InPlaceRule::order_refusal(const InPlaceDeclaration& d) const {
  const Storage& o = s_.storage[d.pair.out];
  const Storage& i = s_.storage[d.pair.in];
  const BufferUses* ou = order_->uses(d.pair.out);
  const BufferUses* iu = order_->uses(d.pair.in);
  if (!d.top_level) {
    const std::size_t loop = order_->loop_of(d.kernel);
    const std::size_t at = order_->position_of(d.kernel);
    if (!o.local || !i.local || ou->scope != loop || iu->scope != loop) {
      return "the kernel is inside a loop and its two buffers are not both local to that loop, so the next "
             "iteration would read the input over the output";
    }
    if (iu->pos_last != at) {
      return fmt::format("{} is used at position {} of the loop's body, past the kernel's position {}", i.name,
                         iu->pos_last, at);
    }
    if (ou->pos_first != at) {
      return fmt::format("{} is used at position {} of the loop's body, before the kernel's position {}", o.name,
                         ou->pos_first, at);
    }
    return std::nullopt;
  }
  const HappensBefore& hb = order_->happens_before();
  const auto stream_text = [&](std::size_t entry) {
    const StreamId st = hb.stream(entry);
    return st == 0 ? std::string("the default stream") : fmt::format("stream {}", s_.streams[st]);
  };
  for (const BufferUses::OnStream& on : iu->streams) {
    if (on.last != d.entry && !hb.before(on.last, d.entry)) {
      return fmt::format("{}'s use at entry {} (line {}, {}) does not happen before the kernel's entry {}", i.name,
                         on.last, s_.entries[on.last].pos.line, stream_text(on.last), d.entry);
    }
  }
  for (const BufferUses::OnStream& on : ou->streams) {
    if (on.first != d.entry && !hb.before(d.entry, on.first)) {
      return fmt::format("the kernel's entry {} does not happen before {}'s use at entry {} (line {}, {})", d.entry,
                         o.name, on.first, s_.entries[on.first].pos.line, stream_text(on.first));
    }
  }
  return std::nullopt;
}

bool InPlaceRule::allows(StorageId a, const InPlaceSpot& sa, StorageId b, const InPlaceSpot& sb) const {
  return std::any_of(declarations_.begin(), declarations_.end(), [&](const InPlaceDeclaration& d) {
    if (d.pair.out == a && d.pair.in == b) return !refusal(d, sa, sb);
    if (d.pair.out == b && d.pair.in == a) return !refusal(d, sb, sa);
    return false;
  });
}

const InPlaceDeclaration* InPlaceRule::declared(StorageId a, StorageId b) const {
  const InPlaceDeclaration* found = nullptr;
  for (const InPlaceDeclaration& d : declarations_) {
    const bool names = (d.pair.out == a && d.pair.in == b) || (d.pair.out == b && d.pair.in == a);
    if (!names) continue;
    if (d.top_level) return &d;
    if (!found) found = &d;
  }
  return found;
}

}  // namespace planck::oracle
