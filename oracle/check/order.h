#pragma once
// The order of uses in model v3 (docs/model-v3.md#the-conflict-rule): which
// top-level entries happen before which, over streams and events; each
// planned buffer's uses by stream; the loops that local buffers live in and
// their positions in those loops' bodies; and from these, the conflict rule
// that says whether two planned buffers may share bytes. The oracle's own
// reading, written apart from planner/ so that a mistake there shows here.
// With one stream and no local buffer, two buffers conflict exactly when
// their lifetimes (oracle/check/lifetimes.h) intersect.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/lifetime.h"
#include "model/schedule.h"

namespace planck::oracle {

// Happens-before over the top-level entries of a schedule: e before f when
// they run on one stream and e comes first, or e is `record E` and f is a
// `wait E`, or by transitivity. Each entry has a vector clock with one
// component per stream that records an event; the clocks are kept only at
// the waits, where they change, so the memory is O(waits x recording
// streams). Past `max_components` numbers a query walks the events back
// instead: O(events) a query, no memory.
class HappensBefore {
 public:
  static constexpr std::size_t kDenseClocks = std::size_t{1} << 24;
  explicit HappensBefore(const Schedule& s, std::size_t max_components = kDenseClocks);

  // Whether entry a happens before entry b (never when a == b).
  bool before(std::size_t a, std::size_t b) const;
  StreamId stream(std::size_t entry) const { return stream_[entry]; }
  // Whether every entry runs on one stream.
  bool one_stream() const { return one_stream_; }

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  bool walk_before(std::size_t a, std::size_t b) const;

  std::vector<StreamId> stream_;     // by entry
  std::vector<std::uint32_t> seq_;   // by entry: 1 + its index among its stream's entries
  std::vector<std::uint32_t> wait_;  // by entry: the last wait on its stream at or before it, or kNone
  std::vector<std::uint32_t> dim_;   // by stream: its component in a clock, or kNone
  std::vector<std::uint32_t> record_of_wait_;  // by entry: a wait's record entry, else kNone
  std::vector<std::uint32_t> prev_wait_;       // by entry: a wait's previous wait on its stream, else kNone
  std::size_t streams_ = 1;
  std::size_t dims_ = 0;
  bool dense_ = true;
  bool one_stream_ = true;
  // Clock rows of dims_ components, one per wait.
  std::vector<std::uint32_t> rows_;
  std::vector<std::uint32_t> row_of_;  // by entry: a wait's row, else kNone
};

// Where a use lies: a top-level entry, or the caller before (⊥) or after
// (⊤) the run.
struct UsePoint {
  enum class Kind : std::uint8_t { Entry, BeforeRun, AfterRun };
  Kind kind = Kind::Entry;
  std::size_t entry = 0;
};

// A loop at any depth: its parent loop (kTopLevel for a top-level loop) and
// its position in the parent's body (its entry index at the top level).
struct LoopNode {
  static constexpr std::size_t kTopLevel = static_cast<std::size_t>(-1);
  std::size_t parent = kTopLevel;
  std::size_t position = 0;
  std::size_t depth = 1;  // 1 for a top-level loop
  const Entry* entry = nullptr;
};

// A planned buffer's uses as the conflict rule reads them.
struct BufferUses {
  StorageId buffer = 0;
  std::size_t first = 0;  // file-order lifetime, stretched for input, output and state
  std::size_t last = 0;
  bool from_start = false;  // used by the caller before the run (input, state)
  bool to_end = false;      // used by the caller after the run (output, state)
  // The first and last top-level entry that takes it on each stream it
  // uses, in order of stream.
  struct OnStream {
    StreamId stream = 0;
    std::size_t first = 0;
    std::size_t last = 0;
  };
  std::vector<OnStream> streams;
  // A local buffer's loop (into UseOrder::loops), else LoopNode::kTopLevel,
  // and its positions [first, last] in that loop's body.
  std::size_t scope = LoopNode::kTopLevel;
  std::size_t pos_first = 0;
  std::size_t pos_last = 0;
  // 1 + the index, over every call and loop flag in file order, of the
  // first that takes it: an order in which b comes before c whenever b is
  // before c. Buffers first taken by one call share it.
  std::size_t order = 0;
};

// Why two buffers conflict, for messages.
struct ConflictWitness {
  // At the top level: a use of each that nothing orders the one before the
  // other (b's use not before c's), b's first.
  std::optional<UsePoint> b_use;
  std::optional<UsePoint> c_use;
  // Inside a loop: the loop (into UseOrder::loops) and each buffer's
  // positions in its body.
  std::optional<std::size_t> loop;
  std::size_t b_first = 0, b_last = 0, c_first = 0, c_last = 0;
};

class UseOrder {
 public:
  // `planned` is planned_buffers(s); s must outlive the order.
  UseOrder(const Schedule& s, const std::vector<Lifetime>& planned);

  const HappensBefore& happens_before() const { return hb_; }
  const std::vector<LoopNode>& loops() const { return loops_; }
  // The uses of a planned buffer; null for storage that is not planned.
  const BufferUses* uses(StorageId b) const {
    return index_[b] == kNotPlanned ? nullptr : &uses_[index_[b]];
  }
  const std::vector<BufferUses>& all() const { return uses_; }
  // Whether every use of b comes before every use of c: at the top level,
  // happens before; inside the innermost loop around both, b's positions
  // end before c's begin.
  bool before(const BufferUses& b, const BufferUses& c) const;
  bool conflict(const BufferUses& b, const BufferUses& c) const { return !before(b, c) && !before(c, b); }
  // Whether the two would conflict if every entry ran on one stream in file
  // order.
  bool conflict_in_file_order(const BufferUses& b, const BufferUses& c) const;
  // The loop both live in as the rule compares them, or kTopLevel.
  std::size_t common_loop(const BufferUses& b, const BufferUses& c) const;
  // The position in loop `loop`'s body of b's uses (a local buffer whose
  // scope is `loop` or inside it): [first, last].
  std::pair<std::size_t, std::size_t> positions_in(const BufferUses& b, std::size_t loop) const;
  // Two uses, one of each, that nothing orders; b and c conflict.
  ConflictWitness witness(const BufferUses& b, const BufferUses& c) const;
  // The innermost loop around a kernel or loop entry in a loop body, by the
  // entry's address, or kTopLevel for a top-level entry.
  std::size_t loop_of(const Entry* e) const;
  // The position of an entry in its loop's body (or at the top level).
  std::size_t position_of(const Entry* e) const;

 private:
  static constexpr std::size_t kNotPlanned = static_cast<std::size_t>(-1);
  bool top_before(const BufferUses& b, const BufferUses& c) const;
  // An entry inside a loop: its loop and its position there; else null.
  const std::pair<std::size_t, std::size_t>* inner(const Entry* e) const;
  // The innermost loop around loops x and y (either may be kTopLevel).
  std::size_t innermost_around(std::size_t x, std::size_t y) const;

  const Schedule& s_;
  HappensBefore hb_;
  std::vector<LoopNode> loops_;
  std::vector<BufferUses> uses_;
  std::vector<std::size_t> index_;  // by storage: into uses_, or kNotPlanned
  // Each entry inside a loop, by address: its loop and its position.
  std::vector<std::pair<const Entry*, std::pair<std::size_t, std::size_t>>> inner_;
};

}  // namespace planck::oracle
