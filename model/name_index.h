#pragma once
// The first index of each name among a list of names: a hash table with open addressing, each slot 8 bytes, an index and
// part of the name's hash. std::unordered_map reaches an entry through a
// bucket and a node of its own, a few cache misses per name; with a million
// names, as a large schedule and its plan have, those misses were most of the
// time spent resolving a plan, and small slots keep the table in cache as far
// as it goes. The names themselves stay where they are, read by index.
//
// A slot is a cache miss when the table is large, so the batch form,
// emplace_each, asks the memory for the slots of the names a few ahead while
// it works on the current one, and so waits for many misses at once instead
// of one after another.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace planck {

class NameIndex {
 public:
  // The name of each index, for as long as the index lives.
  using NameOf = std::function<std::string_view(std::size_t)>;

  // Room for `capacity` names before the table grows, name_of(k) the name
  // of index k. Indexes are below 2^32 - 1.
  NameIndex(std::size_t capacity, NameOf name_of);

  // Adds name_of(index) with its index unless the name is there already.
  // Returns the index the name has (index itself, or the earlier one) and
  // whether it was added. The table doubles when it would pass half full.
  std::pair<std::size_t, bool> emplace(std::size_t index) { return emplace(index, hash(name_of_(index))); }

  std::optional<std::size_t> find(std::string_view name) const;

  // added(k, emplace(k).first) for k = 0 .. count - 1, in that order: each
  // index, and the index its name has.
  template <class Added>
  void emplace_each(std::size_t count, Added added) {
    std::uint64_t ahead[kAhead];  // the hashes of names k .. k + kAhead - 1, by k % kAhead
    auto ask = [&](std::size_t k) {
      ahead[k % kAhead] = hash(name_of_(k));
      __builtin_prefetch(&slots_[home(ahead[k % kAhead])]);
    };
    for (std::size_t k = 0; k < count && k < kAhead; ++k) ask(k);
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint64_t h = ahead[k % kAhead];
      if (k + kAhead < count) ask(k + kAhead);
      added(k, emplace(k, h).first);
    }
  }

 private:
  struct Slot {
    std::uint32_t tag = 0;    // the hash's high half
    std::uint32_t entry = 0;  // the index + 1; 0 for an empty slot
  };
  // How many names ahead emplace_each asks for their slots.
  static constexpr std::size_t kAhead = 8;

  static std::uint64_t hash(std::string_view name) { return std::hash<std::string_view>{}(name); }
  static std::uint32_t tag(std::uint64_t hash) { return static_cast<std::uint32_t>(hash >> 32); }
  std::size_t home(std::uint64_t hash) const { return hash & (slots_.size() - 1); }

  std::pair<std::size_t, bool> emplace(std::size_t index, std::uint64_t hash);
  // Twice the slots, every name rehashed into them.
  void grow();
  // The slot holding name, or the empty slot where it would go.
  std::size_t slot_of(std::string_view name, std::uint64_t hash) const;

  NameOf name_of_;
  std::vector<Slot> slots_;  // a power of two, at least twice the names held
  std::size_t count_ = 0;    // the names held
};

}  // namespace planck
