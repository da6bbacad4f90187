#pragma once
// The options the commands share, each with one spelling, one check and one
// help text wherever it appears (docs/commands.md#the-planck-command):
//   --json FILE, --progress         every command's result and progress
//   --time SECONDS                  a wall-clock limit (--timeout: the same,
//                                   on oracle, check and stats)
//   --seed S, --cases N             generated cases
// The planner options are in planner_options.h.

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <string>

namespace planck::cli {

// What every command prints besides its result for people.
struct OutputOptions {
  std::string json;       // --json FILE; "-": standard output, in place of the text
  bool progress = false;  // --progress
};

// Adds --json FILE and --progress; parsing fills `out`, which must outlive it.
void add_output_options(CLI::App& cmd, OutputOptions& out);

// Whether a time option also answers to --timeout.
enum class TimeoutAlias { No, Yes };

// Adds --time SECONDS (a number, 0 or more) filling `seconds`; with
// TimeoutAlias::Yes, --timeout is its other spelling.
CLI::Option* add_time_option(CLI::App& cmd, double& seconds, const std::string& description,
                             TimeoutAlias alias = TimeoutAlias::No);

// Another number of seconds, 0 or more, e.g. --shrink-time.
CLI::Option* add_seconds_option(CLI::App& cmd, const std::string& name, double& seconds,
                                const std::string& description);

// A whole number, 0 or more, as written (CLI11 alone reads `-1` as the
// largest unsigned number).
CLI::Validator whole_number();

// Adds --seed S: the generator's seed.
CLI::Option* add_seed_option(CLI::App& cmd, std::uint64_t& seed);

// How long a run of generated cases goes: --cases N and --time SECONDS,
// whichever is spent first. One given alone is the whole budget: --time T
// without --cases runs until T seconds are spent, --cases N (N > 0) without
// --time runs the N cases however long they take; given neither, the
// defaults. --cases 0 is no limit on cases.
struct CaseBudget {
  std::uint64_t cases = 1000;  // the default, then --cases
  double seconds = 0;          // the default, then --time
  bool time_limited = false;   // whether the default has a time limit
  bool cases_given = false;
  bool time_given = false;

  struct Limits {
    std::uint64_t cases;  // 0: no limit
    std::chrono::steady_clock::duration time;
  };
  // The limits the rule above gives; a budget with neither limit ends the
  // command with exit 2.
  Limits limits() const;
};

// Adds --cases and --time filling `budget`, whose fields hold the defaults;
// `time_help` says what the time covers.
void add_budget_options(CLI::App& cmd, CaseBudget& budget, const std::string& time_help);

// Adds --optimum and its time limit, --time (or --timeout): the oracle's
// least arena beside a plan's, for check and stats.
void add_optimum_options(CLI::App& cmd, bool& optimum, double& seconds, const std::string& time_help);

// The point `seconds` after `start`; a limit too long for the clock is
// taken as about 115 days.
std::chrono::steady_clock::time_point deadline_after(std::chrono::steady_clock::time_point start,
                                                     double seconds);

// `seconds` as a duration of the steady clock, at most about 115 days.
std::chrono::steady_clock::duration seconds_duration(double seconds);

}  // namespace planck::cli
