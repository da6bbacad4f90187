#include "tools/data_paths.h"

#include <system_error>

namespace planck::cli {

std::filesystem::path data_path(std::string_view relative) {
  namespace fs = std::filesystem;
  if (relative.starts_with("corpus/")) {
    std::error_code ec;
    const fs::path installed = fs::read_symlink("/proc/self/exe", ec).parent_path() / PLANCK_INSTALLED_DATA / relative;
    if (!ec && fs::exists(installed, ec)) return installed;
  }
  return fs::path(PLANCK_SOURCE_DIR) / relative;
}

}  // namespace planck::cli
