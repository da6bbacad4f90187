#include "model/name_index.h"


namespace planck {

NameIndex::NameIndex(const std::vector<Storage>& storage) : storage_(storage), slots_(64) {}

// FNV-1a: names are short, and a few multiplies cost less than the
// library's hash of a string; the high half is folded into the low bits
// that pick the slot.
std::uint32_t NameIndex::hash_of(std::string_view name) {
  std::uint64_t h = 0xcbf29ce484222325;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3;
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

std::optional<StorageId> NameIndex::find(std::string_view name) const {
  const std::uint32_t hash = hash_of(name);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.id == kEmpty) return std::nullopt;
    if (slot.hash == hash && storage_[slot.id].name == name) return slot.id;
  }
}

void NameIndex::add(StorageId id) {
  if (2 * (count_ + 1) > slots_.size()) grow();
  const std::uint32_t hash = hash_of(storage_[id].name);
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = hash & mask;
  while (slots_[i].id != kEmpty) i = (i + 1) & mask;
  slots_[i] = {hash, id};
  ++count_;
}

void NameIndex::grow() {
  std::vector<Slot> old(2 * slots_.size());
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.id == kEmpty) continue;
    std::size_t i = slot.hash & mask;
    while (slots_[i].id != kEmpty) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

}  // namespace planck
