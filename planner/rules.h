#pragma once
// The rules of docs/planners.md#the-reference-planner-tlsf, one function per rule, declared here and
// defined in rules.cc in the order of the rules; each is the code that runs.
// Every planner takes rules 1 to 5 and 7 from here and places the buffers
// its own way; the reference planner (tlsf_planner.cc) places them by
// rule 5's allocators and rule 6's run. Rules 8 to 10 turn any planner's
// plan into the output (plan_schedule.h).
//
// To read the reference planner whole, read events_planner.cc first: rules
// 4 to 7 on one screen, rule 6 written out over events sorted in full, the
// others called from here. Rule 6 here (close_lists, run_tlsf) is the same
// rule made fast for the common schedule, whose opens come in order.
//
// On a large schedule a second thread takes rules 4, 5 and 7 while rules 3
// and 6 go on (tlsf_two_threads.h): rule 3 and the TLSF run tell a RuleProgress how
// far they are, and rules 4, 5 and 7 can each be made a part at a time.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/lifetime.h"
#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"
#include "planner/options.h"
#include "planner/tlsf.h"

namespace planck {

template <class Take>
void for_each_taken_in_loop(const Entry& loop, Take& take);

// Rule 1, what an entry takes: take(id) for the storage of each argument of
// its calls, in order, a view as the storage it views; a loop takes its
// calls' storage, nested loops included, then its flag's. Storage taken
// again comes again: the rule's list, each storage once, is the order of
// first takes. Most entries are calls, whose walk is inlined into the
// caller's; a loop's is not.
template <class Take>
__attribute__((always_inline)) inline void for_each_taken(const Entry& entry, Take&& take) {
  if (entry.kind == Entry::Kind::Kernel || entry.kind == Entry::Kind::Copy) [[likely]] {
    for (const Arg& a : entry.args) take(storage_of(a));
    return;
  }
  for_each_taken_in_loop(entry, take);
}

// Rule 1 for a loop (Range or Loop). Nesting is bounded by kMaxNesting at
// parse time, so the recursion is too.
template <class Take>
void for_each_taken_in_loop(const Entry& loop, Take& take) {
  for (const Entry& inner : loop.body()) for_each_taken(inner, take);
  for (const Arg& a : loop.flag()) take(storage_of(a));
}

// Rule 2, what is planned, without the "taken" part: a buffer that is not
// held and not on a disk.
bool is_plannable(const Storage& s);

// What rule 3 and the TLSF run (rule 6) tell, now and then, of how far
// they are, so that another thread can take the rules that follow as they
// go. This one tells no one.
class RuleProgress {
 public:
  virtual ~RuleProgress() = default;
  // Lifetimes [0, k) of the array at `lives` are made: their buffer and
  // first entry are final; a later entry may still end them.
  virtual void made(const Lifetime* /*lives*/, std::uint32_t /*k*/) {}
  // The places of lifetimes [0, k) are final.
  virtual void placed(std::size_t /*k*/) {}
};

// Rule 3, lifetimes: every planned buffer with its lifetime (model/lifetime.h),
// from the first top-level entry that takes it to the last, inclusive, a
// planned input or state from entry 0 and a planned output or state to the
// last entry (docs/model-v2.md); in order of first appearance (entry by
// entry, in the order of rule 1).
std::vector<Lifetime> planned_lifetimes(const Schedule& s);
// The same into `out`, which the caller holds, so that whoever `progress`
// tells of its array can rely on it until the caller lets it go. True when
// a planned input, output or state stretched a lifetime after `progress`
// was told of it.
bool planned_lifetimes(const Schedule& s, std::vector<Lifetime>& out, RuleProgress& progress);
// The same, telling no one.
bool planned_lifetimes(const Schedule& s, std::vector<Lifetime>& out);

// Rule 5's arenas: one per device that has a planned buffer, in order of
// first appearance of the device's first planned buffer, which is the order
// of the arenas.
struct Devices {
  std::vector<Name> names;
  // Per lifetime: its device's position in `names`; empty when there is one
  // device, so that the common schedule keeps no list.
  std::vector<std::uint32_t> of;

