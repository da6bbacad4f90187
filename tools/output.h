#pragma once
// Writing results: a file is written whole or not at all (a temporary file
// beside it, then renamed over it), and a failed write to standard output is
// an error, never a silent truncated result.

#include <string>
#include <string_view>

namespace planck::cli {

// Writes text to path ("-" or empty: standard output). Ends the command
// with exit 2 and the reason when the write fails.
void write_output(const std::string& path, std::string_view text);

// Ends the command with exit 2 when path (not "-" or empty) could not be
// written later because its folder does not exist: for outputs written at the
// end of a long run, checked before the run starts.
void check_output_folder(const std::string& path);

// Writes text to standard output and flushes it; ends the command with
// exit 2 when that fails (a closed pipe, a full disk).
void print_out(std::string_view text);

}  // namespace planck::cli
