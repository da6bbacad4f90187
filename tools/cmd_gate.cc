// planck gate: whether a planner change may land. Every plan valid on the
// corpus, the regressions and generated cases, and no arena of the quality
// corpus grown beyond a threshold against a checked-in baseline
// (docs/nightly-and-gate.md#planck-gate).

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string_view>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "draw/svg.h"
#include "harness/gate.h"
#include "oracle/check/checker.h"
#include "model/file.h"
#include "tools/cases.h"
#include "tools/commands.h"
#include "tools/data_paths.h"
#include "tools/options.h"
#include "tools/output.h"
#include "tools/planner_options.h"
#include "tools/progress.h"

namespace planck::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct GateArgs {
  PlannerOptions planner;
  std::string baseline;
  bool update = false;
  CaseBudget budget{.cases = 1000};
  std::uint64_t seed = 1;
  double threshold = 0;
  bool no_shared = false;
  std::string pictures = "planck-gate";
  OutputOptions out;
};

// The instances the gate judges, each named by its path from the source
// tree's top and found where data_path says: the quality corpus
// (corpus/schedules and its v2/, corpus/intervals, and ../shared's
// intervals/ and minimalloc/ when present), then the
// regressions, whose plans are judged but whose arenas are not measured.
// The shared instances are never written to a baseline, since a checkout
// may lack them; `shared` false leaves them out.
std::vector<harness::GateInstance> gate_instances(bool shared) {
  struct Source {
    const char* dir;
    const char* ext;
    bool quality;
    bool in_baseline;
  };
  const Source sources[] = {{"corpus/schedules", ".sched", true, true},
                            {"corpus/schedules/v2", ".sched", true, true},
                            {"corpus/intervals", ".csv", true, true},
                            {"../shared/intervals", ".csv", true, false},
                            {"../shared/minimalloc", ".csv", true, false},
                            {"corpus/regressions", ".sched", false, true}};
  std::vector<harness::GateInstance> out;
  for (const Source& src : sources) {
    if (!shared && !src.in_baseline) continue;
    for (const fs::path& p : inputs_in(data_path(src.dir), src.ext)) {
      out.push_back({.name = (fs::path(src.dir) / p.filename()).generic_string(),
                     .schedule = load_schedule(p.string()),
                     .quality = src.quality,
                     .in_baseline = src.in_baseline});
    }
  }
  return out;
}

harness::Baseline read_baseline(const std::string& path) {
  Result<FileText> text = read_file(path);
  if (!text) throw Exit{kExitBadInput, "gate: the baseline: " + text.error().message()};
  Result<harness::Baseline> b = harness::parse_baseline(text->view(), path);
  if (!b) throw Exit{kExitBadInput, "gate: the baseline: " + b.error().message()};
  return std::move(b).value();
}

// The command that judges an invalid plan's schedule again and shrinks it.
std::string reproduce_line(const harness::InvalidPlan& i, const harness::GateResult& r, const GateArgs& args,
                           const std::string& planner) {
  if (i.generated) {
    return fmt::format("planck verify {} --no-corpus --seed {} --cases {}", planner, args.seed,
                       r.progress.generated());
  }
  return fmt::format("planck verify {} {}", planner, data_path(i.origin).string());
}

// The picture of each plan whose arena grew (planck draw), written to the
// folder `dir` as the instance's path with `-` for `/` and .svg for its
// extension; each change records where.
void write_pictures(harness::GateResult& r, const std::vector<harness::GateInstance>& instances,
                    const std::string& dir) {
  std::map<std::string_view, const Schedule*> schedule_of;
  for (const harness::GateInstance& i : instances) schedule_of.emplace(i.name, &i.schedule);
  for (harness::ArenaChange& c : r.arenas) {
    const auto s = schedule_of.find(c.instance);
    if (!c.plan || s == schedule_of.end()) continue;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw Exit{kExitBadInput, dir + ": cannot make the folder: " + ec.message()};
    std::string name = fs::path(c.instance).replace_extension(".svg").generic_string();
    std::replace(name.begin(), name.end(), '/', '-');
    c.picture = (fs::path(dir) / name).string();
    const oracle::CheckReport found = oracle::check_plan(*s->second, *c.plan, oracle::kOverlapsListed);
    write_output(c.picture, draw::svg_picture(draw::make_picture(*s->second, *c.plan, found.violations,
                                                                 found.unlisted_overlaps)));
  }
}

