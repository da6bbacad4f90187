#pragma once
// What the statements of plan_properties.h read from a plan and how they
// end a RapidCheck case: the planner's plan or a failure, a buffer's
// rounded size, the plan's places by buffer, which lifetimes and byte ranges
// meet, and the seeds and names a statement's changes to a schedule draw.

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/lifetime.h"
#include "model/plan.h"
#include "model/ranges.h"
#include "model/schedule.h"
#include "oracle/check/checker.h"
#include "planner/planner.h"

namespace planck::props {

// Ends the RapidCheck case as failed, saying what.
[[noreturn]] void fail(std::string what);

// The planner's plan; a refusal to pass a capacity too small for the
// buffers side by side ends the case as passed; any other failure fails it.
Plan plan_or_fail(const Planner& planner, const Schedule& s);

// phase + bytes rounded up to kPlaceAlign: the bytes the reference planner
// sets aside for the buffer.
Bytes rounded(const Storage& st);

// The plan's placements and arenas by name, and each planned buffer's place.
class PlanIndex {
 public:
  PlanIndex(const Schedule& s, const Plan& p) : s_(s), p_(p) {
    for (const Arena& a : p.arenas) {
      if (!arenas_.emplace(a.name, &a).second) fail(fmt::format("arena {} is declared twice", a.name));
    }
    for (const Placement& pl : p.placements) {
      if (!placements_.emplace(pl.buffer, &pl).second) fail(fmt::format("{} is placed twice", pl.buffer));
    }
  }

  const Placement& placement(StorageId id) const {
    auto it = placements_.find(s_.storage[id].name);
    if (it == placements_.end()) fail(fmt::format("planned buffer {} is not placed", s_.storage[id].name));
    return *it->second;
  }

  const Arena& arena_of(StorageId id) const {
    const Placement& pl = placement(id);
    auto it = arenas_.find(pl.arena);
    if (it == arenas_.end())
      fail(fmt::format("{} is placed in {}, which the plan does not declare", pl.buffer, pl.arena));
    return *it->second;
  }

  // [place + phase, place + phase + bytes): the bytes the buffer uses.
  ByteRange bytes_of(StorageId id) const {
    const Storage& b = s_.storage[id];
    const Placement& pl = placement(id);
    std::optional<Bytes> begin = checked_add(pl.place, b.phase);
    std::optional<Bytes> end = begin ? checked_add(*begin, b.bytes) : std::nullopt;
    if (!end) fail(fmt::format("{} placed at {} ends past 2^64", b.name, pl.place));
    return {*begin, *end};
  }

  const Arena* device_arena(const std::string& device) const {
    const Arena* found = nullptr;
    for (const Arena& a : p_.arenas) {
      if (a.device != device) continue;
      if (found != nullptr) fail(fmt::format("device {} has two arenas, {} and {}", device, found->name, a.name));
      found = &a;
    }
    return found;
  }

 private:
  const Schedule& s_;
  const Plan& p_;
  std::map<std::string, const Arena*> arenas_;
  std::map<std::string, const Placement*> placements_;
};

// Whether two lifetimes have an entry in common.
bool alive_together(const Lifetime& a, const Lifetime& b);

// "[begin, end)".
std::string range(ByteRange r);

// Fails with every violation `check` (the checker named `checker`) finds in
// planner's plan of s.
void plan_passes(const Planner& planner, const Schedule& s, std::string_view checker,
                 std::vector<oracle::Violation> (*check)(const Schedule&, const Plan&));

// A seed RapidCheck picks and never shrinks, for the random choices of a
// change a statement makes to a schedule.
std::uint64_t pick_seed();

// A name no storage of s has: `stem` followed by the least number that makes
// it new.
std::string fresh_name(const Schedule& s, std::string_view stem);

}  // namespace planck::props
