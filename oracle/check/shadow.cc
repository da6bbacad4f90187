#include "oracle/check/shadow.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "model/resolve.h"
#include "model/inplace_views.h"
#include "oracle/check/lifetimes.h"
#include "oracle/check/order.h"
#include "oracle/check/shadow_memory.h"

namespace planck::oracle {
namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();
constexpr std::size_t kUntracked = static_cast<std::size_t>(-1);

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return checked_add(a, b).value_or(kSaturated);
}
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  return checked_mul(a, b).value_or(kSaturated);
}

// A use as the run records it: cheap to copy into a buffer's record on every
// use; turned into a UseSite only for a report.
struct Site {
  std::size_t entry = 0;
  // A kernel or copy; a loop for its flag check; null for the caller before
  // entry 0, kAfterLast for the caller after the last entry.
  const Entry* call = nullptr;
  std::size_t iterations = 0;   // the iteration of the loops around it: an index into the run's iterations_begun_
  int pass = 0;                 // UseSite::pass
};

// Stands for the caller reading outputs after the last entry.
const Entry kAfterLast;

// A placed storage: its bytes and what the run has seen of it.
struct Tracked {
  StorageId storage = 0;
  std::size_t arena = 0;
  Bytes begin = 0;  // [begin, end) of its arena
  Bytes end = 0;
  std::uint64_t claimed_in = 0;  // the number of the call that claimed its bytes; 0 until then
  Site claim;                    // that call
  Site last;                     // its last use that ended with all its bytes its own
  // v3 with streams: its last use so far on each stream, as a top-level
  // entry, and the buffers whose bytes it took at its claims.
  std::vector<std::pair<StreamId, Site>> last_on_stream;
  std::vector<std::size_t> taken_from;
  std::uint64_t listed_in = 0;   // the last call that listed it, so each call lists it once
  // Its arena's claim count when it was last found to hold all its bytes;
  // 0 until then (a claimed buffer's arena has counted its claim).
  std::uint64_t owned_at = 0;
};

struct Placed {
  std::vector<Tracked> tracked;
  std::vector<std::size_t> track_of;  // by StorageId: index into tracked, or kUntracked
};

// Each placement's storage, arena and bytes. Only the plan's structure is
// judged here; whether each placement is right is the checker's question,
// and wrong ones are for the run to expose. An arena named like storage is
// no obstacle: the run knows arenas by their place in the plan.
Result<Placed> place_storage(const Schedule& s, const Plan& p, const Resolution& r) {
  for (const PlanProblem& problem : r.problems) {
    if (problem.kind != PlanProblem::Kind::ArenaNamedLikeStorage) {
      return plan_problem_error(s, p, problem);
    }
  }
  Placed out;
  out.track_of.assign(s.storage.size(), kUntracked);
  for (std::size_t i = 0; i < p.placements.size(); ++i) {
    const Placement& pl = p.placements[i];
    const StorageId id = *r.placements[i].storage;
    const Storage& st = s.storage[id];
    std::optional<Bytes> begin = checked_add(pl.place, st.phase);
    std::optional<Bytes> end = begin ? checked_add(*begin, st.bytes) : std::nullopt;
    if (!end) {
      return Error{pl.pos.line > 0 ? fmt::format("{}:{}:{}", p.source, pl.pos.line, pl.pos.col)
                                   : p.source,
                   fmt::format("{} at place {} (phase {}, {} bytes) ends past the largest address",
                               pl.buffer, pl.place, st.phase, st.bytes)};
    }
    out.track_of[id] = out.tracked.size();
    Tracked t;
    t.storage = id;
    t.arena = *r.placements[i].arena;
    t.begin = *begin;
    t.end = *end;
    out.tracked.push_back(std::move(t));
  }
  return out;
}

