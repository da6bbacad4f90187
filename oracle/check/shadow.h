#pragma once
// The shadow executor (docs/verification.md#the-shadow-executor): runs a planned schedule call by call
// over shadow memory and reports the first fault: a clobber, or a use of
// bytes outside an arena.
//
// Each arena's shadow is an interval map from disjoint byte ranges to the
// buffer that last claimed them, so an arena of gigabytes costs a few map
// nodes per buffer. A placed buffer occupies [place + phase, place + phase +
// bytes) of its arena. The first use of a buffer claims its bytes, taking
// them from whoever held them; every later use must find them all still its
// own. A call uses the storage of each of its arguments, through views; a
// `loop` uses its flag's storage at the end of each iteration, after its body.
// After a call's claims, every buffer the call uses must still own its bytes,
// so two arguments of one call that share bytes are a clobber too. A buffer
// whose bytes reach past the end of its arena faults at its first use, before
// it claims them: a fault of its own, not a clobber.
//
// Model v2 (docs/model-v2.md): the caller writes the planned inputs and the
// state before entry 0, where they claim their bytes, and reads the planned
// outputs and the state after the last entry, where they must own theirs. A
// schedule with state runs twice in a row, its state keeping its bytes. A
// kernel's `inplace=OUT:IN` lets OUT, at its first use, take IN's bytes
// where OUT's start at IN's first byte and end within IN's: IN keeps only
// its bytes past OUT's, so that a later use of IN is a clobber.
//
// Model v3 (docs/model-v3.md): with streams, a claim is also a fault, a
// race, when some use so far of a buffer whose bytes it takes does not
// happen before the claiming top-level entry (oracle/check/order.h). A
// local buffer gives its bytes up at the end of each iteration of its loop
// and claims them afresh at its first use in the next.
//
// The executor knows nothing of lifetimes: it only watches bytes change hands.
// It shares nothing with planner/ but the schedule model, the parsers and
// plan resolution.
//
// Storage the plan does not place (held, params, allocs, disk, unplanned) is
// not tracked. Whatever the plan does place is tracked, planned or not:
// whether it should have been placed is the checker's question.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/plan.h"
#include "model/resolve.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck::oracle {

struct ShadowOptions {
  // How many times each loop body runs. Two is the least that sees a buffer
  // that lives around a loop lose its bytes to one that is used only later in
  // the body; `planck run` refuses fewer. One is accepted here so that tests
  // can show what a single pass misses.
  std::uint64_t iterations = 2;
  // The most calls a run may make (a `loop`'s flag check counts as one); a
  // schedule whose nested loops would make more is refused before it starts.
  std::uint64_t max_calls = 50'000'000;
};

// One use of a buffer: one call, at one iteration of each loop around it.
struct UseSite {
  std::size_t entry = 0;  // the top-level entry the call is in
  std::string call;       // "kernel NAME", "copy", or "flag of loop"
  int line = 0;           // the call's source line (the loop's for a flag); 0 if unknown
  std::vector<std::uint64_t> iterations;  // from 1, outermost loop first; empty outside loops
  int pass = 0;  // the pass, 1 or 2, over a schedule with state, which runs twice; else 0

  // "entry 3 (kernel relu, line 9, iteration 2.1)": nested iterations are
  // joined with dots, outermost first; the pass, where there are two, as
  // ", run 2".
  std::string describe() const;
};

struct Clobber {
  std::string victim;  // the buffer that found some of its bytes taken
  UseSite before;      // its last use with all its bytes its own (its claim, if this call made it)
  UseSite after;       // the use that found them taken
  std::string taker;   // the buffer that holds them now
  UseSite taken;       // the taker's first use, where it claimed them
  std::string arena;
  Bytes begin = 0;  // the bytes taken: [begin, end) of the arena, within the victim's
  Bytes end = 0;
  // A race (v3): the taker claimed the bytes at `taken` (= `after`) though
  // the victim's use at `before` does not happen before it; the streams of
  // the two ("" for the default stream).
  bool race = false;
  std::string victim_stream;
  std::string taker_stream;
  // One line: who took which bytes, where, between which two uses of the
  // victim; for a race, which use of the victim nothing orders before the claim.
  std::string message() const;
};

// A use of a buffer some of whose bytes lie past the end of its arena.
struct OutsideArena {
  std::string buffer;
  UseSite at;  // its first use, where it would claim them
  std::string arena;
  Bytes arena_size = 0;
  Bytes begin = 0;  // the buffer's bytes: [begin, end) of the arena, with end > arena_size
  Bytes end = 0;

  // One line: whose bytes, how far past the arena, where.
  std::string message() const;
};

// A run stops at its first fault: a clobber or a use outside an arena. At
// most one of the two is set; neither when the run is clean.
struct ShadowRun {
  std::uint64_t calls = 0;         // calls made (flag checks included), up to the fault if any
  std::optional<Clobber> clobber;  // the first clobber, if it is the first fault
  std::optional<OutsideArena> outside;  // the first use outside an arena, if it is the first fault
};

// Runs s with the placements of p. Errors, with the plan's FILE:LINE:COL:
// a plan that does not resolve (model/resolve.h: a placement of storage the
// schedule does not declare, a buffer placed twice, a placement in an arena
// the plan does not declare, an arena declared twice), a buffer whose bytes
// end past 2^64. A run that would make more than options.max_calls calls is
// refused (with the count).
Result<ShadowRun> run_shadow(const Schedule& s, const Plan& p, const ShadowOptions& options = {});
// The same run with r = resolve(s, p), for a caller that has it already.
Result<ShadowRun> run_shadow(const Schedule& s, const Plan& p, const Resolution& r,
                             const ShadowOptions& options = {});

// The calls a run of s makes when each loop body runs `iterations` times,
// saturating at the largest uint64_t; nullopt when loops nest deeper than
// kMaxNesting.
std::optional<std::uint64_t> count_calls(const Schedule& s, std::uint64_t iterations);

}  // namespace planck::oracle
