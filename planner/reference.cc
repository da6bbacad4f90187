// The reference planner ("tlsf") of SPEC section 3, rule by rule, in the
// order of the rules: each numbered rule is the function named for it
// below, and TlsfPlanner::plan at the end runs rules 1 to 7 in that order,
// or on a large schedule hands rules 4, 5 and 7 to a second thread that
// takes them as rules 3 and 6 go on (Alongside). Rules 8 to 10 make the
// output of any planner's plan; plan_schedule.cc applies them.

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <exception>
#include <memory>
#include <numeric>
#include <optional>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "model/huge_pages.h"
#include "model/lexical.h"
#include "model/text.h"
#include "planner/factories.h"
#include "planner/rewrite.h"
#include "planner/rules.h"
#include "planner/tlsf.h"

namespace planck {
namespace {

// Storage in order of first taking, each once. Calls take a few arguments,
// so a linear search dedupes until the list grows long (a big loop body).
class TakenList {
 public:
  void add(StorageId id) {
    if (ids_.size() < kLinear) {
      if (std::find(ids_.begin(), ids_.end(), id) != ids_.end()) return;
    } else {
      if (seen_.empty()) seen_.insert(ids_.begin(), ids_.end());
      if (!seen_.insert(id).second) return;
    }
    ids_.push_back(id);
  }
  std::vector<StorageId> take() { return std::move(ids_); }

 private:
  static constexpr std::size_t kLinear = 16;
  std::vector<StorageId> ids_;
  std::unordered_set<StorageId> seen_;
};

// Calls take(id) for each storage an entry takes, in the order its calls
// take it, repeats included. Nesting is bounded by kMaxNesting at parse
// time, so this recursion is too.
template <class Take>
void for_each_taken(const Entry& e, Take& take) {
  switch (e.kind) {
    case Entry::Kind::Kernel:
    case Entry::Kind::Copy:
      for (const Arg& a : e.args) take(storage_of(a));
      return;
    case Entry::Kind::Range:
    case Entry::Kind::Loop:
      for (const Entry& inner : e.body()) for_each_taken(inner, take);
      for (const Arg& a : e.flag()) take(storage_of(a));
      return;
  }
}

}  // namespace

// Rule 1: what an entry takes.
std::vector<StorageId> taken(const Entry& entry) {
  TakenList out;
  auto add = [&](StorageId id) { out.add(id); };
  for_each_taken(entry, add);
  return out.take();
}

// Rule 2: what is planned.
bool is_plannable(const Storage& s) {
  return s.kind == StorageKind::Buffer && !s.held && !is_disk(s.device);
}

namespace {

// Rule 3: lifetimes. An entry's storage is walked with its repeats: a
// repeat sets the lifetime's end to the entry it already ends at, and the
// first take of each storage comes in the order of rule 1, so no entry's
// list of storage needs to be made. made(lives, k) is told, now and then,
// that lifetimes [0, k) are made (their buffer and first entry are final; a
// later entry may still end them). The lifetimes go to `out`, which the
// caller holds, so that whoever was told of its array can rely on it until
// the caller lets it go.
template <class Made>
void lifetimes_telling(const Schedule& s, std::vector<Lifetime>& out, Made&& made) {
  // At most one lifetime per storage: the first `count` are kept, the rest
  // cut off at the end, so that keeping one is a store, not a push_back's call.
  out = huge_vector<Lifetime>(s.storage.size());
  std::uint32_t count = 0;
  // Per storage: its position in out, or one of these two. Each storage is
  // judged by rule 2 once, when first taken. Positions fit 32 bits, as
  // StorageIds do.
  constexpr std::uint32_t kUnseen = UINT32_MAX;
  constexpr std::uint32_t kNotPlanned = UINT32_MAX - 1;
  std::vector<std::uint32_t> index(s.storage.size(), kUnseen);
  // Storage id at entry e. The arrays are held by value, so that the
  // compiler keeps them in registers across the stores.
  constexpr std::uint32_t kMadeEvery = 1 << 12;  // a power of two
  auto take = [&count, at_of = index.data(), lives = out.data(), &storage = s.storage, &made](
                  StorageId id, std::size_t e) __attribute__((always_inline)) {
    const std::uint32_t at = at_of[id];
    if (at < kNotPlanned) [[likely]] {
      lives[at].last = e;
    } else if (at == kUnseen) {
      if (is_plannable(storage[id])) {
        at_of[id] = count;
        lives[count++] = {id, e, e};
        if ((count & (kMadeEvery - 1)) == 0) made(static_cast<const Lifetime*>(lives), count);
      } else {
        at_of[id] = kNotPlanned;
      }
    }
  };
  // Most entries are calls, walked here; a loop is walked by for_each_taken.
  auto take_entry = [&](const Entry& entry, std::size_t e) __attribute__((always_inline)) {
    if (entry.kind == Entry::Kind::Kernel || entry.kind == Entry::Kind::Copy) [[likely]] {
      for (const Arg& a : entry.args) take(storage_of(a), e);
      return;
    }
    auto take_here = [&](StorageId id) { take(id, e); };
    for_each_taken(entry, take_here);
  };
  // Calls' arguments sit apart from the entries: they are asked of the
  // memory this many entries ahead, and the entries twice as far, so that
  // the misses overlap. The last entries, with none that far ahead, are
  // walked apart.
  constexpr std::size_t kAhead = 16;
  const Entry* const entries = s.entries.data();
  const std::size_t entry_count = s.entries.size();
  std::size_t e = 0;
  for (; e + 2 * kAhead < entry_count; ++e) {
    __builtin_prefetch(&entries[e + 2 * kAhead]);
    if (const Args& ahead = entries[e + kAhead].args; !ahead.empty()) {
      __builtin_prefetch(&ahead.front());
      __builtin_prefetch(&ahead.back());
    }
    take_entry(entries[e], e);
  }
  for (; e < entry_count; ++e) take_entry(entries[e], e);
  out.resize(count);
}

}  // namespace

std::vector<Lifetime> planned_lifetimes(const Schedule& s) {
  std::vector<Lifetime> out;
  lifetimes_telling(s, out, [](const Lifetime*, std::uint32_t) {});
  return out;
}

namespace {

// Rules 4 and 5 read the same record of each planned buffer: a maker
// takes each record once for both, in order of first appearance. The sums
// are checked for overflow all together, and the first buffer whose size
// overflows is named only when one does.
class SizesAndDevicesMaker {
 public:
  // Room for `planned` buffers, made once.
  explicit SizesAndDevicesMaker(std::size_t planned) { out_.sizes.reserve(planned); }

