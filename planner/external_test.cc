// Planners written elsewhere, reached as a command, a persistent command or a
// shared library: each answer and each kind of failure, made by small shell
// commands and a test library.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <thread>

#include "model/schedule_printer.h"
#include "planner/external.h"
#include "tests/parsed.h"
#include "tests/run_command.h"

namespace planck {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using testing::read_text;
using testing::write_text;

// One buffer, taken by a kernel whose name tells the test planners what to do.
std::string schedule_text(const std::string& kernel) {
  return "schedule v1\nbuffer a CPU float32 1024\nkernel " + kernel + " a\n";
}
Schedule schedule(const std::string& kernel = "k") { return testing::sched(schedule_text(kernel)); }

constexpr const char* kAnswer = "plan v1\narena arena0 CPU 1024\nplace a arena0 0\n";

// A schedule whose text is far larger than a pipe holds.
Schedule large_schedule() {
  std::string text = "schedule v1\n";
  for (int i = 0; i < 20000; ++i) text += fmt::format("buffer b{} CPU float32 1024\n", i);
  for (int i = 0; i < 20000; ++i) text += fmt::format("kernel k b{}\n", i);
  return testing::sched(text);
}

std::size_t open_fds() {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator("/proc/self/fd"), {}));
}

// True once the process is gone or a zombie: it no longer runs.
bool ended(pid_t pid) {
  for (int i = 0; i < 500; ++i) {
    const std::string stat = read_text(fmt::format("/proc/{}/stat", pid));
    const std::size_t paren = stat.rfind(')');
    if (stat.empty() || (paren != std::string::npos && stat.substr(paren + 2, 1) == "Z")) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

bool has_children() { return waitpid(-1, nullptr, WNOHANG) != -1 || errno != ECHILD; }

// The planner's failure on schedule(kernel); the test fails if it answered.
Error failure(const Planner& planner, const std::string& kernel = "k") {
  auto plan = planner.plan(schedule(kernel));
  EXPECT_FALSE(plan.ok()) << planner.name() << " answered for kernel " << kernel;
  return plan.ok() ? Error{} : plan.error();
}

Error failure_of(const std::string& command, CommandOptions options = {}) {
  return failure(*make_command_planner(command, options));
}

class ExternalPlanner : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::temp_dir();
    answer_ = dir_ + "/answer.plan";
    write_text(answer_, kAnswer);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A file of the test's folder.
  std::string path(const std::string& name) const { return dir_ + "/" + name; }

  std::string dir_, answer_;
};

// ------------------------------------------------------------------ command

TEST_F(ExternalPlanner, ACommandGetsTheScheduleOnStandardInputAndItsOutputIsThePlan) {
  auto planner = make_command_planner("cat > " + path("got.sched") + "; cat " + answer_);
  EXPECT_EQ(planner->name(), "cat > " + path("got.sched") + "; cat " + answer_);
  auto plan = planner->plan(schedule());
  ASSERT_TRUE(plan.ok()) << plan.error().message();
  EXPECT_EQ(print_plan(*plan), kAnswer);
  EXPECT_EQ(read_text(path("got.sched")), print_schedule(schedule()));
}

TEST_F(ExternalPlanner, ACommandThatNeverReadsALargeScheduleStillAnswers) {
  auto plan = make_command_planner("cat " + answer_)->plan(large_schedule());
  ASSERT_TRUE(plan.ok()) << plan.error().message();
  EXPECT_EQ(print_plan(*plan), kAnswer);
}

TEST_F(ExternalPlanner, ANonZeroExitIsPlannerExitWithTheEndOfStandardError) {
  const Error e = failure_of("echo first >&2; echo 'no memory left' >&2; exit 3");
  EXPECT_EQ(e.kind, "planner-exit");
  EXPECT_THAT(e.what, HasSubstr("exited with status 3"));
  EXPECT_THAT(e.what, HasSubstr("first\n    no memory left"));
}

TEST_F(ExternalPlanner, AnExitWithAPlanIsStillPlannerExit) {
  const Error e = failure_of("cat " + answer_ + "; exit 1");
  EXPECT_EQ(e.kind, "planner-exit");
  EXPECT_THAT(e.what, HasSubstr("standard error was empty"));
}

TEST_F(ExternalPlanner, AnOverCapacityAnswerIsTheRefusalToPassACapacity) {
  const Error e = failure_of("cat >/dev/null; echo 'over-capacity: CPU needs 4096 bytes, has 1024'");
  EXPECT_EQ(e.kind, kOverCapacity);
  EXPECT_THAT(e.what, HasSubstr("finds no plan within the capacity: CPU needs 4096 bytes, has 1024"));
  // On more than one line it is no such answer, and no plan.
  EXPECT_EQ(failure_of("cat >/dev/null; printf 'over-capacity: x\\nmore\\n'").kind, "planner-output");
}

TEST_F(ExternalPlanner, ACommandThatIsNotFoundIsPlannerExit) {
  const Error e = failure_of("no-such-planner-anywhere");
  EXPECT_EQ(e.kind, "planner-exit");
  EXPECT_THAT(e.what, AllOf(HasSubstr("status 127"), HasSubstr("not found")));
}

TEST_F(ExternalPlanner, ASignalIsPlannerSignal) {
  const Error e = failure_of("echo crashing >&2; kill -9 $$");
  EXPECT_EQ(e.kind, "planner-signal");
  EXPECT_THAT(e.what, AllOf(HasSubstr("signal 9"), HasSubstr("crashing")));
}

TEST_F(ExternalPlanner, ASignalThatKillsTheShellsChildIsPlannerSignal) {
  // The shell waits for its last command, killed by SIGSEGV, and exits with 128 + 11.
  const Error e = failure_of("cat >/dev/null; sh -c 'kill -SEGV $$'");
  EXPECT_EQ(e.kind, "planner-signal");
  EXPECT_THAT(e.what, HasSubstr("signal 11"));
}

TEST_F(ExternalPlanner, PastTheTimeLimitIsPlannerTimeoutAndTheWholeGroupIsKilled) {
  const Error e = failure_of("sleep 30 & echo $! > " + path("pid") + "; wait",
                             {.timeout = std::chrono::milliseconds(500)});
  EXPECT_EQ(e.kind, "planner-timeout");
  EXPECT_THAT(e.what, HasSubstr("within 0.5 s"));
  const pid_t sleeper = std::stoi(read_text(path("pid")));
  EXPECT_TRUE(ended(sleeper)) << "the planner's child " << sleeper << " still runs";
}

TEST_F(ExternalPlanner, ACommandThatClosesItsOutputButRunsOnTimesOut) {
  const Error e = failure_of("exec >&-; sleep 30", {.timeout = std::chrono::milliseconds(500)});
  EXPECT_EQ(e.kind, "planner-timeout");
}

TEST_F(ExternalPlanner, OutputThatIsNotAPlanIsPlannerOutputWithItsPlace) {
  const Error e = failure_of("cat >/dev/null; echo 'here is your plan'");
  EXPECT_EQ(e.kind, "planner-output");
  EXPECT_THAT(e.what, HasSubstr("planner output:1:1"));
}

TEST_F(ExternalPlanner, OutputPastItsBoundIsPlannerOutput) {
  const Error e = failure_of("yes", {.max_output_bytes = 1 << 20});
  EXPECT_EQ(e.kind, "planner-output");
  EXPECT_THAT(e.what, HasSubstr("more than 1048576 bytes"));
}

TEST_F(ExternalPlanner, MuchStandardErrorWhileTheInputIsUnreadStallsNothing) {
  auto plan = make_command_planner("yes 'a line of complaint' | head -n 400000 >&2; cat " + answer_)
                  ->plan(large_schedule());
  ASSERT_TRUE(plan.ok()) << plan.error().message();
  EXPECT_EQ(print_plan(*plan), kAnswer);
}

TEST_F(ExternalPlanner, TheStderrTailIsItsLastTwentyLinesMadePrintable) {
  const Error e = failure_of("seq 1 1000 >&2; printf 'bell\\a\\n' >&2; exit 1");
  EXPECT_THAT(e.what, HasSubstr("    ...\n    982\n"));
  EXPECT_THAT(e.what, Not(HasSubstr("    981\n")));
  EXPECT_THAT(e.what, HasSubstr("    1000\n    bell\\x07"));
}

TEST_F(ExternalPlanner, AVeryLongStderrLineShowsOnlyItsEnd) {
  const Error e = failure_of("head -c 100000 /dev/zero | tr '\\0' x >&2; echo >&2; echo END >&2; exit 1");
  EXPECT_LT(e.what.size(), 3000u);
  EXPECT_THAT(e.what, HasSubstr("xxx\n    END"));
}

TEST_F(ExternalPlanner, CallsLeaveNoDescriptorAndNoChildBehind) {
  const std::size_t before = open_fds();
  for (const std::string& command :
       {"cat " + answer_, std::string("exit 3"), std::string("kill -9 $$"), std::string("echo junk")}) {
    (void)make_command_planner(command)->plan(schedule());
  }
  (void)make_command_planner("sleep 30", {.timeout = std::chrono::milliseconds(200)})->plan(schedule());
  EXPECT_EQ(open_fds(), before);
  EXPECT_FALSE(has_children());
}

// ------------------------------------------------------- persistent command

// A planner in sh that follows the persistent protocol: it answers each
// schedule with the fixture plan and records its process id; a schedule
// whose kernel is `crash` kills it, `hang` stalls it, `quit` ends it,
// `junk` gets an answer that is not a plan.
class PersistentPlanner : public ExternalPlanner {
 protected:
  void SetUp() override {
    ExternalPlanner::SetUp();
    write_text(path("planner.sh"), fmt::format(R"(kernel=
while IFS= read -r line; do
  case "$line" in
    "kernel "*) kernel=${{line#kernel }}; kernel=${{kernel%% *}} ;;
    "%%")
      echo $$ >> {pids}
      case "$kernel" in
        crash) echo "dying on $kernel" >&2; kill -9 $$ ;;
        hang) sleep 30 ;;
        quit) exit 0 ;;
        junk) echo junk ;;
        *) cat {answer} ;;
      esac
      echo %% ;;
  esac
