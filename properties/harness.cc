#include "properties/harness.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <system_error>

namespace planck::props {
namespace {

namespace fs = std::filesystem;

// Whether RC_PARAMS (or RapidCheck's rc_params.txt) sets max_success: read
// with two different defaults, a key that is given reads the same under both.
bool max_success_given() {
  const rc::detail::Configuration& config = rc::detail::configuration();
  if (config.testParams.maxSuccess != rc::detail::TestParams{}.maxSuccess) return true;
  const char* env = std::getenv("RC_PARAMS");
  if (env == nullptr) return false;
  rc::detail::Configuration one;
  rc::detail::Configuration two;
  one.testParams.maxSuccess = 1;
  two.testParams.maxSuccess = 2;
  try {
    return rc::detail::configFromString(env, one).testParams.maxSuccess ==
           rc::detail::configFromString(env, two).testParams.maxSuccess;
  } catch (const rc::detail::ConfigurationException&) {
    // RapidCheck itself refuses such a string when it loads its configuration.
    return false;
  }
}

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
std::string rerun_params(const rc::detail::TestParams& params) {
  std::string out = fmt::format("seed={} max_success={}", params.seed, params.maxSuccess);
  if (params.maxSize != rc::detail::TestParams{}.maxSize) out += fmt::format(" max_size={}", params.maxSize);
  return out;
}

// The RC_PARAMS that run the shrunk case alone, without search or shrinking.
std::string replay_params(const std::string& property, const rc::detail::FailureResult& failure) {
  rc::detail::Configuration config;
  config.reproduce.emplace(property, failure.reproduce);
  return rc::detail::configToMinimalString(config);
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

// A quiet listener for runs whose failure is the expected outcome.
class SilentListener final : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

}  // namespace

int default_case_count(int default_cases) {
#ifdef PLANCK_SANITIZED_BUILD
  return std::max(1, default_cases / 5);
#else
  return default_cases;
#endif
}

rc::detail::TestParams property_params(int default_cases) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  if (!max_success_given()) params.maxSuccess = default_case_count(default_cases);
  return params;
}

std::optional<std::string> counterexample_schedule(const rc::detail::Example& example) {
  constexpr std::string_view kHeader = "schedule v1";
  for (const auto& [type, value] : example) {
    const std::size_t at = value.find_first_not_of('\n');
    if (at != std::string::npos && std::string_view(value).substr(at).starts_with(kHeader)) return value.substr(at);
  }
  return std::nullopt;
}

std::string failure_report(const std::string& property, const rc::detail::TestParams& params,
                           const rc::detail::FailureResult& failure) {
  const std::string program = this_program();
  const std::string rerun =
      fmt::format("RC_PARAMS=\"{}\" {} --gtest_filter='{}'", rerun_params(params), program, property);
  const std::string rerun_ctest =
      fmt::format("RC_PARAMS=\"{}\" ctest --test-dir {} -R '^{}$'", rerun_params(params), PLANCK_BUILD_DIR, property);
  const std::string replay =
      fmt::format("RC_PARAMS=\"{}\" {} --gtest_filter='{}'", replay_params(property, failure), program, property);

  std::ostringstream report;
  rc::detail::printResultMessage(failure, report);
  report << "\n\nReproduce the search and the shrinking:\n  " << rerun << "\n  " << rerun_ctest
         << "\nReplay the shrunk case alone:\n  " << replay << "\n";

  const std::optional<std::string> schedule = counterexample_schedule(failure.counterExample);
  if (!schedule) return report.str();

  const fs::path dir = failure_dir();
  const fs::path path = dir / file_name(property, params.seed);
  std::error_code err;
  fs::create_directories(dir, err);
  std::ofstream out(path);
  out << "# Found by the property " << property << " after " << failure.numSuccess
      << " passing cases, then shrunk.\n# It failed with:\n"
      << commented(failure.description) << "# Reproduce:\n#   " << rerun << "\n"
      << *schedule;
  out.close();
  if (err || !out) {
    report << "Could not write the counterexample to " << path.string() << "\n";
  } else {
    report << "The shrunk schedule is in " << path.string() << "\n";
  }
  return report.str();
}

void check_property(const rc::detail::Property& property, int default_cases) {
  const std::string name = current_test_name();
  const rc::detail::TestParams params = property_params(default_cases);
  const rc::detail::TestMetadata metadata{name, name};
  const rc::detail::TestResult result = rc::detail::checkProperty(property, metadata, params);

  rc::detail::SuccessResult success;
  if (result.match(success)) {
    std::cout << fmt::format("[ property ] {} cases, seed {}\n", success.numSuccess, params.seed);
    return;
  }
  rc::detail::FailureResult failure;
  if (result.match(failure)) {
    ADD_FAILURE() << failure_report(name, params, failure);
    return;
  }
  std::ostringstream report;
  rc::detail::printResultMessage(result, report);
  ADD_FAILURE() << report.str() << "\nRC_PARAMS=\"" << rerun_params(params) << "\"";
}

rc::detail::TestResult run_quietly(const rc::detail::Property& property, std::uint64_t seed, int cases) {
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = cases;
  SilentListener listener;
  const rc::detail::TestMetadata metadata{current_test_name(), ""};
  return rc::detail::checkProperty(property, metadata, params, listener, {});
}

std::optional<Counterexample> find_property_counterexample(const rc::detail::Property& property, std::uint64_t seed,
                                                           int cases) {
  const rc::detail::TestResult result = run_quietly(property, seed, cases);
  rc::detail::FailureResult failure;
  if (!result.match(failure)) return std::nullopt;
  return Counterexample{failure.description, counterexample_schedule(failure.counterExample)};
}

}  // namespace planck::props