  // The next planned buffer in order of first appearance; its record stays
  // where it is until finish.
  void add(const Storage& b) {
    // round_up(x, 256) overflows exactly when x + 255 does.
    Bytes sum = 0;
    Bytes padded = 0;
    overflow_ |= __builtin_add_overflow(b.phase, b.bytes, &sum);
    overflow_ |= __builtin_add_overflow(sum, kPlaceAlign - 1, &padded);
    out_.sizes.push_back(padded & ~(kPlaceAlign - 1));
    // Most schedules plan for one device: until a buffer on another, the
    // device is only compared with the first, and no list is kept.
    if (first_ == nullptr) {
      first_ = &b.device;
      out_.devices.names.push_back(b.device);
    } else if (!out_.devices.of.empty() || !(b.device == *first_)) [[unlikely]] {
      add_device(b.device);
    }
  }

  // Both rules, or rule 4's error for the first buffer whose size overflows.
  Result<SizesAndDevices> finish(const Schedule& s, const std::vector<Lifetime>& lives) && {
    if (overflow_) {
      for (const Lifetime& l : lives) PLANCK_TRY(rounded_size(s.storage[l.buffer]));
    }
    return std::move(out_);
  }
  // Rule 5 alone, whatever the sizes.
  Devices devices() && { return std::move(out_.devices); }

 private:
  // The device of the buffer just added, when there is more than one.
  void add_device(const Name& device) {
    Devices& devices = out_.devices;
    if (devices.of.empty()) {
      // The buffers before were all on the first device.
      index_.emplace(*first_, 0);
      devices.of.reserve(out_.sizes.capacity());
      devices.of.assign(out_.sizes.size() - 1, 0);
    }
    if (devices.names[last_] != device) {  // neighbours mostly share one
      auto [it, fresh] = index_.try_emplace(device, static_cast<std::uint32_t>(devices.names.size()));
      if (fresh) devices.names.push_back(device);
      last_ = it->second;
    }
    devices.of.push_back(last_);
  }

