#include "tools/quality.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

#include "model/name_index.h"

namespace planck::cli {
namespace {

double seconds_until(std::chrono::steady_clock::time_point deadline) {
  const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
  return std::max(left, 0.0);
}

}  // namespace

std::optional<oracle::Offsets> plan_offsets(const Plan& plan, const oracle::DevicePacking& d) {
  if (d.has_inplace) return std::nullopt;
  // Plans mostly place the buffers in the order the items come, that of
  // first appearance, so placement k is tried for item k first, and only a
  // plan in another order is indexed by name.
  std::optional<NameIndex> placed;  // by buffer name, into plan.placements
  auto placement_of = [&](std::size_t k, const std::string& name) -> std::optional<std::size_t> {
    if (k < plan.placements.size() && plan.placements[k].buffer == name) return k;
    if (!placed) {
      placed.emplace(plan.placements.size(),
                     [&](std::size_t i) -> std::string_view { return plan.placements[i].buffer; });
      placed->emplace_each(plan.placements.size(), [](std::size_t, std::size_t) {});
    }
    return placed->find(name);
  };
  oracle::Offsets offsets;
  offsets.reserve(d.problem.items.size());
  const Name* arena = nullptr;  // the one arena of the device's placements
  for (std::size_t k = 0; k < d.problem.items.size(); ++k) {
    const oracle::PackingItem& item = d.problem.items[k];
    const std::optional<std::size_t> at = placement_of(k, item.name);
    if (!at || plan.placements[*at].place % d.unit != 0) return std::nullopt;
    // Places in several arenas of the device are no one placement.
    if (arena != nullptr && plan.placements[*at].arena != *arena) return std::nullopt;
    arena = &plan.placements[*at].arena;
    // An item of no bytes takes no room anywhere; the oracle keeps those at 0.
    offsets.push_back(item.size == 0 ? 0 : plan.placements[*at].place / d.unit);
  }
  return offsets;
}

Result<std::vector<DeviceQuality>> plan_quality(const Schedule& s, const Plan& plan, bool plan_valid,
                                                std::optional<std::chrono::steady_clock::time_point> deadline) {
  PLANCK_ASSIGN(const std::vector<oracle::DevicePacking> devices, oracle::schedule_packings(s));
  std::vector<DeviceQuality> out;
  for (const oracle::DevicePacking& d : devices) {
    DeviceQuality q{d.device, d.buffers.size(), 0, 0, std::nullopt, d.unit, d.has_inplace};
    // A device's memory is the sum of its arenas (several in v2).
    for (const Arena& a : plan.arenas) {
      if (a.device == d.device) q.arena = checked_add(q.arena, a.size).value_or(~Bytes{0});
    }
    PLANCK_ASSIGN(q.lower_bound, oracle::arena_lower_bound(d));
    if (deadline) {
      oracle::OptimumOptions options;
      options.timeout_seconds = seconds_until(*deadline);
      if (plan_valid) options.incumbent = plan_offsets(plan, d);
      PLANCK_ASSIGN(q.optimum, oracle::solve_optimum(d.problem, options));
    }
    out.push_back(std::move(q));
  }
  return out;
}

std::optional<Bytes> unit_bytes(Bytes units, Bytes unit) {
  const std::optional<Bytes> b = checked_mul(units, unit);
  if (!b || *b > kMaxBytes) return std::nullopt;
  return b;
}

std::string bytes_text(Bytes units, Bytes unit) {
  const std::optional<Bytes> b = unit_bytes(units, unit);
  return b ? std::to_string(*b) : fmt::format("more than {} (2^62)", kMaxBytes);
}

nlohmann::ordered_json bytes_json(Bytes units, Bytes unit) {
  const std::optional<Bytes> b = unit_bytes(units, unit);
  return b ? nlohmann::ordered_json(*b) : nlohmann::ordered_json(nullptr);
}

std::string ratio_text(Bytes arena, Bytes lower) {
  if (lower == 0) return arena == 0 ? "1.000" : "-";
  return fmt::format("{:.3f}", static_cast<double>(arena) / static_cast<double>(lower));
}

std::string quality_text(const std::string& plan, const std::vector<DeviceQuality>& q, Bytes scale) {
  std::string out;
  for (const DeviceQuality& d : q) {
    out += fmt::format("{}: device {}: arena {}, lower bound {} (ratio {})", plan, d.device, d.arena / scale,
                       d.lower_bound / scale, ratio_text(d.arena, d.lower_bound));
    if (d.optimum) {
      const oracle::OptimumResult& r = *d.optimum;
      const Bytes unit = std::max<Bytes>(1, d.unit / scale);
      out += r.status == oracle::OptimumStatus::Optimal
                 ? fmt::format(", optimum {} (optimal)", bytes_text(r.upper_bound, unit))
                 : fmt::format(", optimum between {} and {} ({})", bytes_text(r.lower_bound, unit),
                               bytes_text(r.upper_bound, unit), oracle::status_name(r.status));
    }
    if (d.inplace_excluded) out += "; in-place sharing: left out of the bound";
    out += "\n";
  }
  return out;
}

nlohmann::ordered_json quality_json(const std::vector<DeviceQuality>& q, Bytes scale) {
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  for (const DeviceQuality& d : q) {
    nlohmann::ordered_json one{{"device", d.device},
                               {"buffers", d.buffers},
                               {"arena", d.arena / scale},
                               {"lower_bound", d.lower_bound / scale}};
    if (d.inplace_excluded) one["inplace_excluded"] = true;  // as planck oracle says it
    if (d.optimum) {
      const Bytes unit = std::max<Bytes>(1, d.unit / scale);
      one["optimum"] = {{"status", oracle::status_name(d.optimum->status)},
                        {"lower_bound", bytes_json(d.optimum->lower_bound, unit)},
                        {"upper_bound", bytes_json(d.optimum->upper_bound, unit)}};
    }
    devices.push_back(std::move(one));
  }
  return devices;
}

std::uint64_t violation_count(const oracle::CheckReport& found) {
  return found.violations.size() + found.unlisted_overlaps;
}

void add_check_json(nlohmann::ordered_json& object, const oracle::CheckReport& found) {
  nlohmann::ordered_json violations = nlohmann::ordered_json::array();
  for (const oracle::Violation& v : found.violations) {
    violations.push_back({{"rule", oracle::rule_name(v.rule)}, {"message", v.message}});
  }
  object["valid"] = violation_count(found) == 0;
  object["violation_count"] = violation_count(found);
  object["violations"] = std::move(violations);
  object["unlisted_overlaps"] = found.unlisted_overlaps;
}

}  // namespace planck::cli
