// The rules of docs/planners.md#the-reference-planner-tlsf, in their order (rules.h says what each
// gives). Rule 1 is rules.h's for_each_taken, which every other rule walks
// the entries by.

#include "planner/rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <numeric>
#include <system_error>
#include <unordered_set>

#include "model/huge_pages.h"
#include "model/lexical.h"
#include "model/live_bytes.h"

namespace planck {

// Rule 2: what is planned.
bool is_plannable(const Storage& s) {
  return s.kind == StorageKind::Buffer && !s.held && !is_disk(s.device);
}

namespace {

// Rule 3: lifetimes. An entry's storage is walked with its repeats: a
// repeat sets the lifetime's end to the entry it already ends at, and the
// first take of each storage comes in the order of rule 1, so no entry's
// list of storage needs to be made. made(lives, k) is told, now and then,
// that lifetimes [0, k) are made (RuleProgress::made); a planner that tells
// no one has the test of when to tell compiled away.
//
// A planned input or state lives from entry 0 and a planned output or state
// to the last entry (docs/model-v2.md): the lifetimes are stretched once the
// walk is done, and whether any buffer has such a word is returned. Those
// told of a lifetime early see its first take, not its stretched start.
template <class Made>
bool lifetimes_telling(const Schedule& s, std::vector<Lifetime>& out, Made&& made) {
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
  std::uint8_t io = 0;  // the io words of the planned buffers, together
  auto take = [&count, &io, at_of = index.data(), lives = out.data(), &storage = s.storage, &made](
                  StorageId id, std::size_t e) __attribute__((always_inline)) {
    const std::uint32_t at = at_of[id];
    if (at < kNotPlanned) [[likely]] {
      lives[at].last = e;
    } else if (at == kUnseen) {
      if (is_plannable(storage[id])) {
        io |= storage[id].io;
        at_of[id] = count;
        lives[count++] = {id, e, e};
        if ((count & (kMadeEvery - 1)) == 0) made(static_cast<const Lifetime*>(lives), count);
      } else {
        at_of[id] = kNotPlanned;
      }
    }
  };
  // The entry's number by value: a store of a lifetime's end could else be
  // taken to change it.
  auto take_entry = [&](const Entry& entry, std::size_t e) __attribute__((always_inline)) {
    for_each_taken(entry, [&take, e](StorageId id) __attribute__((always_inline)) { take(id, e); });
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
  if (io == 0) return false;
  for (Lifetime& life : out) {
    const Storage& b = s.storage[life.buffer];
    if (lives_from_start(b)) life.first = 0;
    if (lives_to_end(b)) life.last = entry_count - 1;
  }
  return true;
}

}  // namespace

std::vector<Lifetime> planned_lifetimes(const Schedule& s) {
  std::vector<Lifetime> out;
  lifetimes_telling(s, out, [](const Lifetime*, std::uint32_t) {});
  return out;
}

bool planned_lifetimes(const Schedule& s, std::vector<Lifetime>& out) {
  return lifetimes_telling(s, out, [](const Lifetime*, std::uint32_t) {});
}

bool planned_lifetimes(const Schedule& s, std::vector<Lifetime>& out, RuleProgress& progress) {
  return lifetimes_telling(s, out, [&progress](const Lifetime* lives, std::uint32_t k) { progress.made(lives, k); });
}

// Rules 4 and 5: sizes and arenas, one record at a time.
void SizesAndDevicesMaker::add(const Schedule& s, const Lifetime* lives, std::size_t end) {
  for (std::size_t i = added(); i < end; ++i) {
    const Storage& b = s.storage[lives[i].buffer];
    const Bytes unit = unit_of(s, b.device, rounding_);
    // round_up(x, unit) overflows exactly when x + unit - 1 does.
    Bytes sum = 0;
    Bytes padded = 0;
    overflow_ |= __builtin_add_overflow(b.phase, b.bytes, &sum);
    overflow_ |= __builtin_add_overflow(sum, unit - 1, &padded);
    out_.sizes.push_back(padded & ~(unit - 1));
    // Most schedules plan for one device: until a buffer on another, the
    // device is only compared with the first, and no list is kept.
    if (first_ == nullptr) {
      first_ = &b.device;
      out_.devices.names.push_back(b.device);
    } else if (!out_.devices.of.empty() || !(b.device == *first_)) [[unlikely]] {
      add_device(b.device);
    }
  }
}

// The device of the buffer just added, when there is more than one.
void SizesAndDevicesMaker::add_device(const Name& device) {
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

Result<SizesAndDevices> SizesAndDevicesMaker::finish(const Schedule& s, const std::vector<Lifetime>& lives) && {
  if (overflow_) {
    for (const Lifetime& l : lives) {
      const Storage& b = s.storage[l.buffer];
      PLANCK_TRY(rounded_size(b, unit_of(s, b.device, rounding_)));
    }
  }
  return std::move(out_);
}

Result<SizesAndDevices> sizes_and_devices(const Schedule& s, const std::vector<Lifetime>& lives,
                                          Rounding rounding) {
  SizesAndDevicesMaker maker(lives.size(), rounding);
  maker.add(s, lives.data(), lives.size());
  return std::move(maker).finish(s, lives);
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

// Rule 5: the capacity.
Result<Bytes> tlsf_capacity(const Schedule& s, const std::vector<Lifetime>& lives,
                            const std::vector<Bytes>& sizes) {
  Bytes total = 0;
  const bool v1_units = s.devices.empty();  // every block 256 bytes: no buffer's device is read
  for (std::size_t i = 0; i < lives.size(); ++i) {
    const Bytes unit = v1_units ? kPlaceAlign : unit_of(s, s.storage[lives[i].buffer].device, Rounding::TlsfBlocks);
    auto sum = checked_add(total, std::max(unit, sizes[i]));
    if (!sum) return overflow_error(s.storage[lives[i].buffer], "the sum of planned sizes");
    total = *sum;
  }
  auto doubled = checked_mul(total, 2);
  if (!doubled) return overflow_error(s.storage[lives.back().buffer], "twice the sum of planned sizes");
  return *doubled;
}

// Rule 5: the allocators.
Result<std::vector<Tlsf>> make_allocators(const Schedule& s, Bytes capacity, const std::vector<Name>& devices) {
  std::vector<Tlsf> out;
  for (const Name& device : devices) {
    PLANCK_ASSIGN(Tlsf tlsf, Tlsf::create(capacity, unit_of(s, device, Rounding::TlsfBlocks), kTlsfSecondLevel));
    out.push_back(std::move(tlsf));
  }
  return out;
}

// Rule 6: order of events.
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

namespace {

// The run of rule 6. Each size, read once by its open, gives way to the
// buffer's place. kOneDevice: every buffer uses the first allocator.
template <bool kOneDevice>
Status run_tlsf_on(const Schedule& s, const std::vector<Lifetime>& lives, std::vector<Bytes>& place,
                   const CloseLists& closes, const Devices& devices, std::vector<Tlsf>& allocators,
                   RuleProgress& progress) {
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
    if ((i & (kPlacedEvery - 1)) == 0) progress.placed(i);
    const Bytes size = at[i];
    const Tlsf::Allocation made = tlsf_of(i).alloc_block(size);
    if (!made.found()) [[unlikely]] return outgrew_arena(s, life[i], size);
    at[i] = made.start;
    block_of[i] = made.block;
  }
  progress.placed(lives.size());
  return Ok{};
}

}  // namespace

// Rule 6: the run.
Status run_tlsf(const Schedule& s, const std::vector<Lifetime>& lives, std::vector<Bytes>& place,
                const CloseLists& closes, const Devices& devices, std::vector<Tlsf>& allocators,
                RuleProgress& progress) {
  if (devices.of.empty()) return run_tlsf_on<true>(s, lives, place, closes, devices, allocators, progress);
  return run_tlsf_on<false>(s, lives, place, closes, devices, allocators, progress);
}

namespace {

// Rule 7's capacities (docs/model-v2.md#devices): the error of a plan whose
// arenas on some device add up to more than its `device` line allows.
Status check_capacities(const Schedule& s, const Plan& p) {
  for (const Device& d : s.devices) {
    if (!d.capacity) continue;
    const Bytes total = arena_total(p, d.name).value_or(~Bytes{0});
    if (total > *d.capacity) {
      return Error{"",
                   fmt::format("the plan needs {} bytes of arenas on device {}, more than its capacity of {}", total,
                               d.name, *d.capacity),
                   kOverCapacity};
    }
  }
  return Ok{};
}

}  // namespace

// Rule 7: result.
Result<Plan> plan_result(const Schedule& s, const std::vector<Lifetime>& lives, const Devices& devices,
                         const std::vector<Bytes>& place, Rounding rounding) {
  PlanMaker maker(s, lives, devices, rounding);
  maker.add(place.data(), lives.size());
  return std::move(maker).finish();
}

PlanMaker::PlanMaker(const Schedule& s, const std::vector<Lifetime>& lives, const Devices& devices,
                     Rounding rounding)
    : schedule_(&s), lives_(&lives), devices_(&devices), rounding_(rounding), size_(devices.names.size(), 0) {
  const std::vector<std::string> texts = arena_names(s, devices.names.size());
  names_.assign(texts.begin(), texts.end());
  plan_.placements.reserve(lives.size());
  advise_huge_pages(plan_.placements);
}

bool PlanMaker::end_of(std::size_t i, Bytes& end) const {
  const Storage& b = schedule_->storage[(*lives_)[i].buffer];
  const Bytes unit = unit_of(*schedule_, b.device, rounding_);
  // round_up(x, unit) overflows exactly when x + unit - 1 does.
  bool overflow = __builtin_add_overflow(place_[i], b.phase, &end);
  overflow |= __builtin_add_overflow(end, b.bytes, &end);
  overflow |= __builtin_add_overflow(end, unit - 1, &end);
  end &= ~(unit - 1);
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
  if (!schedule_->devices.empty()) PLANCK_TRY(check_capacities(*schedule_, plan_));
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

Error outgrew_arena(const Schedule& s, const Lifetime& life, Bytes size) {
  const Storage& b = s.storage[life.buffer];
  return Error{"", fmt::format("the memory plan outgrew its arena: buffer {} ({} bytes rounded) on {} at entry {}",
                               b.name, size, b.device, life.first)};
}

}  // namespace planck
