// The statements of plan_properties.h for model v2 (docs/model-v2.md:
// device align and capacity, in-place kernels, planned inputs, outputs and
// state) and model v3 (docs/model-v3.md: streams and events).

#include "properties/plan_properties.h"

#include <fmt/format.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/schedule_printer.h"
#include "oracle/check/checker.h"
#include "oracle/check/inplace.h"
#include "oracle/check/lifetimes.h"
#include "properties/plan_facts.h"
#include "properties/tlsf_plain.h"

namespace planck::props {

// ---------------------------------------------------------- model v2

namespace {

// Rule 3's lifetimes stretched by `input`, `output` and `state` (docs/model-v2.md):
// from entry 0, to the last entry.
std::vector<Lifetime> stretched_lifetimes(const Schedule& s) {
  std::vector<Lifetime> lives = model_lifetimes(s);
  const std::size_t last = s.entries.empty() ? 0 : s.entries.size() - 1;
  for (Lifetime& l : lives) {
    if (lives_from_start(s.storage[l.buffer])) l.first = 0;
    if (lives_to_end(s.storage[l.buffer])) l.last = last;
  }
  return lives;
}

// Each arena's index in the plan, by name.
std::map<std::string, std::size_t> arena_indices(const Plan& plan) {
  std::map<std::string, std::size_t> out;
  for (std::size_t i = 0; i < plan.arenas.size(); ++i) out.emplace(plan.arenas[i].name, i);
  return out;
}

}  // namespace

void places_respect_the_device_align(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  const PlanIndex index(s, plan);
  for (const Arena& a : plan.arenas) {
    const Bytes align = s.align_of(a.device);
    if (a.size % align != 0) {
      fail(fmt::format("arena {} on {} is {} bytes, not a multiple of the device's align {}\nplan:\n{}", a.name,
                       a.device, a.size, align, print_plan(plan)));
    }
  }
  for (const Lifetime& l : model_lifetimes(s)) {
    const Storage& b = s.storage[l.buffer];
    const Bytes align = s.align_of(b.device);
    const Placement& pl = index.placement(l.buffer);
    if (pl.place % align != 0) {
      fail(fmt::format("{} on {} is placed at {}, not a multiple of the device's align {}\nplan:\n{}", b.name,
                       b.device, pl.place, align, print_plan(plan)));
    }
  }
}

void capacity_holds(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  for (const Device& d : s.devices) {
    if (!d.capacity) continue;
    Bytes total = 0;
    for (const Arena& a : plan.arenas) {
      if (a.device == d.name) total = checked_add(total, a.size).value_or(~Bytes{0});
    }
    if (total > *d.capacity) {
      fail(fmt::format("the arenas of {} add up to {} bytes, past its capacity of {}\nplan:\n{}", d.name, total,
                       *d.capacity, print_plan(plan)));
    }
  }
}

void bytes_shared_only_in_place(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  const PlanIndex index(s, plan);
  const std::map<std::string, std::size_t> arenas = arena_indices(plan);
  const std::vector<Lifetime> lives = stretched_lifetimes(s);
  const std::vector<Lifetime> checked = oracle::planned_buffers(s);  // the rule refers to it
  const oracle::InPlaceRule inplace(s, checked);
  std::vector<oracle::InPlaceSpot> spot(s.storage.size());
  for (const Lifetime& l : lives) {
    const Arena& a = index.arena_of(l.buffer);
    if (a.device != s.storage[l.buffer].device) {
      fail(fmt::format("{} on {} is placed in {} on {}", s.storage[l.buffer].name, s.storage[l.buffer].device,
                       a.name, a.device));
    }
    const auto bytes = index.bytes_of(l.buffer);
    if (bytes.end > a.size) {
      fail(fmt::format("{} uses bytes {}, past the end of {} ({} bytes)\nplan:\n{}", s.storage[l.buffer].name,
                       range(bytes), a.name, a.size, print_plan(plan)));
    }
    spot[l.buffer] = {.arena = arenas.at(a.name), .place = index.placement(l.buffer).place};
  }
  for (std::size_t i = 0; i < lives.size(); ++i) {
    for (std::size_t j = i + 1; j < lives.size(); ++j) {
      const StorageId x = lives[i].buffer;
      const StorageId y = lives[j].buffer;
      // Buffers in different arenas never conflict (docs/model-v2.md).
      if (spot[x].arena != spot[y].arena || !alive_together(lives[i], lives[j])) continue;
      if (!index.bytes_of(x).overlaps(index.bytes_of(y))) continue;
      if (inplace.allows(x, spot[x], y, spot[y])) continue;
      const Storage& a = s.storage[x];
      const Storage& b = s.storage[y];
      fail(fmt::format("{} (entries {}..{}, bytes {}) and {} (entries {}..{}, bytes {}) are alive together in {} "
                       "and share bytes, and no in-place kernel lets them\nplan:\n{}",
                       a.name, lives[i].first, lives[i].last, range(index.bytes_of(x)), b.name, lives[j].first,
                       lives[j].last, range(index.bytes_of(y)), plan.arenas[spot[x].arena].name, print_plan(plan)));
    }
  }
}

void planned_inputs_outputs_and_state_live_through_the_run(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  const PlanIndex index(s, plan);
  const std::vector<Lifetime> used = model_lifetimes(s);
  const std::vector<Lifetime> lives = stretched_lifetimes(s);
  for (std::size_t i = 0; i < used.size(); ++i) {
    const Storage& b = s.storage[used[i].buffer];
    if (b.io == 0) continue;
    // The entries the caller adds to the buffer's own: before its first use,
    // after its last.
    const std::pair<std::size_t, std::size_t> added[] = {
        {lives_from_start(b) ? 0 : used[i].first, used[i].first},
        {used[i].last + 1, lives_to_end(b) ? lives[i].last + 1 : used[i].last + 1}};
    for (const Lifetime& other : lives) {
      if (other.buffer == used[i].buffer) continue;
      if (index.placement(other.buffer).arena != index.placement(used[i].buffer).arena) continue;
      for (const auto& [from, to] : added) {
        if (from >= to || other.first >= to || other.last < from) continue;
        const auto x = index.bytes_of(used[i].buffer);
        const auto y = index.bytes_of(other.buffer);
        if (!x.overlaps(y)) continue;
        fail(fmt::format("{} ({}, used in entries {}..{}) holds bytes {} for the caller in entries {}..{}, but {} "
                         "(entries {}..{}) uses bytes {}\nplan:\n{}",
                         b.name, b.io == kState ? "state" : (lives_from_start(b) ? "input" : "output"),
                         used[i].first, used[i].last, range(x), from, to - 1, s.storage[other.buffer].name,
                         other.first, other.last, range(y), print_plan(plan)));
      }
    }
  }
}

// ---------------------------------------------------------- model v3

void conflicting_buffers_share_no_bytes(const Planner& planner, const Schedule& s) {
  plan_passes(planner, s, "plain checker", &oracle::check_plan_quadratic);
}

namespace {

// Fails when the checker rejects `plan`, a valid plan of the schedule
// `before`, for the schedule `after`, which orders as much or more.
void still_valid(const Plan& plan, const Schedule& after, std::string_view change) {
  const std::vector<oracle::Violation> violations = oracle::check_plan(after, plan);
  if (violations.empty()) return;
  fail(fmt::format("a valid plan becomes invalid {}: {}\nschedule after:\n{}plan:\n{}", change,
                   violations.front().message, print_schedule(after), print_plan(plan)));
}

}  // namespace

void a_plan_stays_valid_on_one_stream(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  if (!oracle::check_plan(s, plan).empty()) return;  // plan_passes_checker's to report
  Schedule one = s;
  std::erase_if(one.entries, [](const Entry& e) { return e.kind == Entry::Kind::Record || e.kind == Entry::Kind::Wait; });
  for (Entry& e : one.entries) e.stream = 0;
  still_valid(plan, one, "when every entry runs on one stream");
}

void a_plan_stays_valid_with_one_more_wait(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  if (s.entries.size() < 2 || !oracle::check_plan(s, plan).empty()) return;
  // The first entry, and the last on another stream, if any.
  std::size_t later = s.entries.size();
  for (std::size_t i = s.entries.size(); i-- > 1;) {
    if (s.entries[i].stream != s.entries[0].stream) {
      later = i;
      break;
    }
  }
  if (later == s.entries.size()) return;
  Schedule more = s;
  Entry record{.kind = Entry::Kind::Record, .stream = s.entries[0].stream};
  record.name = "added_event";
  Entry wait{.kind = Entry::Kind::Wait, .stream = s.entries[later].stream};
  wait.name = "added_event";
  more.entries.insert(more.entries.begin() + static_cast<std::ptrdiff_t>(later), std::move(wait));
  more.entries.insert(more.entries.begin() + 1, std::move(record));
  still_valid(plan, more, "with one more wait");
}

}  // namespace planck::props
