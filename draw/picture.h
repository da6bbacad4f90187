#pragma once
// A plan as a picture (docs/commands.md#planck-draw): per arena, the
// top-level entries along, the arena's addresses up, and one box per placed
// buffer over the entries it lives through, at its rounded block. The buffers
// that the checker's violations name are marked, and so are the bytes and
// entries two of them share (or the bytes a buffer has past its arena's end).
// text.h and svg.h draw it.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/plan.h"
#include "model/schedule.h"
#include "oracle/check/violation.h"

namespace planck::draw {

// A top-level entry: one step of the horizontal axis.
struct Column {
  Entry::Kind kind = Entry::Kind::Kernel;
  std::string label;   // the kernel's name, "copy", "range", "loop", "record E" or "wait E"
  int line = 0;        // the line it starts on (0 for a schedule built in code)
  int last_line = 0;   // the last line of a loop's body; else `line`
  std::size_t calls = 0;  // a loop: the calls of its body, nested loops included
  StreamId stream = 0;    // the stream it runs on (v3), into Picture::streams
  std::size_t positions = 0;  // a loop drawn over the positions of its body (v3): how many; else 0
  bool loop() const { return kind == Entry::Kind::Range || kind == Entry::Kind::Loop; }
};

// A placed buffer: its rounded block [begin, end) of the arena over the
// top-level entries first..last, drawn over the slots from..to.
struct Box {
  std::string name;
  Bytes begin = 0;
  Bytes end = 0;
  Bytes bytes = 0;  // its own bytes start at begin + phase
  Bytes phase = 0;
  std::size_t first = 0;
  std::size_t last = 0;
  std::size_t from = 0;  // slots, inclusive (Picture::slot_of_entry)
  std::size_t to = 0;
  int line = 0;       // its declaration in the schedule
  int plan_line = 0;  // its placement in the plan
  std::uint8_t io = 0;  // IoBits: input, output, state
  bool violating = false;  // a violation the checker reports names it
  bool local = false;      // local to a loop (v3): drawn over its positions in the loop's body
};

// Where a violation is: the bytes [begin, end) over the entries first..last,
// which two buffers share while both live (overlap, inplace-not-allowed; or
// over both their lifetimes where nothing orders their uses: a race), or
// which a buffer has past its arena's end (outside-arena).
struct Mark {
  oracle::Rule rule = oracle::Rule::Overlap;
  Bytes begin = 0;
  Bytes end = 0;
  std::size_t first = 0;
  std::size_t last = 0;
  std::size_t from = 0;  // slots, inclusive
  std::size_t to = 0;
  std::vector<std::size_t> boxes;  // the boxes it involves, by index into ArenaPicture::boxes
  std::string message;
};

// An event of model v3: `record E` at one top-level entry, `wait E` at a
// later one, on another stream or the same.
struct Event {
  std::string name;
  std::size_t record = 0;
  std::size_t wait = 0;
};

// A kernel's `inplace=OUT:IN` whose two buffers are drawn in one arena.
struct InPlacePair {
  std::size_t out = 0;  // boxes, by index into ArenaPicture::boxes
  std::size_t in = 0;
  std::size_t entry = 0;  // the kernel's top-level entry
};

struct ArenaPicture {
  std::string name;
  std::string device;
  Bytes size = 0;
  int plan_line = 0;
  // The highest byte drawn: the arena's size, or the end of a box past it.
  Bytes top = 0;
  std::vector<Box> boxes;  // in plan order
  std::vector<Mark> marks;
  std::vector<InPlacePair> inplace;
  std::vector<std::string> violations;  // the messages of the violations that name the arena
};

struct Picture {
  std::string schedule;  // the files, for titles
  std::string plan;
  std::vector<Column> columns;  // by top-level entry
  // The horizontal axis in slots: entry e is drawn over the slots
  // [slot_of_entry[e], slot_of_entry[e + 1]), one each; the last number is
  // the count of slots.
  std::vector<std::size_t> slot_of_entry{0};
  std::vector<std::size_t> entry_of_slot;  // by slot
  // The streams of model v3, by StreamId ("" the default stream), and each
  // wait with its record; one stream and none without v3.
  std::vector<std::string> streams{""};
  std::vector<Event> events;
  std::vector<ArenaPicture> arenas;  // the plan's arenas, each name once, in plan order
  // The messages of violations of no arena drawn: a buffer not placed, a
  // placement of unknown storage, a device without an arena.
  std::vector<std::string> other_violations;
  std::size_t violation_count = 0;  // the violations the checker listed
  std::uint64_t unlisted_overlaps = 0;  // overlaps it counted past its limit, not marked

  bool valid() const { return violation_count == 0 && unlisted_overlaps == 0; }
  std::size_t slots() const { return slot_of_entry.back(); }
  std::size_t first_slot(std::size_t entry) const { return slot_of_entry[entry]; }
  // Whether entries run on more than one stream: the pictures draw a band per stream.
  bool has_streams() const;
  std::size_t last_slot(std::size_t entry) const { return slot_of_entry[entry + 1] - 1; }
  std::size_t box_count() const;
  bool has_violation(const ArenaPicture& a) const { return !a.violations.empty(); }
};

// The picture of plan p for schedule s, with the violations the checker
// reported for it (every buffer they name marked, in the arena they name).
// Placements that do not resolve, or whose block would pass 2^64, are left
// out of the boxes; their violations say why. A top-level loop around local
// buffers (v3) is drawn over the positions of its body, one slot each, and
// its local buffers over their positions in it.
Picture make_picture(const Schedule& s, const Plan& p, const std::vector<oracle::Violation>& violations,
                     std::uint64_t unlisted_overlaps = 0);

// "entry 2 (line 9)" or "entries 1..3 (lines 8-10)", as the checker says it.
std::string entries_text(const Picture& p, std::size_t first, std::size_t last);

// One line on a buffer: its name, bytes, block, arena, lifetime, source and plan lines.
std::string box_text(const Picture& p, const ArenaPicture& a, const Box& b);

}  // namespace planck::draw