void add_result_json(nlohmann::ordered_json& object, const harness::GateResult& r, const GateArgs& args,
                     const std::string& planner) {
  json invalid = json::array();
  for (const harness::InvalidPlan& i : r.invalid) {
    invalid.push_back({{"origin", i.origin},
                       {"kind", i.verdict.kind},
                       {"explanation", i.verdict.explanation},
                       {"reproduce", reproduce_line(i, r, args, planner)}});
  }
  json changes = json::array();
  for (const harness::ArenaChange& c : r.arenas) {
    if (c.kind == harness::ChangeKind::Same) continue;
    changes.push_back({{"instance", c.instance},
                       {"baseline", c.baseline ? json(*c.baseline) : json(nullptr)},
                       {"now", c.now ? json(*c.now) : json(nullptr)},
                       {"change_percent", c.percent ? json(*c.percent) : json(nullptr)},
                       {"verdict", harness::change_kind_name(c.kind)},
                       {"picture", c.picture}});
  }
  object["planner"] = planner;
  object["baseline"] = args.baseline;
  object["threshold_percent"] = args.threshold;
  object["seed"] = args.seed;
  add_cases_json(object, r.progress);
  object["measured"] = r.arenas.size() - r.count(harness::ChangeKind::Missing);
  object["invalid"] = std::move(invalid);
  object["changes"] = std::move(changes);
  object["result"] = r.passed() ? "pass" : "fail";
  object["reason"] = r.reason();
}

void run_gate(GateArgs& args) {
  check_output_folder(args.out.json);
  Report report("gate", args.out.json);
  const std::unique_ptr<Planner> planner = make_chosen_planner(args.planner);
  const std::string planner_args = planner_arguments(args.planner);
  const CaseBudget::Limits limits = args.budget.limits();
  // Updating starts a baseline where there is none; a gate needs one.
  harness::Baseline baseline;
  std::error_code ec;
  if (!args.update || fs::exists(args.baseline, ec)) baseline = read_baseline(args.baseline);

  harness::GateResult r;
  std::vector<harness::GateInstance> instances;
  {
    Progress progress("gate", args.out.progress);
    progress.stage("reading the instances");
    instances = gate_instances(!args.no_shared);
    r = harness::gate(*planner, instances, baseline,
                      harness::GateOptions{.seed = args.seed,
                                           .cases = limits.cases,
                                           .time = limits.time,
                                           .threshold_percent = args.threshold,
                                           .features = args.planner.features},
                      [&](const harness::Progress& p) { progress.stage(cases_progress(p)); });
  }

  write_pictures(r, instances, args.pictures);
  report.text = fmt::format("gate: {} against {}\n\n{}", planner_args, args.baseline, harness::changes_table(r));
  for (const harness::InvalidPlan& i : r.invalid) {
    report.text += fmt::format("\ninvalid plan on {}: {}\n{}reproduce and shrink: {}\n", i.origin, i.verdict.kind,
                               i.verdict.explanation, reproduce_line(i, r, args, planner_args));
  }
  std::string last = "gate: " + r.reason();
  if (args.update && r.invalid.empty()) {
    const harness::Baseline made = r.measured(planner_args, instances);
    write_output(args.baseline, harness::print_baseline(made));
    last = fmt::format("gate: every plan valid; baseline written to {} ({} instances)", args.baseline,
                       made.instances.size());
  } else if (args.update) {
    last += "; the baseline is not written";
  }
  report.text += "\n" + last + "\n";
  add_result_json(report.object, r, args, planner_args);
  // Updating accepts the arenas measured; only an invalid plan fails it.
  report.finish((args.update ? !r.invalid.empty() : !r.passed()) ? kExitFound : kExitOk);
}

}  // namespace

void add_gate_command(CLI::App& app) {
  add_command<GateArgs>(app, "gate", run_gate, [](CLI::App& cmd, GateArgs& args) {
    add_planner_options(cmd, args.planner, PlannerClaims::Yes);
    cmd.add_option("--baseline", args.baseline, "the baseline JSON: {planner, instances: {name: arena bytes}}")
        ->required();
    cmd.add_flag("--update-baseline", args.update,
                 "write the arenas measured to --baseline (when every plan is valid) instead of comparing");
    add_budget_options(cmd, args.budget, "seconds for the generated cases, at most (the instances are all judged)");
    add_seed_option(cmd, args.seed);
    cmd.add_option("--threshold", args.threshold, "the percent an instance's arena may grow by")
        ->check(CLI::Range(0.0, 1e6))
        ->capture_default_str();
    cmd.add_flag("--no-shared", args.no_shared,
                 "leave out ../shared's instances (large ones, which a slow planner may not plan in its time)");
    cmd.add_option("--pictures", args.pictures,
                   "the folder the picture of each plan whose arena grew is written to (planck draw's SVG; the "
                   "table links it)")
        ->capture_default_str();
  });
}

}  // namespace planck::cli
