#pragma once
// A run of judged schedules (verify, gate, minimize): its progress line, its
// counts and verdicts in the command's report, the same for every command
// that judges (docs/verification.md#planck-verify).

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "harness/verify.h"
#include "model/plan.h"
#include "model/schedule.h"

namespace planck::cli {

// "340 cases (20 files, 320 generated), 150/s, largest 40 entries and 12 declarations"
std::string cases_progress(const harness::Progress& p);

// The counts as fields of a report: cases, files, skipped_files, generated,
// largest_entries, largest_declarations.
void add_cases_json(nlohmann::ordered_json& object, const harness::Progress& p);

// A verdict as a field of a report: {kind, explanation}.
nlohmann::json verdict_json(const harness::Verdict& v);

// Text as comments of a schedule: each line behind "# ".
std::string commented(const std::string& text);

// Writes BASE.plan, a failing plan of schedule s, and BASE.svg, its picture
// with the checker's violations marked (planck draw); returns their paths.
std::pair<std::string, std::string> write_plan_and_picture(const std::string& base, const Schedule& s,
                                                           const Plan& plan);

}  // namespace planck::cli
