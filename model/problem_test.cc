#include "model/problem.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>

namespace planck {
namespace {

constexpr const char* kCsv = "id,lower,upper,size\na,0,2,100\nb,1,3,300\n";
constexpr const char* kSched = "schedule v1\nbuffer a CPU int8 4\nkernel k a\n";

TEST(Problem, TextStartingWithIdIsAnIntervalProblemWhateverItsName) {
  Result<Problem> p = parse_problem(kCsv, "<stdin>");
  ASSERT_TRUE(p) << p.error().message();
  ASSERT_TRUE(std::holds_alternative<IntervalProblem>(*p));
  EXPECT_EQ(std::get<IntervalProblem>(*p).buffers.size(), 2u);
  EXPECT_TRUE(
      std::holds_alternative<IntervalProblem>(*parse_problem(std::string("\xef\xbb\xbf") + kCsv, "x")));
}

TEST(Problem, AFileNamedCsvIsReadAsOneAndItsErrorsAreTheCsvReaders) {
  Result<Problem> p = parse_problem(kSched, "x.csv");
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message(), "x.csv:1:1: expected the header `id,lower,upper,size`, found `schedule v1`");
}

TEST(Problem, AnythingElseIsASchedule) {
  Result<Problem> p = parse_problem(kSched, "s.sched");
  ASSERT_TRUE(p) << p.error().message();
  EXPECT_TRUE(std::holds_alternative<Schedule>(*p));
  Result<Problem> bad = parse_problem("id;lower;upper;size\n", "s.txt");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().where, "s.txt:1:1");
  EXPECT_EQ(bad.error().what, "expected the header `schedule v1`, `schedule v2` or `schedule v3`, found `id;lower;upper;size`");
}

TEST(Problem, AnIntervalProblemStandsForItsSchedule) {
  Result<Schedule> s = problem_schedule(*parse_problem(kCsv, "t.csv"));
  ASSERT_TRUE(s) << s.error().message();
  ASSERT_EQ(s->storage.size(), 2u);
  EXPECT_EQ(s->storage[1].name, "b");
  EXPECT_EQ(s->storage[1].device, "CSV");
  EXPECT_EQ(s->entries.size(), 3u);
}

TEST(Problem, AScheduleStandsForItself) {
  Result<Schedule> s = problem_schedule(*parse_problem(kSched, "s.sched"));
  ASSERT_TRUE(s) << s.error().message();
  EXPECT_EQ(s->source, "s.sched");
  EXPECT_EQ(s->storage[0].device, "CPU");
}

TEST(Problem, AMissingFileCannotBeRead) {
  Result<Problem> p = read_problem("/nonexistent/planck/x.csv");
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message(), "/nonexistent/planck/x.csv: cannot read: No such file or directory");
}

}  // namespace
}  // namespace planck
