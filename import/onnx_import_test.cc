// The importer as a library: its text reads back as the schedule it
// printed, names map one to one, and no bytes make it fail other than with
// an error.

#include "import/onnx_import.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "model/file.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"

namespace planck::onnx_import {
namespace {

const std::filesystem::path kCorpus = std::filesystem::path(PLANCK_SOURCE_DIR) / "corpus" / "onnx";

Imported import_file(const std::string& name, const ImportOptions& options = {}) {
  Result<FileText> bytes = read_file((kCorpus / name).string());
  EXPECT_TRUE(bytes.ok()) << name;
  Result<Imported> imported = import_model(bytes->view(), options, name);
  EXPECT_TRUE(imported.ok()) << imported.error().message();
  return std::move(imported).value();
}

TEST(OnnxImport, TheTextWithItsCommentsReadsBackAsTheSchedule) {
  for (const char* name : {"names.onnx", "mlp.onnx", "loop.onnx", "if.onnx", "scan.onnx"}) {
    ImportOptions options;
    options.inplace = true;
    options.align = 16;
    const Imported imported = import_file(name, options);
    const std::string text = print_imported(imported);
    Result<Schedule> back = parse_schedule(text, name);
    ASSERT_TRUE(back.ok()) << back.error().message();
    EXPECT_EQ(print_schedule(*back), print_schedule(imported.schedule)) << name;
  }
}

TEST(OnnxImport, NamesMapOneToOneAndKeepTheOnnxNameInAComment) {
  const Imported imported = import_file("names.onnx");
  std::set<std::string> names;
  for (const Storage& s : imported.schedule.storage) EXPECT_TRUE(names.insert(s.name.str()).second) << s.name;
  ASSERT_EQ(imported.renamed.size(), 6u);
  const std::string text = print_imported(imported);
  EXPECT_NE(text.find("buffer a_b_2 CPU float32 32  # onnx: a/b\n"), std::string::npos) << text;
  EXPECT_NE(text.find("# onnx: caf\\xc3\\xa9\n"), std::string::npos) << text;
  // The same every run.
  EXPECT_EQ(print_imported(import_file("names.onnx")), text);
}

TEST(OnnxImport, BytesThatAreNoModelAreAnError) {
  for (std::string bytes : {std::string(), std::string("\x0a\xff\xff\xff\xff\x0f", 6), std::string("\x3a\x00", 2)}) {
    Result<Imported> imported = import_model(bytes, {}, "bytes");
    EXPECT_FALSE(imported.ok());
  }
}

TEST(OnnxImport, SizesAtOrAbove2To62AreAnError) {
  ImportOptions options;
  options.dims["batch"] = std::uint64_t{1} << 60;
  Result<FileText> bytes = read_file((kCorpus / "dims.onnx").string());
  ASSERT_TRUE(bytes.ok());
  Result<Imported> imported = import_model(bytes->view(), options, "dims.onnx");
  ASSERT_FALSE(imported.ok());
  EXPECT_NE(imported.error().message().find("2^62 bytes or more"), std::string::npos) << imported.error().message();
}

}  // namespace
}  // namespace planck::onnx_import

namespace planck::onnx_import {
namespace {

TEST(OnnxImport, TheManualListsEveryInPlaceOp) {
  for (const char* doc : {"docs/onnx.md"}) {
    Result<FileText> text = read_file((std::filesystem::path(PLANCK_SOURCE_DIR) / doc).string());
    ASSERT_TRUE(text.ok()) << doc;
    for (std::string_view op : inplace_ops()) {
      EXPECT_NE(text->view().find(op), std::string_view::npos) << doc << " does not name " << op;
    }
  }
}

}  // namespace
}  // namespace planck::onnx_import
