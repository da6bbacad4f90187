#pragma once
// Where a generated schedule's random choices come from
// (docs/verification.md#properties). The generators of gen/random_schedules.h
// ask a Choices for bounded integers and for nothing else, so that one
// generator serves every source:
//   - SeededChoices, a seeded PRNG: tests, benchmarks, `planck verify`;
//   - ByteChoices, a byte string: libFuzzer targets;
//   - RapidCheck's picks: the properties (properties/rapidcheck_generators.h).
// Every sequence of draws decodes to a valid schedule, so a source may give
// any numbers in the ranges asked for, all zeros included.

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>

namespace planck::gen {

class Choices {
 public:
  virtual ~Choices() = default;

  // A number in [lo, hi], both included; lo <= hi.
  virtual std::uint64_t draw(std::uint64_t lo, std::uint64_t hi) = 0;

  // A number in [lo, hi], both included; lo <= hi.
  int between(int lo, int hi);
  // A number in [0, n); n > 0.
  std::size_t below(std::size_t n);
  // True with a chance of `percent` in 100.
  bool percent(int percent);
};

// Draws from std::mt19937_64, whose output the C++ standard fixes, mapped to
// ranges by code of its own (std::uniform_int_distribution's mapping differs
// between standard libraries): the same seed gives the same draws, and so
// the same schedules, on every platform.
class SeededChoices final : public Choices {
 public:
  explicit SeededChoices(std::uint64_t seed) : engine_(seed) {}
  std::uint64_t draw(std::uint64_t lo, std::uint64_t hi) override;

 private:
  std::mt19937_64 engine_;
};

// Draws from a stream of bytes, as libFuzzer's FuzzedDataProvider does:
// each draw takes as many bytes as its range needs (the first byte lowest)
// and maps them onto the range.
class ByteStreamChoices : public Choices {
 public:
  std::uint64_t draw(std::uint64_t lo, std::uint64_t hi) final;

 protected:
  virtual std::uint8_t next_byte() = 0;
};

// Draws from a byte string as ByteStreamChoices draws from a stream; past
// its end every byte reads as zero. So every byte string, the empty one
// included, decodes to a valid schedule, and a short string decodes to a
// small one.
class ByteChoices final : public Choices {
 public:
  explicit ByteChoices(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  std::uint64_t draw(std::uint64_t lo, std::uint64_t hi) override;

  // Bytes not yet drawn.
  std::size_t remaining() const { return bytes_.size() - next_; }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t next_ = 0;
};

}  // namespace planck::gen
