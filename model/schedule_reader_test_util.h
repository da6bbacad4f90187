#pragma once
// What the tests of the .sched reader and printer ask of each text they
// parse: the plain-line path reads plain lines and the token path the others,
// and read token by token alone, a text must give the same records, or the
// same error.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "model/dump.h"
#include "model/result.h"
#include "model/schedule.h"
#include "model/schedule_reader.h"

namespace planck::testing {

// r, the result of parse_schedule on text, is what the token path alone
// makes of text.
inline void expect_both_paths_agree(std::string_view text, const Result<Schedule>& r) {
  const std::optional<std::string> differ = parse_results_differ(r, parse_schedule_by_tokens(text, "t.sched"));
  EXPECT_FALSE(differ) << "plain lines first, tokens second: " << *differ << "\n" << text;
}

// Parses text both ways, for the test's failures if they differ.
inline void parse_both_ways(std::string_view text) {
  expect_both_paths_agree(text, parse_schedule(text, "t.sched"));
}

// The schedule of a text that must parse, read both ways.
inline Schedule parse_ok(std::string_view text) {
  Result<Schedule> r = parse_schedule(text, "t.sched");
  expect_both_paths_agree(text, r);
  if (!r) {
    ADD_FAILURE() << r.error().message();
    return {};
  }
  return std::move(r).value();
}

// The error of a text that must not parse, read both ways.
inline Error parse_error(std::string_view text) {
  Result<Schedule> r = parse_schedule(text, "t.sched");
  expect_both_paths_agree(text, r);
  if (r) {
    ADD_FAILURE() << "parsed, but should not have:\n" << text;
    return {};
  }
  return r.error();
}

inline std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace planck::testing
