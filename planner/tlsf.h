#pragma once
// The TLSF allocator with the reference semantics of docs/planners.md#the-tlsf-allocator, bit for
// bit: the same calls give the same addresses, quirks included (a request is
// rounded up to its bin's size before the search, so it can fail while an
// exact-size free block exists; bins are FIFO queues).

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "model/result.h"
#include "model/schedule.h"

namespace planck {

// bitlen(x): the number of bits of x; bitlen(0) = 0, bitlen(256) = 9.
inline int bitlen(Bytes x) { return std::bit_width(x); }

class Tlsf {
 public:
  struct Bin {
    int l1 = 0;
    int l2 = 0;
    friend bool operator==(const Bin&, const Bin&) = default;
  };

  // Capacity S, block size B, second-level count C. Needs 1 <= C <= 127
  // (so that the bins one level can reach, 2^(bitlen(C)-1), fit one 64-bit
  // bitmap) and bitlen(B) >= bitlen(C); S may be 0 (every alloc then fails).
  static Result<Tlsf> create(Bytes capacity, Bytes block_size, Bytes second_level);

  // bin(s) = (bitlen(s), (s - 2^(l1-1)) >> max(0, l1 - L)) for s >= 1.
  Bin bin(Bytes s) const {
    if (s == 0) return {0, 0};
    const int l1 = bitlen(s);
    const Bytes offset = s - (Bytes{1} << (l1 - 1));
    return {l1, static_cast<int>(offset >> std::max(0, l1 - l_))};
  }

  // Names a used block from its alloc to its free (a block's id stays the
  // same while it is used; once freed, the id may name another block).
  using BlockId = std::uint32_t;

  // No block: what alloc_block gives when its search finds no free block.
  static constexpr BlockId kNoBlock = ~BlockId{0};

  // A new used block: where it starts and its id, for free_block; or
  // kNoBlock. Two words, which come back in registers.
  struct Allocation {
    Bytes start = 0;
    BlockId block = kNoBlock;

    bool found() const { return block != kNoBlock; }
  };

  // A new used block of max(B, r) bytes, or no block when the search finds
  // no free block.
  Allocation alloc_block(Bytes r);
  // alloc_block's start alone.
  std::optional<Bytes> alloc(Bytes r);

  // Frees the used block that starts at addr and merges it with its free
  // neighbours. An address that starts no used block is an error. The first
  // call indexes every block by its start (O(blocks)); from then on blocks
  // are indexed as they are made, and each call is one lookup.
  Status free(Bytes addr);
  // Frees the used block with this id, as free(its start) does, with no
  // lookup. An id that names no used block is an error.
  Status free_block(BlockId id) {
    // A dropped id is on the list of dropped ids and was marked free when its block merged.
    if (id >= blocks_.size() || !blocks_[id].used) return no_used_block(id);
    release(id);
    return Ok{};
  }

  struct Block {
    Bytes start = 0;
    Bytes size = 0;
    bool used = false;
  };
  // Every block, in address order; they cover [0, capacity).
  std::vector<Block> blocks() const;
  // The free blocks of one bin, front of the queue first.
  std::vector<Bytes> bin_queue(Bin b) const;

  Bytes capacity() const { return capacity_; }

 private:
  static constexpr BlockId kNone = kNoBlock;
  // The block at address 0, made first; it is never merged into a left
  // neighbour, so it keeps its id.
  static constexpr BlockId kFirst = 0;

  // A block; its neighbours in address order are linked by id, so that
  // merging it with a neighbour is O(1) with no lookup. A free block keeps
  // the index of its bin, so that taking it out needs no search. The state
  // is plain values (copies stay valid).
  struct BlockState {
    Bytes start = 0;
    Bytes size = 0;
    BlockId left = kNone;   // the block before it in address order
    BlockId right = kNone;  // the block after it; for a dropped id, the next dropped id
    std::uint32_t bin = 0;  // free only: bin_index of its bin
    bool used = false;
  };
  // The bins' queues are circular lists through one array of links: node
  // b < bin_count_ is the head of bin b's queue, node bin_count_ + id is
  // block id while it is free, so that appending and taking out are the
  // same few stores whatever the queue holds.
  struct Link {
    std::uint32_t prev = 0;
    std::uint32_t next = 0;
  };

  Tlsf(Bytes capacity, Bytes block_size, int second_level_bits);

