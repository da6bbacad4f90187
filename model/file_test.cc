#include "model/file.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "model/intervals.h"
#include "model/plan.h"
#include "model/schedule_reader.h"
#include "tests/spec_example.h"

namespace planck {
namespace {

using testing::kSpecExample;

class TextFile : public ::testing::Test {
 protected:
  // One directory per test and process, since several builds may run the tests at once.
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ =
        std::filesystem::path(::testing::TempDir()) / fmt::format("planck_file_test_{}_{}", ::getpid(), name);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(std::string_view name, std::string_view text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::filesystem::path dir_;
};

TEST_F(TextFile, ReadScheduleParsesTheFileAndNamesIt) {
  const std::string path = write("a.sched", kSpecExample);
  Result<Schedule> s = read_schedule(path);
  ASSERT_TRUE(s) << s.error().message();
  EXPECT_EQ(s->source, path);
  EXPECT_EQ(s->storage.size(), 6u);
}

TEST_F(TextFile, ParseErrorsNameThePath) {
  const std::string path = write("bad.sched", "schedule v1\nkernel k a\n");
  Result<Schedule> s = read_schedule(path);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().where, path + ":2:10");
}

TEST_F(TextFile, AMissingFileCannotBeRead) {
  const std::string path = (dir_ / "missing.sched").string();
  Result<Schedule> s = read_schedule(path);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().where, path);
  EXPECT_EQ(s.error().what, "cannot read: No such file or directory");
}

TEST_F(TextFile, ADirectoryCannotBeRead) {
  Result<FileText> text = read_file(dir_.string());
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().what, "cannot read: Is a directory");
}

TEST_F(TextFile, APathThroughAFileCannotBeRead) {
  Result<FileText> text = read_file(write("plain", "x") + "/inside");
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().what, "cannot read: Not a directory");
}

TEST_F(TextFile, AFileWithoutReadPermissionCannotBeRead) {
  if (::geteuid() == 0) GTEST_SKIP() << "the superuser reads any file";
  const std::string path = write("secret.sched", kSpecExample);
  std::filesystem::permissions(path, std::filesystem::perms::none);
  Result<FileText> text = read_file(path);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().message(), path + ": cannot read: Permission denied");
}

TEST_F(TextFile, ADashReadsStandardInputAndNamesIt) {
  ASSERT_NE(std::freopen(write("in.sched", "schedule v1\nkernel k a\n").c_str(), "rb", stdin), nullptr);
  std::cin.clear();
  Result<Schedule> s = read_schedule("-");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message(), "<stdin>:2:10: undeclared name `a`");
  EXPECT_EQ(source_name("-"), "<stdin>");
  EXPECT_EQ(source_name("a.sched"), "a.sched");
}

TEST_F(TextFile, StandardInputKeepsEveryByte) {
  const std::string bytes = std::string("\xef\xbb\xbf") + std::string(100000, 'x') + std::string("\0\r\n", 3);
  ASSERT_NE(std::freopen(write("bytes", bytes).c_str(), "rb", stdin), nullptr);
  std::cin.clear();
  Result<FileText> text = read_file("-");
  ASSERT_TRUE(text) << text.error().message();
  EXPECT_EQ(text->view(), bytes);
}

TEST_F(TextFile, ReadFileKeepsEveryByte) {
  const std::string bytes("a\0b\r\n", 5);
  Result<FileText> text = read_file(write("bytes", bytes));
  ASSERT_TRUE(text);
  EXPECT_EQ(text->view(), bytes);
}

TEST_F(TextFile, AFileIsReadWholeAtEverySizeAroundAPage) {
  // A regular file is mapped: its text ends where the file does, whether or
  // not that is the end of a page, and an empty file is an empty text.
  for (const std::size_t size : {0, 1, 4095, 4096, 4097, 8192, 100000}) {
    std::string bytes(size, 'x');
    for (std::size_t i = 0; i < size; i += 7) bytes[i] = static_cast<char>('a' + i % 26);
    Result<FileText> text = read_file(write("sized", bytes));
    ASSERT_TRUE(text) << text.error().message();
    EXPECT_EQ(text->view(), bytes) << size;
  }
}

TEST_F(TextFile, AFileOfWholePagesParsesInEachFormat) {
  // A text that ends at the end of a page has no byte after it to read: each
  // reader stops at the text's end. Each file is padded to 4096 bytes, then
  // to 8192, and ends without a line end.
  auto padded = [](std::string text, std::size_t size) {
    text += "#";
    text += std::string(size - text.size(), 'p');
    return text;
  };
  for (const std::size_t size : {4096, 8192}) {
    Result<Schedule> s = read_schedule(write("a.sched", padded(std::string(kSpecExample), size)));
    ASSERT_TRUE(s) << s.error().message();
    EXPECT_EQ(s->storage.size(), 6u);
    Result<Plan> p = read_plan(write("a.plan", padded("plan v1\narena a0 CPU 256\nplace t a0 0\n", size)));
    ASSERT_TRUE(p) << p.error().message();
    EXPECT_EQ(p->placements.size(), 1u);
    // A CSV has no comments: its one row's id fills the page.
    const std::string header = "id,lower,upper,size\n";
    const std::string row_end = ",0,1,8";
    Result<IntervalProblem> i =
        read_intervals(write("a.csv", header + std::string(size - header.size() - row_end.size(), 'z') + row_end));
    ASSERT_TRUE(i) << i.error().message();
    EXPECT_EQ(i->buffers.size(), 1u);
  }
}

}  // namespace
}  // namespace planck
