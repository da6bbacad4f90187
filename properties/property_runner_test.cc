// The property runner honours RC_PARAMS, and a failure is reported with its
// shrunk schedule and the command that reproduces it, and written to a file
// that reads back as a schedule.

#include "properties/property_runner.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "model/schedule_reader.h"
#include "properties/rapidcheck_generators.h"
#include "properties/show.h"

namespace planck::props {
namespace {

namespace fs = std::filesystem;

// Runs this test program again with RC_PARAMS and a filter; its output.
std::string run_self(const std::string& rc_params, const std::string& filter) {
  const std::string exe = fs::read_symlink("/proc/self/exe").string();
  const std::string command = "env RC_PARAMS='" + rc_params + "' '" + exe + "' --gtest_filter='" + filter + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "popen failed";
  std::string out;
  std::array<char, 4096> chunk;
  while (std::size_t n = fread(chunk.data(), 1, chunk.size(), pipe)) out.append(chunk.data(), n);
  pclose(pipe);
  return out;
}

// A property whose default case count the tests below know.
constexpr int kOwnCases = 33;
TEST(PropertyRunner, RunsAPropertyWithItsOwnCaseCount) {
  check([] { RC_ASSERT(*rc::gen::inRange(0, 10) < 10); }, kOwnCases);
}
constexpr const char* kOwn = "PropertyRunner.RunsAPropertyWithItsOwnCaseCount";

TEST(PropertyRunner, HonoursSeedAndMaxSuccessFromRcParams) {
  const std::string out = run_self("seed=42 max_success=7", kOwn);
  EXPECT_NE(out.find("[ property ] 7 cases, seed 42"), std::string::npos) << out;
}

TEST(PropertyRunner, RunsItsOwnCaseCountWhenRcParamsGivesNone) {
  const std::string out = run_self("seed=42", kOwn);
  EXPECT_NE(out.find(fmt::format("[ property ] {} cases, seed 42", default_case_count(kOwnCases))), std::string::npos)
      << out;
}

TEST(PropertyRunner, ReportsAFailureWithItsScheduleAndHowToReproduceIt) {
  const fs::path dir = fs::temp_directory_path() / fs::path("planck-property-runner-test-" + std::to_string(getpid()));
  ASSERT_EQ(setenv("PLANCK_FAILURE_DIR", dir.c_str(), 1), 0);

  const std::optional<Failure> failure = find_counterexample(
      [] {
        const Schedule s = *schedules();
        RC_ASSERT(s.entries.size() < 3);
      },
      77, 100, "PropertyRunner.Example/tlsf");
  ASSERT_TRUE(failure);
  const std::string report = failure_report(*failure);
  unsetenv("PLANCK_FAILURE_DIR");

  EXPECT_NE(report.find("schedule v1"), std::string::npos) << report;
  EXPECT_NE(report.find("RC_PARAMS=\"seed=77 max_success=100\""), std::string::npos) << report;
  EXPECT_NE(report.find("--gtest_filter='PropertyRunner.Example/tlsf'"), std::string::npos) << report;
  EXPECT_NE(report.find("RC_PARAMS=\"reproduce="), std::string::npos) << report;

  const fs::path file = dir / "PropertyRunner.Example_tlsf-77.sched";
  ASSERT_TRUE(fs::exists(file)) << report;
  EXPECT_NE(report.find(file.string()), std::string::npos) << report;
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(text.str().starts_with("# Found by the property PropertyRunner.Example/tlsf")) << text.str();
  EXPECT_NE(text.str().find("#   RC_PARAMS=\"seed=77 max_success=100\""), std::string::npos) << text.str();
  Result<Schedule> s = parse_schedule(text.str(), file.string());
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_EQ(s->entries.size(), 3u) << text.str();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace planck::props
