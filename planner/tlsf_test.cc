#include "planner/tlsf.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace planck {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

using BlockTuple = std::tuple<Bytes, Bytes, bool>;  // start, size, used

std::vector<BlockTuple> layout(const Tlsf& t) {
  std::vector<BlockTuple> out;
  for (const Tlsf::Block& b : t.blocks()) out.emplace_back(b.start, b.size, b.used);
  return out;
}

// Every queue of every bin the search can visit, (l1, l2) in order: l2 runs
// to 2^L - 1, and L is at most bitlen(127) = 7.
std::vector<std::vector<Bytes>> all_queues(const Tlsf& t) {
  std::vector<std::vector<Bytes>> out;
  for (int l1 = 0; l1 <= bitlen(t.capacity()); ++l1) {
    for (int l2 = 0; l2 < 128; ++l2) out.push_back(t.bin_queue({l1, l2}));
  }
  return out;
}

Tlsf make(Bytes capacity, Bytes block_size, Bytes second_level) {
  Result<Tlsf> t = Tlsf::create(capacity, block_size, second_level);
  EXPECT_TRUE(t.ok()) << t.error().message();
  return std::move(t).value();
}

TEST(TlsfBin, SizesComputedByHand) {
  // B = 256, C = 32: L = bitlen(32) = 6, so a level l1 >= 6 is cut into
  // bins 2^(l1-6) bytes wide, and a lower level into bins one byte wide.
  Tlsf t = make(1 << 20, 256, 32);
  // 256 = 2^8: l1 = 9, l2 = (256 - 256) >> 3 = 0.
  EXPECT_EQ(t.bin(256), (Tlsf::Bin{9, 0}));
  // 257: l1 = 9, l2 = 1 >> 3 = 0; the same bin as 256.
  EXPECT_EQ(t.bin(257), (Tlsf::Bin{9, 0}));
  // 264: l1 = 9, l2 = 8 >> 3 = 1.
  EXPECT_EQ(t.bin(264), (Tlsf::Bin{9, 1}));
  // 511: l1 = 9, l2 = 255 >> 3 = 31, the last bin a level reaches.
  EXPECT_EQ(t.bin(511), (Tlsf::Bin{9, 31}));
  // 512: l1 = 10, l2 = 0 >> 4 = 0.
  EXPECT_EQ(t.bin(512), (Tlsf::Bin{10, 0}));
  // 768: l1 = 10, l2 = 256 >> 4 = 16.
  EXPECT_EQ(t.bin(768), (Tlsf::Bin{10, 16}));
  // 100: l1 = 7, l2 = (100 - 64) >> 1 = 18.
  EXPECT_EQ(t.bin(100), (Tlsf::Bin{7, 18}));
  // 40: l1 = 6, l2 = (40 - 32) >> 0 = 8.
  EXPECT_EQ(t.bin(40), (Tlsf::Bin{6, 8}));
  // 3: l1 = 2, l2 = 3 - 2 = 1; 1: l1 = 1, l2 = 0.
  EXPECT_EQ(t.bin(3), (Tlsf::Bin{2, 1}));
  EXPECT_EQ(t.bin(1), (Tlsf::Bin{1, 0}));
  // 2^63 + 2^57: l1 = 64, l2 = 2^57 >> 58 = 0; 2^64 - 1: l2 = (2^63 - 1) >> 58 = 31.
  EXPECT_EQ(t.bin((Bytes{1} << 63) + (Bytes{1} << 57)), (Tlsf::Bin{64, 0}));
  EXPECT_EQ(t.bin(std::numeric_limits<Bytes>::max()), (Tlsf::Bin{64, 31}));
}

TEST(TlsfBin, BitlenCountsBits) {
  EXPECT_EQ(bitlen(0), 0);
  EXPECT_EQ(bitlen(1), 1);
  EXPECT_EQ(bitlen(255), 8);
  EXPECT_EQ(bitlen(256), 9);
  EXPECT_EQ(bitlen(std::numeric_limits<Bytes>::max()), 64);
}

