#include "model/plan.h"

#include <cassert>
#include <charconv>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "model/file.h"
#include "model/huge_pages.h"
#include "model/lexical.h"

namespace planck {
namespace {

// The words of one line: runs of bytes other than blanks, up to a '#'.
struct Statement {
  std::vector<Word> words;
  SourcePos end;  // where the line's content ends, for "missing word" errors
};

// What a statement's words after its keyword are called in messages.
struct FieldNames {
  std::string_view first, second, number;
  std::string_view number_in_message;  // as in "place `x` is not a decimal number"
  std::string_view form;               // the statement's words after the keyword
};

struct Fields {
  Word first, second;
  Bytes number = 0;
};

class PlanParser {
 public:
  PlanParser(std::string_view text, std::string_view file) : cur_(text, file) {
    plan_.source = std::string(file);
  }

  Result<Plan> run();

 private:
  Error error_at(SourcePos pos, std::string what) const { return cur_.error_at(pos, std::move(what)); }

  Result<Statement> split(const Line& line) const;
  // The word at `i` of a statement, or an error naming what the line lacks there.
  Result<Word> word(const Statement& st, std::size_t i, std::string_view what) const;
  Status end_of_line(const Statement& st, std::size_t count, std::string_view statement) const;
  Status parse_header(const Statement& st) const;
  Result<Fields> parse_fields(const Statement& st, const FieldNames& names) const;
  Status parse_arena(const Statement& st);
  Status parse_place(const Statement& st);

  Cursor cur_;
  Plan plan_;
};

Result<Plan> PlanParser::run() {
  bool seen_header = false;
  while (std::optional<Line> line = cur_.take_line()) {
    PLANCK_ASSIGN(const Statement st, split(*line));
    if (st.words.empty()) continue;
    if (!seen_header) {
      PLANCK_TRY(parse_header(st));
      seen_header = true;
      continue;
    }
    const Word& keyword = st.words.front();
    if (keyword.text != "arena" && keyword.text != "place") {
      return error_at(keyword.pos,
                      fmt::format("unknown statement {} (expected arena or place)", quoted(keyword.text)));
    }
    PLANCK_TRY(keyword.text == "arena" ? parse_arena(st) : parse_place(st));
  }
  // The file holds only blank lines and comments; point at its end.
  if (!seen_header) return error_at(cur_.pos(), "expected the header `plan v1`, found the end of the file");
  return std::move(plan_);
}

// Control bytes are refused in comments too: a plan file is text.
Result<Statement> PlanParser::split(const Line& line) const {
  const std::string_view text = line.text;
  if (std::size_t bad = find_control(text, true); bad != std::string_view::npos) {
    return error_at(line.at(bad), control_byte(text[bad]) + " is not allowed in a plan");
  }
  Statement st;
  std::size_t i = 0;
  while (i < text.size() && text[i] != '#') {
    if (is_blank(text[i])) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < text.size() && !is_blank(text[i]) && text[i] != '#') ++i;
    st.words.push_back({text.substr(start, i - start), line.at(start)});
  }
  st.end = line.at(i);
  return st;
}

Result<Word> PlanParser::word(const Statement& st, std::size_t i, std::string_view what) const {
  if (i < st.words.size()) return st.words[i];
  return error_at(st.end, fmt::format("expected {}, found the end of the line", what));
}

Status PlanParser::end_of_line(const Statement& st, std::size_t count, std::string_view statement) const {
  if (st.words.size() <= count) return Ok{};
  const Word& extra = st.words[count];
  return error_at(extra.pos, fmt::format("unexpected {} after {} (it takes {})", quoted(extra.text),
                                         st.words[0].text, statement));
}

Status PlanParser::parse_header(const Statement& st) const {
  const Word& first = st.words.front();
  if (first.text != "plan") {
    return error_at(first.pos, fmt::format("expected the header `plan v1`, found {}", quoted(first.text)));
  }
  PLANCK_ASSIGN(const Word version, word(st, 1, "the version `v1` after `plan`"));
  if (version.text != "v1") {
    return error_at(version.pos,
                    fmt::format("unsupported version {}, expected `plan v1`", quoted(version.text)));
  }
  return end_of_line(st, 2, "only the version");
}

// `arena NAME DEVICE SIZE` and `place BUFFER ARENA PLACE`: two words and a
// number after the keyword, and nothing else.
Result<Fields> PlanParser::parse_fields(const Statement& st, const FieldNames& names) const {
  Fields f;
  PLANCK_ASSIGN(f.first, word(st, 1, names.first));
  PLANCK_ASSIGN(f.second, word(st, 2, names.second));
  PLANCK_ASSIGN(const Word number, word(st, 3, names.number));
  PLANCK_ASSIGN(f.number, cur_.decimal(number, names.number_in_message));
  PLANCK_TRY(end_of_line(st, 4, names.form));
  return f;
}

Status PlanParser::parse_arena(const Statement& st) {
  PLANCK_ASSIGN(const Fields f,
                parse_fields(st, {"the arena's name", "the arena's device", "the arena's size in bytes",
                                  "arena size", "NAME DEVICE SIZE"}));
  plan_.arenas.push_back({Name(f.first.text), Name(f.second.text), f.number, st.words[0].pos});
  return Ok{};
}

Status PlanParser::parse_place(const Statement& st) {
  PLANCK_ASSIGN(const Fields f, parse_fields(st, {"the buffer's name", "the arena's name",
                                                  "the place in bytes", "place", "BUFFER ARENA PLACE"}));
  plan_.placements.push_back(
      {Name(f.first.text), Name(f.second.text), f.number, st.words[0].pos});
  return Ok{};
}

}  // namespace

