#include "model/file.h"

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <istream>
#include <system_error>

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

Result<std::string> read_file(const std::string& path) {
  if (path == kStandardInput) return read_all(std::cin, path, 0);
  std::error_code why;
  const std::filesystem::file_status status = std::filesystem::status(path, why);
  if (why) return cannot_read(path, why);
  // A directory opens as a stream on some systems, then fails to read with a
  // less clear reason.
  if (std::filesystem::is_directory(status)) {
    return cannot_read(path, std::make_error_code(std::errc::is_a_directory));
  }
  // A size that cannot be had is no error here: reading tells.
  const std::uintmax_t size = std::filesystem::is_regular_file(status) ? std::filesystem::file_size(path, why) : 0;
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return cannot_read(path, stream_error());
  return read_all(in, path, why ? 0 : static_cast<std::size_t>(size));
}

}  // namespace planck