TEST(TlsfCreate, RejectsBadParameters) {
  EXPECT_FALSE(Tlsf::create(1024, 16, 0).ok());   // no second level
  EXPECT_FALSE(Tlsf::create(1024, 0, 16).ok());   // no block size
  EXPECT_FALSE(Tlsf::create(1024, 16, 32).ok());  // bitlen(16) = 5 < bitlen(32) = 6
  EXPECT_FALSE(Tlsf::create(1024, 1 << 20, 128).ok());  // past one bitmap per level
  Result<Tlsf> bad = Tlsf::create(1024, 16, 32);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message(), HasSubstr("16"));
}

TEST(TlsfCreate, AcceptsTheLimits) {
  EXPECT_TRUE(Tlsf::create(1024, 16, 31).ok());  // bitlen(31) = 5 = bitlen(16)
  EXPECT_TRUE(Tlsf::create(1024, 1, 1).ok());
  EXPECT_TRUE(Tlsf::create(1024, 64, 127).ok());
  EXPECT_TRUE(Tlsf::create(std::numeric_limits<Bytes>::max(), 256, 32).ok());
}

TEST(TlsfCreate, StartsWithOneFreeBlockInItsBin) {
  Tlsf t = make(300, 16, 16);
  EXPECT_THAT(layout(t), ElementsAre(BlockTuple{0, 300, false}));
  // 300: l1 = 9, l2 = (300 - 256) >> (9 - 5) = 2.
  EXPECT_THAT(t.bin_queue({9, 2}), ElementsAre(0));
}

TEST(TlsfCreate, ZeroCapacityHasNoBlocksAndNeverAllocates) {
  Tlsf t = make(0, 16, 16);
  EXPECT_THAT(t.blocks(), IsEmpty());
  EXPECT_EQ(t.alloc(0), std::nullopt);
  EXPECT_EQ(t.alloc(1), std::nullopt);
  EXPECT_FALSE(t.free(0).ok());
}

TEST(TlsfAlloc, TheWholeCapacityCannotBeTakenWhenItRoundsUpPastIt) {
  // 300 rounds up to 304 = (9, 3) at B = 16, C = 16, and the only block,
  // 300 bytes, sits in (9, 2), below where the search starts.
  Tlsf t = make(300, 16, 16);
  EXPECT_EQ(t.alloc(300), std::nullopt);
  EXPECT_THAT(layout(t), ElementsAre(BlockTuple{0, 300, false}));
}

TEST(TlsfAlloc, ConsecutiveRequestsAreLaidEndToEnd) {
  Tlsf t = make(300, 16, 16);
  EXPECT_EQ(t.alloc(20), 0u);
  EXPECT_EQ(t.alloc(35), 20u);
  EXPECT_THAT(layout(t), ElementsAre(BlockTuple{0, 20, true}, BlockTuple{20, 35, true},
                                     BlockTuple{55, 245, false}));
}

TEST(TlsfAlloc, ARequestSmallerThanTheBlockSizeTakesABlock) {
  Tlsf t = make(300, 16, 16);
  EXPECT_EQ(t.alloc(1), 0u);
  EXPECT_EQ(t.alloc(0), 16u);
  EXPECT_THAT(layout(t), ElementsAre(BlockTuple{0, 16, true}, BlockTuple{16, 16, true},
                                     BlockTuple{32, 268, false}));
}

TEST(TlsfAlloc, ASplitLeavesTheRestInItsBin) {
  Tlsf t = make(300, 16, 16);
  ASSERT_EQ(t.alloc(1), 0u);
  // The rest, 284 bytes: l1 = 9, l2 = (284 - 256) >> 4 = 1.
  EXPECT_THAT(t.bin_queue({9, 1}), ElementsAre(16));
  EXPECT_THAT(t.bin_queue({9, 2}), IsEmpty());
}

TEST(TlsfAlloc, AnExactFitIsTakenWhole) {
  Tlsf t = make(256, 256, 32);
  EXPECT_EQ(t.alloc(256), 0u);
  EXPECT_THAT(layout(t), ElementsAre(BlockTuple{0, 256, true}));
  EXPECT_EQ(t.alloc(1), std::nullopt);
}