bool is_plan_word(std::string_view word) {
  return !word.empty() && find_control(word, false) == std::string_view::npos &&
         word.find_first_of(" #") == std::string_view::npos;
}

Result<Plan> parse_plan(std::string_view text, std::string_view file) { return PlanParser(text, file).run(); }

Result<Plan> read_plan(const std::string& path) {
  PLANCK_ASSIGN(const FileText text, read_file(path));
  return parse_plan(text, source_name(path));
}

namespace {

// The number of decimal digits of n.
std::size_t decimal_digits(Bytes n) {
  std::size_t digits = 1;
  for (; n >= 10000; n /= 10000) digits += 4;
  return digits + (n >= 10) + (n >= 100) + (n >= 1000);
}

// Writes one line, "KEYWORD A B N", at `at` and returns its end. `at` has
// room for the line and for kInline + 1 bytes past it, which a name's copy
// may write (Name::copy_to).
char* put_line(char* at, std::string_view keyword, const Name& a, const Name& b, Bytes n) {
  std::memcpy(at, keyword.data(), keyword.size());
  at += keyword.size();
  *at++ = ' ';
  at = a.copy_to(at);
  *at++ = ' ';
  at = b.copy_to(at);
  *at++ = ' ';
  at = std::to_chars(at, at + decimal_digits(n), n).ptr;
  *at++ = '\n';
  return at;
}

}  // namespace

// Written line by line into a string sized once: a million placements print
// in a fraction of what formatting each line took.
std::string print_plan(const Plan& p) {
  constexpr std::string_view kHeader = "plan v1\n";
  // "arena" or "place", three blanks, the line end.
  constexpr std::size_t kFixed = 5 + 3 + 1;
  std::size_t size = kHeader.size();
  for (const Arena& a : p.arenas) size += kFixed + a.name.size() + a.device.size() + decimal_digits(a.size);
  for (const Placement& pl : p.placements) {
    size += kFixed + pl.buffer.size() + pl.arena.size() + decimal_digits(pl.place);
  }
  // Room past the text for the last name's copy (Name::copy_to).
  constexpr std::size_t kSlack = Name::kInline + 1;
  std::string out;
  out.reserve(size + kSlack);
  advise_huge_pages(out.data(), size + kSlack);
  out.resize(size + kSlack);
  char* at = out.data();
  std::memcpy(at, kHeader.data(), kHeader.size());
  at += kHeader.size();
  for (const Arena& a : p.arenas) at = put_line(at, "arena", a.name, a.device, a.size);
  for (const Placement& pl : p.placements) at = put_line(at, "place", pl.buffer, pl.arena, pl.place);
  assert(at == out.data() + size);
  out.resize(size);
  return out;
}

}  // namespace planck
