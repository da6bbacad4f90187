#include "tools/seconds_option.h"

#include <algorithm>
#include <cmath>

namespace planck::cli {

CLI::Option* add_seconds_option(CLI::App& cmd, const std::string& name, double& seconds,
                                const std::string& description) {
  const CLI::Validator non_negative(
      [](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value < 0) {
          return "`" + text + "` is not a number of seconds, 0 or more";
        }
        return "";
      },
      "SECONDS");
  return cmd.add_option(name, seconds, description)->check(non_negative)->capture_default_str();
}

std::chrono::steady_clock::time_point deadline_after(std::chrono::steady_clock::time_point start,
                                                     double seconds) {
  constexpr double kMaxSeconds = 1e7;
  const double s = std::clamp(seconds, 0.0, kMaxSeconds);
  return start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

}  // namespace planck::cli