TEST(TlsfAlloc, BinsAreFifo) {
  Tlsf t = make(1000, 16, 16);
  ASSERT_EQ(t.alloc(64), 0u);
  ASSERT_EQ(t.alloc(16), 64u);  // keeps the two 64-byte blocks apart
  ASSERT_EQ(t.alloc(64), 80u);
  ASSERT_EQ(t.alloc(16), 144u);
  ASSERT_TRUE(t.free(80).ok());
  ASSERT_TRUE(t.free(0).ok());
  // 64: l1 = 7, l2 = 0; the block freed first is at the front.
  EXPECT_THAT(t.bin_queue({7, 0}), ElementsAre(80, 0));
  EXPECT_EQ(t.alloc(64), 80u);
  EXPECT_EQ(t.alloc(64), 0u);
}

TEST(TlsfAlloc, TheSearchSkipsAnExactSizeBlockBelowTheRoundedSize) {
  Tlsf t = make(2000, 16, 16);
  ASSERT_EQ(t.alloc(300), 0u);
  ASSERT_EQ(t.alloc(16), 300u);
  ASSERT_TRUE(t.free(0).ok());
  // [0, 300) is free in (9, 2), but 300 is searched as 304 from (9, 3), so
  // the request goes to the 1684-byte block at level 11.
  EXPECT_THAT(t.bin_queue({9, 2}), ElementsAre(0));
  EXPECT_EQ(t.alloc(300), 316u);
  EXPECT_THAT(t.bin_queue({9, 2}), ElementsAre(0));
}

TEST(TlsfAlloc, HigherLevelsAreScannedFromTheirFirstBin) {
  Tlsf t = make(3000, 16, 16);
  ASSERT_EQ(t.alloc(1000), 0u);
  ASSERT_EQ(t.alloc(16), 1000u);
  ASSERT_EQ(t.alloc(512), 1016u);
  ASSERT_EQ(t.alloc(16), 1528u);
  ASSERT_TRUE(t.free(0).ok());     // 1000: (10, (1000 - 512) >> 5 = 15)
  ASSERT_TRUE(t.free(1016).ok());  // 512: (10, 0)
  // 300 is searched from (9, 3); level 9 is empty, and level 10 is scanned
  // from l2 = 0, so the 512-byte block wins over the lower-addressed 1000.
  EXPECT_EQ(t.alloc(300), 1016u);
  // The rest, 212 bytes: l1 = 8, l2 = (212 - 128) >> 3 = 10.
  EXPECT_THAT(t.bin_queue({8, 10}), ElementsAre(1316));
  EXPECT_THAT(t.bin_queue({10, 15}), ElementsAre(0));
}

TEST(TlsfAlloc, ARoundingThatOverflowsFails) {
  // B = 1, C = 1: L = 1, so a request is rounded to its top bit; 2^63 + 1
  // rounds to 2^64, which does not fit in 64 bits, though the single free
  // block of 2^64 - 1 bytes is large enough.
  Tlsf t = make(std::numeric_limits<Bytes>::max(), 1, 1);
  EXPECT_EQ(t.alloc((Bytes{1} << 63) + 1), std::nullopt);
  EXPECT_EQ(t.alloc(std::numeric_limits<Bytes>::max()), std::nullopt);
  EXPECT_EQ(t.alloc(Bytes{1} << 63), 0u);
}

TEST(TlsfAlloc, ARequestPastTheCapacityFails) {
  Tlsf t = make(4096, 256, 32);
  EXPECT_EQ(t.alloc(4097), std::nullopt);
  EXPECT_EQ(t.alloc(1 << 20), std::nullopt);
  EXPECT_THAT(layout(t), ElementsAre(BlockTuple{0, 4096, false}));
}

