// Bytes decoded into a schedule that is always valid (every feature of the
// model; properties/generate.h), planned by every planner of this project or,
// built as fuzz_planner_lib, by the planner library that PLANCK_PLANNER_LIB
// names (SPEC section 9, called in-process). Each plan must pass the checker
// and the shadow executor (harness/judge.h); the rewritten schedule must
// leave nothing to plan but the arenas themselves. Any disagreement aborts,
// with the schedule in .sched text.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "harness/judge.h"
#include "model/text.h"
#include "oracle/check/lifetimes.h"
#include "planner/planner.h"
#include "planner/rewrite.h"
#include "properties/choices.h"
#include "properties/generate.h"
#ifdef PLANCK_FUZZ_PLANNER_LIB
#include "planner/external.h"
#endif

namespace {

using namespace planck;

[[noreturn]] void fail(const std::string& what, const Schedule& s) {
  std::fprintf(stderr, "%s\n%s", what.c_str(), print_schedule(s).c_str());
  std::abort();
}

// The planners under test, made once per process.
const std::vector<std::unique_ptr<Planner>>& planners() {
  static const std::vector<std::unique_ptr<Planner>> all = [] {
    std::vector<std::unique_ptr<Planner>> out;
#ifdef PLANCK_FUZZ_PLANNER_LIB
    const char* path = std::getenv("PLANCK_PLANNER_LIB");
    if (path == nullptr || *path == '\0') {
      std::fprintf(stderr, "fuzz_planner_lib: set PLANCK_PLANNER_LIB to the planner library to fuzz\n");
      std::exit(2);
    }
    auto lib = make_library_planner(path);
    if (!lib) {
      std::fprintf(stderr, "fuzz_planner_lib: %s\n", lib.error().message().c_str());
      std::exit(2);
    }
    out.push_back(std::move(lib).value());
#else
    for (const std::string& name : planner_names()) out.push_back(make_planner(name));
#endif
    return out;
  }();
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gen::ByteChoices choices(std::span<const std::uint8_t>(data, size));
  gen::ScheduleOptions options;
  // Up to some 64 top-level entries.
  options.size = choices.between(1, 160);
  const Schedule s = gen::generate_schedule(choices, options);

  for (const auto& planner : planners()) {
    const std::string name(planner->name());
    const harness::Verdict v = harness::judge(*planner, s);
    if (v.failed()) fail("planner " + name + ": " + v.explanation, s);
    auto rewritten = rewrite(s, *v.plan);
    if (!rewritten) {
      // The one refusal a valid plan may get: views nested past the limit.
      if (rewritten.error().what.find("nest deeper") != std::string::npos) continue;
      fail("planner " + name + ": the rewrite of a valid plan failed: " + rewritten.error().message(), s);
    }
    for (const oracle::Lifetime& l : oracle::planned_buffers(*rewritten)) {
      const std::string& left = rewritten->storage[l.storage].name;
      bool is_arena = false;
      for (const Arena& a : v.plan->arenas) is_arena = is_arena || a.name == left;
      if (!is_arena) fail("planner " + name + ": the rewritten schedule still plans " + left, s);
    }
  }
  return 0;
}