std::optional<std::uint64_t> count_entries(const std::vector<Entry>& entries, std::uint64_t iterations,
                                           int depth) {
  if (depth > kMaxNesting) return std::nullopt;
  std::uint64_t total = 0;
  for (const Entry& e : entries) {
    if (e.kind == Entry::Kind::Kernel || e.kind == Entry::Kind::Copy) {
      total = saturating_add(total, 1);
      continue;
    }
    std::optional<std::uint64_t> body = count_entries(e.body(), iterations, depth + 1);
    if (!body) return std::nullopt;
    const std::uint64_t per_iteration = saturating_add(*body, e.kind == Entry::Kind::Loop ? 1 : 0);
    total = saturating_add(total, saturating_mul(per_iteration, iterations));
  }
  return total;
}

class Runner {
 public:
  Runner(const Schedule& s, const Plan& p, Placed placed, std::uint64_t iterations, const UseOrder* order)
      : s_(s),
        p_(p),
        tracked_(std::move(placed.tracked)),
        track_of_(std::move(placed.track_of)),
        shadows_(p.arenas.size()),
        iterations_(iterations),
        order_(order),
        iterations_begun_(1) {
    if (!order_) return;
    streams_ = !order_->happens_before().one_stream();
    for (std::size_t t = 0; t < tracked_.size(); ++t) {
      const BufferUses* u = order_->uses(tracked_[t].storage);
      if (u && s_.storage[tracked_[t].storage].local && u->scope != LoopNode::kTopLevel) {
        local_of_loop_[order_->loops()[u->scope].entry].push_back(t);
      }
    }
  }

  // A schedule with state runs twice in a row, in two passes; its state keeps
  // its bytes from the first pass to the second, the rest claim afresh.
  ShadowRun run() {
    bool has_state = false, has_io = false;
    for (const Tracked& b : tracked_) {
      has_state = has_state || (s_.storage[b.storage].io & kState) != 0;
      has_io = has_io || s_.storage[b.storage].io != 0;
    }
    const int passes = has_state ? 2 : 1;
    for (pass_ = 1; pass_ <= passes; ++pass_) {
      if (pass_ > 1) {
        for (Tracked& b : tracked_) {
          if ((s_.storage[b.storage].io & kState) == 0) b.claimed_in = 0, b.owned_at = 0, b.taken_from.clear();
          // The first pass is over, its streams joined: its uses come before every entry of the next.
          b.last_on_stream.clear();
        }
      }
      if (passes > 1) pass_number_ = pass_;
      if (has_io && !caller_writes()) break;
      bool clean = true;
      for (entry_ = 0; entry_ < s_.entries.size() && clean; ++entry_) clean = run_entry(s_.entries[entry_]);
      if (!clean || (has_io && !caller_reads())) break;
    }
    return ShadowRun{calls_, std::move(clobber_), std::move(outside_)};
  }

 private:
  // Each returns false once a clobber is found, to stop the run there.
  bool run_entry(const Entry& e) {
    switch (e.kind) {
      case Entry::Kind::Kernel:
      case Entry::Kind::Copy:
        return use(e, e.args);
      case Entry::Kind::Record:
      case Entry::Kind::Wait:
        return true;  // takes no storage
      case Entry::Kind::Range:
      case Entry::Kind::Loop:
        break;
    }
    const std::size_t around = iteration_;
    for (std::uint64_t k = 1; k <= iterations_; ++k) {
      iteration_ = iterations_begun_.size();
      iterations_begun_.push_back({around, k});
      for (const Entry& inner : e.body()) {
        if (!run_entry(inner)) return false;
      }
      if (e.kind == Entry::Kind::Loop && !use(e, e.flag())) return false;
      release_locals(e);
    }
    iteration_ = around;
    return true;
  }

