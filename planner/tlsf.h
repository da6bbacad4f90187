#pragma once
// The TLSF allocator with the reference semantics of SPEC section 4, bit for
// bit: the same calls give the same addresses, quirks included (a request is
// rounded up to its bin's size before the search, so it can fail while an
// exact-size free block exists; bins are FIFO queues).

#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <vector>

#include "planner/result.h"
#include "planner/schedule.h"

namespace planck {

// bitlen(x): the number of bits of x; bitlen(0) = 0, bitlen(256) = 9.
int bitlen(Bytes x);

class Tlsf {
 public:
  struct Bin {
    int l1 = 0;
    int l2 = 0;
    friend bool operator==(const Bin&, const Bin&) = default;
  };

  // Capacity S, block size B, second-level count C. Needs C >= 1 and
  // bitlen(B) >= bitlen(C); S may be 0 (every alloc then fails).
  static Result<Tlsf> create(Bytes capacity, Bytes block_size, Bytes second_level);

  // bin(s) = (bitlen(s), (s - 2^(l1-1)) >> max(0, l1 - L)) for s >= 1.
  Bin bin(Bytes s) const;

  // The start of a new used block of max(B, r) bytes, or nullopt when the
  // search finds no free block.
  std::optional<Bytes> alloc(Bytes r);

  // Frees the used block that starts at addr and merges it with its free
  // neighbours. An address that starts no used block is an error.
  Status free(Bytes addr);

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
  struct BlockState {
    Bytes size = 0;
    bool used = false;
    std::list<Bytes>::iterator in_bin;  // valid when free
  };
  Tlsf(Bytes capacity, Bytes block_size, int second_level_bits);

  std::size_t bin_index(Bin b) const;
  void insert_free(Bytes start, BlockState& block);
  void remove_free(BlockState& block);

  Bytes capacity_;
  Bytes block_size_;
  int l_;   // L = bitlen(C)
  int max_l1_;  // bitlen(capacity)
  std::map<Bytes, BlockState> blocks_;       // by start address
  std::vector<std::list<Bytes>> bins_;       // (max_l1_+1) * 2^L FIFO queues of block starts
  std::vector<std::uint64_t> level_count_;   // free blocks per l1
};

}  // namespace planck
