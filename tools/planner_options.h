#pragma once
// How a command names its planner: one of this project's by name, or one
// written elsewhere (SPEC section 9):
//   --planner NAME
//   --planner-cmd CMD [--persistent] [--planner-timeout S]
//   --planner-lib PATH
// and, for the commands that judge it on schedules it may not support
// (verify, gate, minimize), what it claims to support:
//   --no-FEATURE ...  a feature of the model it does not support

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "gen/features.h"
#include "model/result.h"
#include "planner/planner.h"
#include "tools/commands.h"

namespace planck::cli {

struct PlannerOptions {
  std::string name = "tlsf";     // --planner
  std::string command;           // --planner-cmd
  bool persistent = false;       // --persistent
  double timeout_seconds = 10;   // --planner-timeout
  std::string library;           // --planner-lib
  gen::Features features;        // what it supports: every feature but those of --no-FEATURE
};

// Which planner options a command takes: the planner alone, or also what it
// claims to support, for a command that judges it on schedules.
enum class PlannerClaims { No, Yes };

// Adds the planner options to a subcommand; parsing fills `options`, which
// must outlive it. --planner, --planner-cmd and --planner-lib exclude each
// other; --persistent and --planner-timeout need --planner-cmd. With
// PlannerClaims::Yes, a --no-FEATURE flag for each feature of the model.
void add_planner_options(CLI::App& cmd, PlannerOptions& options, PlannerClaims claims = PlannerClaims::No);

// The planner the options name. A library that cannot be loaded ends the
// command as bad input (exit 2) with the reason.
std::unique_ptr<Planner> make_chosen_planner(const PlannerOptions& options);

// The options as written on a command line, each word quoted for a shell,
// e.g. `--planner-cmd 'python3 first_fit.py' --persistent --no-flag-loops`:
// for a line that reproduces a run.
std::string planner_arguments(const PlannerOptions& options);

// Ends the command with exit 2 when `s` uses a feature the options say the
// planner does not support.
void check_supported(const PlannerOptions& options, const Schedule& s, const std::string& path);

// How a command ends when its planner failed on a schedule: a failure of
// the planner's own (SPEC section 9) is "planner-KIND: SCHEDULE: message"
// with exit 1, any other error "SCHEDULE: message" with exit 2.
Exit planner_failure(const std::string& schedule, const Error& error);

}  // namespace planck::cli
