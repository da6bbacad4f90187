#include "properties/broken_planners.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>

#include "planner/rules.h"
#include "planner/tlsf.h"
#include "properties/tlsf_plain.h"

namespace planck::props {
namespace {

struct Life {
  StorageId buffer = 0;
  std::size_t open = 0;   // when its bytes are taken
  std::size_t close = 0;  // when they are free again
};

bool planned_kind(const Storage& st) { return st.kind == StorageKind::Buffer && !st.held && !is_disk(st.device); }

// Times are calls: each call inside a loop is a step of its own, the flag
// is taken one step after the loop's body.
void call_times(const Schedule& s, const std::vector<Entry>& body, std::size_t& now, std::vector<Life>& out) {
  auto take = [&](const Arg& a) {
    const StorageId id = storage_of(a);
    if (!planned_kind(s.storage[id])) return;
    auto known = std::find_if(out.begin(), out.end(), [&](const Life& l) { return l.buffer == id; });
    if (known == out.end()) {
      out.push_back({id, now, now + 1});
    } else {
      known->close = now + 1;
    }
  };
  for (const Entry& e : body) {
    for (const Arg& a : e.args) take(a);
    if (e.kind == Entry::Kind::Kernel || e.kind == Entry::Kind::Copy) ++now;
    call_times(s, e.body(), now, out);
    if (!e.flag().empty()) {
      take(e.flag().front());
      ++now;
    }
  }
}

std::vector<Life> lives(const Schedule& s, Bug bug) {
  std::vector<Life> out;
  if (bug == Bug::LoopsNotExtended) {
    std::size_t now = 0;
    call_times(s, s.entries, now, out);
    return out;
  }
  for (const Lifetime& l : model_lifetimes(s)) {
    const std::size_t close = bug == Bug::OffByOneLifetimes ? std::max(l.last, l.first + 1) : l.last + 1;
    out.push_back({l.buffer, l.first, close});
  }
  return out;
}

class BrokenPlanner final : public Planner {
 public:
  explicit BrokenPlanner(Bug bug) : bug_(bug) {}

  std::string_view name() const override { return bug_name(bug_); }

  Result<Plan> plan(const Schedule& s) const override {
    const std::vector<Life> life = lives(s, bug_);
    Plan plan;
    if (life.empty()) return plan;

    std::vector<Bytes> size;
    Bytes total = 0;
    for (const Life& l : life) {
      const Storage& b = s.storage[l.buffer];
      std::optional<Bytes> bytes = bug_ == Bug::PhaseIgnored ? b.bytes : checked_add(b.phase, b.bytes);
      if (bytes && bug_ != Bug::AlignmentIgnored) bytes = checked_round_up(*bytes, kPlaceAlign);
      std::optional<Bytes> sum = bytes ? checked_add(total, std::max(kPlaceAlign, *bytes)) : std::nullopt;
      if (!sum) return Error{"", fmt::format("byte count overflow at buffer {}", b.name)};
      size.push_back(*bytes);
      total = *sum;
    }
    std::optional<Bytes> capacity = checked_mul(total, 2);
    if (!capacity) return Error{"", "byte count overflow: twice the sum of planned sizes"};

    std::vector<std::pair<std::size_t, std::size_t>> times;
    for (const Life& l : life) times.push_back({l.open, l.close});
    const std::vector<ModelEvent> events =
        model_events(times, bug_ == Bug::FreeAfterPlace ? AtEqualTimes::OpenFirst : AtEqualTimes::CloseFirst);

    const Bytes block = bug_ == Bug::AlignmentIgnored ? 32 : kPlaceAlign;
    std::vector<std::string> devices;
    std::vector<Tlsf> allocators;
    std::vector<std::size_t> device(life.size(), 0);
    std::vector<Bytes> place(life.size(), 0);
    for (const ModelEvent& ev : events) {
      const Storage& b = s.storage[life[ev.life].buffer];
      auto known = std::find(devices.begin(), devices.end(), b.device);
      if (known == devices.end()) {
        Result<Tlsf> tlsf = Tlsf::create(*capacity, block, 32);
        if (!tlsf) return tlsf.error();
        devices.push_back(b.device);
        allocators.push_back(std::move(*tlsf));
        known = devices.end() - 1;
      }
      device[ev.life] = static_cast<std::size_t>(known - devices.begin());
      Tlsf& tlsf = allocators[device[ev.life]];
      if (!ev.open) {
        if (Status freed = tlsf.free(place[ev.life]); !freed) return freed.error();
        continue;
      }
      std::optional<Bytes> at = tlsf.alloc(size[ev.life]);
      if (!at) return Error{"", fmt::format("the memory plan outgrew its arena: buffer {}", b.name)};
      place[ev.life] = *at;
    }

    std::vector<Bytes> arena(devices.size(), 0);
    for (std::size_t i = 0; i < life.size(); ++i) {
      const Storage& b = s.storage[life[i].buffer];
      std::optional<Bytes> end = checked_add(place[i], b.bytes);
      if (end && bug_ != Bug::PhaseIgnored) end = checked_add(*end, b.phase);
      if (end) end = checked_round_up(*end, kPlaceAlign);
      if (!end) return Error{"", fmt::format("byte count overflow at buffer {}", b.name)};
      arena[device[i]] = std::max(arena[device[i]], *end);
    }
    const std::vector<std::string> names = arena_names(s, devices.size());
    for (std::size_t d = 0; d < devices.size(); ++d) plan.arenas.push_back({names[d], devices[d], arena[d], {}});
    for (std::size_t i = 0; i < life.size(); ++i) {
      plan.placements.push_back({s.storage[life[i].buffer].name, names[device[i]], place[i], {}});
    }
    return plan;
  }

 private:
  Bug bug_;
};

}  // namespace

std::string_view bug_name(Bug bug) {
  switch (bug) {
    case Bug::OffByOneLifetimes:
      return "off_by_one_lifetimes";
    case Bug::LoopsNotExtended:
      return "loops_not_extended";
    case Bug::PhaseIgnored:
      return "phase_ignored";
    case Bug::AlignmentIgnored:
      return "alignment_ignored";
    case Bug::FreeAfterPlace:
      return "free_after_place";
  }
  return "?";
}

std::vector<Bug> all_bugs() {
  return {Bug::OffByOneLifetimes, Bug::LoopsNotExtended, Bug::PhaseIgnored, Bug::AlignmentIgnored, Bug::FreeAfterPlace};
}

std::unique_ptr<Planner> make_broken_planner(Bug bug) { return std::make_unique<BrokenPlanner>(bug); }

}  // namespace planck::props