TEST(TlsfFree, MergesWithBothNeighboursIntoTheBackOfItsBin) {
  Tlsf t = make(1000, 16, 16);
  ASSERT_EQ(t.alloc(192), 0u);
  ASSERT_EQ(t.alloc(16), 192u);
  ASSERT_EQ(t.alloc(64), 208u);
  ASSERT_EQ(t.alloc(64), 272u);
  ASSERT_EQ(t.alloc(64), 336u);
  ASSERT_EQ(t.alloc(16), 400u);
  ASSERT_TRUE(t.free(0).ok());  // 192: (8, (192 - 128) >> 3 = 8)
  ASSERT_TRUE(t.free(208).ok());
  ASSERT_TRUE(t.free(336).ok());
  EXPECT_THAT(t.bin_queue({7, 0}), ElementsAre(208, 336));
  ASSERT_TRUE(t.free(272).ok());
  // [208, 400) is one 192-byte block, queued behind [0, 192).
  EXPECT_THAT(layout(t),
              ElementsAre(BlockTuple{0, 192, false}, BlockTuple{192, 16, true},
                          BlockTuple{208, 192, false}, BlockTuple{400, 16, true},
                          BlockTuple{416, 584, false}));
  EXPECT_THAT(t.bin_queue({8, 8}), ElementsAre(0, 208));
  EXPECT_THAT(t.bin_queue({7, 0}), IsEmpty());
}

TEST(TlsfFree, FreeingEverythingLeavesOneBlock) {
  Tlsf t = make(1000, 16, 16);
  ASSERT_EQ(t.alloc(100), 0u);
  ASSERT_EQ(t.alloc(100), 100u);
  ASSERT_TRUE(t.free(0).ok());
  ASSERT_TRUE(t.free(100).ok());
  EXPECT_THAT(layout(t), ElementsAre(BlockTuple{0, 1000, false}));
  // 1000: l1 = 10, l2 = (1000 - 512) >> 5 = 15.
  EXPECT_THAT(t.bin_queue({10, 15}), ElementsAre(0));
}

// A bad free is an error naming the address, and leaves every block and
// every queue as it was.
void expect_rejected_free(Tlsf& t, Bytes addr) {
  SCOPED_TRACE(addr);
  std::vector<BlockTuple> before = layout(t);
  std::vector<std::vector<Bytes>> queues_before = all_queues(t);
  Status s = t.free(addr);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message(), HasSubstr(std::to_string(addr)));
  EXPECT_EQ(layout(t), before);
  EXPECT_EQ(all_queues(t), queues_before);
}

TEST(TlsfFree, ABadAddressIsAnErrorAndChangesNothing) {
  Tlsf t = make(1000, 16, 16);
  ASSERT_EQ(t.alloc(100), 0u);
  ASSERT_EQ(t.alloc(100), 100u);
  ASSERT_TRUE(t.free(100).ok());
  expect_rejected_free(t, 5);     // inside a used block
  expect_rejected_free(t, 100);   // a free block
  expect_rejected_free(t, 150);   // inside a free block
  expect_rejected_free(t, 1000);  // the end of the arena
  expect_rejected_free(t, std::numeric_limits<Bytes>::max());
  EXPECT_TRUE(t.free(0).ok());
  expect_rejected_free(t, 0);  // freed twice
}

TEST(TlsfFree, ACopyIsIndependentOfItsOriginal) {
  Tlsf a = make(1000, 16, 16);
  ASSERT_EQ(a.alloc(100), 0u);
  Tlsf b = a;
  ASSERT_TRUE(b.free(0).ok());
  EXPECT_EQ(b.alloc(200), 0u);
  EXPECT_THAT(layout(a), ElementsAre(BlockTuple{0, 100, true}, BlockTuple{100, 900, false}));
  EXPECT_EQ(a.alloc(200), 100u);
}

// The semantics of docs/planners.md#the-tlsf-allocator followed word by word, as plainly as
// possible and with no concern for speed: blocks in a vector in address
// order, one deque per bin (l1 in 0..bitlen(S), l2 in 0..2^L - 1), a count
// per level, and a search that visits the bins one by one.
class PlainTlsf {
 public:
  PlainTlsf(Bytes capacity, Bytes block_size, Bytes second_level)
      : capacity_(capacity), block_size_(block_size), l_(count_bits(second_level)) {
    int levels = count_bits(capacity) + 1;
    queues_.assign(static_cast<std::size_t>(levels),
                   std::vector<std::deque<Bytes>>(std::size_t{1} << l_));
    counts_.assign(static_cast<std::size_t>(levels), 0);
    if (capacity > 0) {
      blocks_.push_back({0, capacity, false});
      insert(blocks_[0]);
    }
  }

