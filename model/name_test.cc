#include "model/name.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace planck {
namespace {

// Texts on both sides of the longest one held in place.
const std::string kShort = "t999999";
const std::string kLongest(Name::kInline, 'x');
const std::string kLong = "a_name_longer_than_fifteen_bytes";

TEST(Name, HoldsItsTextAtEveryLength) {
  for (std::size_t n = 0; n <= 40; ++n) {
    const std::string text(n, static_cast<char>('a' + n % 26));
    const Name name(text);
    EXPECT_EQ(name.view(), text) << n;
    EXPECT_EQ(name.size(), n);
    EXPECT_EQ(name.empty(), n == 0);
  }
}

TEST(Name, EqualityDependsOnTheTextAlone) {
  EXPECT_EQ(Name(kShort), Name(std::string_view(kShort)));
  EXPECT_EQ(Name(kLong), Name(kLong));
  EXPECT_NE(Name("ab"), Name("abc"));
  EXPECT_NE(Name("abc"), Name("abd"));
  EXPECT_NE(Name(kLongest), Name(kLongest + "x"));
  // A name that was long and is assigned a short text compares as one made short.
  Name reused(kLong);
  reused = "ab";
  EXPECT_EQ(reused, Name("ab"));
  EXPECT_TRUE(Name() == "");
  EXPECT_TRUE(Name("CUDA") == "CUDA");
  EXPECT_TRUE(Name("CUDA") == std::string("CUDA"));
  EXPECT_TRUE(std::string_view("CUDA") == Name("CUDA"));
  EXPECT_LT(Name("a"), Name("b"));
  EXPECT_LT(Name(kLong), Name("b"));
}

TEST(Name, ShortlexOrdersByLengthThenBytes) {
  const std::vector<std::string> texts = {"", "a", "b", "\xff", "t9", "t10", "t11", "t100", kShort,
                                          kLongest, kLongest + "x", kLong, std::string(8, 'a') + "\x80",
                                          std::string(8, 'a') + "b", kLong + "z"};
  for (const std::string& a : texts) {
    for (const std::string& b : texts) {
      const bool less = a.size() != b.size() ? a.size() < b.size() : a < b;
      EXPECT_EQ(shortlex_less(Name(a), Name(b)), less) << a << " " << b;
      EXPECT_EQ(shortlex_less(std::string_view(a), std::string_view(b)), less) << a << " " << b;
    }
  }
}

TEST(Name, CopiesAndMovesKeepTheText) {
  for (const std::string& text : {kShort, kLongest, kLong}) {
    Name a(text);
    Name b = a;
    EXPECT_EQ(b, text);
    Name c = std::move(a);
    EXPECT_EQ(c, text);
    EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): a moved-from name is empty by contract
    a = c;
    EXPECT_EQ(a, text);
    a = std::move(b);
    EXPECT_EQ(a, text);
    a = a;  // NOLINT(clang-diagnostic-self-assign-overloaded): self-assignment keeps the text
    EXPECT_EQ(a, text);
  }
}

TEST(Name, HashesFormatsAndPrintsAsItsText) {
  std::unordered_set<Name> set = {Name(kShort), Name(kLong)};
  EXPECT_TRUE(set.contains(Name(kShort)));
  EXPECT_TRUE(set.contains(Name(kLong)));
  EXPECT_FALSE(set.contains(Name("other")));
  EXPECT_EQ(std::hash<Name>{}(Name(kLong)), std::hash<std::string_view>{}(kLong));
  EXPECT_EQ(fmt::format("[{}] [{:>5}]", Name(kLong), Name("ab")), "[" + kLong + "] [   ab]");
  std::ostringstream out;
  out << Name(kShort);
  EXPECT_EQ(out.str(), kShort);
  EXPECT_EQ(Name("ab") + "c", "abc");
  EXPECT_EQ(std::string("x") + Name("ab"), "xab");
}

TEST(Name, TakesHalfTheRoomOfAString) {
  static_assert(sizeof(Name) == 16);
  static_assert(sizeof(Name) * 2 == sizeof(std::string));
}

}  // namespace
}  // namespace planck
