// Z3 proves the TLSF search lemma (docs/verification.md) over every 64-bit request
// size, and shows why the search rounds the request up before it starts.

#include "oracle/optimum/tlsf_lemma.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace planck::oracle::tlsf_lemma {
namespace {

constexpr unsigned kTimeoutMs = 120'000;
constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// The reference planner's allocator (docs/planners.md#the-reference-planner-tlsf: B = 256, C = 32, so L = 6),
// then others with other block sizes and level counts, down to one bin per level.
const std::vector<Params> kParams = {
    {256, 32}, {256, 16}, {4096, 32}, {64, 4}, {128, 64}, {1, 1},
};

std::string name(const Params& p) { return fmt::format("B={} C={}", p.block, p.second_level); }

// Requests and block sizes where an off-by-one in bit lengths, bins or rounding shows.
std::vector<std::uint64_t> boundary_sizes(const Params& p) {
  std::vector<std::uint64_t> v = {0, 1, 2, 3, p.block - 1, p.block, p.block + 1, kMax - 1, kMax};
  for (int k = 1; k < 64; ++k) {
    std::uint64_t pow = std::uint64_t{1} << k;
    v.insert(v.end(), {pow - 1, pow, pow + 1, pow + pow / 2, pow + pow / 2 + 1});
  }
  return v;
}

TEST(TlsfLemma, PlainArithmeticFollowsSpecSection4) {
  Params ref{256, 32};
  EXPECT_EQ(bitlen(0), 0);
  EXPECT_EQ(bitlen(256), 9);
  EXPECT_EQ(bin_of(0, ref), (Bin{0, 0}));
  EXPECT_EQ(bin_of(256, ref), (Bin{9, 0}));
  // 2^9 + 1 lies in bin (10, 0): level 10 splits [512, 1024) into 32 bins of 16 bytes.
  EXPECT_EQ(bin_of(513, ref), (Bin{10, 0}));
  EXPECT_EQ(bin_of(1023, ref), (Bin{10, 31}));
  // A request below B asks for B; 513 is rounded up to the next 16-byte step.
  EXPECT_EQ(search_size(1, ref, Search::Rounded), 256u);
  EXPECT_EQ(search_size(513, ref, Search::Rounded), 528u);
  EXPECT_EQ(search_size(513, ref, Search::Unrounded), 513u);
  EXPECT_EQ(search_size(kMax, ref, Search::Rounded), std::nullopt);
}

TEST(TlsfLemma, EncodingComputesWhatPlainArithmeticComputes) {
  for (const Params& p : kParams) {
    std::vector<std::uint64_t> sizes = boundary_sizes(p);
    // Each request is paired with one block size of the same list, so every
    // size is checked both as a request and as a block without all pairs.
    std::vector<Probe> probes;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      probes.push_back({sizes[i], sizes[(i + 7) % sizes.size()]});
    }
    for (Search search : {Search::Rounded, Search::Unrounded}) {
      Result<std::vector<Encoded>> enc = evaluate_encoding(p, search, probes);
      ASSERT_TRUE(enc.ok()) << enc.error().message();
      for (std::size_t i = 0; i < probes.size(); ++i) {
        const Encoded& e = enc.value()[i];
        std::optional<std::uint64_t> s = search_size(probes[i].request, p, search);
        ASSERT_EQ(e.search_size, s) << name(p) << " r=" << probes[i].request;
        if (s) {
          EXPECT_EQ(e.start, bin_of(*s, p)) << name(p) << " r=" << probes[i].request;
        }
        EXPECT_EQ(e.block, bin_of(probes[i].block_size, p)) << name(p) << " x=" << probes[i].block_size;
      }
    }
  }
}

TEST(TlsfLemma, EveryBlockTheSearchCanTakeIsLargeEnough) {
  for (const Params& p : kParams) {
    Result<Outcome> out = prove_search_lemma(p, Search::Rounded, kTimeoutMs);
    ASSERT_TRUE(out.ok()) << out.error().message();
    EXPECT_EQ(out->verdict, Verdict::Proved) << name(p) << " " << out->reason;
  }
}

