#include <algorithm>
#include <stdexcept>
#include <filesystem>
#include <utility>
#include <variant>

#include "model/interval_schedule.h"
#include "model/problem.h"
#include "tools/commands.h"

namespace planck::cli {
namespace {

template <class T>
T or_exit(Result<T> r) {
  if (!r) throw Exit{kExitBadInput, r.error().message()};
  return std::move(r).value();
}

}  // namespace

Problem load_problem(const std::string& path) { return or_exit(read_problem(path)); }

Schedule load_schedule(const std::string& path) { return or_exit(problem_schedule(load_problem(path))); }

Plan load_plan(const std::string& path) { return or_exit(read_plan(path)); }

// A folder of instances: its files ending in `ext`, in name order; none when
// the folder does not exist. A corpus keeps expected outputs beside its
// schedules (NAME.rewrite.sched): a .sched name with a second extension is
// not an instance (a CSV's may be, as A.1048576.csv).
std::vector<std::filesystem::path> inputs_in(const std::filesystem::path& dir, const std::string& ext) {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const fs::path& p = e.path();
    if (p.extension() == ext && (ext != ".sched" || p.stem().extension().empty())) out.push_back(p);
  }
  if (ec) throw Exit{kExitBadInput, dir.string() + ": cannot read the folder: " + ec.message()};
  std::sort(out.begin(), out.end());
  return out;
}

CheckInput load_check_input(const std::string& schedule, const std::string& plan) {
  Problem problem = load_problem(schedule);
  Plan p = load_plan(plan);
  if (auto* intervals = std::get_if<IntervalProblem>(&problem)) {
    IntervalCheck blocks = or_exit(interval_check(*intervals, p));
    return {std::move(blocks.schedule), std::move(blocks.plan), kPlaceAlign};
  }
  return {std::get<Schedule>(std::move(problem)), std::move(p), 1};
}

void add_input_files(CLI::App& cmd, std::string& schedule, std::string* plan, bool csv) {
  cmd.add_option("schedule", schedule, csv ? "the .sched file, or a .csv interval problem" : "the .sched file")
      ->required();
  if (plan != nullptr) cmd.add_option("plan", *plan, "the .plan file")->required();
}

extern const char* const kCommandsText;  // tools/commands.txt, built in (about.cc.in)

std::string about(std::string_view name) {
  std::string_view text = kCommandsText;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (line.size() > name.size() + 2 && line.substr(0, name.size()) == name && line.substr(name.size(), 2) == ": ") {
      return std::string(line.substr(name.size() + 2));
    }
  }
  // A command or kind added without its line: a mistake of the build, not
  // of the user, found by the first run of any command.
  throw std::logic_error("tools/commands.txt has no line for `" + std::string(name) + "`");
}

}  // namespace planck::cli