  SizesAndDevices out_;
  bool overflow_ = false;
  const Name* first_ = nullptr;  // the first buffer's device, in the schedule
  // Device -> position in names, keyed by the text of the schedule's
  // records, which stay where they are.
  std::unordered_map<std::string_view, std::uint32_t> index_;
  std::uint32_t last_ = 0;  // the previous buffer's device
};

}  // namespace

namespace {

SizesAndDevicesMaker made_for(const Schedule& s, const std::vector<Lifetime>& lives) {
  SizesAndDevicesMaker maker(lives.size());
  for (const Lifetime& l : lives) maker.add(s.storage[l.buffer]);
  return maker;
}

}  // namespace

Result<SizesAndDevices> sizes_and_devices(const Schedule& s, const std::vector<Lifetime>& lives) {
  return made_for(s, lives).finish(s, lives);
}

// Rule 4: sizes.
Result<std::vector<Bytes>> rounded_sizes(const Schedule& s, const std::vector<Lifetime>& lives) {
  PLANCK_ASSIGN(SizesAndDevices both, sizes_and_devices(s, lives));
  return std::move(both.sizes);
}

// Rule 5: arenas, one per device.
Devices planned_devices(const Schedule& s, const std::vector<Lifetime>& lives) {
  return made_for(s, lives).devices();
}

std::vector<std::vector<std::size_t>> lifetimes_by_device(const Devices& devices, std::size_t lives) {
  std::vector<std::vector<std::size_t>> out(devices.names.size());
  if (devices.of.empty()) {
    if (!out.empty()) {
      out.front().resize(lives);
      std::iota(out.front().begin(), out.front().end(), std::size_t{0});
    }
    return out;
  }
  // Counted first, so that each list is made at its size.
  std::vector<std::size_t> count(out.size(), 0);
  for (std::uint32_t d : devices.of) ++count[d];
  for (std::size_t d = 0; d < out.size(); ++d) out[d].reserve(count[d]);
  for (std::size_t i = 0; i < lives; ++i) out[devices.of[i]].push_back(i);
  return out;
}

namespace {

constexpr Bytes kTlsfBlockSize = 256;
constexpr Bytes kTlsfSecondLevel = 32;

// Rule 5: every allocator's capacity, 2 x the sum of max(256, rounded) over
// every planned buffer of the schedule.
Result<Bytes> tlsf_capacity(const Schedule& s, const std::vector<Lifetime>& lives,
                            const std::vector<Bytes>& sizes) {
  Bytes total = 0;
  for (std::size_t i = 0; i < lives.size(); ++i) {
    auto sum = checked_add(total, std::max(kPlaceAlign, sizes[i]));
    if (!sum) return overflow_error(s.storage[lives[i].buffer], "the sum of planned sizes");
    total = *sum;
  }
  auto doubled = checked_mul(total, 2);
  if (!doubled) return overflow_error(s.storage[lives.back().buffer], "twice the sum of planned sizes");
  return *doubled;
}

// Rule 5: one TLSF allocator per device, in the order of `devices`, which is
// the order in which devices first appear among the events: a device's
// first event opens its first buffer, and opens keep the order of first
// appearance (rule 6).
Result<std::vector<Tlsf>> make_allocators(Bytes capacity, const Devices& devices) {
  std::vector<Tlsf> out;
  for (std::size_t d = 0; d < devices.names.size(); ++d) {
    PLANCK_ASSIGN(Tlsf tlsf, Tlsf::create(capacity, kTlsfBlockSize, kTlsfSecondLevel));
    out.push_back(std::move(tlsf));
  }
  return out;
}

// Rule 6: order of events. Opens in order of first appearance, then closes
// in the same order, stably sorted by time, closes first at equal times.
// The opens are in order of time already (first appearance is by entry), so
// only the closes are ordered: a list per time of the lifetimes that close
// then, in order of first appearance, threaded through one array. The run
// takes, before each open, the lists of every time up to the open's.
struct CloseLists {
  static constexpr std::uint32_t kNone = UINT32_MAX;
  // Per time t, 0 to the entry count: the first lifetime to close at t
  // (last + 1 = t), or kNone.
  std::vector<std::uint32_t> first;
  // Per lifetime: the next to close at its time, or kNone. Each is written
  // once before it is read.
  std::unique_ptr<std::uint32_t[]> next;
};

// `entries`: the schedule's top-level entry count, past every lifetime's last.
CloseLists close_lists(const std::vector<Lifetime>& lives, std::size_t entries) {
  CloseLists out{std::vector<std::uint32_t>(entries + 1, CloseLists::kNone),
                 std::make_unique_for_overwrite<std::uint32_t[]>(lives.size())};
  // Each list is built from its back, so that it comes out in order of first appearance.
  for (std::size_t i = lives.size(); i-- > 0;) {
    std::uint32_t& head = out.first[lives[i].last + 1];
    out.next[i] = head;
    head = static_cast<std::uint32_t>(i);
  }
  return out;
}

// Rule 6: the TLSF run. An open allocates the buffer's rounded size and
// records its place; a close frees it. Each size, read once by its open,
// gives way to the buffer's place: `place` holds the sizes before the run
// and the places after it. placed(k) is told, now and then and at the end,
// that the places of lifetimes [0, k) are final. kOneDevice: every buffer
// uses the first allocator.
template <bool kOneDevice, class Placed>
Status run_tlsf_on(const Schedule& s, const std::vector<Lifetime>& lives, std::vector<Bytes>& place,
                   const CloseLists& closes, const Devices& devices, std::vector<Tlsf>& allocators,
                   Placed&& placed) {
  constexpr std::uint32_t kPlacedEvery = 1 << 12;  // a power of two
  // What each open's alloc returned, for its close; each is written by the
  // open before its close reads it.
  const auto block = std::make_unique_for_overwrite<Tlsf::BlockId[]>(lives.size());
  // The loop reads its arrays through these, which the calls into the
  // allocator cannot change.
  const std::uint32_t count = static_cast<std::uint32_t>(lives.size());
  const Lifetime* const life = lives.data();
  Bytes* const at = place.data();
  Tlsf::BlockId* const block_of = block.get();
  const std::uint32_t* const first_close = closes.first.data();
  const std::uint32_t* const next_close = closes.next.get();
  Tlsf* const tlsf = allocators.data();
  const std::uint32_t* const device_of = devices.of.data();
  auto tlsf_of = [&](std::uint32_t i) -> Tlsf& { return tlsf[kOneDevice ? 0 : device_of[i]]; };
  // Before each open, and after the last, the closes of every time up to
  // the open's: a lifetime closes at time last + 1, before an open at that
  // time or later.
  const std::size_t end = closes.first.size();
  std::size_t time = 0;  // the closes before this time are done
  for (std::uint32_t i = 0;; ++i) {
    const std::size_t now = i < count ? life[i].first + 1 : end;
    for (; time < now; ++time) {
      for (std::uint32_t closed = first_close[time]; closed != CloseLists::kNone; closed = next_close[closed]) {
        PLANCK_TRY(tlsf_of(closed).free_block(block_of[closed]));
      }
    }
    if (i == count) break;
    if ((i & (kPlacedEvery - 1)) == 0) placed(i);
    const Bytes size = at[i];
    const Tlsf::Allocation made = tlsf_of(i).alloc_block(size);
    if (!made.found()) [[unlikely]] {
      const Storage& b = s.storage[life[i].buffer];
      return Error{"", fmt::format("the memory plan outgrew its arena: buffer {} ({} bytes "
                                   "rounded) on {} at entry {}",
                                   b.name, size, b.device, life[i].first)};
    }
    at[i] = made.start;
    block_of[i] = made.block;
  }
  placed(lives.size());
  return Ok{};
}

// run_tlsf_on for one device or for several.
template <class Placed>
Status run_tlsf(const Schedule& s, const std::vector<Lifetime>& lives, std::vector<Bytes>& place,
                const CloseLists& closes, const Devices& devices, std::vector<Tlsf>& allocators,
                Placed&& placed) {
  if (devices.of.empty()) return run_tlsf_on<true>(s, lives, place, closes, devices, allocators, placed);
  return run_tlsf_on<false>(s, lives, place, closes, devices, allocators, placed);
}

// The work a second thread does beside the reference planner on a large
// schedule: rules 4 and 5 for the lifetimes rule 3 has made so far, while
// rule 3 walks on, then rule 5's capacity, then the plan (rule 7) of the
// buffers the TLSF run has placed so far, while the run goes on. The
// planner tells it how far it is by two counts, which the second thread
// waits on; kAborted in either stops it.
class Alongside {
 public:
  static constexpr std::uint32_t kAborted = UINT32_MAX;
  // Counts are 32-bit, which the system's futex waits on directly; a
  // lifetime count stays below kAll (TlsfPlanner::plan).
  static constexpr std::uint32_t kAll = std::uint32_t{1} << 31;  // made_: every lifetime is made

