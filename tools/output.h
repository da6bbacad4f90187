#pragma once
// Writing results. The streams of every command
// (docs/commands.md#streams-and-exit-codes): its result (a plan, a verdict
// and its violations, a table, the oracle's bounds, a JSON object) goes to
// standard output; progress and diagnostics (why a command could not give a
// result: an unreadable file, a bad flag, a failed write) go to standard
// error. A file is written whole or not at all (a temporary file beside it,
// then renamed over it), and a failed write to standard output is an error,
// never a silent truncated result.

#include <chrono>
#include <cstddef>
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

// Whether standard output is a terminal.
bool stdout_is_terminal();

// The characters of a line of standard output: the terminal's width (COLUMNS
// when it holds a number, else the terminal's own) when it is a terminal,
// else `fallback`.
std::size_t output_width(std::size_t fallback);

// A command's result, for people and for programs: the text on standard
// output and, with `--json FILE`, the same result as one JSON object in
// FILE; with `--json -` the object goes to standard output in place of the
// text, so that standard output is one JSON document. Every object starts
// with `command` (the command's name) and ends with `seconds` (its wall
// time), between them the command's own fields.
class Report {
 public:
  Report(std::string command, std::string json_path);

  std::string text;
  nlohmann::ordered_json object = nlohmann::ordered_json::object();

  // Whether standard output holds the JSON object, and no text.
  bool json_on_stdout() const { return json_path_ == "-"; }
  // Writes the text and the object where --json says.
  void write() const;
  // Writes, then ends the command with `code` when it is not 0.
  void finish(int code) const;

 private:
  std::string command_;
  std::string json_path_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// For a command whose result is a file written to `output` ("-" or empty:
// standard output): `--json -` there would mix the two, and ends the
// command with exit 2 saying that it needs `-o FILE` for `what`.
void check_json_beside_output(const std::string& command, const std::string& json_path,
                              const std::string& output, const std::string& what);

}  // namespace planck::cli
