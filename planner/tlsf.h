#pragma once
// The TLSF allocator with the reference semantics of SPEC section 4, bit for
// bit: the same calls give the same addresses, quirks included (a request is
// rounded up to its bin's size before the search, so it can fail while an
// exact-size free block exists; bins are FIFO queues).

#include <algorithm>
#include <bit>
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

  // A new used block: where it starts and its id, for free_block.
  struct Allocation {
    Bytes start = 0;
    BlockId block = 0;
  };

  // A new used block of max(B, r) bytes, or nullopt when the search finds no
  // free block.
  std::optional<Allocation> alloc_block(Bytes r);
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
  static constexpr BlockId kNone = ~BlockId{0};
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

}  // namespace planck
