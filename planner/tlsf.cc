#include "planner/tlsf.h"

#include <algorithm>

#include <fmt/format.h>

// A two-level segregated fit allocator (Masmano et al., "TLSF: a New Dynamic
// Memory Allocator for Real-Time Systems", ECRTS 2004), with the rules of
// docs/planners.md#the-tlsf-allocator rather than the paper's where they differ: bins are FIFO
// queues, a request is rounded up to the size of its bin before the search,
// and freeing merges rightward from the leftmost free block of the run.
//
// Each level keeps a bitmap of its non-empty bins and one word says which
// levels hold a free block, so the search is two find-first-set operations;
// the per-level counts of the specification are these bits (a level's count
// is nonzero exactly when one of its queues is non-empty).

namespace planck {

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

Tlsf::BlockId Tlsf::add_id() {
  blocks_.emplace_back();
  links_.emplace_back();
  return static_cast<BlockId>(blocks_.size() - 1);
}

void Tlsf::index_starts() {
  indexed_ = true;
  if (capacity_ == 0) return;
  for (BlockId at = kFirst; at != kNone; at = blocks_[at].right) starting_[blocks_[at].start] = at;
}

std::optional<Bytes> Tlsf::alloc(Bytes r) {
  const Allocation a = alloc_block(r);
  if (!a.found()) return std::nullopt;
  return a.start;
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
