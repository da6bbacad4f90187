#include "model/text.h"
#include "tools/commands.h"

namespace planck::cli {

Schedule load_schedule(const std::string& path) {
  auto s = read_schedule(path);
  if (!s) throw Exit{kExitBadInput, s.error().message()};
  return std::move(s).value();
}

Plan load_plan(const std::string& path) {
  auto p = read_plan(path);
  if (!p) throw Exit{kExitBadInput, p.error().message()};
  return std::move(p).value();
}

}  // namespace planck::cli
