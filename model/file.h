#pragma once
// Input files, whole: what the three readers parse
// (docs/performance.md#how-the-hot-paths-are-built).

#include <cstddef>
#include <string>
#include <string_view>

#include "model/result.h"

namespace planck {

// The path that names standard input.
inline constexpr const char* kStandardInput = "-";

// The name of an input in messages: the path, or "<stdin>" for `-`.
std::string source_name(const std::string& path);

// The bytes of an input file. A regular file is mapped into memory, read
// only: its pages are the system's cache of the file, with nothing copied
// and no fresh page to zero, which for a text of many megabytes was most of
// the time spent reading it. Standard input, a pipe, or a file that cannot
// be mapped is read into memory instead. A file that another process cuts
// short while it is mapped ends this one (SIGBUS), as with any mapped input.
class FileText {
 public:
  FileText() = default;
  explicit FileText(std::string read) : read_(std::move(read)) {}
  FileText(FileText&& other) noexcept;
  FileText& operator=(FileText&& other) noexcept;
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;
  ~FileText();

  std::string_view view() const { return mapped_ ? std::string_view(mapped_, size_) : std::string_view(read_); }
  operator std::string_view() const { return view(); }  // NOLINT(google-explicit-constructor): the text is its bytes

 private:
  // A whole mapping of `size` bytes of a file.
  FileText(const char* mapped, std::size_t size) : mapped_(mapped), size_(size) {}
  void unmap();

  const char* mapped_ = nullptr;  // the mapping, if the file is mapped
  std::size_t size_ = 0;          // its bytes
  std::string read_;              // else the bytes read

  friend Result<FileText> read_file(const std::string& path);
};

// Every byte of a file, or of standard input for `-`, or an error naming it
// that says why it cannot be read: "PATH: cannot read: No such file or
// directory", "... Is a directory", "... Permission denied".
Result<FileText> read_file(const std::string& path);

}  // namespace planck
