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
  Slot& slot = slots_[slot_of(name_of_(index), hash)];
  if (slot.entry != 0) return {slot.entry - 1, false};
  slot = Slot{tag(hash), static_cast<std::uint32_t>(index + 1)};
  return {index, true};
}

std::optional<std::size_t> NameIndex::find(std::string_view name) const {
  const Slot& slot = slots_[slot_of(name, hash(name))];
  if (slot.entry == 0) return std::nullopt;
  return slot.entry - 1;
}

}  // namespace planck
