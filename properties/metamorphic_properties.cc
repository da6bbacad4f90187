// The metamorphic statements of plan_properties.h: a schedule changed in a
// way that changes nothing a planner may look at (names, the order of
// declarations, storage it does not plan, device lines that change no
// block) is planned as it was.

#include "properties/plan_properties.h"

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "gen/choices.h"
#include "gen/schedule_parts.h"
#include "model/schedule_printer.h"
#include "properties/plan_facts.h"

namespace planck::props {
namespace {

using gen::buffer_decl;
using gen::storage_arg;

// A random permutation of 0..n-1, from a seed RapidCheck picks (a
// Fisher-Yates shuffle: std::shuffle's order differs between standard libraries).
std::vector<std::size_t> permutation(std::size_t n, std::uint64_t seed) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  gen::SeededChoices choices(seed);
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[choices.below(i)]);
  return order;
}

// `s` with its storage moved: storage i goes to position to[i].
Schedule move_storage(const Schedule& s, const std::vector<std::size_t>& to) {
  Schedule out = s;
  std::vector<StorageId> renumbered(s.storage.size());
  for (std::size_t i = 0; i < s.storage.size(); ++i) {
    out.storage[to[i]] = s.storage[i];
    renumbered[i] = static_cast<StorageId>(to[i]);
  }
  gen::renumber_storage(out, renumbered);
  return out;
}

// The plan with arenas named by position and buffers by `rename`, for
// comparing plans modulo names.
std::string normalized(const Plan& p, const std::map<std::string, std::string>& rename) {
  std::map<std::string, std::size_t> arena;
  std::string out;
  for (std::size_t i = 0; i < p.arenas.size(); ++i) {
    arena[p.arenas[i].name] = i;
    out += fmt::format("arena #{} {} {}\n", i, p.arenas[i].device, p.arenas[i].size);
  }
  for (const Placement& pl : p.placements) {
    auto name = rename.find(pl.buffer);
    auto in = arena.find(pl.arena);
    out += fmt::format("place {} #{} {}\n", name == rename.end() ? pl.buffer.str() : name->second,
                       in == arena.end() ? std::string("?") : std::to_string(in->second), pl.place);
  }
  return out;
}

void same_plan(const Plan& before, const Plan& after, const Schedule& changed, std::string_view change) {
  if (print_plan(before) == print_plan(after)) return;
  fail(fmt::format("{} changed the plan\nbefore:\n{}after:\n{}changed schedule:\n{}", change, print_plan(before),
                   print_plan(after), print_schedule(changed)));
}

}  // namespace

void renaming_storage_keeps_the_plan(const Planner& planner, const Schedule& s) {
  const std::vector<std::size_t> order = permutation(s.storage.size(), pick_seed());
  Schedule renamed = s;
  std::map<std::string, std::string> back;
  for (std::size_t i = 0; i < s.storage.size(); ++i) {
    renamed.storage[i].name = fmt::format("n{}", order[i]);
    back[renamed.storage[i].name] = s.storage[i].name;
  }
  const Plan before = plan_or_fail(planner, s);
  const Plan after = plan_or_fail(planner, renamed);
  if (normalized(before, {}) == normalized(after, back)) return;
  fail(fmt::format("renaming the storage changed the plan\nbefore:\n{}after:\n{}renamed schedule:\n{}",
                   print_plan(before), print_plan(after), print_schedule(renamed)));
}

void reordering_declarations_keeps_the_plan(const Planner& planner, const Schedule& s) {
  const Schedule reordered = move_storage(s, permutation(s.storage.size(), pick_seed()));
  same_plan(plan_or_fail(planner, s), plan_or_fail(planner, reordered), reordered, "reordering the declarations");
}

void adding_unplanned_storage_keeps_the_plan(const Planner& planner, const Schedule& s) {
  gen::SeededChoices choices(pick_seed());
  auto below = [&](std::size_t n) { return choices.below(n); };
  Schedule more = s;
  std::vector<std::string> devices;
  for (const Storage& st : s.storage) devices.push_back(st.device);
  devices.emplace_back("CUDA:7");

  const std::size_t added = 1 + below(3);
  for (std::size_t k = 0; k < added; ++k) {
    Storage st = buffer_decl("", devices[below(devices.size())], Dtype::Float32, 4 * below(2048));
    bool taken = true;
    switch (below(5)) {
      case 0:
        st.held = true;
        st.phase = below(256);
        break;
      case 1:
        st.device = "DISK:/extra.bin";
        break;
      case 2:
        st.kind = StorageKind::Alloc;
        break;
      case 3:
        st.kind = StorageKind::Param;
        break;
      default:
        taken = false;
        st.phase = below(256);
        break;  // a buffer no entry takes
    }
    st.name = fresh_name(more, "extra");
    const auto id = static_cast<StorageId>(more.storage.size());
    more.storage.push_back(std::move(st));
    if (!taken) continue;
    std::vector<Entry*> kernels;
    std::vector<std::vector<Entry>*> bodies{&more.entries};
    while (!bodies.empty()) {
      std::vector<Entry>* body = bodies.back();
      bodies.pop_back();
      for (Entry& e : *body) {
        if (e.kind == Entry::Kind::Kernel) kernels.push_back(&e);
        if (e.parts) bodies.push_back(&e.parts->body);
      }
    }
    if (kernels.empty()) continue;
    Entry& kernel = *kernels[below(kernels.size())];
    kernel.args.insert(kernel.args.begin() + static_cast<std::ptrdiff_t>(below(kernel.args.size() + 1)),
                       storage_arg(id));
  }
  // The new declarations go to random places among the old ones.
  const std::vector<std::size_t> order = permutation(more.storage.size(), choices.draw(0, std::numeric_limits<std::uint64_t>::max()));
  more = move_storage(more, order);
  same_plan(plan_or_fail(planner, s), plan_or_fail(planner, more), more, "adding unplanned storage");
}

void device_lines_that_change_no_block_keep_the_plan(const Planner& planner, const Schedule& s) {
  if (s.uses_v2()) fail("the statement is for schedules of model v1");
  const Plan plan = plan_or_fail(planner, s);
  gen::SeededChoices choices(pick_seed());
  Schedule lined = s;
  for (const Arena& a : plan.arenas) {
    if (lined.find_device(a.device) != nullptr) continue;
    Bytes total = 0;
    for (const Arena& b : plan.arenas) total += b.device == a.device ? b.size : 0;
    Device d{.name = a.device, .align = Bytes{1} << choices.between(0, 8)};
    if (choices.percent(50)) d.capacity = total + choices.draw(0, 4096);
    lined.devices.push_back(std::move(d));
  }
  same_plan(plan, plan_or_fail(planner, lined), lined, "device lines of align at most 256 and room to spare");
}

}  // namespace planck::props
