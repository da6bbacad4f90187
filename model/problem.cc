#include "model/problem.h"

#include <utility>

#include "model/file.h"
#include "model/interval_schedule.h"
#include "model/lexical.h"
#include "model/schedule_reader.h"

namespace planck {

bool is_interval_text(std::string_view text, std::string_view file) {
  return file.ends_with(".csv") || skip_byte_order_mark(text).starts_with("id,");
}

Result<Problem> parse_problem(std::string_view text, std::string_view file) {
  if (is_interval_text(text, file)) {
    PLANCK_ASSIGN(IntervalProblem p, parse_intervals(text, file));
    return Problem(std::move(p));
  }
  PLANCK_ASSIGN(Schedule s, parse_schedule(text, file));
  return Problem(std::move(s));
}

Result<Problem> read_problem(const std::string& path) {
  PLANCK_ASSIGN(const FileText text, read_file(path));
  return parse_problem(text, source_name(path));
}

Result<Schedule> problem_schedule(Problem problem) {
  if (auto* p = std::get_if<IntervalProblem>(&problem)) return interval_schedule(*p);
  return std::get<Schedule>(std::move(problem));
}

}  // namespace planck