  // The sizes, devices and capacity, once every lifetime is made.
  struct Prepared {
    SizesAndDevices sizes;  // the sizes, which the run turns into the places
    Bytes capacity = 0;
  };

  explicit Alongside(const Schedule& s) : thread_([this, &s] { work(s); }) {}
  Alongside(const Alongside&) = delete;
  Alongside& operator=(const Alongside&) = delete;
  // A planner that stops early, by an error or an exception, stops it.
  ~Alongside() {
    if (thread_.joinable()) {
      tell(made_, kAborted);
      tell(placed_, kAborted);
      thread_.join();
    }
  }

  // Lifetimes [0, k) of the array at `lives` are made. The array stays
  // where it is: it becomes the vector made_all tells of.
  void made(const Lifetime* lives, std::uint32_t k) {
    walked_.store(lives, std::memory_order_relaxed);  // told by the store to made_
    tell(made_, k);
  }
  // Every lifetime is made: `lives`, which outlives this object.
  void made_all(const std::vector<Lifetime>& lives) {
    lives_ = &lives;
    tell(made_, kAll | static_cast<std::uint32_t>(lives.size()));
  }

  // The sizes, devices and capacity, or the error of a size or a capacity
  // that overflows; waits for them.
  Result<Prepared*> prepared() {
    prepared_.wait(0, std::memory_order_acquire);
    if (preparing_failure_) std::rethrow_exception(preparing_failure_);
    if (!preparation_.ok()) return std::move(preparation_).error();
    return &*preparation_;
  }