  // Before entry 0: the caller writes the planned inputs (and, in the first
  // pass, the state), which claim their bytes; each must then own them all.
  bool caller_writes() {
    ++calls_;
    entry_ = 0;
    used_.clear();
    for (std::size_t t = 0; t < tracked_.size(); ++t) {
      const Storage& st = s_.storage[tracked_[t].storage];
      const bool writes = (st.io & kInput) != 0 || ((st.io & kState) != 0 && pass_ == 1);
      if (writes) used_.push_back(t);
    }
    for (std::size_t t : used_) {
      Tracked& b = tracked_[t];
      if (!inside_arena(t, nullptr)) return false;
      b.claimed_in = calls_;
      record(b.claim, nullptr);
      shadows_[b.arena].claim(b.begin, b.end, t);
    }
    for (std::size_t t : used_) {
      if (!owns_all(t, nullptr)) return false;
      record(tracked_[t].last, nullptr);
    }
    return true;
  }

  // After the last entry: the caller reads the planned outputs and the
  // state, which must still own all their bytes.
  bool caller_reads() {
    ++calls_;
    entry_ = s_.entries.empty() ? 0 : s_.entries.size() - 1;
    for (std::size_t t = 0; t < tracked_.size(); ++t) {
      Tracked& b = tracked_[t];
      if (!lives_to_end(s_.storage[b.storage]) || b.claimed_in == 0) continue;
      if (!owns_all(t, &kAfterLast)) return false;
      record(b.last, &kAfterLast);
    }
    return true;
  }

  // The buffers a kernel's `inplace=OUT:IN` hands bytes between in this
  // call: OUT claims here, and its bytes start where IN's do, in IN's arena,
  // and end within them. IN then keeps only its bytes past OUT's (and when
  // this call is IN's first use too, claims only those). A kernel that
  // takes either through a view as well hands nothing: it reads IN's bytes
  // while OUT's are written over them.
  void note_handed(const Entry& call) {
    handed_.clear();
    for (const InPlace& pair : call.inplace()) {
      if (takes_through_view(call, pair.in) || takes_through_view(call, pair.out)) continue;
      const std::size_t o = track_of_[pair.out];
      const std::size_t i = track_of_[pair.in];
      if (o == kUntracked || i == kUntracked) continue;
      const Tracked& out = tracked_[o];
      const Tracked& in = tracked_[i];
      if (out.claimed_in != 0 || out.arena != in.arena) continue;
      if (out.begin != in.begin || out.end > in.end) continue;
      handed_.push_back({i, out.end});
    }
  }

  // The first byte buffer t must hold in this call: past OUT's where t is
  // the input an in-place pair hands over.
  Bytes held_from(std::size_t t) const {
    for (const Handed& h : handed_) {
      if (h.in == t) return h.from;
    }
    return tracked_[t].begin;
  }

  // Whether buffer t holds the bytes it must hold in this call.
  bool holds(std::size_t t, const Entry* call) { return owns_from(t, held_from(t), call); }

  // One call: claims for first uses, checks for later ones, then checks that
  // every buffer the call uses still owns all its bytes after the claims.
  bool use(const Entry& call, const Args& args) {
    ++calls_;
    used_.clear();
    handed_.clear();
    if (call.parts && !call.inplace().empty()) note_handed(call);
    for (const Arg& arg : args) {
      const std::size_t t = track_of_[storage_of(arg)];
      if (t == kUntracked || tracked_[t].listed_in == calls_) continue;
      tracked_[t].listed_in = calls_;
      used_.push_back(t);
    }
    bool claimed = false;
    for (std::size_t t : used_) {
      Tracked& b = tracked_[t];
      if (b.claimed_in == 0) {
        if (!inside_arena(t, &call)) return false;
        if (streams_) note_taken_from(t, held_from(t), b.end);
        b.claimed_in = calls_;
        record(b.claim, &call);
        shadows_[b.arena].claim(held_from(t), b.end, t);
        claimed = true;
      } else if (!holds(t, &call)) {
        return false;
      }
    }
    // Without a claim in this call, the loop above has checked them all.
    if (claimed) {
      for (std::size_t t : used_) {
        if (!holds(t, &call)) return false;
      }
    }
    for (std::size_t t : used_) record(tracked_[t].last, &call);
    if (streams_) {
      for (std::size_t t : used_) {
        if (!uses_in_order(t, &call)) return false;
      }
      if (!hands_in_order(call)) return false;
      for (std::size_t t : used_) note_stream_use(t);
    }
    return true;
  }

