#include "harness/gate.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "model/features.h"
#include "harness/verify.h"
#include "model/live_bytes.h"

namespace planck::harness {
namespace {

using nlohmann::json;

ArenaChange compare(std::string instance, std::optional<Bytes> base, Bytes now, double threshold) {
  ArenaChange c{.instance = std::move(instance), .baseline = base, .now = now};
  if (!base) {
    c.kind = ChangeKind::New;
    return c;
  }
  if (*base > 0) {
    c.percent = (static_cast<double>(now) - static_cast<double>(*base)) / static_cast<double>(*base) * 100.0;
  }
  if (now == *base) {
    c.kind = ChangeKind::Same;
  } else if (now < *base) {
    c.kind = ChangeKind::Smaller;
  } else {
    // The growth in exact integers against threshold% of the baseline; an
    // arena growing from nothing grows beyond any threshold.
    const long double growth = static_cast<long double>(now - *base) * 100.0L;
    const bool beyond = *base == 0 || growth > static_cast<long double>(threshold) * static_cast<long double>(*base);
    c.kind = beyond ? ChangeKind::Regressed : ChangeKind::Grown;
  }
  return c;
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

std::string_view change_kind_name(ChangeKind k) {
  switch (k) {
    case ChangeKind::Same: return "same";
    case ChangeKind::Smaller: return "smaller";
    case ChangeKind::Grown: return "grown, within the threshold";
    case ChangeKind::Regressed: return "REGRESSED";
    case ChangeKind::New: return "new, not in the baseline";
    case ChangeKind::Missing: return "missing: in the baseline, not measured";
  }
  return "?";
}

Result<Baseline> parse_baseline(std::string_view text, std::string_view file) {
  const std::string where(file);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    return Error{where, fmt::format("not JSON: {}", e.what())};
  }
  if (!j.is_object()) return Error{where, "a baseline is a JSON object {planner, instances}"};
  Baseline b;
  if (auto p = j.find("planner"); p != j.end()) {
    if (!p->is_string()) return Error{where, "`planner` is not a string"};
    b.planner = p->get<std::string>();
  }
  const auto instances = j.find("instances");
  if (instances == j.end() || !instances->is_object()) {
    return Error{where, "no `instances` object (instance name: arena bytes)"};
  }
  for (const auto& [name, bytes] : instances->items()) {
    if (!bytes.is_number_unsigned() || bytes.get<Bytes>() >= kMaxBytes) {
      return Error{where, fmt::format("instance `{}`: the arena is not a byte count below 2^62: {}", name,
                                      bytes.dump())};
    }
    b.instances[name] = bytes.get<Bytes>();
  }
  return b;
}

std::string print_baseline(const Baseline& b) {
  json instances = json::object();
  for (const auto& [name, bytes] : b.instances) instances[name] = bytes;
  return json{{"planner", b.planner}, {"instances", instances}}.dump(2) + "\n";
}

std::size_t GateResult::count(ChangeKind k) const {
  return static_cast<std::size_t>(
      std::count_if(arenas.begin(), arenas.end(), [k](const ArenaChange& c) { return c.kind == k; }));
}

std::string GateResult::reason() const {
  std::string judged = fmt::format("{} and {} judged", plural(progress.files, "instance", "instances"),
                                   plural(progress.generated(), "generated case", "generated cases"));
  if (progress.skipped > 0) {
    judged += fmt::format(", {} skipped for features switched off", progress.skipped);
  }
  if (!passed()) {
    std::vector<std::string> why;
    if (!invalid.empty()) why.push_back(plural(invalid.size(), "invalid plan", "invalid plans"));
    if (const std::size_t n = count(ChangeKind::Regressed); n > 0) {
      why.push_back(fmt::format("the arena grew beyond {}% on {}", threshold_percent,
                                plural(n, "instance", "instances")));
    }
    return fmt::format("FAILED: {} ({})", fmt::join(why, "; "), judged);
  }
  return fmt::format("passed: every plan valid, no arena grown beyond {}% ({}; {} smaller, {} grown within the "
                     "threshold, {} new, {} missing)",
                     threshold_percent, judged, count(ChangeKind::Smaller), count(ChangeKind::Grown),
                     count(ChangeKind::New), count(ChangeKind::Missing));
}

Baseline GateResult::measured(const std::string& planner, const std::vector<GateInstance>& instances) const {
  std::set<std::string> written;
  for (const GateInstance& i : instances) {
    if (i.quality && i.in_baseline) written.insert(i.name);
  }
  Baseline b{.planner = planner};
  for (const ArenaChange& c : arenas) {
    if (c.now && written.count(c.instance)) b.instances[c.instance] = *c.now;
  }
  return b;
}

GateResult gate(const Planner& planner, const std::vector<GateInstance>& instances, const Baseline& baseline,
                const GateOptions& options, const std::function<void(const Progress&)>& on_progress) {
  const auto start = std::chrono::steady_clock::now();
  GateResult r{.threshold_percent = options.threshold_percent};
  std::set<std::string> measured;
  for (const GateInstance& i : instances) {
    if (!allows(options.features, used_features(i.schedule))) {
      r.progress.skipped++;
      continue;
    }
    Verdict v = judge(planner, i.schedule);
    r.progress.files++;
    r.progress.judged(i.schedule, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (on_progress) on_progress(r.progress);
    if (!v.failed() && i.quality) {
      if (const std::optional<Bytes> total = arena_total(*v.plan)) {
        const auto base = baseline.instances.find(i.name);
        r.arenas.push_back(compare(i.name,
                                   base == baseline.instances.end() ? std::nullopt : std::optional(base->second),
                                   *total, options.threshold_percent));
        if (r.arenas.back().kind == ChangeKind::Grown || r.arenas.back().kind == ChangeKind::Regressed) {
          r.arenas.back().plan = v.plan;
        }
        measured.insert(i.name);
      } else {
        v.kind = "arena-overflow";
        v.explanation = "the plan's arenas together pass 2^64 bytes\n";
      }
    }
    if (v.failed()) r.invalid.push_back({i.name, std::move(v)});
  }
  for (const auto& [name, bytes] : baseline.instances) {
    if (!measured.count(name)) r.arenas.push_back({.instance = name, .baseline = bytes, .kind = ChangeKind::Missing});
  }

  // The generated cases of `planck verify --seed S --cases N`, its failure
  // not shrunk: the gate says that one fails, verify makes it small.
  const VerifyOptions generated{.seed = options.seed,
                                .max_cases = options.cases,
                                .time = options.time,
                                .shrink_time = std::chrono::steady_clock::duration::zero(),
                                .features = options.features};
  {
    const Progress before = r.progress;
    VerifyResult v = verify(planner, {}, generated, [&](const Progress& p) {
      r.progress = before;
      r.progress.add(p);
      if (on_progress) on_progress(r.progress);
    });
    r.progress = before;
    r.progress.add(v.progress);
    if (v.failure) r.invalid.push_back({v.failure->origin, std::move(v.failure->first), true});
  }
  return r;
}

std::string changes_table(const GateResult& r) {
  std::vector<const ArenaChange*> rows;
  for (const ArenaChange& c : r.arenas) {
    if (c.kind != ChangeKind::Same) rows.push_back(&c);
  }
  if (rows.empty()) return "no arena changed\n";
  auto bytes = [](const std::optional<Bytes>& b) { return b ? std::to_string(*b) : std::string("-"); };
  std::string out =
      "| instance | baseline | now | change | verdict |\n|----------|---------:|----:|-------:|---------|\n";
  for (const ArenaChange* c : rows) {
    const std::string change = c->percent                     ? fmt::format("{:+.2f}%", *c->percent)
                               : c->baseline && c->now        ? std::string("from 0")
                                                              : std::string("-");
    out += fmt::format("| {} | {} | {} | {} | {}{} |\n", c->instance, bytes(c->baseline), bytes(c->now), change,
                       change_kind_name(c->kind), c->picture.empty() ? "" : fmt::format(" ([picture]({}))", c->picture));
  }
  return out;
}

}  // namespace planck::harness