  std::optional<Bytes> alloc(Bytes r) {
    Bytes need = std::max(block_size_, r);
    Bytes unit = Bytes{1} << (count_bits(need) - l_);
    Bytes s = need / unit * unit;
    if (s != need) {
      if (s > std::numeric_limits<Bytes>::max() - unit) return std::nullopt;
      s += unit;
    }
    auto [l1s, l2s] = bin_of(s);
    for (int l1 = l1s; l1 <= count_bits(capacity_); ++l1) {
      if (counts_[l1] == 0) continue;
      for (int l2 = l1 == l1s ? l2s : 0; l2 < (1 << l_); ++l2) {
        if (queues_[l1][l2].empty()) continue;
        Bytes start = queues_[l1][l2].front();
        std::size_t i = index_of(start);
        remove(blocks_[i]);
        blocks_[i].used = true;
        if (blocks_[i].size > need) {
          Block rest{start + need, blocks_[i].size - need, false};
          blocks_[i].size = need;
          blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(i) + 1, rest);
          insert(rest);
        }
        return start;
      }
    }
    return std::nullopt;
  }

  // False, and nothing changes, when no used block starts at addr.
  bool free(Bytes addr) {
    std::size_t i = index_of(addr);
    if (i == blocks_.size() || !blocks_[i].used) return false;
    blocks_[i].used = false;
    insert(blocks_[i]);
    while (i > 0 && !blocks_[i - 1].used) --i;
    while (i + 1 < blocks_.size() && !blocks_[i + 1].used) {
      remove(blocks_[i]);
      remove(blocks_[i + 1]);
      blocks_[i].size += blocks_[i + 1].size;
      blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      insert(blocks_[i]);
    }
    return true;
  }

  std::vector<BlockTuple> layout() const {
    std::vector<BlockTuple> out;
    for (const Block& b : blocks_) out.emplace_back(b.start, b.size, b.used);
    return out;
  }

  const std::vector<std::vector<std::deque<Bytes>>>& queues() const { return queues_; }

  static int count_bits(Bytes x) {
    int n = 0;
    for (; x != 0; x >>= 1) ++n;
    return n;
  }

  std::pair<int, int> bin_of(Bytes s) const {
    int l1 = count_bits(s);
    int shift = std::max(0, l1 - l_);
    return {l1, static_cast<int>((s - (Bytes{1} << (l1 - 1))) >> shift)};
  }

 private:
  struct Block {
    Bytes start;
    Bytes size;
    bool used;
  };

  std::size_t index_of(Bytes start) const {
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      if (blocks_[i].start == start) return i;
    }
    return blocks_.size();
  }

  void insert(const Block& b) {
    auto [l1, l2] = bin_of(b.size);
    queues_[l1][l2].push_back(b.start);
    ++counts_[l1];
  }

  void remove(const Block& b) {
    auto [l1, l2] = bin_of(b.size);
    std::deque<Bytes>& q = queues_[l1][l2];
    q.erase(std::find(q.begin(), q.end(), b.start));
    --counts_[l1];
  }

  Bytes capacity_;
  Bytes block_size_;
  int l_;
  std::vector<Block> blocks_;
  std::vector<std::vector<std::deque<Bytes>>> queues_;
  std::vector<int> counts_;
};

// Blocks and the queues of the bins that hold the model's free blocks; with
// `every_bin`, every queue of the model, empty ones included. A plain
// function rather than assertions per queue: it runs after every step.
testing::AssertionResult same_state(const Tlsf& t, const PlainTlsf& m, bool every_bin) {
  std::vector<BlockTuple> blocks = m.layout();
  if (layout(t) != blocks) {
    return testing::AssertionFailure() << "blocks differ: " << testing::PrintToString(layout(t))
                                       << " instead of " << testing::PrintToString(blocks);
  }
  const auto& queues = m.queues();
  auto differs = [&](int l1, int l2) {
    const std::deque<Bytes>& q = queues[l1][l2];
    return t.bin_queue({l1, l2}) != std::vector<Bytes>(q.begin(), q.end());
  };
  auto failure = [&](int l1, int l2) {
    const std::deque<Bytes>& q = queues[l1][l2];
    return testing::AssertionFailure()
           << "bin (" << l1 << ", " << l2 << ") holds " << testing::PrintToString(t.bin_queue({l1, l2}))
           << " instead of " << testing::PrintToString(std::vector<Bytes>(q.begin(), q.end()));
  };
  if (every_bin) {
    for (int l1 = 0; l1 < static_cast<int>(queues.size()); ++l1) {
      for (int l2 = 0; l2 < static_cast<int>(queues[l1].size()); ++l2) {
        if (differs(l1, l2)) return failure(l1, l2);
      }
    }
  } else {
    for (const auto& [start, size, used] : blocks) {
      if (used) continue;
      auto [l1, l2] = m.bin_of(size);
      if (differs(l1, l2)) return failure(l1, l2);
    }
  }
  return testing::AssertionSuccess();
}