done
)",
                                               fmt::arg("pids", path("pids")), fmt::arg("answer", answer_)));
    planner_ = make(std::chrono::seconds(60));
  }

  std::unique_ptr<Planner> make(std::chrono::milliseconds timeout) const {
    return make_command_planner("sh " + path("planner.sh"), {.timeout = timeout, .persistent = true});
  }

  // The process id that answered each schedule so far.
  std::vector<std::string> pids() const {
    std::vector<std::string> out;
    std::string text = read_text(path("pids"));
    for (std::size_t at; (at = text.find('\n')) != std::string::npos; text.erase(0, at + 1)) {
      out.push_back(text.substr(0, at));
    }
    return out;
  }

  void expect_answer(const std::string& kernel) {
    auto plan = planner_->plan(schedule(kernel));
    ASSERT_TRUE(plan.ok()) << plan.error().message();
    EXPECT_EQ(print_plan(*plan), kAnswer);
  }

  std::unique_ptr<Planner> planner_;
};

TEST_F(PersistentPlanner, OneProcessPlansManySchedules) {
  for (int i = 0; i < 5; ++i) expect_answer("k");
  const auto ids = pids();
  ASSERT_EQ(ids.size(), 5u);
  for (const std::string& id : ids) EXPECT_EQ(id, ids[0]);
}

