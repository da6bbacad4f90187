#include "model/schedule.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace planck {
namespace {

Arg named(StorageId id) { return Arg{.kind = Arg::Kind::Storage, .storage = id}; }

// The records a schedule holds one of per buffer, at their sizes: a cache
// line each for storage and entries, a quarter of one for an argument.
TEST(Records, StorageAndEntryTakeACacheLineEachAndAnArgumentAQuarter) {
  static_assert(sizeof(Storage) == 64);
  static_assert(sizeof(Entry) == 64);
  static_assert(sizeof(Arg) == 16);
}

TEST(Dtypes, EachNameReadsAsItsDtypeAndNothingElseDoes) {
  for (int i = 0; i < kDtypeCount; ++i) {
    const auto d = static_cast<Dtype>(i);
    EXPECT_EQ(dtype_from_name(dtype_name(d)), d) << dtype_name(d);
    const std::string name(dtype_name(d));
    EXPECT_EQ(dtype_from_name(name + std::string(1, '\0')), std::nullopt) << name;
    EXPECT_EQ(dtype_from_name(name + "0"), std::nullopt) << name;
    EXPECT_EQ(dtype_from_name(name.substr(0, name.size() - 1)), std::nullopt) << name;
    EXPECT_EQ(dtype_from_name("X" + name.substr(1)), std::nullopt) << name;
  }
  EXPECT_EQ(dtype_from_name(""), std::nullopt);
  EXPECT_EQ(dtype_from_name("Float32"), std::nullopt);
  EXPECT_EQ(dtype_from_name("float32 "), std::nullopt);
  EXPECT_EQ(dtype_from_name(std::string_view("int8\0\0\0\0", 8)), std::nullopt);
  EXPECT_EQ(dtype_from_name("bfloat16x"), std::nullopt);
}

TEST(Boxed, ACopyOwnsItsOwnView) {
  Arg a = make_view(Arg::Kind::Shrink, named(3), 8, 16);
  Arg b = a;
  b.view->start = 0;
  b.view->base.storage = 4;
  EXPECT_EQ(a.view->start, 8u);
  EXPECT_EQ(storage_of(a), 3u);
  EXPECT_EQ(storage_of(b), 4u);
  b = a;
  EXPECT_EQ(b.view->start, 8u);
  EXPECT_EQ(storage_of(b), 3u);
}

TEST(Boxed, AMoveLeavesTheSourceEmpty) {
  Arg a = make_view(Arg::Kind::After, named(1));
  Arg b = std::move(a);
  EXPECT_FALSE(a.view);  // NOLINT(bugprone-use-after-move): the moved-from box is empty by contract
  ASSERT_TRUE(b.view);
  EXPECT_EQ(storage_of(b), 1u);
}

// The argument a view holds can replace the view itself: the box takes it
// before it deletes the view it lived in (ASan reports the use otherwise).
TEST(Boxed, AViewCanBeReplacedByWhatItViews) {
  Arg a = make_view(Arg::Kind::Bitcast, make_view(Arg::Kind::Shrink, named(2), 0, 4), 0, 0,
                    Dtype::Float32);
  a = std::move(a.view->base);
  EXPECT_EQ(a.kind, Arg::Kind::Shrink);
  EXPECT_EQ(a.view->length, 4u);
  a = std::move(a.view->base);
  EXPECT_EQ(a.kind, Arg::Kind::Storage);
  EXPECT_FALSE(a.view);
  EXPECT_EQ(a.storage, 2u);
}

TEST(Boxed, AConstBoxGivesAConstValue) {
  static_assert(std::is_same_v<decltype(*std::declval<const Boxed<View>&>()), const View&>);
  static_assert(std::is_same_v<decltype(*std::declval<Boxed<View>&>()), View&>);
  static_assert(std::is_nothrow_move_constructible_v<Entry>);
}

TEST(Entry, ACallHasNoBodyOrFlagUntilGivenOne) {
  Entry call{.kind = Entry::Kind::Kernel, .name = "k", .args = {named(0)}};
  EXPECT_TRUE(call.body().empty());
  EXPECT_TRUE(call.flag().empty());
  EXPECT_FALSE(call.parts);
  Entry loop{.kind = Entry::Kind::Loop};
  loop.mutable_flag().push_back(named(1));
  loop.mutable_body().push_back(call);
  const Entry copy = loop;
  loop.mutable_body().front().name = "changed";
  ASSERT_EQ(copy.body().size(), 1u);
  EXPECT_EQ(copy.body().front().name, "k");
  EXPECT_EQ(storage_of(copy.flag().front()), 1u);
}

}  // namespace
}  // namespace planck
