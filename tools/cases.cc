#include "tools/cases.h"

#include <string>

#include <fmt/format.h>

#include "draw/svg.h"
#include "model/features.h"
#include "oracle/check/checker.h"
#include "tools/output.h"

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
  // How many generated cases used each feature.
  nlohmann::ordered_json features = nlohmann::ordered_json::object();
  const auto switches = feature_switches();
  for (std::size_t k = 0; k < switches.size(); ++k) {
    features[std::string(switches[k].name)] = k < p.feature_cases.size() ? p.feature_cases[k] : 0;
  }
  object["generated_with_feature"] = std::move(features);
}

nlohmann::json verdict_json(const harness::Verdict& v) {
  return nlohmann::json{{"kind", v.kind}, {"explanation", v.explanation}};
}

std::string commented(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    out += "# " + text.substr(start, nl - start) + "\n";
    start = nl + 1;
  }
  return out;
}

std::pair<std::string, std::string> write_plan_and_picture(const std::string& base, const Schedule& s,
                                                           const Plan& plan) {
  const oracle::CheckReport found = oracle::check_plan(s, plan, oracle::kOverlapsListed);
  std::pair<std::string, std::string> paths{base + ".plan", base + ".svg"};
  write_output(paths.first, print_plan(plan));
  write_output(paths.second, draw::svg_picture(draw::make_picture(s, plan, found.violations, found.unlisted_overlaps)));
  return paths;
}

}  // namespace planck::cli
