#include "planner/tlsf.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include <fmt/format.h>

// A two-level segregated fit allocator (Masmano et al., "TLSF: a New Dynamic
// Memory Allocator for Real-Time Systems", ECRTS 2004), with the rules of
// SPEC section 4 rather than the paper's where they differ: bins are FIFO
// queues, a request is rounded up to the size of its bin before the search,
// and freeing merges rightward from the leftmost free block of the run.
//
// Each level keeps a bitmap of its non-empty bins and one word says which
// levels hold a free block, so the search is two find-first-set operations;
// the per-level counts of the specification are these bits (a level's count
// is nonzero exactly when one of its queues is non-empty).

namespace planck {
namespace {

// The set bits of a 64-bit map at index i and above.
std::uint64_t bits_from(int i) { return i >= 64 ? 0 : ~std::uint64_t{0} << i; }

}  // namespace

Result<Tlsf> Tlsf::create(Bytes capacity, Bytes block_size, Bytes second_level) {
  if (second_level == 0) return Error{"", "TLSF second-level count must be at least 1"};
  // 2^(L-1) bins per level must fit one 64-bit bitmap: L <= 7.
  if (second_level > 127) {
    return Error{"", fmt::format("TLSF second-level count {} is above the largest supported, 127",
                                 second_level)};
  }
  if (block_size == 0) return Error{"", "TLSF block size must be at least 1"};
  if (bitlen(block_size) < bitlen(second_level)) {
    return Error{"", fmt::format("TLSF block size {} has fewer bits than second-level count {}",
                                 block_size, second_level)};
  }
  return Tlsf(capacity, block_size, bitlen(second_level));
}

Tlsf::Tlsf(Bytes capacity, Bytes block_size, int second_level_bits)
    : capacity_(capacity),
      block_size_(block_size),
      l_(second_level_bits),
      max_l1_(bitlen(capacity)),
      l2_count_(1 << (second_level_bits - 1)),
      l2_shift_(second_level_bits - 1),
      bin_count_(static_cast<std::uint32_t>(max_l1_ + 1) * static_cast<std::uint32_t>(l2_count_)),
      links_(bin_count_),
      l2_bits_(static_cast<std::size_t>(max_l1_ + 1), 0) {
  for (std::uint32_t b = 0; b < bin_count_; ++b) links_[b] = {b, b};  // every queue empty
  if (capacity_ == 0) return;
  insert_free(new_block(0, capacity_, kNone, kNone));
}

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

Tlsf::BlockId Tlsf::add_id() {
  blocks_.emplace_back();
  links_.emplace_back();
  return static_cast<BlockId>(blocks_.size() - 1);
}

inline void Tlsf::drop_block(BlockId id) {
  if (indexed_) [[unlikely]] starting_.erase(blocks_[id].start);
  blocks_[id].right = dropped_;
  dropped_ = id;
}

void Tlsf::index_starts() {
  indexed_ = true;
  if (capacity_ == 0) return;
  for (BlockId at = kFirst; at != kNone; at = blocks_[at].right) starting_[blocks_[at].start] = at;
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
  std::uint64_t above = l1_bits_ & bits_from(from.l1);
  if (above == 0) return kNoBin;
  int l1 = std::countr_zero(above) + 1;
  return index(l1, std::countr_zero(l2_bits_[l1]));
}

std::optional<Bytes> Tlsf::alloc(Bytes r) {
  const std::optional<Allocation> a = alloc_block(r);
  if (!a) return std::nullopt;
  return a->start;
}

std::optional<Tlsf::Allocation> Tlsf::alloc_block(Bytes r) {
  const Bytes need = std::max(block_size_, r);
  // need rounded up to a multiple of 2^(bitlen(need) - L), a power of two:
  // bitlen(need) >= bitlen(B) >= L, so the shift is at least 0.
  const Bytes low = (Bytes{1} << (bitlen(need) - l_)) - 1;
  Bytes s;
  if (__builtin_add_overflow(need, low, &s)) return std::nullopt;  // past 2^64: nothing can hold it
  s &= ~low;
  const std::uint32_t found = find_bin(bin(s));
  if (found == kNoBin) return std::nullopt;

  const BlockId id = links_[found].next - bin_count_;
  // Every block in a bin the search reaches holds at least s >= need bytes:
  // the TLSF search lemma of SPEC section 7, which the Z3 oracle proves.
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

Status Tlsf::free(Bytes addr) {
  if (addr >= capacity_) {
    return Error{"", fmt::format("free({}): the address is past the end of the arena ({} bytes)",
                                 addr, capacity_)};
  }
  if (!indexed_) index_starts();
  auto it = starting_.find(addr);
  if (it == starting_.end()) {
    return Error{"", fmt::format("free({}): no block starts at this address", addr)};
  }
  if (!blocks_[it->second].used) {
    return Error{"", fmt::format("free({}): the block at this address is already free", addr)};
  }
  return free_block(it->second);
}

Error Tlsf::no_used_block(BlockId id) {
  return Error{"", fmt::format("free of block {}: no used block has this id", id)};
}

inline void Tlsf::absorb_right(BlockId id) {
  const BlockId right = blocks_[id].right;
  const BlockId after = blocks_[right].right;
  blocks_[id].size += blocks_[right].size;
  blocks_[id].right = after;
  if (after != kNone) blocks_[after].left = id;
  drop_block(right);
}

void Tlsf::release(BlockId freed) {
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

std::vector<Tlsf::Block> Tlsf::blocks() const {
  std::vector<Block> out;
  if (capacity_ == 0) return out;
  for (BlockId at = kFirst; at != kNone; at = blocks_[at].right) {
    out.push_back({blocks_[at].start, blocks_[at].size, blocks_[at].used});
  }
  return out;
}

std::vector<Bytes> Tlsf::bin_queue(Bin b) const {
  std::vector<Bytes> out;
  if (b.l1 < 0 || b.l1 > max_l1_ || b.l2 < 0 || b.l2 >= l2_count_) return out;
  const auto head = static_cast<std::uint32_t>(bin_index(b));
  for (std::uint32_t at = links_[head].next; at != head; at = links_[at].next) {
    out.push_back(blocks_[at - bin_count_].start);
  }
  return out;
}

}  // namespace planck
