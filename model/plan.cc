#include "model/plan.h"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "model/lexical.h"

#include "model/text.h"

namespace planck {
namespace {

bool is_control(char c) {
  auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && u != '\t') || u == 0x7f;
}

struct Word {
  std::string_view text;
  int col = 0;  // 1-based
};

// The words of one line: runs of bytes other than space and tab, up to a '#'.
struct Line {
  int number = 0;
  std::vector<Word> words;
  int end_col = 0;  // where the line's content ends, for "missing word" errors
};

class PlanParser {
 public:
  PlanParser(std::string_view text, std::string_view file) : text_(text), file_(file) {
    plan_.source = std::string(file);
  }

  Result<Plan> run();

 private:
  Error error_at(int line, int col, std::string what) const {
    return Error{fmt::format("{}:{}:{}", file_, line, col), std::move(what)};
  }

  Status split(std::string_view row, Line& line) const;
  // The word at `i` of a line, or an error naming what the line lacks there.
  Result<Word> word(const Line& line, std::size_t i, std::string_view what) const;
  Status end_of_line(const Line& line, std::size_t count, std::string_view statement) const;
  Status parse_header(const Line& line) const;
  Status parse_arena(const Line& line);
  Status parse_place(const Line& line);
  Result<Bytes> parse_number(const Word& w, int line, std::string_view what) const;

  std::string_view text_;
  std::string_view file_;
  Plan plan_;
};

Result<Plan> PlanParser::run() {
  bool seen_header = false;
  int number = 0;
  std::size_t start = 0;
  while (start < text_.size()) {
    std::size_t end = text_.find('\n', start);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view row = text_.substr(start, end - start);
    start = end + 1;
    if (number < INT_MAX) ++number;
    if (row.ends_with('\r')) row.remove_suffix(1);

    Line line;
    line.number = number;
    if (Status s = split(row, line); !s) return s.error();
    if (line.words.empty()) continue;
    if (!seen_header) {
      if (Status s = parse_header(line); !s) return s.error();
      seen_header = true;
      continue;
    }
    const std::string_view keyword = line.words.front().text;
    if (keyword != "arena" && keyword != "place") {
      return error_at(number, line.words.front().col,
                      fmt::format("unknown statement {} (expected arena or place)", quoted(keyword)));
    }
    if (Status s = keyword == "arena" ? parse_arena(line) : parse_place(line); !s) return s.error();
  }
  if (!seen_header) {
    // The file holds only blank lines and comments; point at its end.
    const std::size_t newlines = static_cast<std::size_t>(std::count(text_.begin(), text_.end(), '\n'));
    const std::size_t last_line = text_.rfind('\n') == std::string_view::npos ? 0 : text_.rfind('\n') + 1;
    return error_at(one_based(newlines), one_based(text_.size() - last_line),
                    "expected the header `plan v1`, found the end of the file");
  }
  return std::move(plan_);
}

Status PlanParser::split(std::string_view row, Line& line) const {
  std::size_t i = 0;
  while (i < row.size() && row[i] != '#') {
    if (row[i] == ' ' || row[i] == '\t') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < row.size() && row[i] != ' ' && row[i] != '\t' && row[i] != '#' && !is_control(row[i])) ++i;
    if (i > start) line.words.push_back({row.substr(start, i - start), one_based(start)});
    if (i < row.size() && is_control(row[i])) break;
  }
  line.end_col = one_based(i);
  // Control bytes are refused in comments too: a plan file is text.
  for (; i < row.size(); ++i) {
    if (is_control(row[i])) {
      return error_at(
          line.number, one_based(i),
          fmt::format("control byte 0x{:02x} is not allowed in a plan", static_cast<unsigned char>(row[i])));
    }
  }
  return Ok{};
}

Result<Word> PlanParser::word(const Line& line, std::size_t i, std::string_view what) const {
  if (i < line.words.size()) return line.words[i];
  return error_at(line.number, line.end_col, fmt::format("expected {}, found the end of the line", what));
}

Status PlanParser::end_of_line(const Line& line, std::size_t count, std::string_view statement) const {
  if (line.words.size() <= count) return Ok{};
  const Word& extra = line.words[count];
  return error_at(
      line.number, extra.col,
      fmt::format("unexpected {} after {} (it takes {})", quoted(extra.text), line.words[0].text, statement));
}

Status PlanParser::parse_header(const Line& line) const {
  const Word& first = line.words.front();
  if (first.text != "plan") {
    return error_at(line.number, first.col,
                    fmt::format("expected the header `plan v1`, found {}", quoted(first.text)));
  }
  Result<Word> version = word(line, 1, "the version `v1` after `plan`");
  if (!version) return version.error();
  if (version->text != "v1") {
    return error_at(line.number, version->col,
                    fmt::format("unsupported version {}, expected `plan v1`", quoted(version->text)));
  }
  return end_of_line(line, 2, "only the version");
}

Status PlanParser::parse_arena(const Line& line) {
  constexpr std::string_view kForm = "NAME DEVICE SIZE";
  Result<Word> name = word(line, 1, "the arena's name");
  if (!name) return name.error();
  Result<Word> device = word(line, 2, "the arena's device");
  if (!device) return device.error();
  Result<Word> size_word = word(line, 3, "the arena's size in bytes");
  if (!size_word) return size_word.error();
  Result<Bytes> size = parse_number(*size_word, line.number, "arena size");
  if (!size) return size.error();
  if (Status s = end_of_line(line, 4, kForm); !s) return s;
  plan_.arenas.push_back(
      {std::string(name->text), std::string(device->text), *size, SourcePos{line.number, line.words[0].col}});
  return Ok{};
}

Status PlanParser::parse_place(const Line& line) {
  constexpr std::string_view kForm = "BUFFER ARENA PLACE";
  Result<Word> buffer = word(line, 1, "the buffer's name");
  if (!buffer) return buffer.error();
  Result<Word> arena = word(line, 2, "the arena's name");
  if (!arena) return arena.error();
  Result<Word> place_word = word(line, 3, "the place in bytes");
  if (!place_word) return place_word.error();
  Result<Bytes> place = parse_number(*place_word, line.number, "place");
  if (!place) return place.error();
  if (Status s = end_of_line(line, 4, kForm); !s) return s;
  plan_.placements.push_back({std::string(buffer->text), std::string(arena->text), *place,
                              SourcePos{line.number, line.words[0].col}});
  return Ok{};
}

Result<Bytes> PlanParser::parse_number(const Word& w, int line, std::string_view what) const {
  Result<Bytes> value = parse_decimal(w.text, what);
  if (!value) return error_at(line, w.col, value.error().what);
  return value;
}

}  // namespace

Result<Plan> parse_plan(std::string_view text, std::string_view file) { return PlanParser(text, file).run(); }

Result<Plan> read_plan(const std::string& path) {
  Result<std::string> text = read_file(path);
  if (!text) return text.error();
  return parse_plan(*text, path);
}

std::string print_plan(const Plan& p) {
  std::string out = "plan v1\n";
  for (const Arena& a : p.arenas)
    fmt::format_to(std::back_inserter(out), "arena {} {} {}\n", a.name, a.device, a.size);
  for (const Placement& pl : p.placements) {
    fmt::format_to(std::back_inserter(out), "place {} {} {}\n", pl.buffer, pl.arena, pl.place);
  }
  return out;
}

}  // namespace planck
