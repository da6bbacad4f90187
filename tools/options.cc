#include "tools/options.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "tools/commands.h"

namespace planck::cli {
namespace {

constexpr double kMaxSeconds = 1e7;  // about 115 days

const CLI::Validator& seconds_check() {
  static const CLI::Validator check(
      [](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value < 0) {
          return "`" + text + "` is not a number of seconds, 0 or more";
        }
        return "";
      },
      "SECONDS");
  return check;
}

}  // namespace

void add_output_options(CLI::App& cmd, OutputOptions& out) {
  cmd.add_option("--json", out.json,
                 "also write the result as one JSON object to this file; - puts it on standard output in place "
                 "of the text")
      ->group("Output");
  cmd.add_flag("--progress", out.progress,
               "print progress on standard error even when it is not a terminal (a line every five seconds)")
      ->group("Output");
}

CLI::Option* add_seconds_option(CLI::App& cmd, const std::string& name, double& seconds,
                                const std::string& description) {
  return cmd.add_option(name, seconds, description)->check(seconds_check())->capture_default_str();
}

CLI::Option* add_time_option(CLI::App& cmd, double& seconds, const std::string& description, TimeoutAlias alias) {
  return add_seconds_option(cmd, alias == TimeoutAlias::Yes ? "--time,--timeout" : "--time", seconds, description);
}

CLI::Validator whole_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
          return "`" + text + "` is not a whole number, 0 or more";
        }
        return "";
      },
      "N");
}

CLI::Option* add_seed_option(CLI::App& cmd, std::uint64_t& seed) {
  return cmd.add_option("--seed", seed, "the seed of the random choices: the same seed, the same schedules")
      ->check(whole_number())
      ->capture_default_str();
}

CaseBudget::Limits CaseBudget::limits() const {
  const std::uint64_t max_cases = time_given && !cases_given ? 0 : cases;
  const bool time_limit = time_given || (time_limited && !(cases_given && cases > 0));
  if (max_cases == 0 && !time_limit) {
    throw Exit{kExitBadInput, "--cases 0 is no limit on cases: it needs --time SECONDS, or the run would not end"};
  }
  return {max_cases, seconds_duration(time_limit ? seconds : kMaxSeconds)};
}

void add_budget_options(CLI::App& cmd, CaseBudget& budget, const std::string& time_help) {
  cmd.add_option_function<std::uint64_t>(
         "--cases",
         [&budget](std::uint64_t n) {
           budget.cases = n;
           budget.cases_given = true;
         },
         "generated cases at most, as planck verify makes them (the same seed and number, the same cases); "
         "0: no limit; given without --time, every case however long it takes")
      ->check(whole_number())
      ->default_str(std::to_string(budget.cases))
      ->group("Budget");
  cmd.add_option_function<double>(
         "--time",
         [&budget](double s) {
           budget.seconds = s;
           budget.time_given = true;
         },
         time_help + "; given without --cases, cases until the time is spent")
      ->check(seconds_check())
      ->default_str(budget.time_limited ? fmt::format("{}", budget.seconds) : "no limit")
      ->group("Budget");
}

void add_optimum_options(CLI::App& cmd, bool& optimum, double& seconds, const std::string& time_help) {
  cmd.add_flag("--optimum", optimum,
               "also seek each device's least arena with the oracle (planck oracle), within --time");
  add_time_option(cmd, seconds, time_help, TimeoutAlias::Yes);
}

std::chrono::steady_clock::duration seconds_duration(double seconds) {
  const double s = std::clamp(seconds, 0.0, kMaxSeconds);
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

std::chrono::steady_clock::time_point deadline_after(std::chrono::steady_clock::time_point start,
                                                     double seconds) {
  return start + seconds_duration(seconds);
}

}  // namespace planck::cli
