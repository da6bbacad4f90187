#pragma once
// Progress on standard error for commands that can run long: what the
// command is doing and for how long, once it has run for a second. Shown
// when standard error is a terminal (one line rewritten in place, four
// times a second) or when asked for with --progress (then a line every five
// seconds, for a log); quiet otherwise, and never on standard output
// (docs/commands.md#streams-and-exit-codes).

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace planck::cli {

class Progress {
 public:
  // `command` names the lines ("oracle: ..."); `asked`: --progress.
  Progress(std::string command, bool asked);
  ~Progress();  // stops the line, and ends it on a terminal
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // What the command is doing now, e.g. "device cuda:0: search".
  void stage(std::string what);

 private:
  void tick();

  std::string command_;
  bool tty_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string stage_;
  bool stop_ = false;
  bool dirty_ = false;  // a terminal line is open
  std::thread thread_;
};

}  // namespace planck::cli
