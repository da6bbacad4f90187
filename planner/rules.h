#pragma once
// The rules of SPEC section 3 that the planners share, one function per
// rule, defined in order in reference.cc together with the reference
// planner's own (its allocators, its events, the TLSF run). Every planner
// takes rules 1 to 5 and 7 from here and places the buffers its own way;
// rules 8 to 10 turn any planner's plan into the output (plan_schedule.h).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"
#include "planner/options.h"

namespace planck {

// Rule 1, what an entry takes: the storage a top-level entry takes, each
// once, in the order its calls take it; a view passes the storage it views;
// a loop takes its calls' storage, nested loops included, then its flag's.
std::vector<StorageId> taken(const Entry& entry);

// Rule 2, what is planned, without the "taken" part: a buffer that is not
// held and not on a disk.
bool is_plannable(const Storage& s);

// Rule 3, lifetimes: a planned buffer lives from the first top-level entry
// that takes it to the last, inclusive.
struct Lifetime {
  StorageId buffer = 0;
  std::size_t first = 0;
  std::size_t last = 0;
};

// Every planned buffer with its lifetime, in order of first appearance
// (entry by entry, in the order the entries take them).
std::vector<Lifetime> planned_lifetimes(const Schedule& s);

// Rule 4, sizes: rounded_size of each planned buffer, parallel to lives.
Result<std::vector<Bytes>> rounded_sizes(const Schedule& s, const std::vector<Lifetime>& lives);

// Rule 5, arenas: one per device that has a planned buffer, in order of
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

Devices planned_devices(const Schedule& s, const std::vector<Lifetime>& lives);

// Rules 4 and 5 at once, from one read of each planned buffer's record:
// rounded_sizes and planned_devices are each its part of this. A size that
// overflows is rounded_sizes' error.
struct SizesAndDevices {
  std::vector<Bytes> sizes;  // rounded_size of each planned buffer, parallel to lives
  Devices devices;
};
Result<SizesAndDevices> sizes_and_devices(const Schedule& s, const std::vector<Lifetime>& lives);

// Each device's planned buffers, as indices into the lifetimes, in order of
// first appearance; one list per device of `devices`, in its order.
std::vector<std::vector<std::size_t>> lifetimes_by_device(const Devices& devices, std::size_t lives);

// Rule 7, result, from each planned buffer's place (parallel to lives): one
// arena per device of `devices`, named by arena_names, ending at the last
// byte its buffers reach (place + phase + bytes) rounded up to 256;
// placements in order of first appearance.
Result<Plan> plan_result(const Schedule& s, const std::vector<Lifetime>& lives, const Devices& devices,
                         const std::vector<Bytes>& place);

// Rule 7 a part at a time, in order of first appearance, so that a planner
// that places the buffers in that order can have the plan made as it goes,
// on another thread. plan_result is one add of every lifetime.
class PlanMaker {
 public:
  // Names the arenas (arena_names); the schedule, lifetimes and devices
  // must outlive it.
  PlanMaker(const Schedule& s, const std::vector<Lifetime>& lives, const Devices& devices);

  // Adds the placements of lifetimes [added(), end), lifetime i at place[i];
  // `place` stays readable until finish.
  void add(const Bytes* place, std::size_t end);
  std::size_t added() const { return added_; }

  // The plan once every lifetime is added, or the error of the first buffer,
  // device by device, whose place + phase + bytes passes 2^64.
  Result<Plan> finish() &&;

 private:
  // The last byte lifetime i reaches, rounded up to 256; false on overflow.
  bool end_of(std::size_t i, Bytes& end) const;

  const Schedule* schedule_;
  const std::vector<Lifetime>* lives_;
  const Devices* devices_;
  const Bytes* place_ = nullptr;
  std::vector<Name> names_;  // the arenas', in the order of the devices
  std::vector<Bytes> size_;  // each arena's size so far
  std::size_t added_ = 0;
  bool overflow_ = false;
  Plan plan_;
};

// Rule 8, rewrite: names for `count` new arenas, "arenaK" with K the
// smallest numbers that no storage of the schedule is named by, in order.
std::vector<std::string> arena_names(const Schedule& s, std::size_t count);

// Rule 8: the text of the schedule with the plan's arenas in place of its
// planned buffers (rewrite.h). A plan that does not fit the schedule is an error.
Result<std::string> rewritten_text(const Schedule& s, const Plan& p);

// Rule 9, no-op: with NO_MEMORY_PLANNER set, or when the plan places
// nothing, the output is the input, unchanged.
bool is_no_op(const PlanOptions& options, const Plan& p);

// Rule 10, debug: at DEBUG 1 or more, "memory reduced from X MB -> Y MB,
// N -> M bufs"; empty below it, when the two byte totals are equal, or when
// nothing is planned.
std::string debug_line(const PlanOptions& options, const Schedule& s, const Plan& p);

}  // namespace planck