  // The end of an iteration of loop e: its local buffers give up their
  // bytes, to claim them again at their next first use.
  void release_locals(const Entry& e) {
    if (local_of_loop_.empty()) return;
    const auto it = local_of_loop_.find(&e);
    if (it == local_of_loop_.end()) return;
    // Its uses so far stay: a later claim on another stream must still come
    // after them.
    for (std::size_t t : it->second) {
      tracked_[t].claimed_in = 0;
      tracked_[t].owned_at = 0;
    }
  }

  // As buffer t claims [begin, end): the buffers that hold some of those
  // bytes, whose uses every use of t must come after.
  void note_taken_from(std::size_t t, Bytes begin, Bytes end) {
    for (const ArenaShadow::Segment& held : shadows_[tracked_[t].arena].holders(begin, end)) {
      std::vector<std::size_t>& from = tracked_[t].taken_from;
      if (held.owner != t && std::find(from.begin(), from.end(), held.owner) == from.end()) {
        from.push_back(held.owner);
      }
    }
  }

  // At a use of buffer t, at its claim or later: every use so far of each
  // buffer whose bytes it took must happen before the running entry; else
  // records the race.
  bool uses_in_order(std::size_t t, const Entry* call) {
    const Tracked& taker = tracked_[t];
    const HappensBefore& hb = order_->happens_before();
    for (std::size_t from : taker.taken_from) {
      const Tracked& victim = tracked_[from];
      for (const auto& [stream, use] : victim.last_on_stream) {
        if (use.entry == entry_ || hb.before(use.entry, entry_)) continue;
        Site now;
        record(now, call);
        clobber_ = race(victim, use, stream, taker, now, std::max(victim.begin, taker.begin),
                        std::min(victim.end, taker.end));
        return false;
      }
    }
    return true;
  }

  // The race of `taker`, used at `now`, with victim's use at `use` on
  // `stream`, over [begin, end).
  Clobber race(const Tracked& victim, const Site& use, StreamId stream, const Tracked& taker, const Site& now,
               Bytes begin, Bytes end) const {
    return Clobber{
        .victim = s_.storage[victim.storage].name,
        .before = site(use),
        .after = site(now),
        .taker = s_.storage[taker.storage].name,
        .taken = site(taker.claim),
        .arena = p_.arenas[taker.arena].name,
        .begin = begin,
        .end = end,
        .race = true,
        .victim_stream = std::string(s_.streams[stream]),
        .taker_stream = std::string(s_.streams[order_->happens_before().stream(entry_)]),
    };
  }

  // An in-place pair of the running call hands IN's bytes to OUT only when
  // every use of IN so far happens before the running entry; else records
  // the race.
  bool hands_in_order(const Entry& call) {
    for (const Handed& h : handed_) {
      const Tracked& in = tracked_[h.in];
      if (h.from == in.begin) continue;  // an output of 0 bytes: nothing is handed
      for (const auto& [stream, use] : in.last_on_stream) {
        if (use.entry == entry_ || order_->happens_before().before(use.entry, entry_)) continue;
        std::size_t out = h.in;  // the buffer the pair hands the bytes to
        for (std::size_t t : used_) {
          if (t != h.in && tracked_[t].claimed_in == calls_ && tracked_[t].begin == in.begin) out = t;
        }
        Site now;
        record(now, &call);
        clobber_ = race(in, use, stream, tracked_[out], now, in.begin, h.from);
        return false;
      }
    }
    return true;
  }

  // Notes a use of buffer t at the running entry, for claims_in_order.
  void note_stream_use(std::size_t t) {
    const StreamId stream = order_->happens_before().stream(entry_);
    for (auto& [on, at] : tracked_[t].last_on_stream) {
      if (on == stream) {
        at = tracked_[t].last;
        return;
      }
    }
    tracked_[t].last_on_stream.emplace_back(stream, tracked_[t].last);
  }

