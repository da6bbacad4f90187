#include "tools/planner_options.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

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

// --no-NAME for each feature of the model; each given one is off.
void add_feature_flags(CLI::App& cmd, gen::Features& features) {
  for (const gen::FeatureSwitch& f : gen::feature_switches()) {
    cmd.add_flag_callback(
           fmt::format("--no-{}", f.name), [&features, on = f.on] { features.*on = false; },
           fmt::format("the planner does not support {}: none is generated, and schedules that use it are "
                       "skipped",
                       f.description))
        ->group("Features");
  }
}

// The features `used` has that `allowed` does not, as their switches' names.
std::string missing_features(const gen::Features& allowed, const gen::Features& used) {
  std::string out;
  for (const gen::FeatureSwitch& f : gen::feature_switches()) {
    if (used.*(f.on) && !(allowed.*(f.on))) out += (out.empty() ? "" : ", ") + std::string(f.name);
  }
  return out;
}

}  // namespace

void add_planner_options(CLI::App& cmd, PlannerOptions& options, PlannerClaims claims) {
  CLI::Option* name = cmd.add_option("--planner", options.name, "one of this project's planners, by name")
                          ->check(CLI::IsMember(planner_names()))
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
  if (claims == PlannerClaims::Yes) add_feature_flags(cmd, options.features);
}

std::unique_ptr<Planner> make_chosen_planner(const PlannerOptions& options) {
  if (!options.command.empty()) {
    const auto timeout = std::chrono::milliseconds(std::llround(options.timeout_seconds * 1000));
    return make_command_planner(options.command, {.timeout = timeout, .persistent = options.persistent});
  }
  if (!options.library.empty()) {
    auto planner = make_library_planner(options.library);
    if (!planner) throw Exit{kExitBadInput, "--planner-lib: " + planner.error().message()};
    return std::move(planner).value();
  }
  auto planner = make_planner(options.name);
  if (!planner) throw Exit{kExitBadInput, "--planner: no planner named " + options.name};
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
  for (const gen::FeatureSwitch& f : gen::feature_switches()) {
    if (!(options.features.*(f.on))) out += fmt::format(" --no-{}", f.name);
  }
  return out;
}

void check_supported(const PlannerOptions& options, const Schedule& s, const std::string& path) {
  const std::string missing = missing_features(options.features, gen::used_features(s));
  if (!missing.empty()) {
    throw Exit{kExitBadInput, fmt::format("{}: uses what the planner does not support ({}), by its --no-FEATURE "
                                          "options",
                                          path, missing)};
  }
}

Exit planner_failure(const std::string& schedule, const Error& error) {
  if (error.kind.empty()) return Exit{kExitBadInput, schedule + ": " + error.message()};
  return Exit{kExitFound, error.kind + ": " + schedule + ": " + error.message()};
}

}  // namespace planck::cli