TEST(TlsfLemma, WithoutRoundingTheSearchCanTakeATooSmallBlock) {
  for (const Params& p : kParams) {
    Result<Outcome> out = prove_search_lemma(p, Search::Unrounded, kTimeoutMs);
    ASSERT_TRUE(out.ok()) << out.error().message();
    ASSERT_EQ(out->verdict, Verdict::Refuted) << name(p) << " " << out->reason;
    ASSERT_TRUE(out->counterexample.has_value());
    Counterexample c = *out->counterexample;
    std::cout << name(p) << ": unrounded search for " << c.request << " bytes can take a free block of "
              << c.block_size << " bytes\n";

    // The counterexample, checked in plain arithmetic: the unrounded search
    // reaches the block's bin, the block is too small, and the rounded search
    // would not have reached it.
    std::uint64_t floor = std::max(p.block, c.request);
    Bin block_bin = bin_of(c.block_size, p);
    ASSERT_GE(c.block_size, 1u);
    EXPECT_LT(c.block_size, floor);
    EXPECT_TRUE(search_reaches(bin_of(*search_size(c.request, p, Search::Unrounded), p), block_bin));
    std::optional<std::uint64_t> rounded = search_size(c.request, p, Search::Rounded);
    ASSERT_TRUE(rounded.has_value());
    EXPECT_FALSE(search_reaches(bin_of(*rounded, p), block_bin));
  }
}

TEST(TlsfLemma, TheSmallestReferenceCounterexampleIsOneBytePastB) {
  // Every request up to 256 asks for exactly 256 bytes, so the first request
  // the unrounded search fails is 257: it shares bin (9, 0), sizes [256, 264),
  // with a 256-byte block, while the rounded search starts at 264, bin (9, 1).
  Params ref{256, 32};
  std::optional<Counterexample> smallest;
  for (std::uint64_t r = 0; r <= 257 && !smallest; ++r) {
    std::uint64_t floor = std::max(ref.block, r);
    Bin start = bin_of(*search_size(r, ref, Search::Unrounded), ref);
    for (std::uint64_t x = 1; x < floor && !smallest; ++x) {
      if (search_reaches(start, bin_of(x, ref))) smallest = Counterexample{r, x};
    }
  }
  ASSERT_TRUE(smallest.has_value());
  EXPECT_EQ(smallest->request, 257u);
  EXPECT_EQ(smallest->block_size, 256u);
  EXPECT_EQ(bin_of(257, ref), (Bin{9, 0}));
  EXPECT_EQ(search_size(257, ref, Search::Rounded), 264u);
  EXPECT_EQ(bin_of(264, ref), (Bin{9, 1}));
}

TEST(TlsfLemma, RoundingNeverOverflowsBelowTwoToThe62) {
  // Every size the planner handles is below 2^62 (model/schedule.h kMaxBytes),
  // so the lemma's no-overflow premise holds for every request it makes.
  for (const Params& p : kParams) {
    Result<Outcome> out = prove_rounding_fits(p, std::uint64_t{1} << 62, kTimeoutMs);
    ASSERT_TRUE(out.ok()) << out.error().message();
    EXPECT_EQ(out->verdict, Verdict::Proved) << name(p) << " " << out->reason;
  }
}

TEST(TlsfLemma, RoundingOverflowsNearTwoToThe64) {
  Params ref{256, 32};
  Result<Outcome> out = prove_rounding_fits(ref, kMax, kTimeoutMs);
  ASSERT_TRUE(out.ok()) << out.error().message();
  ASSERT_EQ(out->verdict, Verdict::Refuted);
  EXPECT_EQ(search_size(out->counterexample->request, ref, Search::Rounded), std::nullopt);
}

TEST(TlsfLemma, ParamsNeedABlockWithAtLeastLBits) {
  // C = 32 gives L = 6; B = 16 has 5 bits, so bitlen(r') - L could go below zero.
  EXPECT_FALSE(validate({16, 32}).ok());
  EXPECT_FALSE(validate({0, 1}).ok());
  EXPECT_FALSE(prove_search_lemma({16, 32}, Search::Rounded, kTimeoutMs).ok());
  EXPECT_TRUE(validate({32, 32}).ok());
}

}  // namespace
}  // namespace planck::oracle::tlsf_lemma