  [[gnu::always_inline]] std::size_t bin_index(Bin b) const;
  // bin_index of the first non-empty bin at or after `from` in search
  // order, or kNoBin.
  static constexpr std::uint32_t kNoBin = ~std::uint32_t{0};
  [[gnu::always_inline]] std::uint32_t find_bin(Bin from) const;
  // A new block at `start` between the blocks left and right (or kNone),
  // found by its start from then on; its neighbours are not told.
  [[gnu::always_inline]] BlockId new_block(Bytes start, Bytes size, BlockId left, BlockId right);
  // A new id past the others, for new_block when no dropped id is left.
  BlockId add_id();
  // Fills starting_ from the blocks in address order.
  void index_starts();
  // Forgets a block merged into its left neighbour; its id is reused.
  [[gnu::always_inline]] void drop_block(BlockId id);
  // free_block of a used block.
  void release(BlockId id);
  // Merges the block after id into id and drops it.
  [[gnu::always_inline]] void absorb_right(BlockId id);
  // The error of free_block for an id that names no used block.
  static Error no_used_block(BlockId id);
  // Appends a free block to the back of its bin's queue.
  [[gnu::always_inline]] void insert_free(BlockId id);
  // Takes a free block out of its bin's queue.
  [[gnu::always_inline]] void remove_free(BlockId id);

