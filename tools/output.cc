#include "tools/output.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "tools/commands.h"

namespace planck::cli {

void print_out(std::string_view text) {
  const std::size_t written = std::fwrite(text.data(), 1, text.size(), stdout);
  if (written != text.size() || std::fflush(stdout) != 0) {
    throw Exit{kExitBadInput, std::string("standard output: cannot write: ") + std::strerror(errno)};
  }
}

bool stdout_is_terminal() { return ::isatty(1) == 1; }

std::size_t output_width(std::size_t fallback) {
  if (!stdout_is_terminal()) return fallback;
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const unsigned long n = std::strtoul(columns, &end, 10);
    if (end != columns && *end == '\0' && n > 0 && n < 100000) return n;
  }
  winsize size{};
  if (::ioctl(1, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return fallback;
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
  // A device or a pipe (/dev/null, a FIFO) is written in place: renaming a
  // file onto it would replace it.
  std::error_code status_ec;
  const fs::file_status status = fs::status(target, status_ec);
  if (!status_ec && fs::exists(status) && !fs::is_regular_file(status)) {
    if (fs::is_directory(status)) throw Exit{kExitBadInput, path + ": cannot write: it is a folder"};
    std::ofstream out(target, std::ios::binary);
    if (out) out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (out) out.close();
    if (!out) throw Exit{kExitBadInput, path + ": cannot write: " + std::strerror(errno)};
    return;
  }
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

Report::Report(std::string command, std::string json_path)
    : command_(std::move(command)), json_path_(std::move(json_path)) {}

void Report::write() const {
  if (!json_on_stdout()) print_out(text);
  if (json_path_.empty()) return;
  nlohmann::ordered_json out{{"command", command_}};
  for (const auto& [key, value] : object.items()) {
    if (key != "command" && key != "seconds") out[key] = value;
  }
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  write_output(json_path_, out.dump(2) + "\n");
}

void Report::finish(int code) const {
  write();
  if (code != kExitOk) throw Exit{code, ""};
}

void check_json_beside_output(const std::string& command, const std::string& json_path,
                              const std::string& output, const std::string& what) {
  if (json_path == "-" && (output.empty() || output == "-")) {
    throw Exit{kExitBadInput, fmt::format("planck {}: --json - needs -o FILE for {}", command, what)};
  }
}

}  // namespace planck::cli
