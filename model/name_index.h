#pragma once
// The first index of each name among a list of names: a hash table with open addressing, each slot 8 bytes, an index and
// part of the name's hash. std::unordered_map reaches an entry through a
// bucket and a node of its own, a few cache misses per name; with a million
// names, as a large schedule and its plan have, those misses were most of the
// time spent resolving a plan, and small slots keep the table in cache as far
// as it goes. The names themselves stay where they are, read by index
// (docs/performance.md#how-the-hot-paths-are-built).
//
// A slot is a cache miss when the table is large, so the batch form,
// emplace_each, asks the memory for the slots of the names a few ahead while
// it works on the current one, and so waits for many misses at once instead
// of one after another. A caller with its own batch does the same with
// key, prefetch, and the lookups that take a Key.
//
// The names are read through NameOf, a callable from an index to its name,
// called on every comparison: the parser passes a plain one, which inlines;
// NameIndex takes any callable, at the price of a std::function call.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "model/huge_pages.h"
#include "model/lexical.h"

namespace planck {

// A hash of a name, for the index below: 8 bytes at a time, each folded in
// by a 128-bit multiply whose halves are xored, so that every input bit
// reaches both the low bits (the slot) and the high ones (the tag). Names
// are short; std::hash's general byte loop cost more than the lookup's own
// work on them.
inline std::uint64_t hash_name(std::string_view name) {
  constexpr std::uint64_t kOdd = 0x9e3779b97f4a7c15;  // 2^64 / golden ratio
  constexpr std::uint64_t kOther = 0xbf58476d1ce4e5b9;
  __extension__ typedef unsigned __int128 Wide;  // a GCC and Clang type, which the multiply needs
  auto fold = [](std::uint64_t a, std::uint64_t b) {
    const Wide product = static_cast<Wide>(a) * b;
    return static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
  };
  auto load = [](const char* p, std::size_t n) {
    std::uint64_t word = 0;
    std::memcpy(&word, p, n);
    return word;
  };
  const char* p = name.data();
  std::size_t left = name.size();
  std::uint64_t h = kOdd ^ name.size();
  for (; left >= 8; p += 8, left -= 8) h = fold(h ^ load(p, 8), kOther);
  // The last 1 to 7 bytes, as two overlapping loads of 4, or single bytes.
  std::uint64_t tail = 0;
  if (left >= 4) {
    tail = load(p, 4) << 32 | load(p + left - 4, 4);
  } else if (left > 0) {
    tail = static_cast<std::uint64_t>(static_cast<unsigned char>(p[0])) << 16 |
           static_cast<std::uint64_t>(static_cast<unsigned char>(p[left / 2])) << 8 |
           static_cast<unsigned char>(p[left - 1]);
  }
  return fold(h ^ tail, kOdd);
}

template <class NameOfIndex>
class BasicNameIndex {
 public:
  // The name of each index, for as long as the index lives.
  using NameOf = NameOfIndex;

  // A name with its hash, worked out once: a batch asks the memory for the
  // name's slot (prefetch) some time before it looks the name up.
  struct Key {
    std::string_view name;
    std::uint64_t hash = 0;
  };
  static Key key(std::string_view name) { return {name, hash_name(name)}; }

  // Room for `capacity` names before the table grows, name_of(k) the name
  // of index k. Indexes are below 2^32 - 1.
  BasicNameIndex(std::size_t capacity, NameOf name_of) : name_of_(std::move(name_of)) {
    std::size_t size = 16;
    while (size < 2 * capacity) size *= 2;
    slots_ = ZeroedArray<Slot>(size);
  }

  // Adds name_of(index) with its index unless the name is there already.
  // Returns the index the name has (index itself, or the earlier one) and
  // whether it was added. The table doubles when it would pass half full.
  std::pair<std::size_t, bool> emplace(std::size_t index) { return emplace(index, key(name_of_(index))); }
  // The same, with the key of name_of(index).
  std::pair<std::size_t, bool> emplace(std::size_t index, const Key& key) {
    std::size_t at = slot_of(key);
    if (slots_[at].entry != 0) return {slots_[at].entry - 1, false};
    if (2 * (count_ + 1) > slots_.size()) {
      grow();
      at = slot_of(key);
    }
    slots_[at] = Slot{tag(key.hash), static_cast<std::uint32_t>(index + 1)};
    ++count_;
    return {index, true};
  }

