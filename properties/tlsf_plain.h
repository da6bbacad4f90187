#pragma once
// A plain, slow model of the reference planner (docs/planners.md#the-reference-planner-tlsf and docs/planners.md#the-tlsf-allocator),
// written apart from planner/ so that the two can be held to each other byte
// for byte. It shares only the schedule model, its checked arithmetic and
// the lifetime type. Every rule is one function, written as the
// specification words it, with no index, bitmap or cache: what it loses in
// speed it gains in being obviously the text.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/lifetime.h"
#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck::props {

// docs/planners.md#the-tlsf-allocator: memory is an address-ordered list of blocks covering
// [0, capacity). A bin's FIFO queue is not stored: it is the free blocks of
// that bin in the order they were appended, which each block remembers.
class ModelTlsf {
 public:
  struct Block {
    Bytes start = 0;
    Bytes size = 0;
    bool used = false;
    std::uint64_t appended = 0;  // free only: when it joined its bin's queue
  };

  // Needs 1 <= second_level and bitlen(block_size) >= bitlen(second_level).
  ModelTlsf(Bytes capacity, Bytes block_size, Bytes second_level);

  // The start of the new used block, nullopt when no queue has a block, or an
  // error when the search takes a block smaller than the request (the TLSF
  // search lemma says it never does).
  Result<std::optional<Bytes>> alloc(Bytes r);
  // False when no used block starts at addr.
  bool free(Bytes addr);

  const std::vector<Block>& blocks() const { return blocks_; }

 private:
  struct Bin {
    int l1;
    Bytes l2;
  };
  Bin bin(Bytes s) const;
  void append(Block& b) { b.appended = clock_++; }

  Bytes capacity_;
  Bytes block_size_;
  int l_;
  std::vector<Block> blocks_;
  std::uint64_t clock_ = 0;
};

int model_bitlen(Bytes x);

// Rule 1: the storage a top-level entry takes, each once, in order.
std::vector<StorageId> model_taken(const Entry& e);
// Rules 2 and 3: each planned buffer's lifetime (model/lifetime.h), in order
// of first appearance.
std::vector<Lifetime> model_lifetimes(const Schedule& s);

// Rule 6: a call of the reference planner's TLSF run, the open (alloc) or
// the close (free) of a lifetime.
struct ModelEvent {
  std::size_t time;
  bool open;
  std::size_t life;  // the lifetime's index
};
enum class AtEqualTimes { CloseFirst, OpenFirst };
// The calls of lifetimes whose bytes are taken at times[i].first and free
// again at times[i].second: the opens in order, then the closes, stably
// sorted by time, at equal times a close first (rule 6) or, with
// AtEqualTimes::OpenFirst, an open first.
std::vector<ModelEvent> model_events(const std::vector<std::pair<std::size_t, std::size_t>>& times,
                                     AtEqualTimes order = AtEqualTimes::CloseFirst);

// Rules 4 to 8: the reference plan, or the error the reference planner must
// give (an overflow, or an allocation that fails).
Result<Plan> model_plan(const Schedule& s);

}  // namespace planck::props
