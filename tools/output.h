#pragma once
// Writing results. The streams of every command: its result (a plan, a
// verdict and its violations, a table, the oracle's bounds, a JSON object)
// goes to standard output; progress and diagnostics (why a command could not
// give a result: an unreadable file, a bad flag, a failed write) go to
// standard error. A file is written whole or not at all (a temporary file
// beside it, then renamed over it), and a failed write to standard output is
// an error, never a silent truncated result.

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planck::cli {

// Moves value to the heap for the rest of the process and returns it there.
// The model of a large schedule and its plan are millions of small records,
// and freeing them one by one takes a noticeable part of a command that ends
// right after; kept here, the exit returns their memory at once. They stay
// reachable from a global, so a leak checker does not count them.
template <class T>
T& keep_until_exit(T value) {
  static auto* const kept = new std::vector<std::shared_ptr<void>>();
  auto held = std::make_shared<T>(std::move(value));
  kept->push_back(held);
  return *held;
}

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

// A command's result, for people and for programs. With `--json FILE` the
// object is written to FILE as well as the text to standard output; with
// `--json -` the object goes to standard output in place of the text, so
// that standard output is one JSON document.
struct Report {
  std::string json_path;  // --json; empty: text only
  std::string text;
  nlohmann::ordered_json object = nlohmann::ordered_json::object();

  // Writes the text and the object where json_path says.
  void write() const;
};

// Adds `--json FILE` to a command; parsing fills `path`, which must outlive it.
void add_json_option(CLI::App& cmd, std::string& path);

}  // namespace planck::cli
