#include "gen/choices.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace planck::gen {
namespace {

// The bytes a draw over [lo, lo + span] takes: those that span needs.
std::size_t bytes_for(std::uint64_t span) { return (static_cast<std::size_t>(std::bit_width(span)) + 7) / 8; }

// bytes, the first lowest, mapped onto [lo, lo + span].
std::uint64_t onto_range(std::uint64_t lo, std::uint64_t span, std::uint64_t bytes) {
  return span == std::numeric_limits<std::uint64_t>::max() ? bytes : lo + bytes % (span + 1);
}

}  // namespace

int Choices::between(int lo, int hi) {
  // Offsets from lo, so that negative bounds map onto the unsigned draw.
  const auto span = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi) - lo);
  return static_cast<int>(lo + static_cast<std::int64_t>(draw(0, span)));
}

std::size_t Choices::below(std::size_t n) { return static_cast<std::size_t>(draw(0, n - 1)); }

bool Choices::percent(int percent) { return between(0, 99) < percent; }

std::uint64_t SeededChoices::draw(std::uint64_t lo, std::uint64_t hi) {
  const std::uint64_t span = hi - lo;
  if (span == std::numeric_limits<std::uint64_t>::max()) return engine_();
  // Rejection keeps every value of the range equally likely: outputs below
  // 2^64 mod (span + 1) would otherwise make the low values more likely.
  const std::uint64_t count = span + 1;
  const std::uint64_t skip = (0 - count) % count;
  std::uint64_t r = engine_();
  while (r < skip) r = engine_();
  return lo + r % count;
}

std::uint64_t ByteStreamChoices::draw(std::uint64_t lo, std::uint64_t hi) {
  const std::uint64_t span = hi - lo;
  std::uint64_t r = 0;
  for (std::size_t k = 0; k < bytes_for(span); ++k) r |= std::uint64_t{next_byte()} << (8 * k);
  return onto_range(lo, span, r);
}

std::uint64_t ByteChoices::draw(std::uint64_t lo, std::uint64_t hi) {
  const std::uint64_t span = hi - lo;
  const std::size_t taken = std::min(bytes_for(span), remaining());
  std::uint64_t r = 0;
  for (std::size_t k = 0; k < taken; ++k) r |= std::uint64_t{bytes_[next_ + k]} << (8 * k);
  next_ += taken;
  return onto_range(lo, span, r);
}

}  // namespace planck::gen