  // The device of lifetime i, as a position in `names`.
  std::uint32_t of_lifetime(std::size_t i) const { return of.empty() ? 0 : of[i]; }
};

// What sizes (rule 4) and arena ends (rule 7) are rounded up to: the align
// of the buffer's device (256 unless a `device` line says), or for the
// reference planner's allocators, whose blocks are tlsf_unit(align), a block
// (docs/model-v2.md#devices).
enum class Rounding : std::uint8_t { DeviceAlign, TlsfBlocks };

// Rule 5's allocators: a TLSF second-level count of 32, and blocks of 256
// bytes, or of a device's align where it is larger (docs/model-v2.md#devices).
inline constexpr Bytes kTlsfSecondLevel = 32;
inline Bytes tlsf_unit(Bytes align) { return align > kPlaceAlign ? align : kPlaceAlign; }

// The unit of `rounding` for a buffer on `device`.
inline Bytes unit_of(const Schedule& s, const Name& device, Rounding rounding) {
  if (s.devices.empty()) return kPlaceAlign;
  const Bytes align = s.align_of(device);
  return rounding == Rounding::TlsfBlocks ? tlsf_unit(align) : align;
}

// Rules 4 and 5, sizes and arenas, read the same record of each planned
// buffer: they are made together, from one read of each.
struct SizesAndDevices {
  // round_up(phase + bytes, unit_of the buffer's device) of each planned
  // buffer, parallel to the lifetimes
  std::vector<Bytes> sizes;
  Devices devices;
};

// Rules 4 and 5 a part at a time, in order of first appearance, so that
// another thread can make them as rule 3 goes on. The sums are checked for
// overflow all together, and the first buffer whose size overflows is
// named only when one does.
class SizesAndDevicesMaker {
 public:
  // Room for `planned` buffers, made once.
  explicit SizesAndDevicesMaker(std::size_t planned, Rounding rounding = Rounding::DeviceAlign)
      : rounding_(rounding) {
    out_.sizes.reserve(planned);
  }

  // Adds lifetimes [added(), end) of the array at `lives`; their records
  // stay where they are until finish.
  void add(const Schedule& s, const Lifetime* lives, std::size_t end);
  std::size_t added() const { return out_.sizes.size(); }

  // Both rules for every lifetime, once each is added, or rule 4's error
  // (rounded_size's) for the first buffer whose size overflows.
  Result<SizesAndDevices> finish(const Schedule& s, const std::vector<Lifetime>& lives) &&;

 private:
  void add_device(const Name& device);

