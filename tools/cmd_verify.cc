// planck verify and planck minimize: a planner, of this project or written
// elsewhere, judged on the corpus and on generated schedules; a failing
// schedule made small.

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gen/features.h"
#include "gen/schedule_parts.h"
#include "harness/verify.h"
#include "model/plan.h"
#include "model/schedule_printer.h"
#include "tools/commands.h"
#include "tools/output.h"
#include "tools/planner_options.h"

namespace planck::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

// --no-NAME for each feature of the generator; each given one is off.
struct FeatureFlags {
  std::vector<char> off = std::vector<char>(gen::feature_switches().size(), 0);

  void add_to(CLI::App& cmd) {
    const auto switches = gen::feature_switches();
    for (std::size_t i = 0; i < switches.size(); ++i) {
      cmd.add_flag_callback(
             fmt::format("--no-{}", switches[i].name), [this, i] { off[i] = 1; },
             fmt::format("the planner does not support {}: none is generated, and files that use it are skipped",
                         switches[i].description))
          ->group("Features");
    }
  }
  gen::Features features() const {
    gen::Features f;
    const auto switches = gen::feature_switches();
    for (std::size_t i = 0; i < switches.size(); ++i) {
      if (off[i]) f.*(switches[i].on) = false;
    }
    return f;
  }
  std::string arguments() const {
    std::string out;
    const auto switches = gen::feature_switches();
    for (std::size_t i = 0; i < switches.size(); ++i) {
      if (off[i]) out += fmt::format(" --no-{}", switches[i].name);
    }
    return out;
  }
};

// The corpus a run starts from when none is named: the schedules and
// regressions installed beside the command (cmake --install), or else this
// source tree's, where they exist.
std::vector<std::string> default_corpus() {
  std::error_code ec;
  const fs::path installed = fs::read_symlink("/proc/self/exe", ec).parent_path() / PLANCK_INSTALLED_DATA;
  const fs::path top = !ec && fs::is_directory(installed / "corpus", ec) ? installed : fs::path(PLANCK_SOURCE_DIR);
  std::vector<std::string> out;
  for (const char* sub : {"corpus/schedules", "corpus/regressions"}) {
    const fs::path dir = top / sub;
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

std::string commented(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    out += "# " + text.substr(start, nl - start) + "\n";
    start = nl + 1;
  }
  return out;
}

json verdict_json(const harness::Verdict& v) {
  return json{{"kind", v.kind}, {"explanation", v.explanation}};
}

// The progress line on standard error: rewritten in place on a terminal,
// a line every few seconds otherwise.
class ProgressLine {
 public:
  explicit ProgressLine(bool shown) : shown_(shown), tty_(::isatty(2) == 1) {}

  void update(const harness::Progress& p) {
    if (!shown_) return;
    const Clock::time_point now = Clock::now();
    if (now - last_ < (tty_ ? std::chrono::milliseconds(250) : std::chrono::milliseconds(5000))) return;
    last_ = now;
    const double rate = p.seconds > 0 ? static_cast<double>(p.cases) / p.seconds : 0;
    std::fprintf(stderr, "%sverify: %llu cases, %.0f/s, largest %zu entries and %zu declarations%s",
                 tty_ ? "\r" : "", static_cast<unsigned long long>(p.cases), rate, p.largest_entries,
                 p.largest_storage, tty_ ? "  " : "\n");
    dirty_ = tty_;
  }
  void done() {
    if (dirty_) std::fputc('\n', stderr);
    dirty_ = false;
  }

 private:
  bool shown_;
  bool tty_;
  bool dirty_ = false;
  Clock::time_point last_{};
};

struct VerifyArgs {
  PlannerOptions planner;
  FeatureFlags features;
  std::vector<std::string> files;
  std::vector<std::string> corpus;
  bool no_corpus = false;
  std::uint64_t cases = 1000;
  double time = 60;
  double shrink_time = 30;
  std::uint64_t seed = 1;
  int max_size = 300;
  std::string out = "planck-failures";
  std::string json;
  bool progress = false;
};

// The files of a failure: NAME.sched (the minimized schedule, behind a
// comment saying what failed and how to reproduce it), NAME.plan (the
// planner's plan, if it gave one) and NAME.txt (the explanation).
struct FailureFiles {
  std::string schedule, plan, explanation;
};

FailureFiles write_failure(const std::string& dir, const std::string& name, const harness::Failure& f,
                           const std::string& what) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Exit{kExitBadInput, dir + ": cannot make the folder: " + ec.message()};
  const std::string base = (fs::path(dir) / name).string();
  FailureFiles w{.schedule = base + ".sched", .explanation = base + ".txt"};
  write_output(w.schedule, commented(what) + print_schedule(f.minimized));
  if (f.verdict.plan) {
    w.plan = base + ".plan";
    write_output(w.plan, print_plan(*f.verdict.plan));
  }
  write_output(w.explanation, what);
  return w;
}

