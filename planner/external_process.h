#pragma once
// The process of a planner run as a command (docs/verification.md#judging-your-own-planner): /bin/sh -c
// COMMAND in a process group of its own, its standard input, output and
// error on pipes that Planck serves together with poll(), so that a planner
// that writes much on standard error, or never reads its input, cannot
// stall Planck, and one that hangs is stopped at a deadline.

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/lexical.h"
#include "model/result.h"

namespace planck::external {

using Clock = std::chrono::steady_clock;

// A file descriptor that is closed when it goes.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }

  int get() const { return fd_; }
  bool open() const { return fd_ >= 0; }
  int release();
  void reset();

 private:
  int fd_ = -1;
};

// How the process ended: its exit status, or the signal that killed it.
struct ExitStatus {
  bool signaled = false;
  int value = 0;  // the exit status, or the signal's number
};

// Text from a planner made fit for a message: escaped (model/lexical.h),
// its tabs and newlines kept.
inline std::string printable(std::string_view text) { return escaped(text, "\t\n"); }

// A planner's answer `over-capacity: MESSAGE` (one line, a newline at the end
// allowed): its refusal to plan past a device's capacity (docs/model-v2.md),
// an error of kind kOverCapacity that quotes MESSAGE. Any other answer: none.
std::optional<Error> over_capacity_answer(std::string_view answer, std::string_view planner);

class PlannerProcess {
 public:
  // Starts `sh -c command`. Failing to make pipes or a process is an error
  // of Planck's environment, not the planner's, so it has no kind.
  static Result<std::unique_ptr<PlannerProcess>> start(const std::string& command);

  PlannerProcess(const PlannerProcess&) = delete;
  PlannerProcess& operator=(const PlannerProcess&) = delete;
  // Kills what is left of the process group and reaps the process.
  ~PlannerProcess();

  enum class Read {
    Answer,   // a line `%%` ended the answer (delimited reads only)
    End,      // standard output closed
    Timeout,  // the deadline passed first
    TooLong,  // the answer grew past max_output bytes
  };

  // Writes `input` on standard input, closing it after the last byte when
  // close_input, while reading standard output until a line holding only
  // `%%` (when delimited) or until it closes, and keeping the tail of
  // standard error. `answer` gets what came before the `%%` line, or all of
  // the output at its end; bytes after a `%%` line are kept for the next call.
  // A planner that stops reading its input is no error here: what it wrote
  // is judged.
  Read converse(std::string_view input, bool close_input, bool delimited, Clock::time_point deadline,
                std::size_t max_output, std::string& answer);

  // Closes standard input: a planner that reads until its end then ends.
  void close_input() { in_.reset(); }

  // How the process ended, waiting for it until the deadline (nullopt when
  // it is still running then); standard error is read meanwhile.
  std::optional<ExitStatus> wait_exit(Clock::time_point deadline);

  // Kills the whole process group and reaps the process (once).
  void kill();

  // The last lines of what the process wrote on standard error, for a
  // message; forget_stderr() starts afresh, for the next schedule.
  std::string stderr_tail() const;
  void forget_stderr() {
    err_text_.clear();
    stderr_cut_ = false;
  }

 private:
  PlannerProcess(pid_t pid, Fd in, Fd out, Fd err)
      : pid_(pid), in_(std::move(in)), out_(std::move(out)), err_(std::move(err)) {}

  void read_stderr();
  void read_stdout(std::size_t max_output);
  void write_stdin(std::string_view input, std::size_t& written);
  std::optional<std::size_t> find_delimiter();

  pid_t pid_;
  std::optional<ExitStatus> exit_;  // once seen
  bool reaped_ = false;
  Fd in_, out_, err_;
  std::string out_text_;     // read from standard output, not yet returned
  std::size_t scanned_ = 0;  // no `%%` line starts in out_text_ before this
  std::string err_text_;     // the latest part of standard error
  bool stderr_cut_ = false;  // err_text_ lost its beginning
};

}  // namespace planck::external
