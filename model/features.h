#pragma once
// The features of the schedule model (docs/formats.md#schedules-sched,
// docs/model-v2.md, docs/model-v3.md), each a switch: which of them a
// schedule uses, which a planner supports (Planner::claimed_features,
// `--features`, the C ABI's planck_planner_features()), and which the
// generators of gen/ may use.

#include <span>
#include <string>
#include <string_view>

#include "model/result.h"
#include "model/schedule.h"

namespace planck {

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
  // Model v2 (docs/model-v2.md).
  bool align = true;            // `device` lines, with an align other than 256
  bool capacity = true;         // `device` lines with a capacity
  bool inputs = true;           // buffers marked `input`
  bool outputs = true;          // buffers marked `output`
  bool state = true;            // buffers marked `state`
  bool inplace = true;          // kernels that declare `inplace=OUT:IN`
  // Model v3 (docs/model-v3.md).
  bool streams = true;          // entries on several streams, `record` and `wait`
  bool local = true;            // buffers marked `local` inside loops
};

// A feature switch by name, for command lines (`--no-NAME`) and for tests
// that go through every switch.
struct FeatureSwitch {
  std::string_view name;
  std::string_view description;
  bool Features::*on;
  int model = 1;  // the model that brings it: 1, 2 (docs/model-v2.md) or 3 (docs/model-v3.md)
};
std::span<const FeatureSwitch> feature_switches();

// Every switch off.
Features no_features();

// Every feature of model v1 on, every feature of v2 and v3 off: what a
// planner that reads `schedule v1` only supports, and what one written
// elsewhere is taken to support unless it says more.
Features v1_features();
// Every feature of models v1 and v2 on, those of v3 off.
Features v2_features();

// `f` with every feature of models v2 and v3 switched off.
Features v1_only(Features f);
// `f` with every feature of model v3 switched off.
Features v2_only(Features f);

// A list of features as `--features` and the C ABI's
// planck_planner_features() give it: names of feature_switches(), and the
// groups `v1` (every feature of v1), `v2` (every feature of v1 and v2), `v3`
// (every feature), and `none`,
// separated by commas; the features it names, no others. An empty list, or a word that
// names nothing, is an error that names it.
Result<Features> parse_features(std::string_view list);

// The shortest list that parse_features reads back as `f`: `v3`, or `v2` or
// `v1` followed by the later features it has, or the names of its features.
std::string features_text(const Features& f);

bool operator==(const Features& a, const Features& b);

// `a`, with every feature that `b` switches on switched on as well.
Features& operator|=(Features& a, const Features& b);

// Which features `s` uses: a schedule generated with a switch off never
// uses that feature. For any schedule, a user's included, so that a planner
// that supports part of the model is judged only where it claims to be.
Features used_features(const Schedule& s);

// Whether every feature that `used` marks is switched on in `allowed`.
bool allows(const Features& allowed, const Features& used);

}  // namespace planck