void run_verify(const VerifyArgs& args) {
  check_output_folder(args.json);
  const std::unique_ptr<Planner> planner = make_chosen_planner(args.planner);
  const std::string planner_args = planner_arguments(args.planner);
  harness::VerifyOptions options{.seed = args.seed,
                                 .generate = args.files.empty(),
                                 .max_cases = args.cases,
                                 .time = seconds(args.time),
                                 .shrink_time = seconds(args.shrink_time),
                                 .max_size = args.max_size,
                                 .features = args.features.features()};
  std::vector<std::string> paths = args.files;
  if (paths.empty() && !args.no_corpus) paths = args.corpus.empty() ? default_corpus() : args.corpus;
  std::vector<Schedule> files;
  for (const std::string& f : schedule_files(paths)) files.push_back(load_schedule(f));
  if (!options.generate) options.time = seconds(1e9);

  ProgressLine line(args.progress || ::isatty(2) == 1);
  const harness::VerifyResult r =
      harness::verify(*planner, files, options, [&](const harness::Progress& p) { line.update(p); });
  line.done();
  const harness::Progress& p = r.progress;

  json report{{"planner", planner_args},
              {"seed", args.seed},
              {"cases", p.cases},
              {"files", p.files},
              {"skipped_files", p.skipped},
              {"generated", p.cases - p.files},
              {"seconds", p.seconds},
              {"largest_entries", p.largest_entries},
              {"largest_declarations", p.largest_storage},
              {"result", r.failure ? "fail" : "pass"}};
  if (!r.failure) {
    if (!args.json.empty()) write_output(args.json, report.dump(2) + "\n");
    if (args.json == "-") return;
    print_out(fmt::format("verify: {} passed {} cases ({} files, {} skipped for features switched off, {} "
                          "generated, seed {}) in {:.1f} s\n",
                          planner_args, p.cases, p.files, p.skipped, p.cases - p.files, args.seed, p.seconds));
    return;
  }

  const harness::Failure& f = *r.failure;
  const bool generated = f.original.source == "generated";
  const std::string name =
      f.verdict.kind + "-" + (generated ? fmt::format("seed{}-case{}", args.seed, p.cases - p.files - 1)
                                        : fs::path(f.original.source).stem().string());
  const std::string reproduce =
      fmt::format("planck verify {}{} {}", planner_args, args.features.arguments(),
                  (fs::path(args.out) / (name + ".sched")).string());
  const std::string what =
      fmt::format("{} fails with {} on {}, shrunk from {} to {} entries ({} shrinks, {} tries{})\n{}reproduce: {}\n",
                  planner_args, f.verdict.kind, f.origin, gen::count_entries(f.original),
                  gen::count_entries(f.minimized), f.shrinks, f.tries, f.minimal ? "" : ", stopped by the time limit",
                  f.verdict.explanation, reproduce);
  const FailureFiles w = write_failure(args.out, name, f, what);
  report["failure"] = json{{"kind", f.verdict.kind},
                           {"origin", f.origin},
                           {"schedule", w.schedule},
                           {"plan", w.plan},
                           {"explanation", w.explanation},
                           {"entries_before", gen::count_entries(f.original)},
                           {"entries_after", gen::count_entries(f.minimized)},
                           {"minimal", f.minimal},
                           {"verdict", verdict_json(f.verdict)},
                           {"reproduce", reproduce}};
  if (!args.json.empty()) write_output(args.json, report.dump(2) + "\n");
  if (args.json == "-") throw Exit{kExitFound, ""};
  std::string out = fmt::format("verify: FAILED after {} cases in {:.1f} s\n{}\n{}", p.cases, p.seconds, what,
                                print_schedule(f.minimized));
  if (f.verdict.plan) out += "\n" + print_plan(*f.verdict.plan);
  out += fmt::format("\nwritten: {}{}{}\n", w.schedule, w.plan.empty() ? "" : ", " + w.plan, ", " + w.explanation);
  print_out(out);
  throw Exit{kExitFound, ""};
}

struct MinimizeArgs {
  PlannerOptions planner;
  std::string schedule;
  std::string output;
  double time = 60;
  std::string json;
};

