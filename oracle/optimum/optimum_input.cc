#include "oracle/optimum/optimum_input.h"

#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "oracle/check/inplace.h"
#include "oracle/check/lifetimes.h"
#include "oracle/check/order.h"

namespace planck::oracle {
namespace {

// A word of a plan file: no blank, no comment sign, no control byte.
bool plan_word(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == ' ' || c == '#' || u < 0x20 || u == 0x7f) return false;
  }
  return true;
}

Result<Bytes> to_bytes(Bytes units, Bytes unit, const std::string& what) {
  std::optional<Bytes> b = checked_mul(units, unit);
  if (!b) return Error{"", fmt::format("{}: {} units of {} bytes overflow", what, units, unit)};
  return *b;
}


}  // namespace

PackingProblem interval_packing(const IntervalProblem& p) {
  PackingProblem out;
  out.items.reserve(p.buffers.size());
  for (const Interval& b : p.buffers) out.items.push_back({b.id, b.size, b.lower, b.upper});
  return out;
}

Result<Plan> interval_plan(const IntervalProblem& p, const Offsets& offsets, Bytes arena) {
  Plan plan;
  plan.arenas.push_back({"arena0", "CSV", arena, {}});
  for (std::size_t i = 0; i < p.buffers.size() && i < offsets.size(); ++i) {
    const Interval& b = p.buffers[i];
    if (!plan_word(b.id)) {
      return Error{fmt::format("{}:{}:1", p.source, b.line),
                   fmt::format("id `{}` cannot name a buffer in a plan file", b.id)};
    }
    plan.placements.push_back({b.id, "arena0", offsets[i], {}});
  }
  return plan;
}

Result<std::vector<DevicePacking>> schedule_packings(const Schedule& s) {
  std::vector<DevicePacking> devices;
  const std::vector<Lifetime> planned = planned_buffers(s);
  // The storage some kernel, at any depth, declares in place.
  const InPlaceRule inplace(s, planned);
  std::vector<bool> in_pair;
  if (!inplace.empty()) {
    in_pair.assign(s.storage.size(), false);
    for (const InPlaceDeclaration& d : inplace.declarations()) in_pair[d.pair.out] = in_pair[d.pair.in] = true;
  }
  for (const Lifetime& life : planned) {
    const Storage& st = s.storage[life.buffer];
    DevicePacking* d = nullptr;
    for (DevicePacking& known : devices) {
      if (known.device == st.device) d = &known;
    }
    if (d == nullptr) {
      devices.push_back({st.device, {}, {}, s.align_of(st.device), s.capacity_of(st.device), false});
      d = &devices.back();
    }
    const Result<Bytes> rounded = rounded_size(st, d->unit);
    if (!rounded) {
      return Error{fmt::format("{}:{}:{}", s.source, st.pos.line, st.pos.col),
                   fmt::format("buffer {}: phase {} + {} bytes, rounded up to {}, overflows",
                               st.name, st.phase, st.bytes, d->unit)};
    }
    d->has_inplace = d->has_inplace || (!in_pair.empty() && in_pair[life.buffer]);
    d->buffers.push_back(life.buffer);
    d->problem.items.push_back({st.name, *rounded / d->unit,
                                static_cast<std::int64_t>(life.first),
                                static_cast<std::int64_t>(life.last) + 1});
  }
  if (s.version() >= 3) {
    const UseOrder order(s, planned);
    for (DevicePacking& d : devices) {
      if (d.buffers.size() > kConflictItems) {
        d.unpaired = true;
        continue;
      }
      auto& pairs = d.problem.conflicts.emplace();
      for (std::size_t i = 0; i < d.buffers.size(); ++i) {
        const BufferUses& a = *order.uses(d.buffers[i]);
        for (std::size_t j = i + 1; j < d.buffers.size(); ++j) {
          if (order.conflict(a, *order.uses(d.buffers[j]))) pairs.emplace_back(i, j);
        }
      }
    }
  }
  return devices;
}

Result<Bytes> arena_lower_bound(const DevicePacking& d) {
  std::optional<Bytes> peak = d.unpaired ? conflict_lower_bound(d.problem) : peak_live(d.problem);
  const std::optional<Bytes> bytes = peak ? checked_mul(*peak, d.unit) : std::nullopt;
  if (!bytes) return Error{"", fmt::format("device {}: the peak of live bytes passes 2^64", d.device)};
  return *bytes;
}

Result<Plan> schedule_plan(const Schedule& s, const std::vector<DevicePacking>& devices,
                           const std::vector<Offsets>& offsets, const std::vector<Bytes>& arenas) {
  std::unordered_set<std::string> taken;
  for (const Storage& st : s.storage) taken.insert(st.name);
  Plan plan;
  std::size_t k = 0;
  for (std::size_t d = 0; d < devices.size() && d < offsets.size() && d < arenas.size(); ++d) {
    std::string name;
    do {
      name = fmt::format("arena{}", k++);
    } while (taken.count(name) != 0);
    const Bytes unit = devices[d].unit;
    PLANCK_ASSIGN(const Bytes size, to_bytes(arenas[d], unit, "the arena of device " + devices[d].device));
    plan.arenas.push_back({name, devices[d].device, size, {}});
    for (std::size_t i = 0; i < devices[d].buffers.size() && i < offsets[d].size(); ++i) {
      const Name& buffer = s.storage[devices[d].buffers[i]].name;
      PLANCK_ASSIGN(const Bytes place, to_bytes(offsets[d][i], unit, "the place of buffer " + buffer));
      plan.placements.push_back({buffer, name, place, {}});
    }
  }
  return plan;
}

}  // namespace planck::oracle