TEST_F(PersistentPlanner, AProcessThatDiesIsReportedForItsScheduleAndRestarted) {
  expect_answer("k");
  const Error crashed = failure(*planner_, "crash");
  EXPECT_EQ(crashed.kind, "planner-signal");
  EXPECT_THAT(crashed.what, AllOf(HasSubstr("dying on crash"), HasSubstr("new process")));
  expect_answer("k");
  expect_answer("k");
  const auto ids = pids();
  ASSERT_EQ(ids.size(), 4u);
  EXPECT_EQ(ids[0], ids[1]);
  EXPECT_NE(ids[1], ids[2]);
  EXPECT_EQ(ids[2], ids[3]);
}

TEST_F(PersistentPlanner, AProcessThatExitsBeforeAnsweringIsPlannerExit) {
  const Error quit = failure(*planner_, "quit");
  EXPECT_EQ(quit.kind, "planner-exit");
  EXPECT_THAT(quit.what, HasSubstr("exited with status 0 before answering"));
  expect_answer("k");
}

TEST_F(PersistentPlanner, AProcessThatHangsTimesOutAndIsReplaced) {
  planner_ = make(std::chrono::milliseconds(500));
  const Error hung = failure(*planner_, "hang");
  EXPECT_EQ(hung.kind, "planner-timeout");
  expect_answer("k");
  const auto ids = pids();
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_NE(ids[0], ids[1]);
}

