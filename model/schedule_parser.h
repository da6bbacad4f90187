#pragma once
// The token path of the .sched reader (docs/formats.md#schedules-sched): its
// tokens, its lexer and its recursive-descent parser, whose statements are
// defined in schedule_reader.cc (the grammar of model v1 and the entry
// points) and schedule_reader_v2v3.cc (the statements and words models v2 and
// v3 add). Internal to the .sched reader.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "model/line_parser.h"
#include "model/parse_state.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck::schedule_text {

// ---------------------------------------------------------------- tokens

// Words are as schedule_words.h says. Newlines are tokens because they end
// statements. Bad is a control byte, which no schedule may contain.
enum class Tok : std::uint8_t { Word, LParen, RParen, Comma, LBrace, RBrace, Equals, Newline, End, Bad };

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  SourcePos pos;
};

// Tokens with one of lookahead. A line ends at "\n" or "\r\n"; any other
// '\r' is a control byte.
class Lexer {
 public:
  explicit Lexer(Cursor& cursor) : cur_(cursor) {}

  const Token& peek() {
    if (!peeked_) {
      scan(next_);
      peeked_ = true;
    }
    return next_;
  }

  Token take() {
    Token t = peek();
    peeked_ = false;
    return t;
  }

  // Whether a token was read ahead: the cursor is past it.
  bool has_peeked() const { return peeked_; }

 private:
  // Reads the next token into t, field by field: a token returned whole
  // and copied into next_ was read back before its parts were written,
  // a stall on every token.
  void scan(Token& t);

  Cursor& cur_;
  Token next_;
  bool peeked_ = false;
};

// A token as a message names it: a word quoted and cut short, so that a
// megabyte-long token does not make a megabyte-long message.
std::string describe(const Token& t);

// The room to reserve for the statements of text (Expected, parse_state.h).
Expected expected_statements(std::string_view text);

// A recursive-descent parser over one token of lookahead, which reads each
// line the plain-line path leaves to it. Loops recurse, at most kMaxNesting
// deep; views are parsed with an explicit stack. Every statement starts with
// its keyword, and parse_statement dispatches on it.
class Parser : public LineParser {
 public:
  // Without `plain_lines`, every line is read token by token.
  Parser(std::string_view text, std::string_view file, Expected expected, bool plain_lines)
      : LineParser(text, file, expected), plain_lines_(plain_lines), lex_(cur_) {}

  Result<Schedule> run();

 private:
  // An error for a token that is not what the grammar wants here. A control
  // byte is never wanted, and is reported as itself.
  Error unexpected(const Token& t, std::string_view expected) const {
    if (t.kind == Tok::Bad) {
      return error_at(t.pos, fmt::format("{} is not allowed in a schedule", describe(t)));
    }
    return error_at(t.pos, fmt::format("expected {}, found {}", expected, describe(t)));
  }

  Result<Token> expect(Tok kind, std::string_view expected) {
    Token t = lex_.take();
    if (t.kind != kind) return unexpected(t, expected);
    return t;
  }

  bool at_statement_end() {
    Tok k = lex_.peek().kind;
    return k == Tok::Newline || k == Tok::RBrace || k == Tok::End;
  }

  // The next line by the plain-line path, where it is tried: only where no
  // token has been read ahead, as the path starts at the cursor.
  std::optional<Status> plain_line(std::vector<Entry>& out, int depth) {
    if (!plain_lines_ || lex_.has_peeked()) return std::nullopt;
    return parse_plain_line(out, depth);
  }

  Status parse_header();
  // `device NAME [align=A] [capacity=BYTES]` (v2), at the top level.
  Status parse_device(const Token& keyword);
  // `inplace=OUT:IN` after a kernel's arguments (v2), `word` its `inplace`;
  // the pair is checked against the arguments once they are all read.
  Status parse_inplace(const Token& word);
  // The in-place pairs of kernel e, read by parse_inplace, as storage.
  Status resolve_inplace(Entry& e);
  // Errors unless the file is v2 or later: `what` names the v2 feature.
  Status needs_v2(SourcePos pos, std::string_view what) const;
  // Errors unless the file is v3: `what` names the v3 feature.
  Status needs_v3(SourcePos pos, std::string_view what) const;
  // `stream=S` (v3) on an entry `depth` loops deep, `word` its `stream`.
  Status parse_stream(const Token& word, Entry& e, int depth);
  // `record E` or `wait E` (v3), then an optional `stream=S`.
  Status parse_event(const Token& keyword, Entry& e, int depth);
  // The rules of `local` (v3) that need every entry: each local buffer's
  // uses lie inside one top-level loop.
  Status check_local_scopes() const;
  Status parse_statement(std::vector<Entry>& out, int depth);
  Status parse_declaration(const Token& keyword, StorageKind kind);
  Status parse_options(Storage& st);
  Status parse_call(Entry& e, int depth);
  Status parse_loop(Entry& e, int depth);
  Status parse_body(const Token& open, std::vector<Entry>& body, int depth);
  Status end_statement();
  Result<Arg> parse_arg();
  // parse_arg with its first token taken already.
  Result<Arg> parse_arg_from(Token t);
  Status close_view(const Token& head, Arg& view, Bytes& size);
  // A word token that holds a decimal number, or a dtype's name.
  Result<Bytes> parse_number(std::string_view expected, std::string_view what);
  Result<Dtype> parse_dtype();

  bool plain_lines_;  // whether the plain-line path is tried
  int version_ = 1;   // the header's: 1, 2 or 3
  Lexer lex_;
  // The events recorded so far (v3), with the place of their `record`.
  std::unordered_map<std::string, SourcePos> recorded_;
  // The `inplace=OUT:IN` of the kernel being parsed: its two names, as read.
  std::vector<std::pair<Token, Token>> inplace_;
  Args args_;  // the arguments of the call being parsed
};

}  // namespace planck::schedule_text
