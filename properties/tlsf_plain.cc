#include "properties/tlsf_plain.h"

#include <fmt/format.h>

#include <algorithm>

namespace planck::props {

int model_bitlen(Bytes x) {
  int n = 0;
  for (; x != 0; x >>= 1) ++n;
  return n;
}

// ------------------------------------------------------------ docs/planners.md#the-tlsf-allocator

ModelTlsf::ModelTlsf(Bytes capacity, Bytes block_size, Bytes second_level)
    : capacity_(capacity), block_size_(block_size), l_(model_bitlen(second_level)) {
  if (capacity_ != 0) {
    blocks_.push_back({0, capacity_, false, 0});
    append(blocks_.back());
  }
}

// bin(s) = (l1, l2), l1 = bitlen(s), l2 = (s - 2^(l1-1)) >> max(0, l1 - L).
ModelTlsf::Bin ModelTlsf::bin(Bytes s) const {
  const int l1 = model_bitlen(s);
  if (l1 == 0) return {0, 0};
  return {l1, (s - (Bytes{1} << (l1 - 1))) >> std::max(0, l1 - l_)};
}

Result<std::optional<Bytes>> ModelTlsf::alloc(Bytes r) {
  const Bytes need = std::max(block_size_, r);
  const int shift = model_bitlen(need) - l_;
  std::optional<Bytes> s = checked_round_up(need, Bytes{1} << std::max(0, shift));
  if (!s) return std::optional<Bytes>{};
  // The search visits the bins in order of (l1, l2), from bin(s) on: every
  // bin a free block can be in comes at or after bin(s) in that order, since
  // l1 <= bitlen(S) and l2 < 2^L always hold. So the block it takes is, among
  // the free blocks whose bin is at or after bin(s), the one in the first bin,
  // and in that bin the one appended first.
  const Bin from = bin(*s);
  auto at_or_after = [&](const Bin& b) { return b.l1 > from.l1 || (b.l1 == from.l1 && b.l2 >= from.l2); };
  std::optional<std::size_t> taken;
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    const Block& b = blocks_[i];
    if (b.used || !at_or_after(bin(b.size))) continue;
    if (!taken) {
      taken = i;
      continue;
    }
    const Bin here = bin(b.size);
    const Bin best = bin(blocks_[*taken].size);
    const bool earlier_bin = here.l1 < best.l1 || (here.l1 == best.l1 && here.l2 < best.l2);
    const bool same_bin = here.l1 == best.l1 && here.l2 == best.l2;
    if (earlier_bin || (same_bin && b.appended < blocks_[*taken].appended)) taken = i;
  }
  if (!taken) return std::optional<Bytes>{};

  Block& b = blocks_[*taken];
  if (b.size < need) {
    return Error{
        "", fmt::format("the search took a free block of {} bytes at {} for a request of {}", b.size, b.start, need)};
  }
  const Bytes start = b.start;
  b.used = true;
  if (b.size > need) {
    Block rest{start + need, b.size - need, false, 0};
    append(rest);
    b.size = need;
    blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(*taken) + 1, rest);
  }
  return std::optional<Bytes>{start};
}

bool ModelTlsf::free(Bytes addr) {
  auto it = std::find_if(blocks_.begin(), blocks_.end(), [&](const Block& b) { return b.start == addr && b.used; });
  if (it == blocks_.end()) return false;
  it->used = false;
  append(*it);
  // From the leftmost free block of the run, merge rightward.
  std::size_t i = static_cast<std::size_t>(it - blocks_.begin());
  while (i > 0 && !blocks_[i - 1].used) --i;
  while (i + 1 < blocks_.size() && !blocks_[i + 1].used) {
    blocks_[i].size += blocks_[i + 1].size;
    blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    append(blocks_[i]);
  }
  return true;
}

// ------------------------------------------------------ docs/planners.md#the-reference-planner-tlsf, 1-3

namespace {

void take(const Arg& a, std::vector<StorageId>& out) {
  const Arg* base = &a;
  while (base->view) base = &base->view->base;
  if (std::find(out.begin(), out.end(), base->storage) == out.end()) out.push_back(base->storage);
}

void take(const Entry& e, std::vector<StorageId>& out) {
  for (const Arg& a : e.args) take(a, out);
  for (const Entry& inner : e.body()) take(inner, out);
  for (const Arg& a : e.flag()) take(a, out);
}

bool planned_kind(const Storage& st) {
  return st.kind == StorageKind::Buffer && !st.held && !st.device.starts_with("DISK");
}

Error overflow(const Storage& st, std::string_view what) {
  return Error{"", fmt::format("byte count overflow at buffer {}: {}", st.name, what)};
}

}  // namespace

std::vector<StorageId> model_taken(const Entry& e) {
  std::vector<StorageId> out;
  take(e, out);
  return out;
}

