#include "model/pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "model/schedule.h"

namespace planck {
namespace {

Arg named(StorageId id) { return Arg{.kind = Arg::Kind::Storage, .storage = id}; }

// A list of n bytes, each set to its own value, and whether they still hold it.
unsigned char* filled(std::size_t n, unsigned char seed) {
  auto* p = static_cast<unsigned char*>(pool::allocate(n));
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(seed + i);
  return p;
}
bool intact(const unsigned char* p, std::size_t n, unsigned char seed) {
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] != static_cast<unsigned char>(seed + i)) return false;
  }
  return true;
}

TEST(Pool, ListsOfEverySizeAreAlignedAndDisjoint) {
  struct Held {
    unsigned char* p;
    std::size_t n;
    unsigned char seed;
  };
  std::vector<Held> held;
  // Sizes across every class, the largest pooled one, and past it.
  for (std::size_t round = 0; round < 40; ++round) {
    for (std::size_t n : {1u, 7u, 8u, 9u, 24u, 72u, 250u, 511u, 512u, 513u, 4096u}) {
      const auto seed = static_cast<unsigned char>(round * 31 + n);
      held.push_back({filled(n, seed), n, seed});
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(held.back().p) % 8, 0u) << n;
    }
  }
  // Freeing every other list and asking again reuses them, and no list
  // overwrites another.
  for (std::size_t i = 0; i < held.size(); i += 2) pool::deallocate(held[i].p, held[i].n);
  for (std::size_t i = 0; i < held.size(); i += 2) {
    held[i].seed = static_cast<unsigned char>(held[i].seed + 1);
    held[i].p = filled(held[i].n, held[i].seed);
  }
  for (const Held& h : held) EXPECT_TRUE(intact(h.p, h.n, h.seed)) << h.n;
  for (const Held& h : held) pool::deallocate(h.p, h.n);
}

TEST(Pool, AFreedListIsTheNextOfItsSize) {
  if (!pool::kPooled) GTEST_SKIP() << "every list comes from operator new under AddressSanitizer";
  void* a = pool::allocate(48);
  pool::deallocate(a, 48);
  void* b = pool::allocate(44);  // rounds to the same 48
  EXPECT_EQ(a, b);
  pool::deallocate(b, 44);
}

// A schedule's argument lists lie in the order its calls were read, so that
// a walk over the calls reads memory in order.
TEST(Pool, ListsAreCutInTheOrderAsked) {
  if (!pool::kPooled) GTEST_SKIP() << "every list comes from operator new under AddressSanitizer";
  // A size no other test of this thread frees, so that no freed list is handed out.
  constexpr std::size_t kOdd = 17 * 24;
  auto* first = static_cast<char*>(pool::allocate(kOdd));
  auto* second = static_cast<char*>(pool::allocate(kOdd));
  // Adjacent unless the first was the last to fit its chunk.
  if (second != first + kOdd) {
    auto* third = static_cast<char*>(pool::allocate(kOdd));
    EXPECT_EQ(third, second + kOdd);
    pool::deallocate(third, kOdd);
  }
  pool::deallocate(first, kOdd);
  pool::deallocate(second, kOdd);
}

TEST(Pool, AListMadeOnOneThreadCanBeFreedOnAnother) {
  // Ten arguments take 16 x 24 bytes at most: a pooled list.
  Args made;
  std::thread([&] {
    for (StorageId i = 0; i < 10; ++i) made.push_back(named(i));
  }).join();
  ASSERT_EQ(made.size(), 10u);
  for (StorageId i = 0; i < 10; ++i) EXPECT_EQ(made[i].storage, i);
  made = Args{};  // freed on this thread
  Args again(5, named(7));
  EXPECT_EQ(again.back().storage, 7u);
}

TEST(Pool, ArgumentListsCopyAndMoveAsVectors) {
  Args a{named(1), make_view(Arg::Kind::Shrink, named(2), 0, 8), named(3)};
  Args b = a;
  b[1].view->base.storage = 9;
  EXPECT_EQ(storage_of(a[1]), 2u);
  EXPECT_EQ(storage_of(b[1]), 9u);
  const Arg* data = a.data();
  Args c = std::move(a);
  EXPECT_EQ(c.data(), data);  // any two pool allocators are equal: the list moves whole
  EXPECT_EQ(c.size(), 3u);
}

}  // namespace
}  // namespace planck
