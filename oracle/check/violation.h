#pragma once
// What the static checker reports: one Violation per broken rule of docs/verification.md,
// as facts (the buffers, arenas, entries, byte ranges and source
// lines involved), and the text that explains it to a person, made from
// those facts alone by describe().

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/ranges.h"
#include "model/schedule.h"

namespace planck::oracle {

enum class Rule {
  NotPlaced,          // a planned buffer has no placement
  PlacedTwice,        // a buffer has more than one placement
  NotPlanned,         // a placement names storage that is not planned: held, disk, alloc,
                      // param, or never taken
  UnknownStorage,     // a placement names storage the schedule does not declare
  UnknownArena,       // a placement names an arena the plan does not declare
  ArenaTwice,         // two arenas share a name, or an arena's name is already storage's
  DeviceArenas,       // a device with planned buffers has no arena, or an arena is on a device without any
  WrongDevice,        // a buffer placed in an arena of another device
  ArenaSize,          // an arena size that is not a multiple of the device's align (256 in v1)
  Misaligned,         // place not a multiple of the device's align
  OutsideArena,       // place + rounded > arena size
  OverCapacity,       // a device's arenas together larger than its capacity
  Overlap,            // two buffers alive together whose rounded blocks share bytes
  InPlaceNotAllowed,  // an overlap of two buffers a kernel declares in place, where the
                      // declaration grants no sharing
  Race,               // two buffers that share bytes and whose uses nothing orders across
                      // streams, though in file order on one stream they would be apart (v3)
};
std::string_view rule_name(Rule r);

// Top-level entries first..last (inclusive), with the source lines they
// start on; a line is 0 for a schedule built in code.
struct EntrySpan {
  std::size_t first = 0;
  std::size_t last = 0;
  int first_line = 0;
  int last_line = 0;

  friend bool operator==(const EntrySpan&, const EntrySpan&) = default;
};
EntrySpan entry_span(const Schedule& s, std::size_t first, std::size_t last);

// Why placed storage is not planned (docs/planners.md#rule-2-what-is-planned).
enum class Unplanned : std::uint8_t { Alloc, Param, Held, OnDisk, NotTaken };

// A broken rule. Every field but `rule` and `message` is empty unless the
// rule's case sets it, as its comment says. Plan and schedule lines are 0
// when the plan or schedule was built in code rather than read from a file.
struct Violation {
  Rule rule = Rule::Overlap;
  std::vector<std::string> buffers;  // the storage involved, in the order the message names it
  std::vector<std::string> arenas;   // the arenas involved, in the order the message names them
  // WrongDevice: the buffer's, then the arena's. DeviceArenas, OverCapacity:
  // the device. NotPlanned on a disk: the disk.
  std::vector<std::string> devices;
  // The plan lines of the arenas or placements named, in the order named.
  // ArenaTwice declared twice, PlacedTwice, Overlap, InPlaceNotAllowed: the
  // first, then the other. OverCapacity: each arena's. Others:
  // the one arena's or placement's.
  std::vector<int> plan_lines;
  // ArenaTwice named like storage: the storage's kind and declaration line.
  std::optional<StorageKind> storage_kind;
  int storage_line = 0;
  std::optional<Unplanned> unplanned;  // NotPlanned: why
  // NotPlaced, Overlap, InPlaceNotAllowed: each buffer's lifetime
  std::vector<EntrySpan> lives;
  std::optional<EntrySpan> during;     // Overlap, InPlaceNotAllowed: the entries both buffers live over
  // OutsideArena, Overlap, InPlaceNotAllowed: each buffer's rounded block
  // [place, place + rounded).
  // OutsideArena with no block: its end passes 2^64.
  std::vector<ByteRange> blocks;
  // Overlap, InPlaceNotAllowed: each buffer's own bytes
  // [place + phase, place + phase + bytes).
  std::vector<ByteRange> own_bytes;
  std::optional<ByteRange> shared;  // Overlap, InPlaceNotAllowed: the bytes both blocks hold
  std::optional<Bytes> place;       // Misaligned, OutsideArena past 2^64: the place
  std::optional<Bytes> phase;       // OutsideArena past 2^64: the buffer's phase and bytes
  std::optional<Bytes> bytes;
  std::optional<Bytes> arena_size;  // ArenaSize, OutsideArena with a block: the arena's size
  // ArenaSize, Misaligned, OutsideArena past 2^64: the device's alignment
  std::optional<Bytes> align;
  std::vector<Bytes> arena_sizes;   // OverCapacity: each arena's size, as `arenas`
  std::optional<Bytes> capacity;    // OverCapacity: the device's capacity
  // InPlaceNotAllowed: the kernel's entry and source line, and why its
  // `inplace=OUT:IN` (buffers[0] is OUT, buffers[1] IN) grants no sharing.
  std::optional<EntrySpan> declared_at;
  std::string refusal;
  // Race: a use of each buffer, in the order of `buffers`, such that
  // nothing orders the first before the second: an entry (first == last),
  // or with `caller` -1 the caller before the run, +1 after it; and the
  // stream each runs on ("" for the default stream).
  std::vector<EntrySpan> unordered;
  std::vector<int> caller;
  std::vector<std::string> streams;
  // Overlap, InPlaceNotAllowed of two local buffers compared inside a loop
  // (v3): the loop's source line, and each buffer's positions in the loop's
  // body, first and last.
  int loop_line = 0;
  std::vector<std::pair<std::size_t, std::size_t>> positions;
  std::string message;              // describe(*this), as the checkers return it

  friend bool operator==(const Violation&, const Violation&) = default;
};

// "RULE: ..." naming the buffers, entries, source lines and byte ranges.
std::string describe(const Violation& v);

}  // namespace planck::oracle
