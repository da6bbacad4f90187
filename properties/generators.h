#pragma once
// RapidCheck generators of schedules (SPEC section 2), valid by construction,
// and the shrinker that turns a failing schedule into a small one.
//
// A generated schedule exercises every feature of the model: buffers from 0
// bytes to near 2^62, phases, every dtype, one to three devices and up to two
// disks, held buffers, alloc and param, unused storage, views nested up to
// four deep, copies, range and flag loops nested up to three deep, and flags
// reached through views.
//
// Shrinking does not go through RapidCheck's generic shrinks of the random
// choices: those would break the schedule's cross references (a shrink view
// must fit its base, a bitcast must divide it). The shrinker edits the
// schedule itself instead, every edit keeping it valid and making it strictly
// smaller, so a failure shrinks to the few entries that cause it.

#include <rapidcheck.h>

#include <cstddef>
#include <string>
#include <vector>

#include "model/schedule.h"
#include "properties/show.h"

namespace planck::props {

struct ScheduleOptions {
  int max_devices = 3;  // devices with planned buffers, at least one
  int max_disks = 2;
  int max_storage = 32;     // declarations, at the largest size
  int buffer_percent = 76;  // of the declarations; the rest are param and alloc
  int max_entries = 40;     // top-level entries, at the largest size
  int max_loop_depth = 3;
  int max_view_depth = 4;
  // Some sizes near 2^62. The sum over all storage of max(256, rounded size)
  // stays below 2^62 all the same, so that every planner can plan the
  // schedule and every arena can be written back as a declaration.
  bool huge_sizes = true;
  // The most bytes of a storage that is not huge, below 2^26.
  Bytes max_bytes = Bytes{1} << 26;
  // Whether RapidCheck sizes past the nominal 100 give longer schedules.
  bool longer_past_nominal_size = true;

  // About ten buffers of up to 32 blocks of 256 bytes on one or two devices,
  // for oracles whose cost grows fast (Z3).
  static ScheduleOptions small();
};

// Schedules as described above; RapidCheck's size scales their length, and
// sizes past the nominal 100 (RC_PARAMS max_size) give longer schedules.
rc::Gen<Schedule> schedules(ScheduleOptions options = {});

// Schedules whose planned buffers cannot be placed in 2^64 bytes: five or
// more buffers near 2^62 on one device, all taken by one kernel, after some
// ordinary entries. Every planner must refuse them with an error.
rc::Gen<Schedule> overflowing_schedules();

// The shrinks of a schedule, most effective first: fewer entries, loops
// flattened into their bodies or collapsed into one kernel that takes what
// they take, flag loops made ranges, copies made kernels, fewer arguments, view
// layers dropped, unused declarations dropped, then simpler storage (sizes to
// 0, 256 or half, no phase, not held, int8, fewer distinct devices). Each is
// a valid schedule strictly smaller than `s` by shrink_measure.
rc::Seq<Schedule> shrink_schedule(const Schedule& s);

// What every shrink makes smaller, compared lexicographically: entries at
// every depth, flag loops, copies, arguments, view layers, declarations, the sum of
// the bit lengths of the sizes, nonzero phases, held buffers, dtypes other
// than int8 (declared or bitcast), the sum of the devices' ranks in name
// order, shrink views that start past 0.
std::vector<std::size_t> shrink_measure(const Schedule& s);

// Model values built in code: an argument that names storage, a kernel
// call, a buffer declaration (not held, phase 0).
Arg storage_arg(StorageId id);
Entry kernel_call(std::string name, std::vector<Arg> args = {});
Storage buffer_decl(std::string name, std::string device, Dtype dtype, Bytes bytes);

// Entries at every depth: calls and loops.
std::size_t count_entries(const Schedule& s);

// Clamps every shrink view to its base and turns every bitcast that no
// longer divides its base into int8, so that a schedule whose storage got
// smaller is valid again.
void repair_views(Schedule& s);

}  // namespace planck::props
