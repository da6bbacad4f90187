#include "model/intervals.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "model/file.h"
#include "model/lexical.h"

namespace planck {
namespace {

constexpr std::string_view kHeader = "id,lower,upper,size";

class CsvParser {
 public:
  CsvParser(std::string_view text, std::string_view file) : cur_(text, file), problem_{.source = std::string(file)} {}

  Result<IntervalProblem> run();

 private:
  Status parse_row(const Line& row);
  Result<Bytes> parse_number(const Word& field, std::string_view what) const;

  Cursor cur_;
  IntervalProblem problem_;
  std::unordered_map<std::string_view, int> id_lines_;  // views into the text
};

Result<IntervalProblem> CsvParser::run() {
  const std::optional<Line> header = cur_.take_line();
  if (!header) return cur_.error_at({1, 1}, fmt::format("expected the header `{}`, found an empty file", kHeader));
  if (header->text != kHeader) {
    return cur_.error_at(header->at(0),
                         fmt::format("expected the header `{}`, found {}", kHeader, quoted(header->text)));
  }
  int first_blank = 0;  // the line of the first blank line seen, 0 if none
  while (std::optional<Line> row = cur_.take_line()) {
    // Blank lines are allowed at the end only: between rows they would
    // most likely mean a file was cut and pasted together wrongly.
    if (row->text.empty()) {
      if (first_blank == 0) first_blank = row->number;
      continue;
    }
    if (first_blank != 0) return cur_.error_at({first_blank, 1}, "blank line between rows");
    PLANCK_TRY(parse_row(*row));
  }
  return std::move(problem_);
}

// A CSV has no blanks: fields are taken as they are, so a tab is refused as
// a control byte like any other.
Status CsvParser::parse_row(const Line& row) {
  const std::string_view text = row.text;
  if (std::size_t bad = find_control(text, false); bad != std::string_view::npos) {
    return cur_.error_at(row.at(bad), control_byte(text[bad]) + " is not allowed in a CSV row");
  }
  std::vector<Word> fields;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? text.size() : comma;
    fields.push_back({text.substr(start, end - start), row.at(start)});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (fields.size() != 4) {
    const SourcePos pos = fields.size() > 4 ? fields[4].pos : row.at(text.size());
    return cur_.error_at(pos, fmt::format("expected 4 fields ({}), found {}", kHeader, fields.size()));
  }

  const Word& id = fields[0];
  if (id.text.empty()) return cur_.error_at(id.pos, "empty id");
  if (auto [it, inserted] = id_lines_.emplace(id.text, row.number); !inserted) {
    return cur_.error_at(id.pos, fmt::format("duplicate id {}, first on line {}", quoted(id.text), it->second));
  }
  PLANCK_ASSIGN(const Bytes lower, parse_number(fields[1], "lower"));
  PLANCK_ASSIGN(const Bytes upper, parse_number(fields[2], "upper"));
  if (upper <= lower) {
    return cur_.error_at(
        fields[2].pos,
        fmt::format("upper {} is not above lower {}: the lifetime [lower, upper) is empty", upper, lower));
  }
  PLANCK_ASSIGN(const Bytes size, parse_number(fields[3], "size"));

  // Both bounds are below 2^62, so they fit an int64.
  problem_.buffers.push_back({.id = std::string(id.text),
                              .lower = static_cast<std::int64_t>(lower),
                              .upper = static_cast<std::int64_t>(upper),
                              .size = size,
                              .line = row.number});
  return Ok{};
}

Result<Bytes> CsvParser::parse_number(const Word& field, std::string_view what) const {
  const std::string_view t = field.text;
  if (t.size() > 1 && t.front() == '-' &&
      t.substr(1).find_first_not_of("0123456789") == std::string_view::npos) {
    return cur_.error_at(field.pos, fmt::format("{} {} is negative", what, quoted(t)));
  }
  return cur_.decimal(field, what);
}

}  // namespace

Result<IntervalProblem> parse_intervals(std::string_view text, std::string_view file) {
  return CsvParser(text, file).run();
}

Result<IntervalProblem> read_intervals(const std::string& path) {
  PLANCK_ASSIGN(const FileText text, read_file(path));
  return parse_intervals(text, source_name(path));
}

std::string print_intervals(const IntervalProblem& p) {
  std::string out = fmt::format("{}\n", kHeader);
  for (const Interval& b : p.buffers) {
    fmt::format_to(std::back_inserter(out), "{},{},{},{}\n", b.id, b.lower, b.upper, b.size);
  }
  return out;
}

}  // namespace planck