  // Whether buffer t's bytes all lie in its arena; if not, records the fault.
  bool inside_arena(std::size_t t, const Entry* call) {
    const Tracked& b = tracked_[t];
    const Arena& arena = p_.arenas[b.arena];
    if (b.begin == b.end || b.end <= arena.size) return true;
    Site now;
    record(now, call);
    outside_ = OutsideArena{
        .buffer = s_.storage[b.storage].name,
        .at = site(now),
        .arena = arena.name,
        .arena_size = arena.size,
        .begin = b.begin,
        .end = b.end,
    };
    return false;
  }

  // Whether buffer t holds all its bytes; if not, records the clobber.
  bool owns_all(std::size_t t, const Entry* call) { return owns_from(t, tracked_[t].begin, call); }

  // Whether buffer t holds its bytes from `from` on; if not, records the clobber.
  bool owns_from(std::size_t t, Bytes from, const Entry* call) {
    Tracked& victim = tracked_[t];
    const ArenaShadow& shadow = shadows_[victim.arena];
    const bool all = from == victim.begin;
    if (all && victim.owned_at == shadow.claims()) return true;
    std::optional<ArenaShadow::Segment> taken = shadow.first_foreign(from, victim.end, t);
    if (!taken) {
      if (all) victim.owned_at = shadow.claims();
      return true;
    }
    const Tracked& taker = tracked_[taken->owner];
    Site now;
    record(now, call);
    clobber_ = Clobber{
        .victim = s_.storage[victim.storage].name,
        .before = site(victim.claimed_in == calls_ ? victim.claim : victim.last),
        .after = site(now),
        .taker = s_.storage[taker.storage].name,
        .taken = site(taker.claim),
        .arena = p_.arenas[victim.arena].name,
        .begin = taken->begin,
        .end = taken->end,
    };
    return false;
  }

  void record(Site& into, const Entry* call) const { into = Site{entry_, call, iteration_, pass_number_}; }

  UseSite site(const Site& at) const {
    UseSite out;
    out.entry = at.entry;
    out.pass = at.pass;
    if (at.call == nullptr || at.call == &kAfterLast) {
      out.call = at.call == nullptr ? "the caller writes inputs, before it" : "the caller reads outputs, after it";
      return out;
    }
    out.line = at.call->pos.line;
    for (std::size_t i = at.iterations; i != 0; i = iterations_begun_[i].around) {
      out.iterations.push_back(iterations_begun_[i].number);
    }
    std::reverse(out.iterations.begin(), out.iterations.end());
    switch (at.call->kind) {
      case Entry::Kind::Kernel: out.call = "kernel " + at.call->name; break;
      case Entry::Kind::Copy: out.call = "copy"; break;
      case Entry::Kind::Range:
      case Entry::Kind::Loop: out.call = "flag of loop"; break;
      case Entry::Kind::Record: out.call = "record " + at.call->name; break;
      case Entry::Kind::Wait: out.call = "wait " + at.call->name; break;
    }
    return out;
  }

  const Schedule& s_;
  const Plan& p_;
  std::vector<Tracked> tracked_;
  std::vector<std::size_t> track_of_;
  std::vector<ArenaShadow> shadows_;  // by arena
  const std::uint64_t iterations_;
  const UseOrder* order_;  // v3 only
  bool streams_ = false;   // entries run on more than one stream
  // The local buffers of each loop, which give their bytes up at the end of
  // each of its iterations.
  std::unordered_map<const Entry*, std::vector<std::size_t>> local_of_loop_;

