// Any bytes as an interval CSV: a placed error, or a problem that prints
// back to text that parses to the same problem.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz/fuzz_target.h"
#include "model/intervals.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace planck;
  const std::string_view text = fuzz::input_text(data, size);
  auto p = parse_intervals(text, "fuzz.csv");
  if (!p) {
    if (p.error().where.rfind("fuzz.csv:", 0) != 0) std::abort();
    return 0;
  }
  const std::string printed = print_intervals(*p);
  auto again = parse_intervals(printed, "printed.csv");
  if (!again || print_intervals(*again) != printed) std::abort();
  return 0;
}
