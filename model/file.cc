#include "model/file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <istream>
#include <system_error>
#include <utility>

#include "model/huge_pages.h"

namespace planck {
namespace {

Error cannot_read(const std::string& path, std::error_code why) {
  return Error{source_name(path), "cannot read: " + why.message()};
}

// What the last failed call on a stream left in errno. The standard leaves
// it unspecified, though every library of note sets it; without one, the
// error says only that the stream failed.
std::error_code stream_error() {
  return errno != 0 ? std::error_code(errno, std::generic_category())
                    : std::make_error_code(std::io_errc::stream);
}

// `size` is what the file's size was when asked, 0 if unknown: so many bytes
// are read in one call, straight into the text, then the rest, if the file
// grew since, in chunks. Chunks alone would grow and move a large text many
// times over, which took most of the time spent reading it. A large text is
// on huge pages, which it fills with fewer faults.
Result<std::string> read_all(std::istream& in, const std::string& path, std::size_t size) {
  std::string text;
  text.reserve(size);
  advise_huge_pages(text.data(), size);
  text.resize(size);
  errno = 0;
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<std::size_t>(in.gcount()));
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) return cannot_read(path, stream_error());
  return text;
}

}  // namespace

std::string source_name(const std::string& path) { return path == kStandardInput ? "<stdin>" : path; }

FileText::FileText(FileText&& other) noexcept
    : mapped_(std::exchange(other.mapped_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      read_(std::move(other.read_)) {}

FileText& FileText::operator=(FileText&& other) noexcept {
  if (this != &other) {
    unmap();
    mapped_ = std::exchange(other.mapped_, nullptr);
    size_ = std::exchange(other.size_, 0);
    read_ = std::move(other.read_);
  }
  return *this;
}

FileText::~FileText() { unmap(); }

void FileText::unmap() {
  if (mapped_) ::munmap(const_cast<char*>(mapped_), size_);
  mapped_ = nullptr;
  size_ = 0;
}

namespace {

// The whole of the regular file open as `fd`, `size` bytes, mapped with its
// pages in place, or nothing when it cannot be mapped.
const char* map_whole(int fd, std::size_t size) {
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  return p == MAP_FAILED ? nullptr : static_cast<const char*>(p);
}

}  // namespace

Result<FileText> read_file(const std::string& path) {
  if (path == kStandardInput) {
    PLANCK_ASSIGN(std::string text, read_all(std::cin, path, 0));
    return FileText(std::move(text));
  }
  std::error_code why;
  const std::filesystem::file_status status = std::filesystem::status(path, why);
  if (why) return cannot_read(path, why);
  // A directory opens as a stream on some systems, then fails to read with a
  // less clear reason.
  if (std::filesystem::is_directory(status)) {
    return cannot_read(path, std::make_error_code(std::errc::is_a_directory));
  }
  if (std::filesystem::is_regular_file(status)) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return cannot_read(path, std::error_code(errno, std::generic_category()));
    struct stat st {};
    const char* mapped = nullptr;
    std::size_t size = 0;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      size = static_cast<std::size_t>(st.st_size);
      mapped = map_whole(fd, size);
    }
    ::close(fd);  // a mapping outlives its descriptor
    if (mapped) return FileText(mapped, size);
  }
  // A size that cannot be had is no error here: reading tells.
  const std::uintmax_t size = std::filesystem::is_regular_file(status) ? std::filesystem::file_size(path, why) : 0;
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return cannot_read(path, stream_error());
  PLANCK_ASSIGN(std::string text, read_all(in, path, why ? 0 : static_cast<std::size_t>(size)));
  return FileText(std::move(text));
}

}  // namespace planck