TEST_F(PersistentPlanner, AnAnswerThatIsNotAPlanKeepsTheProcess) {
  const Error junk = failure(*planner_, "junk");
  EXPECT_EQ(junk.kind, "planner-output");
  EXPECT_THAT(junk.what, Not(HasSubstr("new process")));
  expect_answer("k");
  const auto ids = pids();
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids[0], ids[1]);
}

TEST_F(PersistentPlanner, ALargeScheduleCrossesThePipe) {
  auto plan = planner_->plan(large_schedule());
  ASSERT_TRUE(plan.ok()) << plan.error().message();
  expect_answer("k");
}

TEST_F(PersistentPlanner, GoingAwayEndsTheProcess) {
  expect_answer("k");
  const pid_t pid = std::stoi(pids()[0]);
  planner_.reset();
  EXPECT_TRUE(ended(pid));
  EXPECT_FALSE(has_children());
}

TEST_F(ExternalPlanner, APlannerThatIsNotPersistentFailsTheSecondSchedule) {
  // It answers one schedule and ends, which the protocol does not allow.
  auto planner = make_command_planner("cat " + answer_ + "; echo %%", {.persistent = true});
  ASSERT_TRUE(planner->plan(schedule()).ok());
  auto second = planner->plan(schedule());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().kind, "planner-exit");
}

// ----------------------------------------------------------- shared library

// The test library of external_test_lib.c, loaded.
class LibraryPlanner : public ::testing::Test {
 protected:
  void SetUp() override {
    auto planner = make_library_planner(PLANCK_TEST_PLANNER_LIB);
    ASSERT_TRUE(planner.ok()) << planner.error().message();
    planner_ = std::move(planner).value();
  }

  std::unique_ptr<Planner> planner_;
};

TEST_F(LibraryPlanner, PlansThroughTheCAbi) {
  EXPECT_EQ(planner_->name(), PLANCK_TEST_PLANNER_LIB);
  for (int i = 0; i < 3; ++i) {
    auto plan = planner_->plan(schedule());
    ASSERT_TRUE(plan.ok()) << plan.error().message();
    EXPECT_EQ(print_plan(*plan), kAnswer);
  }
}

TEST_F(LibraryPlanner, IsGivenTheCanonicalScheduleText) {
  EXPECT_THAT(failure(*planner_, "echo").what, HasSubstr(print_schedule(schedule("echo"))));
}