  std::size_t entry_ = 0;                       // the top-level entry running
  // Each loop iteration begun: its number, from 1, and the iteration around
  // its loop (an index into this vector). The first, at 0, stands for
  // outside every loop.
  struct Iteration {
    std::size_t around = 0;
    std::uint64_t number = 0;
  };
  std::vector<Iteration> iterations_begun_;
  std::size_t iteration_ = 0;  // the running call's iteration: an index into iterations_begun_
  std::uint64_t calls_ = 0;                     // calls made, the running one included
  std::vector<std::size_t> used_;               // the tracked buffers the running call uses
  struct Handed {
    std::size_t in = 0;  // a tracked buffer
    Bytes from = 0;      // the first of its bytes it keeps
  };
  std::vector<Handed> handed_;  // the running call's in-place pairs that hand bytes over
  int pass_ = 1;                // the pass over the schedule, from 1
  int pass_number_ = 0;         // pass_ where the schedule runs twice, else 0
  std::optional<Clobber> clobber_;
  std::optional<OutsideArena> outside_;
};

}  // namespace

std::string UseSite::describe() const {
  std::string text = fmt::format("entry {} ({}", entry, call);
  if (line > 0) text += fmt::format(", line {}", line);
  if (!iterations.empty()) text += fmt::format(", iteration {}", fmt::join(iterations, "."));
  if (pass > 0) text += fmt::format(", run {}", pass);
  text += ")";
  return text;
}

std::string Clobber::message() const {
  if (race) {
    const auto on = [](const std::string& stream) {
      return stream.empty() ? std::string("the default stream") : "stream " + stream;
    };
    if (taken.describe() != after.describe()) {
      return fmt::format("race: {}, which claimed bytes [{}, {}) of {} from {} at {}, is used at {} on {}, which {}'s "
                         "use at {} on {} does not happen before",
                         taker, begin, end, arena, victim, taken.describe(), after.describe(), on(taker_stream),
                         victim, before.describe(), on(victim_stream));
    }
    return fmt::format("race: {} claimed bytes [{}, {}) of {} from {} at {} on {}, which {}'s use at {} on {} does "
                       "not happen before",
                       taker, begin, end, arena, victim, taken.describe(), on(taker_stream), victim,
                       before.describe(), on(victim_stream));
  }
  const std::string what =
      fmt::format("clobber: {} lost bytes [{}, {}) of {} to {}, which claimed them at {}", victim,
                  begin, end, arena, taker, taken.describe());
  const std::string now = after.describe();
  const std::string then = before.describe();
  if (then == now) return fmt::format("{}, during {}'s use at {}", what, victim, now);
  return fmt::format("{}, between {}'s uses at {} and {}", what, victim, then, now);
}

std::string OutsideArena::message() const {
  return fmt::format("outside-arena: {} [{}, {}) of {} reaches past its {} bytes at {}: bytes [{}, {}) "
                     "are outside it",
                     buffer, begin, end, arena, arena_size, at.describe(), std::max(begin, arena_size),
                     end);
}

std::optional<std::uint64_t> count_calls(const Schedule& s, std::uint64_t iterations) {
  return count_entries(s.entries, iterations, 0);
}

Result<ShadowRun> run_shadow(const Schedule& s, const Plan& p, const ShadowOptions& options) {
  return run_shadow(s, p, resolve(s, p), options);
}

Result<ShadowRun> run_shadow(const Schedule& s, const Plan& p, const Resolution& r,
                             const ShadowOptions& options) {
  if (options.iterations < 1) return Error{"", "loop bodies must run at least once"};
  // Counting first bounds the run's work, and the depth of its recursion over loops.
  std::optional<std::uint64_t> calls = count_calls(s, options.iterations);
  if (!calls) return Error{s.source, fmt::format("loops nest deeper than {}", kMaxNesting)};
  if (*calls > options.max_calls) {
    return Error{s.source,
                 fmt::format("running each loop body {} times would make {} calls, over the limit of {}",
                             options.iterations,
                             *calls == kSaturated ? std::string("more than 2^64") : std::to_string(*calls),
                             options.max_calls)};
  }
  PLANCK_ASSIGN(Placed placed, place_storage(s, p, r));
  if (s.version() >= 3) {
    const UseOrder order(s, planned_buffers(s));
    return Runner(s, p, std::move(placed), options.iterations, &order).run();
  }
  return Runner(s, p, std::move(placed), options.iterations, nullptr).run();
}

}  // namespace planck::oracle