  // The places of lifetimes [0, k) are final.
  void placed(std::size_t k) { tell(placed_, static_cast<std::uint32_t>(k)); }

  // The plan, once placed(every lifetime) was told.
  Result<Plan> plan() {
    thread_.join();
    if (failure_) std::rethrow_exception(failure_);
    return std::move(*plan_);
  }

 private:

  static void tell(std::atomic<std::uint32_t>& count, std::uint32_t value) {
    count.store(value, std::memory_order_release);
    count.notify_one();
  }

  void work(const Schedule& s) {
    if (prepare(s)) make(s);
  }

  // Rules 4 and 5 while rule 3 walks, then the capacity; false when the
  // planner stops or preparing fails.
  bool prepare(const Schedule& s) {
    try {
      SizesAndDevicesMaker sizes(s.storage.size());
      std::uint32_t taken = 0;
      for (;;) {
        const std::uint32_t made = made_.load(std::memory_order_acquire);
        if (made == kAborted) return false;
        const std::uint32_t k = made & ~kAll;
        const Lifetime* const lives = (made & kAll) != 0 ? lives_->data() : walked_.load(std::memory_order_relaxed);
        for (; taken < k; ++taken) sizes.add(s.storage[lives[taken].buffer]);
        if ((made & kAll) != 0) break;
        made_.wait(made, std::memory_order_acquire);
      }
      preparation_ = prepared_from(s, *lives_, std::move(sizes).finish(s, *lives_));
    } catch (...) {
      preparing_failure_ = std::current_exception();
    }
    // Read before the planner is told: from then on it takes the preparation.
    const bool go = !preparing_failure_ && preparation_.ok() && !lives_->empty();
    tell(prepared_, 1);
    return go;
  }

  // Rule 7 while the run places the buffers.
  void make(const Schedule& s) {
    try {
      const std::vector<Lifetime>& lives = *lives_;
      const Prepared& prepared = *preparation_;
      PlanMaker maker(s, lives, prepared.sizes.devices);
      while (maker.added() < lives.size()) {
        const std::uint32_t ready = placed_.load(std::memory_order_acquire);
        if (ready == kAborted) return;
        if (ready > maker.added()) {
          maker.add(prepared.sizes.sizes.data(), ready);
        } else {
          placed_.wait(ready, std::memory_order_acquire);
        }
      }
      plan_ = std::move(maker).finish();
    } catch (...) {
      failure_ = std::current_exception();
    }
  }

  static Result<Prepared> prepared_from(const Schedule& s, const std::vector<Lifetime>& lives,
                                        Result<SizesAndDevices> made) {
    PLANCK_ASSIGN(SizesAndDevices sizes, std::move(made));
    if (lives.empty()) return Prepared{std::move(sizes), 0};
    PLANCK_ASSIGN(const Bytes capacity, tlsf_capacity(s, lives, sizes.sizes));
    return Prepared{std::move(sizes), capacity};
  }

