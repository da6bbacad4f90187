#pragma once
// Random schedules (docs/formats.md#schedules-sched), valid by construction, from any source
// of choices (gen/choices.h).
//
// By default a schedule exercises every feature of the model: buffers from 0
// bytes to near 2^62, phases, every dtype, one to three devices and up to two
// disks, held buffers, alloc and param, unused storage, views nested up to
// four deep, copies, range and flag loops nested up to three deep, flags
// reached through views, and storage named as arenas would be, so that the
// rewrite has to skip those names. A planner that supports part of the model
// only (docs/verification.md#judging-your-own-planner) is judged on schedules with the rest switched off.

#include "gen/choices.h"
#include "model/features.h"
#include "model/schedule.h"

namespace planck::gen {

struct ScheduleOptions {
  // How large a schedule is, on RapidCheck's scale: at 0, one entry and one
  // declaration; at 100 (the nominal size), from a quarter of max_entries
  // (max_storage) up to max_entries (max_storage); past 100, proportionally
  // more.
  int size = 100;
  int max_entries = 40;     // top-level entries at size 100
  int max_storage = 32;     // declarations at size 100
  int buffer_percent = 76;  // of the declarations; the rest are param and alloc
  int max_devices = 3;      // devices that are not disks, 1 to 4
  int max_disks = 2;        // 0 to 2
  int max_loop_depth = 3;
  int max_view_depth = 4;
  // The most bytes of a storage that is not huge, below 2^40 (and at least
  // one unit, and one element of any dtype).
  Bytes max_bytes = (Bytes{1} << 26) - 1;
  // Every size is a multiple of this and of its dtype's size; a power of two
  // up to 2^20 (others are rounded up to one).
  Bytes bytes_unit = 1;
  // The largest phase, below 2^20.
  Bytes max_phase = 2047;
  Features features;

  // About ten buffers of up to 32 blocks of 256 bytes on one or two devices,
  // for oracles whose cost grows fast (Z3).
  static ScheduleOptions small();
};

// A valid schedule: it prints and parses back to itself, and the sum over all
// its storage of max(256, round_up(phase + bytes, 256)) stays below 2^62, so
// that every planner can plan it and every arena can be written back as a
// declaration. Same draws, same schedule.
Schedule generate_schedule(Choices& choices, const ScheduleOptions& options = {});

// A valid schedule whose planned buffers cannot be placed in 2^64 bytes: an
// ordinary schedule (of `ordinary`, huge sizes and disks off), plus five to
// seven buffers near 2^62 on one device, all taken by one kernel put among
// its entries. Every planner must refuse it with an error.
Schedule generate_unplannable_schedule(Choices& choices, const ScheduleOptions& ordinary = ScheduleOptions::small());

}  // namespace planck::gen
