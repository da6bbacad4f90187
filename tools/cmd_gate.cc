// planck gate: whether a planner change may land. Every plan valid on the
// corpus, the regressions and generated cases, and no arena of the quality
// corpus grown beyond a threshold against a checked-in baseline.

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/gate.h"
#include "model/file.h"
#include "tools/commands.h"
#include "tools/output.h"
#include "tools/planner_options.h"

namespace planck::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct GateArgs {
  PlannerOptions planner;
  std::string baseline;
  bool update = false;
  std::uint64_t cases = 1000;
  std::uint64_t seed = 1;
  double threshold = 0;
  bool no_shared = false;
  std::string json;
};

// The instances the gate judges, each named by its path from the source
// tree's top: the quality corpus (corpus/schedules, corpus/intervals, and
// ../shared's intervals/ and minimalloc/ when present), then the
// regressions, whose plans are judged but whose arenas are not measured.
// The shared instances are never written to a baseline, since a checkout
// may lack them; `shared` false leaves them out.
std::vector<harness::GateInstance> gate_instances(bool shared) {
  const fs::path top(PLANCK_SOURCE_DIR);
  struct Source {
    const char* dir;
    const char* ext;
    bool quality;
    bool in_baseline;
  };
  const Source sources[] = {{"corpus/schedules", ".sched", true, true},
                            {"corpus/intervals", ".csv", true, true},
                            {"../shared/intervals", ".csv", true, false},
                            {"../shared/minimalloc", ".csv", true, false},
                            {"corpus/regressions", ".sched", false, true}};
  std::vector<harness::GateInstance> out;
  for (const Source& src : sources) {
    if (!shared && !src.in_baseline) continue;
    for (const fs::path& p : inputs_in(top / src.dir, src.ext)) {
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

json result_json(const harness::GateResult& r, const GateArgs& args, const std::string& planner) {
  json invalid = json::array();
  for (const harness::InvalidPlan& i : r.invalid) {
    invalid.push_back({{"origin", i.origin}, {"kind", i.verdict.kind}, {"explanation", i.verdict.explanation}});
  }
  json changes = json::array();
  for (const harness::ArenaChange& c : r.arenas) {
    if (c.kind == harness::ChangeKind::Same) continue;
    changes.push_back({{"instance", c.instance},
                       {"baseline", c.baseline ? json(*c.baseline) : json(nullptr)},
                       {"now", c.now ? json(*c.now) : json(nullptr)},
                       {"change_percent", c.percent ? json(*c.percent) : json(nullptr)},
                       {"verdict", harness::change_kind_name(c.kind)}});
  }
  return json{{"planner", planner},
              {"baseline", args.baseline},
              {"threshold_percent", args.threshold},
              {"seed", args.seed},
              {"instances", r.files},
              {"generated", r.generated},
              {"measured", r.arenas.size() - r.count(harness::ChangeKind::Missing)},
              {"invalid", invalid},
              {"changes", changes},
              {"result", r.passed() ? "pass" : "fail"},
              {"reason", r.reason()}};
}

void run_gate(const GateArgs& args) {
  const std::unique_ptr<Planner> planner = make_chosen_planner(args.planner);
  const std::string planner_args = planner_arguments(args.planner);
  // Updating starts a baseline where there is none; a gate needs one.
  harness::Baseline baseline;
  std::error_code ec;
  if (!args.update || fs::exists(args.baseline, ec)) baseline = read_baseline(args.baseline);

  const std::vector<harness::GateInstance> instances = gate_instances(!args.no_shared);
  const harness::GateResult r = harness::gate(
      *planner, instances, baseline,
      harness::GateOptions{.seed = args.seed, .cases = args.cases, .threshold_percent = args.threshold});

  std::string out = fmt::format("gate: {} against {}\n\n{}", planner_args, args.baseline, harness::changes_table(r));
  for (const harness::InvalidPlan& i : r.invalid) {
    out += fmt::format("\ninvalid plan on {}: {}\n{}", i.origin, i.verdict.kind, i.verdict.explanation);
  }
  if (!r.invalid.empty()) {
    out += fmt::format("\nreproduce and shrink: planck verify {} --seed {} --cases {}\n", planner_args, args.seed,
                       args.cases);
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
  if (!args.json.empty()) write_output(args.json, result_json(r, args, planner_args).dump(2) + "\n");
  print_out(out + "\n" + last + "\n");
  // Updating accepts the arenas measured; only an invalid plan fails it.
  if (args.update ? !r.invalid.empty() : !r.passed()) throw Exit{kExitFound, ""};
}

}  // namespace

void add_gate_command(CLI::App& app) {
  auto args = std::make_shared<GateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "gate",
      "Gate a planner change: every plan on the corpus, the regressions and generated cases must pass the "
      "checker and the shadow executor, and no arena of the quality corpus (corpus/schedules, "
      "corpus/intervals, ../shared's intervals/ and minimalloc/ when present) may grow beyond --threshold "
      "against the baseline. Prints a markdown table of the arenas that changed. Instances missing from the "
      "baseline are listed as new and never fail; --update-baseline writes the files of the source tree "
      "only. Exit 0: passed; 1: failed; 2: bad usage or an unreadable baseline.");
  add_planner_options(*cmd, args->planner);
  cmd->add_option("--baseline", args->baseline, "the baseline JSON: {planner, instances: {name: arena bytes}}")
      ->required();
  cmd->add_flag("--update-baseline", args->update,
                "write the arenas measured to --baseline (when every plan is valid) instead of comparing");
  cmd->add_option("--cases", args->cases, "generated cases, as planck verify makes them (0: none)")
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "the generator's seed: the same seed, the same cases")->capture_default_str();
  cmd->add_option("--threshold", args->threshold, "the percent an instance's arena may grow by")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  cmd->add_flag("--no-shared", args->no_shared,
                "leave out ../shared's instances (large ones, which a slow planner may not plan in its time)");
  cmd->add_option("--json", args->json, "also write the result as one JSON object to this file (- for standard output)");
  cmd->callback([args] { run_gate(*args); });
}

}  // namespace planck::cli
