#pragma once
// The features of the schedule model (SPEC section 2) that a generated
// schedule may use, each behind a switch, and which of them a schedule uses.

#include <span>
#include <string_view>

#include "model/schedule.h"

namespace planck::gen {

// A size of this many bytes or more is huge.
inline constexpr Bytes kHugeBytes = Bytes{1} << 40;

// The features of the model a schedule may use, all on by default. A switch
// that is off removes its feature from every schedule generated.
struct Features {
  bool range_loops = true;      // range { ... }
  bool flag_loops = true;       // loop flag=ARG { ... }
  bool shrink_views = true;     // shrink(ARG, START, LENGTH)
  bool bitcast_views = true;    // bitcast(ARG, DTYPE)
  bool after_views = true;      // after(ARG)
  bool phases = true;           // buffers with phase=P, P != 0
  bool held = true;             // held buffers
  bool disks = true;            // storage on DISK devices
  bool several_devices = true;  // storage on more than one device that is not a disk
  bool alloc_param = true;      // alloc and param declarations
  bool zero_bytes = true;       // storage of 0 bytes, and shrink views of 0 bytes
  bool huge_sizes = true;       // sizes of kHugeBytes and more, up to near 2^62
  bool copies = true;           // copy calls
  bool unused_storage = true;   // declarations that no entry takes
};

// A feature switch by name, for command lines (`--no-NAME`) and for tests
// that go through every switch.
struct FeatureSwitch {
  std::string_view name;
  std::string_view description;
  bool Features::*on;
};
std::span<const FeatureSwitch> feature_switches();

// Every switch off.
Features no_features();

// `a`, with every feature that `b` switches on switched on as well.
Features& operator|=(Features& a, const Features& b);

// Which features `s` uses: a schedule generated with a switch off never
// uses that feature. For any schedule, a user's included, so that a planner
// that supports part of the model is judged only where it claims to be.
Features used_features(const Schedule& s);

// Whether every feature that `used` marks is switched on in `allowed`.
bool allows(const Features& allowed, const Features& used);

}  // namespace planck::gen
