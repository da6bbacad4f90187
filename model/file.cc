#include "model/file.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <istream>
#include <system_error>

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

Result<std::string> read_all(std::istream& in, const std::string& path) {
  std::string text;
  char chunk[1 << 16];
  errno = 0;
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) return cannot_read(path, stream_error());
  return text;
}

}  // namespace

std::string source_name(const std::string& path) { return path == kStandardInput ? "<stdin>" : path; }

Result<std::string> read_file(const std::string& path) {
  if (path == kStandardInput) return read_all(std::cin, path);
  std::error_code why;
  const std::filesystem::file_status status = std::filesystem::status(path, why);
  if (why) return cannot_read(path, why);
  // A directory opens as a stream on some systems, then fails to read with a
  // less clear reason.
  if (std::filesystem::is_directory(status)) {
    return cannot_read(path, std::make_error_code(std::errc::is_a_directory));
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return cannot_read(path, stream_error());
  return read_all(in, path);
}

}  // namespace planck