TEST_F(LibraryPlanner, AnErrorOfTheLibraryIsPlannerErrorWithItsMessage) {
  const Error failed = failure(*planner_, "fail");
  EXPECT_EQ(failed.kind, "planner-error");
  EXPECT_THAT(failed.what, HasSubstr("could not plan the schedule: asked to fail"));
  const Error quiet = failure(*planner_, "quiet");
  EXPECT_EQ(quiet.kind, "planner-error");
  EXPECT_THAT(quiet.what, HasSubstr("gave no message"));
}

TEST_F(LibraryPlanner, TextThatIsNotAPlanIsPlannerOutput) {
  const Error garbage = failure(*planner_, "garbage");
  EXPECT_EQ(garbage.kind, "planner-output");
  EXPECT_THAT(garbage.what, HasSubstr("planner output:1:1"));
}

// Why a library does not load.
std::string load_error(const std::string& path) {
  auto planner = make_library_planner(path);
  EXPECT_FALSE(planner.ok()) << path << " loaded";
  return planner.ok() ? "" : planner.error().message();
}

TEST(LibraryLoading, AMissingFileIsAClearError) {
  EXPECT_THAT(load_error("/nonexistent/planner.so"), StartsWith("/nonexistent/planner.so: "));
  EXPECT_THAT(load_error("/nonexistent/planner.so"), HasSubstr("No such file"));
}

TEST(LibraryLoading, AFileThatIsNotALibraryCannotBeLoaded) {
  EXPECT_THAT(load_error(PLANCK_SOURCE_DIR "/corpus/schedules/01-chain.sched"),
              HasSubstr("cannot load the planner library"));
}

TEST_F(LibraryPlanner, AnOverCapacityAnswerIsItsRefusalToPassACapacity) {
  const Error full = failure(*planner_, "full");
  EXPECT_EQ(full.kind, kOverCapacity);
  EXPECT_THAT(full.what, HasSubstr("finds no plan within the capacity: no room"));
}

TEST_F(LibraryPlanner, OfVersionTwoSaysWhichFeaturesItSupports) {
  ASSERT_TRUE(planner_->claimed_features().has_value());
  EXPECT_EQ(features_text(*planner_->claimed_features()), "v1,align,capacity");
}

TEST(LibraryLoading, OfVersionOneStillPlansAndSupportsModelV1) {
  auto planner = make_library_planner(PLANCK_TEST_PLANNER_LIB_V1);
  ASSERT_TRUE(planner.ok()) << planner.error().message();
  ASSERT_TRUE((*planner)->claimed_features().has_value());
  EXPECT_EQ(features_text(*(*planner)->claimed_features()), "v1");
  auto plan = (*planner)->plan(schedule());
  ASSERT_TRUE(plan.ok()) << plan.error().message();
  EXPECT_EQ(print_plan(*plan), kAnswer);
}

TEST(LibraryLoading, AVersionToComeIsRefused) {
  EXPECT_THAT(load_error(PLANCK_TEST_PLANNER_LIB_V9),
              HasSubstr("speaks version 9 of the planner ABI; this planck speaks versions 1 to 2"));
}

TEST(LibraryLoading, OfVersionTwoWithoutItsFeaturesIsRefused) {
  EXPECT_THAT(load_error(PLANCK_TEST_PLANNER_LIB_NO_FEATURES), HasSubstr("exports no function planck_planner_features"));
}

TEST(LibraryLoading, AFeatureListThatNamesNoFeatureIsRefusedAtLoad) {
  EXPECT_THAT(load_error(PLANCK_TEST_PLANNER_LIB_BAD_FEATURES),
              HasSubstr("planck_planner_features() says 'v1,wings': no feature is named 'wings'"));
}

TEST(LibraryLoading, AMissingFunctionIsNamed) {
  EXPECT_THAT(load_error(PLANCK_TEST_PLANNER_LIB_NO_FREE), HasSubstr("exports no function planck_free"));
}

}  // namespace
}  // namespace planck
