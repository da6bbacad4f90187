#pragma once
// How a command names its planner: one of this project's by name, or one
// written elsewhere (docs/verification.md#judging-your-own-planner):
//   --planner NAME
//   --planner-cmd CMD [--persistent] [--planner-timeout S]
//   --planner-lib PATH
// and, for the commands that judge it on schedules it may not support
// (verify, gate, minimize), what it claims to support:
//   --features LIST   the features of the model it supports (model/features.h:
//                     names, `v1`, `v2`, `v3`, `none`;
//                     docs/verification.md#planck-verify); by default every
//                     feature for this project's planners, `v1` for a
//                     command, and for a library what its
//                     planck_planner_features() says (`v1` at ABI version 1)
//   --no-FEATURE ...  a feature of the model it does not support

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "model/features.h"
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
  std::string features_list;     // --features, empty when not given
  Features removed = no_features();  // each --no-FEATURE
  // What it supports: --features, or the planner's own default, without
  // --no-FEATURE's. Set by make_chosen_planner.
  Features features;
  Features default_features;  // the planner's own default
};

// Which planner options a command takes: the planner alone, or also what it
// claims to support, for a command that judges it on schedules.
enum class PlannerClaims { No, Yes };

// Adds the planner options to a subcommand; parsing fills `options`, which
// must outlive it. --planner, --planner-cmd and --planner-lib exclude each
// other; --persistent and --planner-timeout need --planner-cmd. With
// PlannerClaims::Yes, a --no-FEATURE flag for each feature of the model.
void add_planner_options(CLI::App& cmd, PlannerOptions& options, PlannerClaims claims = PlannerClaims::No);

// The planner the options name, and what it supports in options.features.
// A library that cannot be loaded, a --features list or a library's claim
// that names no feature end the command as bad input (exit 2) with the
// reason.
std::unique_ptr<Planner> make_chosen_planner(PlannerOptions& options);

// The options as written on a command line, each word quoted for a shell,
// e.g. `--planner-cmd 'python3 first_fit.py' --persistent --features v1,align`
// (--features when the features differ from the planner's default): for a
// line that reproduces a run.
std::string planner_arguments(const PlannerOptions& options);

// Ends the command with exit 2 when `s` uses a feature the options say the
// planner does not support (after make_chosen_planner).
void check_supported(const PlannerOptions& options, const Schedule& s, const std::string& path);

// How a command ends when its planner failed on a schedule: a failure of
// the planner's own (docs/verification.md#judging-your-own-planner) is
// "planner-KIND: SCHEDULE: message" with exit 1, any other error
// "SCHEDULE: message" with exit 2.
Exit planner_failure(const std::string& schedule, const Error& error);

}  // namespace planck::cli
