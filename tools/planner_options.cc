#include "tools/planner_options.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <optional>

#include "harness/planners.h"
#include "planner/external.h"

namespace planck::cli {
namespace {

constexpr double kMinTimeout = 0.001;
constexpr double kMaxTimeout = 86400;

// A shell word that stands for `word` itself.
std::string shell_quote(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789_-+=./:,@%") == std::string::npos) {
    return word;
  }
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

const CLI::Validator kNotEmpty(
    [](const std::string& text) -> std::string { return text.empty() ? "must not be empty" : ""; }, "");

// --features LIST, and --no-NAME for each feature of the model.
void add_feature_flags(CLI::App& cmd, PlannerOptions& options) {
  std::string names;
  for (const FeatureSwitch& f : feature_switches()) names += fmt::format(", {}", f.name);
  cmd.add_option("--features", options.features_list,
                 fmt::format("the features of the model the planner supports, separated by commas: v1 (every "
                             "feature of model v1), v2 (every feature of v1 and v2), v3 (every feature), none{}. "
                             "Default: every feature for "
                             "--planner, v1 for --planner-cmd, what planck_planner_features() says for "
                             "--planner-lib. Only these are generated; files that use others are skipped",
                             names))
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            const Result<Features> f = parse_features(text);
            return f ? "" : f.error().message();
          },
          "LIST"))
      ->group("Features");
  for (const FeatureSwitch& f : feature_switches()) {
    cmd.add_flag_callback(
           fmt::format("--no-{}", f.name), [&options, on = f.on] { options.removed.*on = true; },
           fmt::format("the planner does not support {}: none is generated, and schedules that use it are "
                       "skipped",
                       f.description))
        ->group("Features");
  }
}

// options.features and default_features, for `planner`.
void settle_features(PlannerOptions& options, const Planner& planner) {
  Features own;  // this project's planners support every feature
  if (!options.command.empty()) own = v1_features();
  if (const std::optional<Features> claimed = planner.claimed_features()) own = *claimed;
  options.default_features = own;
  Features f = own;
  if (!options.features_list.empty()) {
    Result<Features> given = parse_features(options.features_list);
    if (!given) throw Exit{kExitBadInput, "--features: " + given.error().message()};
    f = *given;
  }
  for (const FeatureSwitch& sw : feature_switches()) {
    if (options.removed.*sw.on) f.*sw.on = false;
  }
  options.features = f;
}

// The features `used` has that `allowed` does not, as their switches' names.
std::string missing_features(const Features& allowed, const Features& used) {
  std::string out;
  for (const FeatureSwitch& f : feature_switches()) {
    if (used.*(f.on) && !(allowed.*(f.on))) out += (out.empty() ? "" : ", ") + std::string(f.name);
  }
  return out;
}

}  // namespace

void add_planner_options(CLI::App& cmd, PlannerOptions& options, PlannerClaims claims) {
  CLI::Option* name = cmd.add_option("--planner", options.name, "one of this project's planners, by name")
                          ->check(CLI::IsMember(harness::offered_planner_names()))
                          ->capture_default_str();
  CLI::Option* command = cmd.add_option(
      "--planner-cmd", options.command,
      "a planner written elsewhere: a shell command that reads a schedule (.sched) on standard "
      "input and writes its plan (.plan) on standard output")->check(kNotEmpty);
  CLI::Option* persistent = cmd.add_flag("--persistent", options.persistent,
               "one --planner-cmd process plans every schedule: each schedule and each plan ends "
               "with a line holding only %%")
      ->needs(command);
  CLI::Option* timeout = cmd.add_option("--planner-timeout", options.timeout_seconds,
                 "seconds a --planner-cmd may take for one schedule")
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            const double s = std::strtod(text.c_str(), nullptr);
            if (std::isfinite(s) && s >= kMinTimeout && s <= kMaxTimeout) return "";
            return fmt::format("{} is not a number of seconds from {} to {}", text, kMinTimeout,
                               kMaxTimeout);
          },
          "SECONDS"))
      ->needs(command)
      ->capture_default_str();
  CLI::Option* library = cmd.add_option(
      "--planner-lib", options.library,
      "a planner written elsewhere: a shared library with the C ABI of include/planck/planner.h, "
      "run inside planck (a crash in it is a crash of planck)")->check(kNotEmpty);
  name->excludes(command);
  name->excludes(library);
  command->excludes(library);
  for (CLI::Option* o : {name, command, persistent, timeout, library}) o->group("Planner");
  if (claims == PlannerClaims::Yes) add_feature_flags(cmd, options);
}

namespace {

std::unique_ptr<Planner> make_named_planner(const PlannerOptions& options) {
  if (!options.command.empty()) {
    const auto timeout = std::chrono::milliseconds(std::llround(options.timeout_seconds * 1000));
    return make_command_planner(options.command, {.timeout = timeout, .persistent = options.persistent});
  }
  if (!options.library.empty()) {
    auto planner = make_library_planner(options.library);
    if (!planner) throw Exit{kExitBadInput, "--planner-lib: " + planner.error().message()};
    return std::move(planner).value();
  }
  auto planner = harness::make_offered_planner(options.name);
  if (!planner) throw Exit{kExitBadInput, "--planner: no planner named " + options.name};
  return planner;
}

}  // namespace

std::unique_ptr<Planner> make_chosen_planner(PlannerOptions& options) {
  std::unique_ptr<Planner> planner = make_named_planner(options);
  settle_features(options, *planner);
  return planner;
}

std::string planner_arguments(const PlannerOptions& options) {
  std::string out;
  if (!options.library.empty()) {
    out = "--planner-lib " + shell_quote(options.library);
  } else if (options.command.empty()) {
    out = "--planner " + shell_quote(options.name);
  } else {
    out = "--planner-cmd " + shell_quote(options.command);
    if (options.persistent) out += " --persistent";
    if (options.timeout_seconds != PlannerOptions{}.timeout_seconds) {
      out += fmt::format(" --planner-timeout {}", options.timeout_seconds);
    }
  }
  if (!(options.features == options.default_features)) {
    out += " --features " + features_text(options.features);
  }
  return out;
}

void check_supported(const PlannerOptions& options, const Schedule& s, const std::string& path) {
  const std::string missing = missing_features(options.features, used_features(s));
  if (!missing.empty()) {
    throw Exit{kExitBadInput, fmt::format("{}: uses what the planner does not support ({}); it supports {} "
                                          "(--features)",
                                          path, missing, features_text(options.features))};
  }
}

Exit planner_failure(const std::string& schedule, const Error& error) {
  if (error.kind.empty()) return Exit{kExitBadInput, schedule + ": " + error.message()};
  return Exit{kExitFound, error.kind + ": " + schedule + ": " + error.message()};
}

}  // namespace planck::cli