  // How many names it holds.
  std::size_t size() const { return count_; }

  std::optional<std::size_t> find(std::string_view name) const { return find(key(name)); }
  std::optional<std::size_t> find(const Key& key) const {
    const Slot& slot = slots_[slot_of(key)];
    if (slot.entry == 0) return std::nullopt;
    return slot.entry - 1;
  }

  // Asks the memory for the slot where key's lookup starts, so that a
  // lookup a little later does not wait for it. Only a hint: if the table
  // grows in between, the lookup is as slow as without it. (The home slot
  // is the hash's low bits masked, not the tag's: GCC 12 drops a prefetch
  // whose index it sees cut to 32 bits.)
  void prefetch(const Key& key) const { __builtin_prefetch(&slots_[home(key.hash)]); }

  // added(k, emplace(k).first) for k = 0 .. count - 1, in that order: each
  // index, and the index its name has.
  template <class Added>
  void emplace_each(std::size_t count, Added added) {
    Key ahead[kAhead];  // the keys of names k .. k + kAhead - 1, by k % kAhead
    auto ask = [&](std::size_t k) {
      ahead[k % kAhead] = key(name_of_(k));
      prefetch(ahead[k % kAhead]);
    };
    for (std::size_t k = 0; k < count && k < kAhead; ++k) ask(k);
    for (std::size_t k = 0; k < count; ++k) {
      const Key current = ahead[k % kAhead];
      if (k + kAhead < count) ask(k + kAhead);
      added(k, emplace(k, current).first);
    }
  }

 private:
  // The slot a name starts from is the low bits of its hash, which the
  // tag keeps, so that a table of up to 2^32 slots grows without reading a
  // name: with a million names, reading each in the table's order was a
  // cache miss each.
  struct Slot {
    std::uint32_t tag = 0;    // the hash's low half
    std::uint32_t entry = 0;  // the index + 1; 0 for an empty slot
  };
  // How many names ahead emplace_each asks for their slots.
  static constexpr std::size_t kAhead = 8;

  static std::uint32_t tag(std::uint64_t hash) { return static_cast<std::uint32_t>(hash); }
  std::size_t home(std::uint64_t hash) const { return hash & (slots_.size() - 1); }

  // The slot holding key's name, or the empty slot where it would go.
  std::size_t slot_of(const Key& key) const {
    const std::size_t mask = slots_.size() - 1;
    // Linear probing: at most half the slots are full, so an empty one is near.
    for (std::size_t at = home(key.hash);; at = (at + 1) & mask) {
      const Slot& slot = slots_[at];
      if (slot.entry == 0 || (slot.tag == tag(key.hash) && same_word(name_of_(slot.entry - 1), key.name))) return at;
    }
  }

  // Twice the slots, every name rehashed into them.
  void grow() {
    ZeroedArray<Slot> old(2 * slots_.size());
    std::swap(old, slots_);
    const std::size_t mask = slots_.size() - 1;
    const bool tag_holds_home = mask <= UINT32_MAX;
    for (const Slot& slot : old) {
      if (slot.entry == 0) continue;
      std::size_t at = tag_holds_home ? slot.tag & mask : home(hash_name(name_of_(slot.entry - 1)));
      while (slots_[at].entry != 0) at = (at + 1) & mask;
      slots_[at] = slot;
    }
  }

  NameOf name_of_;
  ZeroedArray<Slot> slots_;  // a power of two, at least twice the names held; all zero is empty
  std::size_t count_ = 0;    // the names held
};

// The index over names that any callable gives.
extern template class BasicNameIndex<std::function<std::string_view(std::size_t)>>;
using NameIndex = BasicNameIndex<std::function<std::string_view(std::size_t)>>;

}  // namespace planck