  Rounding rounding_;
  SizesAndDevices out_;
  bool overflow_ = false;
  const Name* first_ = nullptr;  // the first buffer's device, in the schedule
  // Device -> position in names, keyed by the text of the schedule's
  // records, which stay where they are.
  std::unordered_map<std::string_view, std::uint32_t> index_;
  std::uint32_t last_ = 0;  // the previous buffer's device
};

// Rules 4 and 5 for every lifetime: one add of all of them.
Result<SizesAndDevices> sizes_and_devices(const Schedule& s, const std::vector<Lifetime>& lives,
                                          Rounding rounding = Rounding::DeviceAlign);

// Rule 5, for the planners that place each device apart: each device's
// planned buffers, as indices into the lifetimes, in order of first
// appearance; one list per device of `devices`, in its order.
std::vector<std::vector<std::size_t>> lifetimes_by_device(const Devices& devices, std::size_t lives);

// Rule 5: every allocator's capacity, 2 x the sum of max(U, rounded) over
// every planned buffer of the schedule, U being the block of its device's
// allocator (tlsf_unit); an overflow names the buffer it passes 2^64 at.
// Needs a lifetime.
Result<Bytes> tlsf_capacity(const Schedule& s, const std::vector<Lifetime>& lives,
                            const std::vector<Bytes>& sizes);

// Rule 5: one TLSF allocator per entry of `devices` (a device's name each),
// in its order, with blocks of tlsf_unit of the device's align. For the
// reference planner that order is the order in which devices first appear
// among the events: a device's first event opens its first buffer, and
// opens keep the order of first appearance (rule 6).
Result<std::vector<Tlsf>> make_allocators(const Schedule& s, Bytes capacity, const std::vector<Name>& devices);

// Rule 6, order of events: opens in order of first appearance, then closes
// in the same order, stably sorted by time, closes first at equal times.
// The opens are in order of time already (first appearance is by entry), so
// only the closes are ordered: a list per time of the lifetimes that close
// then, in order of first appearance, threaded through one array.
struct CloseLists {
  static constexpr std::uint32_t kNone = UINT32_MAX;
  // Per time t, 0 to the entry count: the first lifetime to close at t
  // (last + 1 = t), or kNone.
  std::vector<std::uint32_t> first;
  // Per lifetime: the next to close at its time, or kNone. Each is written
  // once before it is read.
  std::unique_ptr<std::uint32_t[]> next;
};
// `entries`: the schedule's top-level entry count, past every lifetime's last.
CloseLists close_lists(const std::vector<Lifetime>& lives, std::size_t entries);

// Rule 6, the run: before each open, the closes of every time up to the
// open's; an open allocates the buffer's rounded size and records its
// place, a close frees it. `place` holds the sizes before the run and the
// places after it. `progress` is told, now and then and at the end, which
// places are final. A failed alloc is an error naming the buffer.
Status run_tlsf(const Schedule& s, const std::vector<Lifetime>& lives, std::vector<Bytes>& place,
                const CloseLists& closes, const Devices& devices, std::vector<Tlsf>& allocators,
                RuleProgress& progress);
// Rule 6's error for a buffer whose alloc fails.
Error outgrew_arena(const Schedule& s, const Lifetime& life, Bytes size);

// Rule 7, result, from each planned buffer's place (parallel to lives): one
// arena per entry of `devices` (a device, or for tinygrad a lane of one),
// named by arena_names, ending at the last byte its buffers reach (place +
// phase + bytes) rounded up to the unit of `rounding` (256 in v1);
// placements in order of first appearance. A plan whose arenas on a device
// add up to more than its capacity (docs/model-v2.md#devices) is the
// planner's error, of kind over-capacity: a planner never returns one.
Result<Plan> plan_result(const Schedule& s, const std::vector<Lifetime>& lives, const Devices& devices,
                         const std::vector<Bytes>& place, Rounding rounding = Rounding::DeviceAlign);

// Rule 7 a part at a time, in order of first appearance, so that a planner
// that places the buffers in that order can have the plan made as it goes,
// on another thread. plan_result is one add of every lifetime.
class PlanMaker {
 public:
  // Names the arenas (arena_names); the schedule, lifetimes and devices
  // must outlive it.
  PlanMaker(const Schedule& s, const std::vector<Lifetime>& lives, const Devices& devices,
            Rounding rounding = Rounding::DeviceAlign);

  // Adds the placements of lifetimes [added(), end), lifetime i at place[i];
  // `place` stays readable until finish.
  void add(const Bytes* place, std::size_t end);
  std::size_t added() const { return added_; }

  // The plan once every lifetime is added, or the error of the first buffer,
  // device by device, whose place + phase + bytes passes 2^64, or of a
  // device whose capacity the arenas pass.
  Result<Plan> finish() &&;

 private:
  // The last byte lifetime i reaches, rounded up to its unit; false on overflow.
  bool end_of(std::size_t i, Bytes& end) const;

  const Schedule* schedule_;
  const std::vector<Lifetime>* lives_;
  const Devices* devices_;
  Rounding rounding_;
  const Bytes* place_ = nullptr;
  std::vector<Name> names_;  // the arenas', in the order of the devices
  std::vector<Bytes> size_;  // each arena's size so far
  std::size_t added_ = 0;
  bool overflow_ = false;
  Plan plan_;
};

// Rule 8, rewrite: names for `count` new arenas, "arenaK" with K the
// smallest numbers that no storage of the schedule is named by, in order.
// Rule 7 names the arenas so; the rest of rules 8 to 10 is plan_schedule's.
std::vector<std::string> arena_names(const Schedule& s, std::size_t count);

}  // namespace planck
