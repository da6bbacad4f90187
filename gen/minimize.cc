#include "gen/minimize.h"

#include <utility>

#include "gen/shrink.h"

namespace planck::gen {

Minimized minimize(Schedule failing, const std::function<bool(const Schedule&)>& still_fails,
                   const MinimizeLimits& limits) {
  const auto deadline = std::chrono::steady_clock::now() + limits.max_time;
  Minimized out;
  out.schedule = std::move(failing);
  std::size_t start = 0;
  for (;;) {
    const Shrinks shrinks(out.schedule);
    const std::size_t n = shrinks.size();
    bool taken = false;
    for (std::size_t k = 0; k < n && !taken; ++k) {
      if (out.tries >= limits.max_tries || std::chrono::steady_clock::now() >= deadline) return out;
      const std::size_t i = (start + k) % n;
      Schedule candidate = shrinks[i];
      ++out.tries;
      if (!still_fails(candidate)) continue;
      out.schedule = std::move(candidate);
      ++out.shrinks;
      start = i;
      taken = true;
    }
    if (!taken) {
      out.minimal = true;
      return out;
    }
  }
}

}  // namespace planck::gen
