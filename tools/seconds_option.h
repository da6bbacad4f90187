#pragma once
// A time limit on the command line: a number of seconds, 0 or more. A bad
// value is refused with the value as written (CLI11's own range check would
// print the bound, the largest double, in hundreds of digits).

#include <CLI/CLI.hpp>
#include <chrono>
#include <string>

namespace planck::cli {

CLI::Option* add_seconds_option(CLI::App& cmd, const std::string& name, double& seconds,
                                const std::string& description);

// The point `seconds` after `start`; a limit too long for the clock is
// taken as about 115 days.
std::chrono::steady_clock::time_point deadline_after(std::chrono::steady_clock::time_point start,
                                                     double seconds);

}  // namespace planck::cli
