// planck verify: a planner, of this project or written elsewhere, judged on
// the corpus and on generated schedules; the first failure made small
// (docs/verification.md#planck-verify).

#include <fmt/format.h>

#include <filesystem>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "gen/schedule_parts.h"
#include "harness/verify.h"
#include "model/plan.h"
#include "model/schedule_printer.h"
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

// The corpus a run starts from when none is named: the schedules (model v1,
// then v2) and the regressions, installed or of the source tree
// (data_path).
std::vector<std::string> default_corpus() {
  std::vector<std::string> out;
  for (const char* sub : {"corpus/schedules", "corpus/schedules/v2", "corpus/regressions"}) {
    const fs::path dir = data_path(sub);
    std::error_code ec;
    if (fs::is_directory(dir, ec)) out.push_back(dir.lexically_normal().string());
  }
  return out;
}

// The .sched files named, a folder standing for the .sched files in it, in
// name order. A corpus keeps expected outputs beside its inputs
// (NAME.rewrite.sched): a name with a second extension is not an input.
std::vector<std::string> schedule_files(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (!fs::is_directory(p, ec)) {
      out.push_back(p);
      continue;
    }
    for (const fs::path& f : inputs_in(p, ".sched")) out.push_back(f.string());
  }
  return out;
}

struct VerifyArgs {
  PlannerOptions planner;
  std::vector<std::string> files;
  std::vector<std::string> corpus;
  bool no_corpus = false;
  CaseBudget budget{.cases = 1000, .seconds = 60, .time_limited = true};
  double shrink_time = 30;
  std::uint64_t seed = 1;
  int max_size = 300;
  std::string failures = "planck-failures";  // --out: the folder a failure is written to
  OutputOptions out;
};

// The files of a failure: NAME.sched (the minimized schedule, behind a
// comment saying what failed and how to reproduce it), NAME.plan and
// NAME.svg (the planner's plan and its picture, if it gave one) and NAME.txt
// (the explanation).
struct FailureFiles {
  std::string schedule, plan, picture, explanation;
};

FailureFiles write_failure(const std::string& dir, const std::string& name, const harness::Failure& f,
                           const std::string& what) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Exit{kExitBadInput, dir + ": cannot make the folder: " + ec.message()};
  const std::string base = (fs::path(dir) / name).string();
  FailureFiles w{.schedule = base + ".sched", .explanation = base + ".txt"};
  write_output(w.schedule, commented(what) + print_schedule(f.minimized));
  if (f.verdict.plan) std::tie(w.plan, w.picture) = write_plan_and_picture(base, f.minimized, *f.verdict.plan);
  write_output(w.explanation, what);
  return w;
}

void run_verify(VerifyArgs& args) {
  check_output_folder(args.out.json);
  Report report("verify", args.out.json);
  const std::unique_ptr<Planner> planner = make_chosen_planner(args.planner);
  const std::string planner_args = planner_arguments(args.planner);
  harness::VerifyOptions options{.seed = args.seed,
                                 .generate = args.files.empty(),
                                 .shrink_time = seconds_duration(args.shrink_time),
                                 .max_size = args.max_size,
                                 .features = args.planner.features};
  if (options.generate) {
    const CaseBudget::Limits limits = args.budget.limits();
    options.max_cases = limits.cases;
    options.time = limits.time;
  } else {
    options.time = seconds_duration(std::numeric_limits<double>::infinity());
  }
  std::vector<std::string> paths = args.files;
  if (paths.empty() && !args.no_corpus) paths = args.corpus.empty() ? default_corpus() : args.corpus;
  std::vector<Schedule> files;
  for (const std::string& f : schedule_files(paths)) files.push_back(load_schedule(f));

  harness::VerifyResult r;
  {
    Progress progress("verify", args.out.progress);
    r = harness::verify(*planner, files, options,
                        [&](const harness::Progress& p) { progress.stage(cases_progress(p)); });
  }
  const harness::Progress& p = r.progress;
  report.object = {{"planner", planner_args}, {"seed", args.seed}};
  add_cases_json(report.object, p);
  report.object["result"] = r.failure ? "fail" : "pass";
  if (!r.failure) {
    report.text = fmt::format("verify: {} passed {} case{} ({} files, {} skipped for features switched off, {} "
                              "generated, seed {}) in {:.1f} s\n",
                              planner_args, p.cases, p.cases == 1 ? "" : "s", p.files, p.skipped, p.generated(),
                              args.seed, p.seconds);
    report.finish(kExitOk);
    return;
  }

  const harness::Failure& f = *r.failure;
  const bool generated = f.original.source == "generated";
  const std::string name =
      f.verdict.kind + "-" + (generated ? fmt::format("seed{}-case{}", args.seed, p.generated() - 1)
                                        : fs::path(f.original.source).stem().string());
  const std::string reproduce =
      fmt::format("planck verify {} {}", planner_args, (fs::path(args.failures) / (name + ".sched")).string());
  const std::string what = harness::failure_summary(f, planner_args) + "reproduce: " + reproduce + "\n";
  const FailureFiles w = write_failure(args.failures, name, f, what);
  report.object["failure"] = json{{"kind", f.verdict.kind},
                                  {"origin", f.origin},
                                  {"schedule", w.schedule},
                                  {"plan", w.plan},
                                  {"picture", w.picture},
                                  {"explanation", w.explanation},
                                  {"entries_before", gen::count_entries(f.original)},
                                  {"entries_after", gen::count_entries(f.minimized)},
                                  {"minimal", f.minimal},
                                  {"verdict", verdict_json(f.verdict)},
                                  {"reproduce", reproduce}};
  report.text = fmt::format("verify: FAILED after {} case{} in {:.1f} s\n{}\n{}", p.cases, p.cases == 1 ? "" : "s",
                            p.seconds, what,
                            print_schedule(f.minimized));
  if (f.verdict.plan) report.text += "\n" + print_plan(*f.verdict.plan);
  report.text +=
      fmt::format("\nwritten: {}{}{}\n", w.schedule, w.plan.empty() ? "" : ", " + w.plan + ", " + w.picture,
                  ", " + w.explanation);
  report.finish(kExitFound);
}

}  // namespace

void add_verify_command(CLI::App& app) {
  add_command<VerifyArgs>(app, "verify", run_verify, [](CLI::App& cmd, VerifyArgs& args) {
    add_planner_options(cmd, args.planner, PlannerClaims::Yes);
    cmd.add_option("schedules", args.files,
                   "judge only these schedules (files or folders of .sched files); nothing is generated");
    cmd.add_option("--corpus", args.corpus,
                   "folders of .sched files judged first (default: corpus/schedules, "
                   "corpus/schedules/v2 and corpus/regressions, installed or of the source tree)");
    cmd.add_flag("--no-corpus", args.no_corpus, "judge generated schedules only");
    add_budget_options(cmd, args.budget,
                       "seconds for judging the corpus and the generated cases, at most (shrinking has its own)");
    add_seconds_option(cmd, "--shrink-time", args.shrink_time, "seconds for shrinking a failure, at most")
        ->group("Budget");
    add_seed_option(cmd, args.seed);
    cmd.add_option("--max-size", args.max_size,
                   "the largest generated schedule, on the generator's scale (100: "
                   "some 40 entries)")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    cmd.add_option("--out", args.failures, "the folder a failure is written to")->capture_default_str();
  });
}

}  // namespace planck::cli