std::vector<Lifetime> model_lifetimes(const Schedule& s) {
  std::vector<Lifetime> out;
  for (std::size_t entry = 0; entry < s.entries.size(); ++entry) {
    for (StorageId id : model_taken(s.entries[entry])) {
      if (!planned_kind(s.storage[id])) continue;
      auto known = std::find_if(out.begin(), out.end(), [&](const Lifetime& l) { return l.buffer == id; });
      if (known == out.end()) {
        out.push_back({id, entry, entry});
      } else {
        known->last = entry;
      }
    }
  }
  return out;
}

// ------------------------------------------------------ docs/planners.md#the-reference-planner-tlsf, 4-8

std::vector<ModelEvent> model_events(const std::vector<std::pair<std::size_t, std::size_t>>& times,
                                     AtEqualTimes order) {
  std::vector<ModelEvent> events;
  for (std::size_t i = 0; i < times.size(); ++i) events.push_back({times[i].first, true, i});
  for (std::size_t i = 0; i < times.size(); ++i) events.push_back({times[i].second, false, i});
  const bool open_first = order == AtEqualTimes::OpenFirst;
  std::stable_sort(events.begin(), events.end(), [&](const ModelEvent& a, const ModelEvent& b) {
    if (a.time != b.time) return a.time < b.time;
    return a.open != b.open && a.open == open_first;
  });
  return events;
}

Result<Plan> model_plan(const Schedule& s) {
  const std::vector<Lifetime> lives = model_lifetimes(s);
  Plan plan;
  if (lives.empty()) return plan;

  // Rule 4.
  std::vector<Bytes> rounded;
  for (const Lifetime& l : lives) {
    const Storage& b = s.storage[l.buffer];
    std::optional<Bytes> r = checked_add(b.phase, b.bytes);
    if (r) r = checked_round_up(*r, 256);
    if (!r) return overflow(b, "its rounded size");
    rounded.push_back(*r);
  }

  // Rule 5: the capacity of every device's allocator.
  Bytes total = 0;
  for (std::size_t i = 0; i < lives.size(); ++i) {
    std::optional<Bytes> sum = checked_add(total, std::max<Bytes>(256, rounded[i]));
    if (!sum) return overflow(s.storage[lives[i].buffer], "the sum of planned sizes");
    total = *sum;
  }
  std::optional<Bytes> capacity = checked_mul(total, 2);
  if (!capacity) return overflow(s.storage[lives.back().buffer], "twice the sum");

  // Rule 6: opens, then closes, stably sorted by time, a close first at equal times.
  std::vector<std::pair<std::size_t, std::size_t>> times;
  for (const Lifetime& l : lives) times.push_back({l.first, l.last + 1});

  std::vector<std::string> devices;
  std::vector<ModelTlsf> allocators;
  std::vector<Bytes> place(lives.size(), 0);
  for (const ModelEvent& ev : model_events(times)) {
    const Storage& b = s.storage[lives[ev.life].buffer];
    auto device = std::find(devices.begin(), devices.end(), b.device);
    if (device == devices.end()) {
      devices.push_back(b.device);
      allocators.emplace_back(*capacity, 256, 32);
      device = devices.end() - 1;
    }
    ModelTlsf& tlsf = allocators[static_cast<std::size_t>(device - devices.begin())];
    if (!ev.open) {
      if (!tlsf.free(place[ev.life])) return Error{"", fmt::format("free of {} failed", b.name)};
      continue;
    }
    Result<std::optional<Bytes>> at = tlsf.alloc(rounded[ev.life]);
    if (!at) return at.error();
    if (!*at) return Error{"", fmt::format("the memory plan outgrew its arena: buffer {}", b.name)};
    place[ev.life] = **at;
  }

  // Rule 7.
  std::vector<Bytes> arena(devices.size(), 0);
  for (std::size_t i = 0; i < lives.size(); ++i) {
    const Storage& b = s.storage[lives[i].buffer];
    std::optional<Bytes> end = checked_add(place[i], b.phase);
    if (end) end = checked_add(*end, b.bytes);
    if (end) end = checked_round_up(*end, 256);
    if (!end) return overflow(b, "its end in the arena");
    const std::size_t d =
        static_cast<std::size_t>(std::find(devices.begin(), devices.end(), b.device) - devices.begin());
    arena[d] = std::max(arena[d], *end);
  }

  // Rule 8: arenaK, K the smallest numbers no storage is named by.
  std::vector<std::string> names;
  for (std::size_t k = 0; names.size() < devices.size(); ++k) {
    std::string name = fmt::format("arena{}", k);
    if (!s.find(name)) names.push_back(std::move(name));
  }
  for (std::size_t d = 0; d < devices.size(); ++d) plan.arenas.push_back({names[d], devices[d], arena[d], {}});
  for (std::size_t i = 0; i < lives.size(); ++i) {
    const Storage& b = s.storage[lives[i].buffer];
    const std::size_t d =
        static_cast<std::size_t>(std::find(devices.begin(), devices.end(), b.device) - devices.begin());
    plan.placements.push_back({b.name, names[d], place[i], {}});
  }
  return plan;
}

}  // namespace planck::props
