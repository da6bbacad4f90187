#include "properties/property_runner.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace planck::props {
namespace {

namespace fs = std::filesystem;

// ------------------------------------------------------- RapidCheck's runner
//
// RapidCheck's public runner, rc::check, takes its seed and case count from
// RC_PARAMS alone and reports to standard error only. Here a property runs
// its own default number of cases, its failure becomes a report and a file,
// and a failure that a test expects runs quietly; so this section, and only
// it, calls RapidCheck's runner and reads its configuration (rc::detail),
// and turns what they give into the plain values the rest uses.

// Whether RC_PARAMS sets max_success: read again with a default that no
// valid RC_PARAMS holds (RapidCheck has already accepted the string).
bool max_success_given() {
  const char* env = std::getenv("RC_PARAMS");
  if (env == nullptr) return false;
  rc::detail::Configuration unset;
  unset.testParams.maxSuccess = -1;
  try {
    return rc::detail::configFromString(env, unset).testParams.maxSuccess != -1;
  } catch (const std::exception&) {
    return false;
  }
}

// Counterexamples: RapidCheck's pairs of (type, value shown).
using Shown = std::vector<std::pair<std::string, std::string>>;

// The .sched text of the first schedule in a counterexample, if it has one.
std::optional<std::string> counterexample_schedule(const Shown& example) {
  constexpr std::string_view kHeader = "schedule v1";
  for (const auto& [type, value] : example) {
    const std::size_t at = value.find_first_not_of('\n');
    if (at != std::string::npos && std::string_view(value).substr(at).starts_with(kHeader)) return value.substr(at);
  }
  return std::nullopt;
}

// A listener for runs whose failure is the expected outcome: RapidCheck's
// own would list them among the failures to reproduce at exit.
class SilentListener final : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

// What a run came to: passed (with the cases run), failed, or gave up.
struct Outcome {
  std::optional<int> passed;
  std::optional<Failure> failure;
  std::string gave_up;  // RapidCheck's message, when it gave up
};

// Runs `property` under `name`. A quiet run prints nothing, leaves nothing
// for RapidCheck to report at exit, and replays no case that RC_PARAMS asks
// to reproduce.
Outcome run(const Property& property, const std::string& name, const rc::detail::TestParams& params, bool quiet) {
  const rc::detail::TestMetadata metadata{name, name};
  const rc::detail::Property testable = rc::detail::toProperty(property);
  SilentListener silent;
  const rc::detail::TestResult result = quiet ? rc::detail::checkProperty(testable, metadata, params, silent, {})
                                              : rc::detail::checkProperty(testable, metadata, params);
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  rc::detail::SuccessResult success;
  if (result.match(success)) return {.passed = success.numSuccess};
  rc::detail::FailureResult failure;
  if (!result.match(failure)) return {.gave_up = message.str()};
  rc::detail::Configuration replay;
  replay.reproduce.emplace(name, failure.reproduce);
  return {.failure = Failure{.property = name,
                             .seed = params.seed,
                             .cases = params.maxSuccess,
                             .max_size = params.maxSize,
                             .passed = failure.numSuccess,
                             .message = message.str(),
                             .description = failure.description,
                             .schedule = counterexample_schedule(failure.counterExample),
                             .replay = rc::detail::configToMinimalString(replay)}};
}

// ------------------------------------------------------------- the reports

std::string current_test_name() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (info == nullptr) return "property";
  return fmt::format("{}.{}", info->test_suite_name(), info->name());
}

std::string this_program() {
  std::error_code err;
  fs::path exe = fs::read_symlink("/proc/self/exe", err);
  return err ? std::string("properties_test") : exe.string();
}

// The RC_PARAMS that run the same cases again: the seed and the case count,
// and the size when it is not the default (it changes what is generated).
std::string rerun_params(std::uint64_t seed, int cases, int max_size) {
  std::string out = fmt::format("seed={} max_success={}", seed, cases);
  if (max_size != rc::kNominalSize) out += fmt::format(" max_size={}", max_size);
  return out;
}

std::string file_name(const std::string& property, std::uint64_t seed) {
  std::string out;
  for (char c : property) {
    const bool plain =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    out += plain ? c : '_';
  }
  return fmt::format("{}-{}.sched", out, seed);
}

std::string commented(const std::string& text) {
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) out += line.empty() ? "#\n" : "#   " + line + "\n";
  return out;
}

fs::path failure_dir() {
  if (const char* dir = std::getenv("PLANCK_FAILURE_DIR"); dir != nullptr && *dir != '\0') return dir;
  return PLANCK_FAILURE_DIR_DEFAULT;
}

}  // namespace

int default_case_count(int default_cases) {
#ifdef PLANCK_SANITIZED_BUILD
  return std::max(1, default_cases / 5);
#else
  return default_cases;
#endif
}

std::string failure_report(const Failure& failure) {
  const std::string program = this_program();
  const std::string params = rerun_params(failure.seed, failure.cases, failure.max_size);
  const std::string rerun = fmt::format("RC_PARAMS=\"{}\" {} --gtest_filter='{}'", params, program, failure.property);
  const std::string rerun_ctest =
      fmt::format("RC_PARAMS=\"{}\" ctest --test-dir {} -R '^{}$'", params, PLANCK_BUILD_DIR, failure.property);
  const std::string replay =
      fmt::format("RC_PARAMS=\"{}\" {} --gtest_filter='{}'", failure.replay, program, failure.property);

  std::ostringstream report;
  report << failure.message << "\n\nReproduce the search and the shrinking:\n  " << rerun << "\n  " << rerun_ctest
         << "\nReplay the shrunk case alone:\n  " << replay << "\n";
  if (!failure.schedule) return report.str();

  const fs::path dir = failure_dir();
  const fs::path path = dir / file_name(failure.property, failure.seed);
  std::error_code err;
  fs::create_directories(dir, err);
  std::ofstream out(path);
  out << "# Found by the property " << failure.property << " after " << failure.passed
      << " passing cases, then shrunk.\n# It failed with:\n"
      << commented(failure.description) << "# Reproduce:\n#   " << rerun << "\n"
      << *failure.schedule;
  out.close();
  if (err || !out) {
    report << "Could not write the counterexample to " << path.string() << "\n";
  } else {
    report << "The shrunk schedule is in " << path.string() << "\n";
  }
  return report.str();
}

void check(const Property& property, int default_cases) {
  const std::string name = current_test_name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  if (!max_success_given()) params.maxSuccess = default_case_count(default_cases);
  const Outcome outcome = run(property, name, params, /*quiet=*/false);
  if (outcome.passed) {
    std::cout << fmt::format("[ property ] {} cases, seed {}\n", *outcome.passed, params.seed);
  } else if (outcome.failure) {
    ADD_FAILURE() << failure_report(*outcome.failure);
  } else {
    ADD_FAILURE() << outcome.gave_up << "\nRC_PARAMS=\"" << rerun_params(params.seed, params.maxSuccess, params.maxSize)
                  << "\"";
  }
}

std::optional<Failure> find_counterexample(const Property& property, std::uint64_t seed, int cases,
                                           const std::string& property_name) {
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = cases;
  return run(property, property_name.empty() ? current_test_name() : property_name, params, /*quiet=*/true).failure;
}

}  // namespace planck::props