struct Params {
  Bytes capacity;
  Bytes block_size;
  Bytes second_level;
};

Params random_params(std::mt19937_64& rng) {
  auto pick = [&](Bytes lo, Bytes hi) { return std::uniform_int_distribution<Bytes>(lo, hi)(rng); };
  Bytes second_level = pick(0, 3) == 0 ? pick(1, 127) : pick(1, 16);
  int l = PlainTlsf::count_bits(second_level);
  // The smallest block size allowed, or a little more.
  Bytes block_size = (Bytes{1} << (l - 1)) + (pick(0, 1) == 0 ? 0 : pick(0, 40));
  Bytes capacity;
  switch (pick(0, 9)) {
    case 0: capacity = pick(0, 64); break;
    case 1: capacity = pick(Bytes{1} << 40, std::numeric_limits<Bytes>::max()); break;
    default: capacity = pick(1, 5000); break;
  }
  return {capacity, block_size, second_level};
}

// One random sequence of allocs and frees against the model; stops at the
// first difference.
void run_sequence(std::uint64_t seed) {
  SCOPED_TRACE(testing::Message() << "seed " << seed);
  std::mt19937_64 rng(seed);
  auto pick = [&](Bytes lo, Bytes hi) { return std::uniform_int_distribution<Bytes>(lo, hi)(rng); };
  Params p = random_params(rng);
  SCOPED_TRACE(testing::Message() << "S = " << p.capacity << ", B = " << p.block_size
                                  << ", C = " << p.second_level);
  Result<Tlsf> created = Tlsf::create(p.capacity, p.block_size, p.second_level);
  ASSERT_TRUE(created.ok()) << created.error().message();
  Tlsf& t = created.value();
  PlainTlsf m(p.capacity, p.block_size, p.second_level);
  ASSERT_TRUE(same_state(t, m, true));

  int steps = static_cast<int>(pick(50, 250));
  for (int step = 0; step < steps; ++step) {
    std::string what = "step " + std::to_string(step) + ": ";
    std::vector<BlockTuple> blocks = m.layout();
    std::vector<Bytes> used, free_sizes;
    for (const auto& [start, size, is_used] : blocks) {
      if (is_used) {
        used.push_back(start);
      } else {
        free_sizes.push_back(size);
      }
    }
    Bytes op = pick(0, 99);
    if (op < 55 || blocks.empty()) {
      // Mostly small requests so that blocks pile up; some the size of a
      // free block (the rounded-up search skips those), some past the
      // capacity or near 2^64 (the rounding overflows).
      Bytes r;
      Bytes kind = pick(0, 19);
      if (kind == 0) {
        r = pick(std::numeric_limits<Bytes>::max() - 1000, std::numeric_limits<Bytes>::max());
      } else if (kind <= 3 && !free_sizes.empty()) {
        r = free_sizes[pick(0, free_sizes.size() - 1)];
      } else if (kind == 4) {
        r = pick(0, p.capacity);
      } else {
        Bytes divisor = Bytes{1} << pick(2, 8);
        r = pick(0, p.capacity / divisor + p.block_size);
      }
      what += "alloc(" + std::to_string(r) + ")";
      std::optional<Bytes> want = m.alloc(r);
      ASSERT_EQ(t.alloc(r), want) << what;
    } else if (op < 92 && !used.empty()) {
      Bytes addr = used[pick(0, used.size() - 1)];
      what += "free(" + std::to_string(addr) + ")";
      ASSERT_TRUE(m.free(addr)) << what;
      Status s = t.free(addr);
      ASSERT_TRUE(s.ok()) << what << ": " << s.error().message();
    } else {
      // An address that starts no used block: a free block's start, any
      // address inside the arena, or one past its end.
      const BlockTuple& b = blocks[pick(0, blocks.size() - 1)];
      Bytes addr;
      switch (pick(0, 2)) {
        case 0: addr = std::get<0>(b); break;
        case 1: addr = pick(0, p.capacity - 1); break;
        default: addr = pick(p.capacity, std::numeric_limits<Bytes>::max()); break;
      }
      what += "free(" + std::to_string(addr) + ")";
      bool model_ok = m.free(addr);
      Status s = t.free(addr);
      ASSERT_EQ(s.ok(), model_ok) << what;
      if (!model_ok) {
        ASSERT_THAT(s.error().message(), HasSubstr(std::to_string(addr))) << what;
      }
    }
    ASSERT_TRUE(same_state(t, m, step % 32 == 31 || step + 1 == steps)) << what;
  }
}

