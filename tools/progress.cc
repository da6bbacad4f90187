#include "tools/progress.h"

#include <unistd.h>

#include <cstdio>
#include <utility>

namespace planck::cli {

Progress::Progress(std::string command, bool asked) : command_(std::move(command)), tty_(::isatty(2) == 1) {
  if (tty_ || asked) thread_ = std::thread([this] { tick(); });
}

Progress::~Progress() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (dirty_) std::fputc('\n', stderr);
}

void Progress::stage(std::string what) {
  std::lock_guard lock(mutex_);
  stage_ = std::move(what);
}

void Progress::tick() {
  using namespace std::chrono;
  const auto period = tty_ ? milliseconds(250) : milliseconds(5000);
  std::unique_lock lock(mutex_);
  // Nothing in the first second: a quick command prints no progress.
  if (wake_.wait_for(lock, seconds(1), [this] { return stop_; })) return;
  do {
    const double spent = duration<double>(steady_clock::now() - start_).count();
    // On a terminal the line is cleared to its end, as the stage may shrink.
    std::fprintf(stderr, "%s%s: %s (%.1f s)%s", tty_ ? "\r" : "", command_.c_str(), stage_.c_str(), spent,
                 tty_ ? "\x1b[K" : "\n");
    std::fflush(stderr);
    dirty_ = tty_;
  } while (!wake_.wait_for(lock, period, [this] { return stop_; }));
}

}  // namespace planck::cli
