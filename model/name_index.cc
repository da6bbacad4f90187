#include "model/name_index.h"

namespace planck {

NameIndex::NameIndex(std::size_t capacity, NameOf name_of) : name_of_(std::move(name_of)) {
  std::size_t size = 16;
  while (size < 2 * capacity) size *= 2;
  slots_.resize(size);
}

std::size_t NameIndex::slot_of(std::string_view name, std::uint64_t hash) const {
  const std::size_t mask = slots_.size() - 1;
  // Linear probing: at most half the slots are full, so an empty one is near.
  for (std::size_t at = home(hash);; at = (at + 1) & mask) {
    const Slot& slot = slots_[at];
    if (slot.entry == 0 || (slot.tag == tag(hash) && name_of_(slot.entry - 1) == name)) return at;
  }
}

std::pair<std::size_t, bool> NameIndex::emplace(std::size_t index, std::uint64_t hash) {
  std::size_t at = slot_of(name_of_(index), hash);
  if (slots_[at].entry != 0) return {slots_[at].entry - 1, false};
  if (2 * (count_ + 1) > slots_.size()) {
    grow();
    at = slot_of(name_of_(index), hash);
  }
  slots_[at] = Slot{tag(hash), static_cast<std::uint32_t>(index + 1)};
  ++count_;
  return {index, true};
}

void NameIndex::grow() {
  std::vector<Slot> old(2 * slots_.size());
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.entry == 0) continue;
    std::size_t at = home(hash(name_of_(slot.entry - 1)));
    while (slots_[at].entry != 0) at = (at + 1) & mask;
    slots_[at] = slot;
  }
}

std::optional<std::size_t> NameIndex::find(std::string_view name) const {
  const Slot& slot = slots_[slot_of(name, hash(name))];
  if (slot.entry == 0) return std::nullopt;
  return slot.entry - 1;
}

}  // namespace planck