// Each sequence costs some hundred times more under the sanitizers, where a
// tenth of them still reaches every path.
#ifdef PLANCK_SANITIZED_BUILD
constexpr std::uint64_t kSequences = 400;
#else
constexpr std::uint64_t kSequences = 4000;
#endif

TEST(TlsfDifferential, AgreesWithAPlainModelOnRandomSequences) {
  for (std::uint64_t seed = 1; seed <= kSequences; ++seed) {
    ASSERT_NO_FATAL_FAILURE(run_sequence(seed));
  }
}

// Many buffers at once, in the shape the reference planner makes (256-byte
// multiples, frees interleaved with allocs), against the same model. The
// frees go by the ids alloc_block returned, as the planner's do, and every
// third by address, so that the index free(addr) keeps meets blocks made
// before and after it began.
TEST(TlsfDifferential, AgreesWithAPlainModelOnAPlannerShapedLoad) {
  constexpr Bytes kBlock = 256;
  constexpr int kBuffers = 2000;
  std::mt19937_64 rng(42);
  std::vector<Bytes> sizes;
  Bytes total = 0;
  for (int i = 0; i < kBuffers; ++i) {
    sizes.push_back(kBlock * std::uniform_int_distribution<Bytes>(0, 64)(rng));
    total += std::max(kBlock, sizes.back());
  }
  Tlsf t = make(2 * total, kBlock, 32);
  PlainTlsf m(2 * total, kBlock, 32);
  std::vector<Tlsf::Allocation> live;
  int frees = 0;
  for (int i = 0; i < kBuffers; ++i) {
    SCOPED_TRACE(i);
    while (!live.empty() && std::uniform_int_distribution<int>(0, 2)(rng) == 0) {
      std::size_t k = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
      ASSERT_TRUE(m.free(live[k].start));
      const Status freed = ++frees % 3 == 0 ? t.free(live[k].start) : t.free_block(live[k].block);
      ASSERT_TRUE(freed.ok()) << freed.error().message();
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
    }
    std::optional<Bytes> want = m.alloc(sizes[i]);
    ASSERT_TRUE(want.has_value());
    const Tlsf::Allocation got = t.alloc_block(sizes[i]);
    ASSERT_TRUE(got.found());
    ASSERT_EQ(got.start, *want);
    live.push_back(got);
  }
  ASSERT_TRUE(same_state(t, m, true));
}

TEST(Tlsf, FreeingAnIdThatNamesNoUsedBlockIsAnError) {
  Tlsf t = make(4096, 256, 32);
  const Tlsf::Allocation a = t.alloc_block(256);
  const Tlsf::Allocation b = t.alloc_block(256);
  ASSERT_TRUE(a.found() && b.found());
  EXPECT_FALSE(t.free_block(1000).ok());  // no such block
  ASSERT_TRUE(t.free_block(a.block).ok());
  Status again = t.free_block(a.block);
  ASSERT_FALSE(again.ok());
  EXPECT_THAT(again.error().message(), HasSubstr("no used block"));
  EXPECT_EQ(b.start, 256);
  EXPECT_THAT(layout(t), ElementsAre(BlockTuple{0, 256, false}, BlockTuple{256, 256, true},
                                     BlockTuple{512, 3584, false}));
}

}  // namespace
}  // namespace planck
