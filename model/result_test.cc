#include "model/result.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace planck {
namespace {

Result<int> parse_digit(char c) {
  if (c < '0' || c > '9') return Error{"in", std::string("not a digit: ") + c};
  return c - '0';
}

Result<int> sum_of_two(char a, char b) {
  PLANCK_ASSIGN(int x, parse_digit(a));
  PLANCK_ASSIGN(const int y, parse_digit(b));
  return x + y;
}

Status both_digits(char a, char b) {
  PLANCK_TRY(parse_digit(a));
  PLANCK_TRY(parse_digit(b));
  return Ok{};
}

TEST(Result, AssignGivesTheValueOrReturnsTheFirstError) {
  EXPECT_EQ(*sum_of_two('3', '4'), 7);
  auto bad = sum_of_two('3', 'x');
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message(), "in: not a digit: x");
  EXPECT_EQ(sum_of_two('y', 'x').error().what, "not a digit: y");
}

TEST(Result, TryReturnsTheFirstError) {
  EXPECT_TRUE(both_digits('1', '2'));
  EXPECT_EQ(both_digits('1', 'z').error().what, "not a digit: z");
}

TEST(Result, AnErrorWithoutAKindIsBadInput) {
  EXPECT_TRUE(parse_digit('x').error().kind.empty());
}

TEST(Result, CopiesItsErrorAndMovesItsValue) {
  const Result<int> failed = Error{"f:1:2", "bad"};
  const Result<int> copy = failed;  // NOLINT(performance-unnecessary-copy-initialization)
  ASSERT_FALSE(copy);
  EXPECT_EQ(copy.error().message(), "f:1:2: bad");
  Result<std::string> value = std::string("ok");
  Result<std::string> moved = std::move(value);
  ASSERT_TRUE(moved);
  EXPECT_EQ(*moved, "ok");
}

}  // namespace
}  // namespace planck
