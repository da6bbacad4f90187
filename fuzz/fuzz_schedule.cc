// Any bytes as a .sched file: the parser either fails with a placed error or
// gives a schedule whose canonical text parses back to itself, and reading
// every line token by token gives the same records or the same error; every
// planner's plan of it passes the checker, and the rewrite succeeds.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_target.h"
#include "oracle/check/checker.h"
#include "planner/planner.h"
#include "planner/rewrite.h"
#include "model/dump.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace planck;
  using fuzz::fail;
  const std::string_view text = fuzz::input_text(data, size);
  auto s = parse_schedule(text, "fuzz.sched");
  if (auto differ = parse_results_differ(s, parse_schedule_by_tokens(text, "fuzz.sched"))) {
    fail("the plain-line path (first) and the token path (second) disagree", *differ);
  }
  if (!s) {
    if (s.error().where.rfind("fuzz.sched:", 0) != 0) fail("error without a place", s.error().message());
    return 0;
  }
  const std::string printed = print_schedule(*s);
  auto again = parse_schedule(printed, "printed.sched");
  if (!again) fail("canonical text does not parse", again.error().message() + "\n" + printed);
  if (print_schedule(*again) != printed) fail("printing is not canonical", printed);

  for (const std::string& name : planner_names()) {
    auto plan = make_planner(name)->plan(*s);
    if (!plan) continue;  // an overflow error naming the buffer is a valid answer
    auto violations = oracle::check_plan(*s, *plan);
    if (!violations.empty()) fail("planner " + name + " made an invalid plan", violations.front().message + "\n" + printed);
    auto rewritten = rewrite(*s, *plan);
    if (!rewritten && rewritten.error().what.find("nest deeper") == std::string::npos) {
      fail("the rewrite of a valid plan failed", rewritten.error().message());
    }
  }
  return 0;
}
