#include "model/intervals.h"

#include <climits>
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "model/lexical.h"

#include "model/text.h"

namespace planck {
namespace {

constexpr std::string_view kHeader = "id,lower,upper,size";

bool is_control(char c) {
  auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

struct Field {
  std::string_view text;
  int col = 0;  // 1-based
};


class CsvParser {
 public:
  CsvParser(std::string_view text, std::string_view file) : text_(text), file_(file) {
    problem_.source = std::string(file);
  }

  Result<IntervalProblem> run();

 private:
  Error error_at(int line, int col, std::string what) const {
    return Error{fmt::format("{}:{}:{}", file_, line, col), std::move(what)};
  }

  Status parse_row(std::string_view row, int line);
  Result<Bytes> parse_number(const Field& f, int line, std::string_view what) const;

  std::string_view text_;
  std::string_view file_;
  IntervalProblem problem_;
  std::unordered_map<std::string_view, int> id_lines_;  // views into text_
};

Result<IntervalProblem> CsvParser::run() {
  int line = 0;
  int first_blank = 0;  // the line of the first blank line seen, 0 if none
  std::size_t start = 0;
  while (start < text_.size()) {
    std::size_t end = text_.find('\n', start);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view row = text_.substr(start, end - start);
    start = end + 1;
    if (line < INT_MAX) ++line;
    if (row.ends_with('\r')) row.remove_suffix(1);

    if (line == 1) {
      if (row != kHeader) {
        return error_at(1, 1, fmt::format("expected the header `{}`, found {}", kHeader, quoted(row)));
      }
      continue;
    }
    // Blank lines are allowed at the end only: between rows they would
    // most likely mean a file was cut and pasted together wrongly.
    if (row.empty()) {
      if (first_blank == 0) first_blank = line;
      continue;
    }
    if (first_blank != 0) return error_at(first_blank, 1, "blank line between rows");
    if (Status s = parse_row(row, line); !s) return s.error();
  }
  if (line == 0) return error_at(1, 1, fmt::format("expected the header `{}`, found an empty file", kHeader));
  return std::move(problem_);
}

Status CsvParser::parse_row(std::string_view row, int line) {
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (is_control(row[i])) {
      return error_at(line, one_based(i),
                      fmt::format("control byte 0x{:02x} is not allowed in a CSV row",
                                  static_cast<unsigned char>(row[i])));
    }
  }
  std::vector<Field> fields;
  for (std::size_t start = 0;;) {
    const std::size_t comma = row.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? row.size() : comma;
    fields.push_back({row.substr(start, end - start), one_based(start)});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (fields.size() != 4) {
    const int col = fields.size() > 4 ? fields[4].col : one_based(row.size());
    return error_at(line, col, fmt::format("expected 4 fields ({}), found {}", kHeader, fields.size()));
  }

  Interval b;
  b.line = line;
  if (fields[0].text.empty()) return error_at(line, fields[0].col, "empty id");
  if (auto [it, inserted] = id_lines_.emplace(fields[0].text, line); !inserted) {
    return error_at(line, fields[0].col,
                    fmt::format("duplicate id {}, first on line {}", quoted(fields[0].text), it->second));
  }
  b.id = std::string(fields[0].text);

  Result<Bytes> lower = parse_number(fields[1], line, "lower");
  if (!lower) return lower.error();
  Result<Bytes> upper = parse_number(fields[2], line, "upper");
  if (!upper) return upper.error();
  if (*upper <= *lower) {
    return error_at(
        line, fields[2].col,
        fmt::format("upper {} is not above lower {}: the lifetime [lower, upper) is empty", *upper, *lower));
  }
  Result<Bytes> size = parse_number(fields[3], line, "size");
  if (!size) return size.error();

  // Both bounds are below 2^62, so they fit an int64.
  b.lower = static_cast<std::int64_t>(*lower);
  b.upper = static_cast<std::int64_t>(*upper);
  b.size = *size;
  problem_.buffers.push_back(std::move(b));
  return Ok{};
}

Result<Bytes> CsvParser::parse_number(const Field& f, int line, std::string_view what) const {
  const std::string_view t = f.text;
  if (t.size() > 1 && t.front() == '-' &&
      t.substr(1).find_first_not_of("0123456789") == std::string_view::npos) {
    return error_at(line, f.col, fmt::format("{} {} is negative", what, quoted(t)));
  }
  Result<Bytes> value = parse_decimal(t, what);
  if (!value) return error_at(line, f.col, value.error().what);
  return value;
}

}  // namespace

Result<IntervalProblem> parse_intervals(std::string_view text, std::string_view file) {
  return CsvParser(text, file).run();
}

Result<IntervalProblem> read_intervals(const std::string& path) {
  Result<std::string> text = read_file(path);
  if (!text) return text.error();
  return parse_intervals(*text, path);
}

std::string print_intervals(const IntervalProblem& p) {
  std::string out = fmt::format("{}\n", kHeader);
  for (const Interval& b : p.buffers) {
    fmt::format_to(std::back_inserter(out), "{},{},{},{}\n", b.id, b.lower, b.upper, b.size);
  }
  return out;
}

}  // namespace planck
