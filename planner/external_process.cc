#include "planner/external_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

extern char** environ;

namespace planck::external {
namespace {

// Standard error is kept to its latest kStderrKept bytes; a message shows
// at most kTailLines lines of at most kTailBytes bytes in all.
constexpr std::size_t kStderrKept = 64 * 1024;
constexpr std::size_t kTailBytes = 2048;
constexpr std::size_t kTailLines = 20;
constexpr std::size_t kChunk = 64 * 1024;

std::string errno_text(const char* what, int err) { return fmt::format("{}: {}", what, std::strerror(err)); }

Error environment_error(const std::string& what) {
  return Error{"", "cannot start the planner: " + what};
}

// A pipe whose two ends are closed on exec and are not the standard
// streams' numbers, so that the child's dup2 onto 0, 1 and 2 always makes
// fresh descriptors without close-on-exec.
Result<std::pair<Fd, Fd>> make_pipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return environment_error(errno_text("pipe", errno));
  Fd ends[2] = {Fd(fds[0]), Fd(fds[1])};
  for (Fd& end : ends) {
    if (end.get() > STDERR_FILENO) continue;
    const int moved = fcntl(end.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    if (moved < 0) return environment_error(errno_text("fcntl", errno));
    end = Fd(moved);
  }
  return std::pair<Fd, Fd>{std::move(ends[0]), std::move(ends[1])};
}

Status set_nonblocking(const Fd& fd) {
  const int flags = fcntl(fd.get(), F_GETFL);
  if (flags < 0 || fcntl(fd.get(), F_SETFL, flags | O_NONBLOCK) != 0) {
    return environment_error(errno_text("fcntl", errno));
  }
  return Ok{};
}

// posix_spawn's attributes and file actions, destroyed when they go.
struct SpawnSetup {
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t actions;
  SpawnSetup() {
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_init(&actions);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

// A write to a pipe whose reader may be gone, without SIGPIPE: the signal
// is blocked in this thread for the write, and one the write raised is
// taken before it is unblocked. EPIPE then reports the reader's end.
ssize_t write_without_sigpipe(int fd, const char* data, std::size_t size) {
  sigset_t pipe_only, old_mask, pending;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  sigpending(&pending);
  const bool was_pending = sigismember(&pending, SIGPIPE) == 1;
  pthread_sigmask(SIG_BLOCK, &pipe_only, &old_mask);
  const ssize_t n = write(fd, data, size);
  const int err = errno;
  if (n < 0 && err == EPIPE && !was_pending) {
    const timespec now{};
    while (sigtimedwait(&pipe_only, nullptr, &now) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  errno = err;
  return n;
}

int poll_ms(Clock::duration d) {
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(d).count();
  return static_cast<int>(std::clamp<decltype(ms)>(ms, 0, 60'000));
}

}  // namespace

std::optional<Error> over_capacity_answer(std::string_view answer, std::string_view planner) {
  constexpr std::string_view kPrefix = "over-capacity:";
  if (!answer.starts_with(kPrefix)) return std::nullopt;
  if (answer.ends_with('\n')) answer.remove_suffix(1);
  if (answer.find('\n') != std::string_view::npos) return std::nullopt;
  std::string_view message = answer.substr(kPrefix.size());
  while (message.starts_with(' ')) message.remove_prefix(1);
  return Error{"", fmt::format("{} finds no plan within the capacity: {}", planner, printable(message)),
               kOverCapacity};
}

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    reset();
    fd_ = o.release();
  }
  return *this;
}

int Fd::release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void Fd::reset() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

Result<std::unique_ptr<PlannerProcess>> PlannerProcess::start(const std::string& command) {
  PLANCK_ASSIGN(auto in, make_pipe());
  PLANCK_ASSIGN(auto out, make_pipe());
  PLANCK_ASSIGN(auto err, make_pipe());

  SpawnSetup setup;
  // The child leads a process group of its own, so that a timeout can kill
  // everything the planner started; it starts with no signal blocked and
  // every signal at its default, whatever Planck's own settings.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  sigdelset(&all, SIGKILL);
  sigdelset(&all, SIGSTOP);
  posix_spawnattr_setpgroup(&setup.attr, 0);
  posix_spawnattr_setsigmask(&setup.attr, &none);
  posix_spawnattr_setsigdefault(&setup.attr, &all);
  posix_spawnattr_setflags(&setup.attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawn_file_actions_adddup2(&setup.actions, in.first.get(), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&setup.actions, out.second.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&setup.actions, err.second.get(), STDERR_FILENO);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  // Descriptors Planck opened without close-on-exec stay out of the planner too.
  posix_spawn_file_actions_addclosefrom_np(&setup.actions, STDERR_FILENO + 1);
#endif

  std::string sh = "sh", dash_c = "-c", text = command;
  char* argv[] = {sh.data(), dash_c.data(), text.data(), nullptr};
  pid_t pid = 0;
  if (const int rc = posix_spawn(&pid, "/bin/sh", &setup.actions, &setup.attr, argv, environ); rc != 0) {
    return environment_error(errno_text("/bin/sh", rc));
  }
  // Planck's ends of the pipes never block; the planner's ends close here,
  // so that each stream ends when the planner's copies of it close.
  std::unique_ptr<PlannerProcess> p(
      new PlannerProcess(pid, std::move(in.second), std::move(out.first), std::move(err.first)));
  PLANCK_TRY(set_nonblocking(p->in_));
  PLANCK_TRY(set_nonblocking(p->out_));
  PLANCK_TRY(set_nonblocking(p->err_));
  return p;
}

PlannerProcess::~PlannerProcess() { kill(); }

void PlannerProcess::kill() {
  if (reaped_) return;
  // The leader is not reaped yet, so its group's id cannot have been reused.
  killpg(pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  if (!exit_) {
    exit_ = WIFSIGNALED(status) ? ExitStatus{true, WTERMSIG(status)} : ExitStatus{false, WEXITSTATUS(status)};
  }
  reaped_ = true;
  in_.reset();
  out_.reset();
  err_.reset();
}

void PlannerProcess::read_stderr() {
  char buf[kChunk];
  for (;;) {
    const ssize_t n = read(err_.get(), buf, sizeof buf);
    if (n > 0) {
      err_text_.append(buf, static_cast<std::size_t>(n));
      if (err_text_.size() > 2 * kStderrKept) {
        err_text_.erase(0, err_text_.size() - kStderrKept);
        stderr_cut_ = true;
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 || errno != EAGAIN) err_.reset();
    return;
  }
}

// Reads what standard output holds now, closing it at its end. Reads stop
// a byte past max_output, which is enough to tell that it is too long.
void PlannerProcess::read_stdout(std::size_t max_output) {
  while (out_text_.size() <= max_output) {
    const std::size_t old = out_text_.size();
    const std::size_t want = std::min(kChunk, max_output + 1 - old);
    out_text_.resize(old + want);
    const ssize_t n = read(out_.get(), out_text_.data() + old, want);
    out_text_.resize(old + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    if (n > 0 || (n < 0 && errno == EINTR)) continue;
    if (n == 0 || errno != EAGAIN) out_.reset();
    return;
  }
}

void PlannerProcess::write_stdin(std::string_view input, std::size_t& written) {
  while (written < input.size()) {
    const ssize_t n = write_without_sigpipe(in_.get(), input.data() + written,
                                            std::min(kChunk, input.size() - written));
    if (n > 0) {
      written += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    // The planner closed its input (EPIPE) or it cannot be written: what it
    // answers without the rest is judged.
    in_.reset();
    written = input.size();
    return;
  }
}

// A `%%` line starts the output or follows a newline; the position of its
// first byte.
std::optional<std::size_t> PlannerProcess::find_delimiter() {
  if (out_text_.starts_with("%%\n")) return 0;
  const std::size_t nl = out_text_.find("\n%%\n", scanned_);
  if (nl != std::string::npos) return nl + 1;
  scanned_ = out_text_.size() >= 3 ? out_text_.size() - 3 : 0;
  return std::nullopt;
}

PlannerProcess::Read PlannerProcess::converse(std::string_view input, bool close_input,
                                              bool delimited, Clock::time_point deadline,
                                              std::size_t max_output, std::string& answer) {
  std::size_t written = in_.open() ? 0 : input.size();
  for (;;) {
    if (delimited) {
      if (std::optional<std::size_t> at = find_delimiter()) {
        answer = out_text_.substr(0, *at);
        out_text_.erase(0, *at + 3);
        scanned_ = 0;
        return Read::Answer;
      }
    }
    if (out_text_.size() > max_output) return Read::TooLong;
    if (!out_.open()) {
      answer = std::move(out_text_);
      out_text_.clear();
      scanned_ = 0;
      return Read::End;
    }
    if (written == input.size() && close_input) in_.reset();

    pollfd fds[3];
    nfds_t count = 0;
    const auto watch = [&](const Fd& fd, short events) -> pollfd* {
      if (!fd.open()) return nullptr;
      fds[count] = pollfd{fd.get(), events, 0};
      return &fds[count++];
    };
    pollfd* in = written < input.size() ? watch(in_, POLLOUT) : nullptr;
    pollfd* out = watch(out_, POLLIN);
    pollfd* err = watch(err_, POLLIN);
    const auto left = deadline - Clock::now();
    if (left <= Clock::duration::zero()) return Read::Timeout;
    // poll fails only on a signal (tried again) or without memory for its
    // table, when the planner is given up as if its time had run out.
    if (poll(fds, count, poll_ms(left)) < 0) {
      if (errno == EINTR) continue;
      return Read::Timeout;
    }
    if (in != nullptr && in->revents != 0) write_stdin(input, written);
    if (err != nullptr && err->revents != 0) read_stderr();
    if (out != nullptr && out->revents != 0) read_stdout(max_output);
  }
}

std::optional<ExitStatus> PlannerProcess::wait_exit(Clock::time_point deadline) {
  // The process is looked at without reaping it (WNOWAIT), so that kill()
  // can still reach the rest of its group by the leader's id.
  auto nap = std::chrono::microseconds(100);
  while (!exit_) {
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == pid_) {
      const bool signaled = info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED;
      exit_ = ExitStatus{signaled, info.si_status};
      break;
    }
    const auto left = deadline - Clock::now();
    if (left <= Clock::duration::zero()) return std::nullopt;
    const auto wait = std::chrono::duration_cast<std::chrono::nanoseconds>(std::min<Clock::duration>(nap, left));
    nap = std::min<std::chrono::microseconds>(nap * 2, std::chrono::milliseconds(5));
    const timespec ts{static_cast<time_t>(wait.count() / 1'000'000'000),
                      static_cast<long>(wait.count() % 1'000'000'000)};
    pollfd fd{err_.get(), POLLIN, 0};
    if (ppoll(&fd, err_.open() ? 1 : 0, &ts, nullptr) > 0) read_stderr();
  }
  if (err_.open()) read_stderr();
  return exit_;
}

std::string PlannerProcess::stderr_tail() const {
  // The last kTailLines lines, cut to their last kTailBytes bytes.
  std::string_view rest = err_text_;
  if (rest.ends_with('\n')) rest.remove_suffix(1);
  std::vector<std::string_view> lines;  // the last line first
  std::size_t bytes = 0;
  bool cut = stderr_cut_;
  while (!rest.empty()) {
    if (lines.size() == kTailLines || bytes >= kTailBytes) {
      cut = true;
      break;
    }
    const std::size_t nl = rest.rfind('\n');
    std::string_view line = nl == std::string_view::npos ? rest : rest.substr(nl + 1);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(0, nl);
    if (line.size() > kTailBytes - bytes) {
      line.remove_prefix(line.size() - (kTailBytes - bytes));
      cut = true;
      rest = {};
    }
    lines.push_back(line);
    bytes += line.size() + 1;
  }
  std::string out = cut ? "    ...\n" : "";
  for (auto line = lines.rbegin(); line != lines.rend(); ++line) out += "    " + printable(*line) + "\n";
  return out;
}

}  // namespace planck::external
