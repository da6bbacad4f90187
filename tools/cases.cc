#include "tools/cases.h"

#include <fmt/format.h>

namespace planck::cli {

std::string cases_progress(const harness::Progress& p) {
  const double rate = p.seconds > 0 ? static_cast<double>(p.cases) / p.seconds : 0;
  return fmt::format("{} cases ({} files, {} generated), {:.0f}/s, largest {} entries and {} declarations", p.cases,
                     p.files, p.generated(), rate, p.largest_entries, p.largest_storage);
}

void add_cases_json(nlohmann::ordered_json& object, const harness::Progress& p) {
  object["cases"] = p.cases;
  object["files"] = p.files;
  object["skipped_files"] = p.skipped;
  object["generated"] = p.generated();
  object["largest_entries"] = p.largest_entries;
  object["largest_declarations"] = p.largest_storage;
}

}  // namespace planck::cli
