#pragma once
// Planners written elsewhere, in any language, behind the Planner interface
// (docs/verification.md#judging-your-own-planner). Each is given the schedule in canonical .sched text and
// answers with .plan text; a failure of the planner itself (it exits, is
// killed, runs out of time, or answers with something that is not a plan
// file) is an Error whose kind names it, never mistaken for a wrong plan:
//
//   planner-exit     the command exited with a status other than 0, or,
//                    persistent, exited at all before answering
//   planner-signal   the command was killed by a signal
//   planner-timeout  the command did not answer in time; its process group
//                    was killed
//   planner-output   the answer is not a plan file, or is too long
//   planner-error    the shared library reported an error of its own
//
// A command's failure carries the last lines of its standard error.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "model/result.h"
#include "planner/planner.h"

namespace planck {

struct CommandOptions {
  // How long one schedule may take, from starting (or reaching) the process
  // to the end of its answer.
  std::chrono::milliseconds timeout{10'000};
  // One process plans every schedule: Planck writes a schedule, then a line
  // holding only `%%`, and reads the plan up to a line holding only `%%`. A
  // process that dies or runs out of time is restarted for the next schedule.
  bool persistent = false;
  // The longest answer accepted; a longer one is a planner-output failure.
  std::size_t max_output_bytes = std::size_t{256} << 20;
};

// A planner that runs `/bin/sh -c command`: the schedule on its standard
// input, its plan on standard output, exit status 0. The command runs in a
// process group of its own, which Planck kills when the answer is complete
// (or the time is up), so that nothing it started outlives it. Calls may
// come from several threads; a persistent planner serves them one at a time.
std::unique_ptr<Planner> make_command_planner(std::string command, CommandOptions options = {});

// A planner in a shared library with the C ABI of include/planck/planner.h,
// called in Planck's own process: a crash in it is a crash of Planck. An
// error names the file: missing, not loadable, without one of the ABI's
// functions, or of another ABI version. Calls into the library are made one
// at a time.
Result<std::unique_ptr<Planner>> make_library_planner(const std::string& path);

}  // namespace planck
