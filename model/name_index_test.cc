#include "model/name_index.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace planck {
namespace {

TEST(NameIndex, FindsEveryNameAddedAndNoOther) {
  std::vector<Storage> storage;
  NameIndex index(storage);
  // Enough names to grow the table several times.
  for (int i = 0; i < 1000; ++i) {
    storage.push_back(Storage{.name = "t" + std::to_string(i)});
    index.add(static_cast<StorageId>(i));
  }
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(index.find("t" + std::to_string(i)), StorageId(i));
  EXPECT_EQ(index.find("t1000"), std::nullopt);
  EXPECT_EQ(index.find("t"), std::nullopt);
  EXPECT_EQ(index.find(""), std::nullopt);
}

TEST(NameIndex, AnEmptyIndexFindsNothing) {
  const std::vector<Storage> storage;
  EXPECT_EQ(NameIndex(storage).find("x"), std::nullopt);
}

}  // namespace
}  // namespace planck
