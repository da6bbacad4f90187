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

}  // namespace

void add_planner_options(CLI::App& cmd, PlannerOptions& options) {
  CLI::Option* name = cmd.add_option("--planner", options.name, "one of this project's planners, by name")
                          ->check(CLI::IsMember(planner_names()))
                          ->capture_default_str();
  CLI::Option* command = cmd.add_option(
      "--planner-cmd", options.command,
      "a planner written elsewhere: a shell command that reads a schedule (.sched) on standard "
      "input and writes its plan (.plan) on standard output")->check(kNotEmpty);
  cmd.add_flag("--persistent", options.persistent,
               "one --planner-cmd process plans every schedule: each schedule and each plan ends "
               "with a line holding only %%")
      ->needs(command);
  cmd.add_option("--planner-timeout", options.timeout_seconds,
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
  if (!options.library.empty()) return "--planner-lib " + shell_quote(options.library);
  if (options.command.empty()) return "--planner " + shell_quote(options.name);
  std::string out = "--planner-cmd " + shell_quote(options.command);
  if (options.persistent) out += " --persistent";
  if (options.timeout_seconds != PlannerOptions{}.timeout_seconds) {
    out += fmt::format(" --planner-timeout {}", options.timeout_seconds);
  }
  return out;
}

Exit planner_failure(const std::string& schedule, const Error& error) {
  if (error.kind.empty()) return Exit{kExitBadInput, schedule + ": " + error.message()};
  return Exit{kExitFound, error.kind + ": " + schedule + ": " + error.message()};
}

}  // namespace planck::cli
