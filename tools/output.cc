#include "tools/output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "tools/commands.h"

namespace planck::cli {

void print_out(std::string_view text) {
  const std::size_t written = std::fwrite(text.data(), 1, text.size(), stdout);
  if (written != text.size() || std::fflush(stdout) != 0) {
    throw Exit{kExitBadInput, std::string("standard output: cannot write: ") + std::strerror(errno)};
  }
}

void check_output_folder(const std::string& path) {
  if (path.empty() || path == "-") return;
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!folder.empty() && !std::filesystem::is_directory(folder, ec)) {
    throw Exit{kExitBadInput, path + ": cannot write: no folder " + folder.string()};
  }
}

void write_output(const std::string& path, std::string_view text) {
  if (path.empty() || path == "-") {
    print_out(text);
    return;
  }
  namespace fs = std::filesystem;
  const fs::path target(path);
  fs::path temp = target;
  temp += ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw Exit{kExitBadInput, path + ": cannot write: " + std::strerror(errno)};
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      const int saved = errno;
      std::error_code ignored;
      fs::remove(temp, ignored);
      throw Exit{kExitBadInput, path + ": cannot write: " + std::strerror(saved)};
    }
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw Exit{kExitBadInput, path + ": cannot write: " + ec.message()};
  }
}

}  // namespace planck::cli

namespace planck::cli {

void Report::write() const {
  if (json_path != "-") print_out(text);
  if (!json_path.empty()) write_output(json_path, object.dump(2) + "\n");
}

void add_json_option(CLI::App& cmd, std::string& path) {
  cmd.add_option("--json", path,
                 "also write the result as one JSON object to this file (the README lists its "
                 "fields); - puts it on standard output in place of the text");
}

}  // namespace planck::cli
