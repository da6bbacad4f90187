#pragma once
// Model v3 as the planners read it (docs/model-v3.md#the-conflict-rule): two
// planned buffers may share bytes unless they conflict, that is unless every
// use of one comes before every use of the other: at the top level, happens
// before over streams and events; inside the innermost loop around two
// local buffers, their positions in its body. Internal to planner/; the
// checker reads the rule with code of its own.
//
// The heuristics find the buffers a buffer may conflict with through its
// lifetime, so each lifetime is widened to a window that holds every buffer
// it conflicts with: its file-order lifetime, stretched to the last entry,
// on any stream, before which its uses are not all ordered.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "model/features.h"
#include "model/lifetime.h"
#include "model/result.h"
#include "model/schedule.h"
#include "planner/planner.h"

namespace planck {

// Ok when every entry of s runs on one stream; else the error, of kind
// "planner-streams", by which `planner` (which plans by top-level entries in
// file order) refuses s, naming its streams and the planners that plan it.
Status refuse_streams(const Schedule& s, std::string_view planner);

// The features of the planners that plan one stream in file order: every
// feature of the model but streams.
Features one_stream_features();

// The planner called `name` that plans one
// stream in file order with `plan` (tlsf, tinygrad): it claims
// one_stream_features() and refuses a schedule whose entries run on several
// streams (refuse_streams) before `plan` plans it.
using OneStreamPlan = Result<Plan> (*)(const Schedule& s);
std::unique_ptr<Planner> one_stream_planner(std::string_view name, OneStreamPlan plan);

class ConflictRule {
 public:
  // `lives` is planned_lifetimes(s); both must outlive the rule.
  ConflictRule(const Schedule& s, const std::vector<Lifetime>& lives);

  // Whether lifetimes a and b (indices into `lives`) conflict.
  bool conflict(std::size_t a, std::size_t b) const;
  // The last entry of the window of lifetime a: every lifetime that
  // conflicts with a and starts after it starts by then.
  std::size_t window_last(std::size_t a) const { return window_last_[a]; }
  // Whether a top-level kernel at `entry` may write `out` over `in`
  // (lifetimes) by the order of uses: every other use of in before entry,
  // entry before every other use of out.
  bool inplace_ordered(std::size_t out, std::size_t in, std::size_t entry) const;

 private:
  struct OnStream {
    StreamId stream;
    std::size_t first;
    std::size_t last;
  };
  struct Uses {
    std::vector<OnStream> streams;
    std::size_t loop = kNoLoop;  // a local buffer's loop (into loops_)
    std::size_t pos_first = 0;
    std::size_t pos_last = 0;
  };
  struct Loop {
    std::size_t parent;
    std::size_t position;
    std::size_t depth;
  };
  static constexpr std::size_t kNoLoop = static_cast<std::size_t>(-1);
  static constexpr std::uint32_t kNone = UINT32_MAX;

  bool before(std::size_t a, std::size_t b) const;     // lifetimes
  bool happens_before(std::size_t e, std::size_t f) const;  // entries
  std::size_t common_loop(std::size_t a, std::size_t b) const;  // lifetimes
  std::size_t innermost_around(std::size_t x, std::size_t y) const;  // loops
  std::pair<std::size_t, std::size_t> positions(std::size_t a, std::size_t loop) const;

  const Schedule& s_;
  const std::vector<Lifetime>& lives_;
  bool one_stream_ = true;
  // Happens-before: one clock row per wait, one component per stream that
  // records; past a bound, every pair of entries on two streams is taken as
  // unordered, which plans safely with less reuse.
  bool clocks_ = true;
  std::size_t dims_ = 0;
  std::vector<StreamId> stream_;
  std::vector<std::uint32_t> seq_;
  std::vector<std::uint32_t> last_wait_;  // by entry: its stream's last wait at or before it
  std::vector<std::uint32_t> dim_;        // by stream
  std::vector<std::uint32_t> row_;        // by wait entry: its clock row
  std::vector<std::uint32_t> rows_;
  std::vector<Loop> loops_;
  std::vector<Uses> uses_;
  std::vector<std::size_t> window_last_;
};

}  // namespace planck