  std::atomic<std::uint32_t> made_{0};      // lifetimes made, with kAll once every one is
  std::atomic<std::uint32_t> placed_{0};    // places final
  std::atomic<std::uint32_t> prepared_{0};  // 1 once the preparation is done
  std::atomic<const Lifetime*> walked_{nullptr};  // the lifetimes while rule 3 walks
  const std::vector<Lifetime>* lives_ = nullptr;  // the lifetimes once it is done
  Result<Prepared> preparation_{Error{}};
  std::exception_ptr preparing_failure_;  // written before prepared_ is told
  std::optional<Result<Plan>> plan_;
  std::exception_ptr failure_;  // read once the thread is joined
  std::thread thread_;  // last: it starts once the members it uses are made
};

}  // namespace

// Rule 7: result.
Result<Plan> plan_result(const Schedule& s, const std::vector<Lifetime>& lives, const Devices& devices,
                         const std::vector<Bytes>& place) {
  PlanMaker maker(s, lives, devices);
  maker.add(place.data(), lives.size());
  return std::move(maker).finish();
}

PlanMaker::PlanMaker(const Schedule& s, const std::vector<Lifetime>& lives, const Devices& devices)
    : schedule_(&s), lives_(&lives), devices_(&devices), size_(devices.names.size(), 0) {
  const std::vector<std::string> texts = arena_names(s, devices.names.size());
  names_.assign(texts.begin(), texts.end());
  plan_.placements.reserve(lives.size());
  advise_huge_pages(plan_.placements);
}

bool PlanMaker::end_of(std::size_t i, Bytes& end) const {
  const Storage& b = schedule_->storage[(*lives_)[i].buffer];
  // round_up(x, 256) overflows exactly when x + 255 does.
  bool overflow = __builtin_add_overflow(place_[i], b.phase, &end);
  overflow |= __builtin_add_overflow(end, b.bytes, &end);
  overflow |= __builtin_add_overflow(end, kPlaceAlign - 1, &end);
  end &= ~(kPlaceAlign - 1);
  return !overflow;
}

void PlanMaker::add(const Bytes* place, std::size_t end) {
  place_ = place;
  const std::vector<Lifetime>& lives = *lives_;
  const bool one_device = devices_->of.empty();
  // One pass in order of first appearance reads each buffer once, for its
  // placement and for its arena's size.
  for (std::size_t i = added_; i < end; ++i) {
    Bytes last = 0;
    overflow_ |= !end_of(i, last);
    const std::uint32_t arena = one_device ? 0 : devices_->of[i];
    size_[arena] = std::max(size_[arena], last);
    plan_.placements.push_back(
        Placement{schedule_->storage[lives[i].buffer].name, names_[arena], place[i], SourcePos{}});
  }
  added_ = std::max(added_, end);
}

Result<Plan> PlanMaker::finish() && {
  if (overflow_) {
    // The error names the first buffer that overflows, device by device.
    Bytes end = 0;
    for (std::uint32_t d = 0; d < names_.size(); ++d) {
      for (std::size_t j = 0; j < added_; ++j) {
        if (devices_->of_lifetime(j) == d && !end_of(j, end)) {
          return overflow_error(schedule_->storage[(*lives_)[j].buffer], "place + phase + bytes");
        }
      }
    }
  }
  for (std::size_t d = 0; d < names_.size(); ++d) {
    plan_.arenas.push_back({names_[d], devices_->names[d], size_[d], {}});
  }
  return std::move(plan_);
}

// Rule 8: rewrite, the arenas' names. Only storage named "arena" and a
// number K in decimal, written as fmt writes it, takes K.
std::vector<std::string> arena_names(const Schedule& s, std::size_t count) {
  constexpr std::string_view kPrefix = "arena";
  std::unordered_set<std::size_t> used;
  for (const Storage& st : s.storage) {
    const std::string_view name = st.name;
    if (!starts_with_word(name, kPrefix)) continue;
    const std::string_view digits = name.substr(kPrefix.size());
    std::size_t k = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
    const bool canonical = !digits.empty() && (digits.front() != '0' || digits.size() == 1);
    if (error == std::errc{} && end == digits.data() + digits.size() && canonical) used.insert(k);
  }
  std::vector<std::string> out;
  for (std::size_t k = 0; out.size() < count; ++k) {
    if (!used.contains(k)) out.push_back(fmt::format("{}{}", kPrefix, k));
  }
  return out;
}

// Rule 8: rewrite, the schedule.
Result<std::string> rewritten_text(const Schedule& s, const Plan& p) {
  PLANCK_ASSIGN(const Schedule out, rewrite(s, p));
  return print_schedule(out);
}

// Rule 9: no-op.
bool is_no_op(const PlanOptions& options, const Plan& p) {
  return options.no_memory_planner || p.placements.empty();
}

// Rule 10: debug line.
std::string debug_line(const PlanOptions& options, const Schedule& s, const Plan& p) {
  if (options.debug < 1 || p.placements.empty()) return "";
  // The sum of rounded sizes, as the planners take them; a sum that
  // overflows would have failed planning first, so saturating loses nothing.
  Bytes before = 0;
  for (const Placement& pl : p.placements) {
    auto id = s.find(pl.buffer);
    if (!id) continue;
    auto r = rounded_size(s.storage[*id]);
    before = r ? checked_add(before, *r).value_or(UINT64_MAX) : UINT64_MAX;
  }
  Bytes after = 0;
  for (const Arena& a : p.arenas) after = checked_add(after, a.size).value_or(UINT64_MAX);
  if (before == after) return "";
  return fmt::format("memory reduced from {:.2f} MB -> {:.2f} MB, {} -> {} bufs",
                     static_cast<double>(before) / 1e6, static_cast<double>(after) / 1e6,
                     p.placements.size(), p.arenas.size());
}

namespace {

// The reference planner: rules 1 to 7, TLSF over events in order of time.
class TlsfPlanner final : public Planner {
 public:
  std::string_view name() const override { return "tlsf"; }