  Bytes capacity_;
  Bytes block_size_;
  int l_;          // L = bitlen(C)
  int max_l1_;     // bitlen(capacity)
  int l2_count_;   // second-level bins a level can reach: 2^(L-1)
  int l2_shift_;   // L - 1: a level's bins are l1 << l2_shift_ | l2
  std::vector<BlockState> blocks_;  // by id; ids of dropped blocks are reused
  // The last id dropped, the first a new block takes; the others follow
  // through BlockState::right.
  BlockId dropped_ = kNone;
  // The block that starts at each address; kept only once free(addr) was
  // called, since callers of free_block never need it.
  std::unordered_map<Bytes, BlockId> starting_;
  bool indexed_ = false;  // whether starting_ is kept
  std::uint32_t bin_count_;             // (max_l1_ + 1) * l2_count_ bins
  std::vector<Link> links_;             // bin_count_ heads, then one node per block id
  std::vector<std::uint64_t> l2_bits_;  // per l1: bit l2 set iff that queue is non-empty
  std::uint64_t l1_bits_ = 0;           // bit l1 - 1 set iff level l1 holds a free block
};

// The calls the planners make for every buffer, inline, so that a planner's
// loop and the allocator's bookkeeping compile as one. The algorithm and its
// sources are described in tlsf.cc.

inline std::size_t Tlsf::bin_index(Bin b) const {
  return (static_cast<std::size_t>(b.l1) << l2_shift_) | static_cast<std::size_t>(b.l2);
}

inline Tlsf::BlockId Tlsf::new_block(Bytes start, Bytes size, BlockId left, BlockId right) {
  BlockId id = dropped_;
  if (id == kNone) [[unlikely]] {
    id = add_id();
  } else {
    dropped_ = blocks_[id].right;
  }
  blocks_[id] = {.start = start, .size = size, .left = left, .right = right};
  if (indexed_) [[unlikely]] starting_[start] = id;
  return id;
}

inline void Tlsf::drop_block(BlockId id) {
  if (indexed_) [[unlikely]] starting_.erase(blocks_[id].start);
  blocks_[id].right = dropped_;
  dropped_ = id;
}

inline void Tlsf::insert_free(BlockId id) {
  BlockState& block = blocks_[id];
  const Bin b = bin(block.size);
  const auto head = static_cast<std::uint32_t>(bin_index(b));
  block.bin = head;
  const std::uint32_t node = bin_count_ + id;
  const std::uint32_t back = links_[head].prev;
  links_[node] = {back, head};
  links_[back].next = node;
  links_[head].prev = node;
  l2_bits_[b.l1] |= std::uint64_t{1} << b.l2;
  l1_bits_ |= std::uint64_t{1} << (b.l1 - 1);
}

inline void Tlsf::remove_free(BlockId id) {
  const Link link = links_[bin_count_ + id];
  links_[link.prev].next = link.next;
  links_[link.next].prev = link.prev;
  // The queue is empty now when the block was its only node, whose
  // neighbours on both sides were the head.
  if (link.prev == link.next) {
    const std::uint32_t bin = blocks_[id].bin;
    const std::uint32_t l1 = bin >> l2_shift_;
    const std::uint32_t l2 = bin & static_cast<std::uint32_t>(l2_count_ - 1);
    std::uint64_t& level = l2_bits_[l1];
    level &= ~(std::uint64_t{1} << l2);
    l1_bits_ &= ~(std::uint64_t{level == 0} << (l1 - 1));
  }
}

inline std::uint32_t Tlsf::find_bin(Bin from) const {
  if (from.l1 > max_l1_) return kNoBin;
  const auto index = [this](int l1, int l2) { return static_cast<std::uint32_t>(bin_index({l1, l2})); };
  // At the request's own level the search starts at its l2 ...
  // from.l2 < 2^(L-1) <= 64.
  if (std::uint64_t here = l2_bits_[from.l1] & (~std::uint64_t{0} << from.l2); here != 0) {
    return index(from.l1, std::countr_zero(here));
  }
  // ... and at every higher level at l2 = 0. Bit l1 - 1 stands for level l1,
  // so the levels above from.l1 are the bits from index from.l1 on.
  std::uint64_t above = from.l1 >= 64 ? 0 : l1_bits_ & (~std::uint64_t{0} << from.l1);
  if (above == 0) return kNoBin;
  int l1 = std::countr_zero(above) + 1;
  return index(l1, std::countr_zero(l2_bits_[l1]));
}

inline Tlsf::Allocation Tlsf::alloc_block(Bytes r) {
  const Bytes need = std::max(block_size_, r);
  // need rounded up to a multiple of 2^(bitlen(need) - L), a power of two:
  // bitlen(need) >= bitlen(B) >= L, so the shift is at least 0.
  const Bytes low = (Bytes{1} << (bitlen(need) - l_)) - 1;
  Bytes s;
  if (__builtin_add_overflow(need, low, &s)) return {};  // past 2^64: nothing can hold it
  s &= ~low;
  const std::uint32_t found = find_bin(bin(s));
  if (found == kNoBin) return {};

  const BlockId id = links_[found].next - bin_count_;
  // Every block in a bin the search reaches holds at least s >= need bytes:
  // the TLSF search lemma of docs/verification.md, which the Z3 oracle proves.
  assert(blocks_[id].size >= need);
  remove_free(id);
  blocks_[id].used = true;
  const Bytes start = blocks_[id].start;
  if (blocks_[id].size > need) {
    const Bytes rest_size = blocks_[id].size - need;
    blocks_[id].size = need;
    const BlockId after = blocks_[id].right;
    const BlockId rest = new_block(start + need, rest_size, id, after);  // blocks_ may move: ids, not references
    if (after != kNone) blocks_[after].left = rest;
    blocks_[id].right = rest;
    insert_free(rest);
  }
  return Allocation{start, id};
}

inline void Tlsf::absorb_right(BlockId id) {
  const BlockId right = blocks_[id].right;
  const BlockId after = blocks_[right].right;
  blocks_[id].size += blocks_[right].size;
  blocks_[id].right = after;
  if (after != kNone) blocks_[after].left = id;
  drop_block(right);
}

inline void Tlsf::release(BlockId freed) {
  blocks_[freed].used = false;

  // The rule appends the freed block to its bin, then, from the leftmost
  // free block of its run, takes each pair out of their bins and appends the
  // merged block. A block appended and taken out again leaves every other
  // queue as it was, so the same queues come from taking each free block of
  // the run but the freed one out of its bin, merging the run into its
  // leftmost block, and appending that once.
  //
  // No two free blocks are ever neighbours: every free merges its whole run,
  // and the rest an alloc splits off lies between the block it used and that
  // block's right neighbour, which was used or none. So the run is the freed
  // block and at most one free neighbour on each side.
  BlockId merged = freed;
  if (const BlockId left = blocks_[freed].left; left != kNone && !blocks_[left].used) {
    assert(blocks_[left].left == kNone || blocks_[blocks_[left].left].used);
    remove_free(left);
    absorb_right(left);
    merged = left;
  }
  if (const BlockId right = blocks_[merged].right; right != kNone && !blocks_[right].used) {
    assert(blocks_[right].right == kNone || blocks_[blocks_[right].right].used);
    remove_free(right);
    absorb_right(merged);
  }
  insert_free(merged);
}

}  // namespace planck
