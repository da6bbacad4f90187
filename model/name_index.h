#pragma once
// The storage of a schedule by name, for the .sched parser, which looks up
// every argument of every call: a table of (hash, id) slots, open addressing
// with linear probing, at most half full. A lookup reads one or two slots
// and compares the name of the storage only when its hash matches, so a
// schedule of a million names costs a few cache misses per lookup where a
// node-based map costs several.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/schedule.h"

namespace planck {

class NameIndex {
 public:
  // Indexes storage by name; `storage` must outlive the index.
  explicit NameIndex(const std::vector<Storage>& storage);

  // The storage of that name, if it was added.
  std::optional<StorageId> find(std::string_view name) const;

  // Adds storage[id] under its name, which must not be in the index yet.
  void add(StorageId id);

 private:
  static constexpr StorageId kEmpty = ~StorageId{0};
  struct Slot {
    std::uint32_t hash = 0;  // the low bits of the name's hash
    StorageId id = kEmpty;
  };

  static std::uint32_t hash_of(std::string_view name);
  void grow();

  const std::vector<Storage>& storage_;
  std::vector<Slot> slots_;  // a power of two of them
  std::size_t count_ = 0;
};

}  // namespace planck