  Result<Plan> plan(const Schedule& s) const override {
    if (s.storage.size() >= kAlongside && s.storage.size() < Alongside::kAll - 1 &&
        s.entries.size() >= kAlongside / 4) {
      // Declared first, so that the second thread, which reads them, is
      // stopped before they go.
      std::vector<Lifetime> lives;
      std::optional<Alongside> helper;
      try {
        helper.emplace(s);
      } catch (const std::system_error&) {
        // No thread to be had: the plan is made by this one, as below.
      }
      if (helper) return plan_alongside(s, *helper, lives);
    }
    const std::vector<Lifetime> lives = planned_lifetimes(s);  // rules 1 to 3
    if (lives.empty()) return Plan{};
    PLANCK_ASSIGN(SizesAndDevices both, sizes_and_devices(s, lives));  // rules 4 and 5
    const Devices& devices = both.devices;
    std::vector<Bytes>& place = both.sizes;  // the sizes, then the places (run_tlsf)
    PLANCK_ASSIGN(const Bytes capacity, tlsf_capacity(s, lives, place));
    PLANCK_ASSIGN(std::vector<Tlsf> allocators, make_allocators(capacity, devices));
    const CloseLists closing = close_lists(lives, s.entries.size());
    PLANCK_TRY(run_tlsf(s, lives, place, closing, devices, allocators, [](std::size_t) {}));
    return plan_result(s, lives, devices, place);
  }

 private:
  // From this many storage records on (and a quarter as many entries), a
  // second thread takes rules 4, 5 and 7 beside rules 3 and 6 (Alongside).
  static constexpr std::size_t kAlongside = 1 << 15;

  static Result<Plan> plan_alongside(const Schedule& s, Alongside& helper, std::vector<Lifetime>& lives) {
    lifetimes_telling(s, lives, [&helper](const Lifetime* made, std::uint32_t k) { helper.made(made, k); });
    helper.made_all(lives);
    if (lives.empty()) return Plan{};
    const CloseLists closes = close_lists(lives, s.entries.size());
    PLANCK_ASSIGN(Alongside::Prepared* const prepared, helper.prepared());
    const Devices& devices = prepared->sizes.devices;
    PLANCK_ASSIGN(std::vector<Tlsf> allocators, make_allocators(prepared->capacity, devices));
    PLANCK_TRY(run_tlsf(s, lives, prepared->sizes.sizes, closes, devices, allocators,
                        [&helper](std::size_t k) { helper.placed(k); }));
    return helper.plan();
  }
};

}  // namespace

std::unique_ptr<Planner> make_tlsf_planner() { return std::make_unique<TlsfPlanner>(); }

}  // namespace planck
