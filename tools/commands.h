#pragma once
// The subcommands of `planck`, one file each. Every one registers itself on
// the app and runs through the callback it sets; exit codes: 0 success,
// 1 the input is well formed but wrong (a bad plan, a clobber, infeasible),
// 2 bad input (unreadable file, parse error, bad flag)
// (docs/commands.md#streams-and-exit-codes).

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/plan.h"
#include "model/problem.h"
#include "model/schedule.h"
#include "tools/options.h"

namespace planck::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFound = 1;
inline constexpr int kExitBadInput = 2;

// Thrown by a command to end with a message and an exit code.
struct Exit {
  int code;
  std::string message;  // printed on stderr when not empty
};

// Loaders for the commands: bad input ends the command with exit 2 and its
// place. A path of `-` is standard input.
Problem load_problem(const std::string& path);
// A schedule, or the one an interval problem stands for.
Schedule load_schedule(const std::string& path);
Plan load_plan(const std::string& path);

// What `check` judges. For an interval problem, each of its bytes is a block
// of 256 bytes, in the schedule and in the plan, so that the checker judges
// the problem's alignment 1 (model/interval_schedule.h); the byte figures of
// its messages are then `scale` times the problem's.
struct CheckInput {
  Schedule schedule;
  Plan plan;
  Bytes scale = 1;
};
CheckInput load_check_input(const std::string& schedule, const std::string& plan);
// A folder's files ending in `ext`, in name order; none when the folder does
// not exist. A .sched name with a second extension (NAME.rewrite.sched) is an
// expected output kept beside its schedule, not an input.
std::vector<std::filesystem::path> inputs_in(const std::filesystem::path& dir, const std::string& ext);

// What `planck NAME --help` says the command does: its line of
// tools/commands.txt. Every command has one (tests/command_line_test.cc).
std::string about(std::string_view name);

// Adds the subcommand `name` to app, described by about(name). Its arguments
// are an Args that lives as long as the app: `options(cmd, args)` adds the
// command's own options on them, then come --json and --progress (filling
// args.out), and once the command line is parsed `run(args)` runs the
// command. Returns the subcommand.
template <class Args, class Run, class Options>
CLI::App* add_command(CLI::App& app, const std::string& name, Run run, Options options) {
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(name, about(name));
  options(*cmd, *args);
  add_output_options(*cmd, args->out);
  cmd->callback([args, run] { run(*args); });
  return cmd;
}

// The positional arguments of the commands that read a schedule and, given
// `plan`, a plan, worded alike in each one's help: with `csv` the schedule
// may be an interval problem.
void add_input_files(CLI::App& cmd, std::string& schedule, std::string* plan, bool csv);

void add_plan_command(CLI::App& app);    // planck plan FILE [-o PLAN] [--rewrite] [--planner NAME]
void add_check_command(CLI::App& app);   // planck check FILE PLAN [--picture]
void add_draw_command(CLI::App& app);    // planck draw FILE PLAN [-o FILE.svg] [--text] [--width N]
void add_stats_command(CLI::App& app);   // planck stats FILE...
void add_run_command(CLI::App& app);     // planck run FILE PLAN [--iterations K]
void add_oracle_command(CLI::App& app);  // planck oracle FILE [--capacity C] [--time S] [-o PLAN]
void add_planners_command(CLI::App& app);  // planck planners [--json [FILE]]
void add_verify_command(CLI::App& app);    // planck verify PLANNER [--cases N] [--time T] [--seed S] ...
void add_minimize_command(CLI::App& app);  // planck minimize SCHEDULE PLANNER [--time T] [-o FILE]
void add_gate_command(CLI::App& app);      // planck gate PLANNER --baseline FILE [--cases N] [--time T] ...
void add_generate_command(CLI::App& app);  // planck generate KIND [--seed S] [size options] [-o FILE]
void add_import_command(CLI::App& app);    // planck import MODEL [-o FILE] [--dim NAME=N]... [--inplace] ...

}  // namespace planck::cli
