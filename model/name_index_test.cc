#include "model/name_index.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace planck {
namespace {

NameIndex::NameOf names_of(const std::vector<std::string>& names) {
  return [&names](std::size_t k) -> std::string_view { return names[k]; };
}

TEST(NameIndex, AFullIndexFindsEveryNameAtItsIndex) {
  // As many names as the index has room for, so the probes run long.
  std::vector<std::string> names;
  for (int i = 0; i < 5000; ++i) names.push_back("t" + std::to_string(i));
  NameIndex index(names.size(), names_of(names));
  std::vector<std::size_t> added;
  index.emplace_each(names.size(), [&](std::size_t k, std::size_t first) {
    EXPECT_EQ(first, k) << names[k];
    added.push_back(k);
  });
  EXPECT_EQ(added.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(index.find(names[i]), i) << names[i];
  EXPECT_EQ(index.find("t5000"), std::nullopt);
  EXPECT_EQ(index.find("t"), std::nullopt);
}

TEST(NameIndex, ANameAddedAgainKeepsItsFirstIndex) {
  const std::vector<std::string> names = {"a", "b", "a", "b", "c"};
  NameIndex index(names.size(), names_of(names));
  std::vector<std::size_t> first;
  index.emplace_each(names.size(), [&](std::size_t, std::size_t f) { first.push_back(f); });
  EXPECT_EQ(first, (std::vector<std::size_t>{0, 1, 0, 1, 4}));
  EXPECT_EQ(index.emplace(2), std::make_pair(std::size_t{0}, false));
  EXPECT_EQ(index.find("a"), 0u);
  EXPECT_EQ(index.find("b"), 1u);
  EXPECT_EQ(index.find("c"), 4u);
}

TEST(NameIndex, TheEmptyNameIsANameLikeAnyOther) {
  const std::vector<std::string> names = {"", "x"};
  NameIndex index(names.size(), names_of(names));
  EXPECT_EQ(index.find(""), std::nullopt);
  EXPECT_EQ(index.emplace(0), std::make_pair(std::size_t{0}, true));
  EXPECT_EQ(index.find(""), 0u);
  EXPECT_EQ(index.find("x"), std::nullopt);
}

TEST(NameIndex, AnIndexGrowsPastItsFirstCapacity) {
  // Room for one name at first; a thousand make the table double many times.
  std::vector<std::string> names;
  names.reserve(1000);
  NameIndex index(1, names_of(names));
  for (int i = 0; i < 1000; ++i) {
    names.push_back("t" + std::to_string(i));
    EXPECT_EQ(index.emplace(names.size() - 1), std::make_pair(names.size() - 1, true));
  }
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(index.find(names[i]), i) << names[i];
  EXPECT_EQ(index.emplace(7), std::make_pair(std::size_t{7}, false));
  EXPECT_EQ(index.find("t1000"), std::nullopt);
  EXPECT_EQ(index.find(""), std::nullopt);
}

TEST(NameIndex, AnIndexWithoutNamesFindsNothing) {
  const std::vector<std::string> names;
  NameIndex index(0, names_of(names));
  EXPECT_EQ(index.find("a"), std::nullopt);
}

}  // namespace
}  // namespace planck