void run_minimize(const MinimizeArgs& args) {
  check_output_folder(args.output);
  check_output_folder(args.json);
  const std::unique_ptr<Planner> planner = make_chosen_planner(args.planner);
  Schedule s = load_schedule(args.schedule);
  harness::Verdict first = harness::judge(*planner, s);
  if (!first.failed()) {
    if (!args.json.empty()) write_output(args.json, json{{"result", "pass"}}.dump(2) + "\n");
    throw Exit{kExitOk, fmt::format("minimize: {} does not fail on {}: nothing to minimize",
                                    planner_arguments(args.planner), args.schedule)};
  }
  const std::size_t before = gen::count_entries(s);
  const harness::Failure f =
      harness::shrink_failure(*planner, args.schedule, std::move(s), std::move(first), seconds(args.time));
  const std::string what =
      fmt::format("minimize: {} fails with {} on {}, shrunk from {} to {} entries ({} shrinks, {} tries{})\n{}",
                  planner_arguments(args.planner), f.verdict.kind, args.schedule, before,
                  gen::count_entries(f.minimized), f.shrinks, f.tries, f.minimal ? "" : ", stopped by the time limit",
                  f.verdict.explanation);
  const std::string text = commented(what) + print_schedule(f.minimized);
  write_output(args.output, text);
  if (!args.json.empty()) {
    write_output(args.json, json{{"result", "fail"},
                                 {"kind", f.verdict.kind},
                                 {"entries_before", before},
                                 {"entries_after", gen::count_entries(f.minimized)},
                                 {"minimal", f.minimal},
                                 {"schedule", print_schedule(f.minimized)},
                                 {"verdict", verdict_json(f.verdict)}}
                                .dump(2) +
                                "\n");
  }
  throw Exit{kExitFound, ""};
}

}  // namespace

void add_verify_command(CLI::App& app) {
  auto args = std::make_shared<VerifyArgs>();
  CLI::App* cmd = app.add_subcommand(
      "verify",
      "Judge a planner: every schedule of the corpus and the regressions, then generated schedules "
      "growing in size, each plan through the checker and the shadow executor. The first failure is "
      "shrunk, re-running the planner, while it keeps its kind, and written to --out. Exit 0: the "
      "budget was spent with nothing found; 1: a failure; 2: bad usage.");
  add_planner_options(*cmd, args->planner);
  cmd->add_option("schedules", args->files,
                  "judge only these schedules (files or folders of .sched files); nothing is generated");
  cmd->add_option("--corpus", args->corpus, "folders of .sched files judged first (default: corpus/schedules "
                                            "and corpus/regressions, installed or of the source tree)");
  cmd->add_flag("--no-corpus", args->no_corpus, "judge generated schedules only");
  cmd->add_option("--cases", args->cases, "generated cases at most; 0: until the time is spent")
      ->capture_default_str();
  cmd->add_option("--time", args->time, "seconds for judging, at most (shrinking has its own)")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  cmd->add_option("--shrink-time", args->shrink_time, "seconds for shrinking a failure, at most")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "the generator's seed: the same seed, the same cases")->capture_default_str();
  cmd->add_option("--max-size", args->max_size, "the largest generated schedule, on the generator's scale (100: "
                                                "some 40 entries)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--out", args->out, "the folder a failure is written to")->capture_default_str();
  cmd->add_option("--json", args->json, "also write the result as one JSON object to this file (-: standard output, in place of the text)");
  cmd->add_flag("--progress", args->progress, "print progress on standard error even when it is not a terminal");
  args->features.add_to(*cmd);
  cmd->callback([args] { run_verify(*args); });
}

void add_minimize_command(CLI::App& app) {
  auto args = std::make_shared<MinimizeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "minimize",
      "Shrink a schedule on which a planner fails (a wrong plan, a clobber, or a failure of the planner's "
      "own) while it fails the same way, and print the smallest one found. Exit 0: it does not fail; 1: "
      "it fails, and the minimized schedule is printed; 2: bad input.");
  cmd->add_option("schedule", args->schedule, "the failing .sched file")->required();
  add_planner_options(*cmd, args->planner);
  cmd->add_option("-o,--output", args->output, "write the minimized schedule to this file");
  cmd->add_option("--time", args->time, "seconds for shrinking, at most")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  cmd->add_option("--json", args->json, "also write the result as one JSON object to this file (- for standard output)");
  cmd->callback([args] { run_minimize(*args); });
}

}  // namespace planck::cli
