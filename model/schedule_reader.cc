// The .sched reader: the token path, which reads every statement of the
// grammar, and the entry points. Most lines of a large schedule are read by
// the plain-line path instead (line_parser.h); the two share the schedule
// being made and its name lookups (parse_state.h) and the words of the
// format (schedule_words.h).

#include "model/schedule_reader.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "model/file.h"
#include "model/lexical.h"
#include "model/line_parser.h"
#include "model/parse_state.h"
#include "model/schedule_printer.h"
#include "model/schedule_words.h"

namespace planck {
namespace schedule_text {
namespace {

// ---------------------------------------------------------------- tokens

// Words are as schedule_words.h says. Newlines are tokens because they end
// statements. Bad is a control byte, which no schedule may contain.
enum class Tok : std::uint8_t { Word, LParen, RParen, Comma, LBrace, RBrace, Equals, Newline, End, Bad };

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  SourcePos pos;
};

bool is_not_blank(char c) { return !is_blank(c); }

// A comment runs to the line end; a control byte inside it ends it too, to be
// reported as itself.
bool ends_comment(char c) { return c == '\n' || (is_control(c) && c != '\t'); }

Tok punctuation(char c) {
  switch (c) {
    case '(': return Tok::LParen;
    case ')': return Tok::RParen;
    case ',': return Tok::Comma;
    case '{': return Tok::LBrace;
    case '}': return Tok::RBrace;
    case '=': return Tok::Equals;
    default: return Tok::Word;
  }
}

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

void Lexer::scan(Token& t) {
  for (;;) {
    t.pos = cur_.pos();
    if (cur_.at_end()) {
      t.kind = Tok::End;
      t.text = {};
      return;
    }
    const char c = cur_.peek();
    if (is_blank(c)) {
      cur_.take_until(is_not_blank);
      continue;
    }
    if (c == '#') {
      cur_.take_until(ends_comment);
      continue;
    }
    if (c == '\n' || c == '\r') {  // only these can start a line end
      if (std::string_view end = cur_.take_line_end(); !end.empty()) {
        t.kind = Tok::Newline;
        t.text = end;
        return;
      }
    }
    if (is_control(c)) {
      t.kind = Tok::Bad;
      t.text = cur_.take(1);
    } else if (Tok punct = punctuation(c); punct != Tok::Word) {
      t.kind = punct;
      t.text = cur_.take(1);
    } else {
      t.kind = Tok::Word;
      t.text = cur_.take_until(ends_word);
    }
    return;
  }
}

// Words echoed in messages are cut short, so that a megabyte-long token does
// not make a megabyte-long message.
std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::Newline: return "the end of the line";
    case Tok::End: return "the end of the file";
    case Tok::Bad: return control_byte(t.text.front());
    default: return quoted(t.text);
  }
}

// ---------------------------------------------------------------- parser

// The room to reserve for the statements of text (Expected, parse_state.h).
Expected expected_statements(std::string_view text) {
  Expected counts;
  // A line starts at the text's start and after each "\n" but a last one.
  const auto count_line = [&](std::size_t at) {
    if (at == text.size()) return;
    switch (text[at]) {
      case 'b': case 'a': case 'p': ++counts.storage; break;
      case 'k': case 'c': case 'r': case 'l': ++counts.entries; break;
      default: break;
    }
  };
  count_line(0);
  std::size_t i = 0;
#if defined(__SSE2__)
  // The "\n"s of 16 bytes at a time, from one compare: a call to memchr for
  // each line's end cost more than the compares of its line's bytes.
  for (; i + 16 <= text.size(); i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
    auto ends = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n'))));
    for (; ends != 0; ends &= ends - 1) count_line(i + static_cast<std::size_t>(std::countr_zero(ends)) + 1);
  }
#endif
  for (; i < text.size(); ++i) {
    if (text[i] == '\n') count_line(i + 1);
  }
  return counts;
}

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
  // Errors unless the file is v2: `what` names the v2 feature.
  Status needs_v2(SourcePos pos, std::string_view what) const;
  Status parse_statement(std::vector<Entry>& out, int depth);
  Status parse_declaration(const Token& keyword, StorageKind kind);
  Status parse_options(Storage& st);
  Status parse_call(Entry& e);
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
  int version_ = 1;   // the header's: 1 or 2
  Lexer lex_;
  // The `inplace=OUT:IN` of the kernel being parsed: its two names, as read.
  std::vector<std::pair<Token, Token>> inplace_;
  Args args_;  // the arguments of the call being parsed
};

Result<Schedule> Parser::run() {
  PLANCK_TRY(parse_header());
  for (;;) {
    if (std::optional<Status> s = plain_line(schedule_.entries, 0)) {
      if (!*s) return first_error(std::move(*s).error());
      continue;
    }
    const Token& t = lex_.peek();
    if (t.kind == Tok::End) break;
    if (t.kind == Tok::Newline) {
      lex_.take();
      continue;
    }
    if (Status s = parse_statement(schedule_.entries, 0); !s) return first_error(std::move(s).error());
  }
  PLANCK_TRY(settle(true));
  return std::move(schedule_);
}

Status Parser::parse_header() {
  constexpr std::string_view kHeader = "the header `schedule v1` or `schedule v2`";
  while (lex_.peek().kind == Tok::Newline) lex_.take();
  Token first = lex_.take();
  if (first.kind != Tok::Word || first.text != "schedule") return unexpected(first, kHeader);
  Token version = lex_.take();
  if (version.kind == Tok::Word && version.text != "v1" && version.text != "v2") {
    return error_at(version.pos, fmt::format("unsupported version {}, expected `schedule v1` or `schedule v2`",
                                             quoted(version.text)));
  }
  if (version.kind != Tok::Word) return unexpected(version, kHeader);
  version_ = version.text == "v2" ? 2 : 1;
  Token end = lex_.take();
  if (end.kind != Tok::Newline && end.kind != Tok::End) {
    return unexpected(end, fmt::format("the end of the line after `schedule {}`", version.text));
  }
  return Ok{};
}

Status Parser::needs_v2(SourcePos pos, std::string_view what) const {
  if (version_ >= 2) return Ok{};
  return error_at(pos, fmt::format("{} needs the header `schedule v2`", what));
}

Status Parser::parse_device(const Token& keyword) {
  PLANCK_TRY(needs_v2(keyword.pos, "a `device` line"));
  PLANCK_ASSIGN(const Token name, expect(Tok::Word, "a device name"));
  if (const Device* earlier = schedule_.find_device(name.text)) {
    return error_at(name.pos, fmt::format("device {} is given twice, first at {}:{}", quoted(name.text),
                                          earlier->pos.line, earlier->pos.col));
  }
  // Storage is declared before any entry, so the device's first use, if
  // any, is a declaration already read.
  for (const Storage& st : schedule_.storage) {
    if (st.device == name.text) {
      return error_at(name.pos, fmt::format("the `device` line of {} comes after its first use by {} `{}` at {}:{}",
                                            quoted(name.text), storage_kind_name(st.kind), st.name, st.pos.line,
                                            st.pos.col));
    }
  }
  Device d;
  d.name = name.text;
  d.pos = keyword.pos;
  bool seen_align = false;
  while (lex_.peek().kind == Tok::Word) {
    const Token option = lex_.take();
    const bool is_align = same_word(option.text, "align");
    if (!is_align && !same_word(option.text, "capacity")) {
      return error_at(option.pos, fmt::format("unknown option {} (a device takes `align=A` and `capacity=BYTES`)",
                                              quoted(option.text)));
    }
    if (is_align ? seen_align : d.capacity.has_value()) {
      return error_at(option.pos, fmt::format("`{}=` given twice", option.text));
    }
    PLANCK_TRY(expect(Tok::Equals, fmt::format("`=` after `{}`", option.text)));
    const SourcePos at = lex_.peek().pos;
    if (is_align) {
      seen_align = true;
      PLANCK_ASSIGN(d.align, parse_number("the alignment in bytes", "align"));
      if (d.align == 0 || (d.align & (d.align - 1)) != 0 || d.align > kMaxAlign) {
        return error_at(at, fmt::format("align={} is not a power of two from 1 to {}", d.align, kMaxAlign));
      }
    } else {
      PLANCK_ASSIGN(d.capacity, parse_number("the capacity in bytes", "capacity"));
    }
  }
  schedule_.devices.push_back(std::move(d));
  return end_statement();
}

Status Parser::parse_inplace(const Token& word) {
  PLANCK_TRY(needs_v2(word.pos, "`inplace=`"));
  constexpr std::string_view kPair = "`OUT:IN`, two storage names, after `inplace=`";
  PLANCK_TRY(expect(Tok::Equals, kPair));
  PLANCK_ASSIGN(const Token pair, expect(Tok::Word, kPair));
  const std::size_t colon = pair.text.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == pair.text.size() ||
      pair.text.find(':', colon + 1) != std::string_view::npos) {
    return error_at(pair.pos, fmt::format("expected {}, found {}", kPair, quoted(pair.text)));
  }
  Token out = pair;
  out.text = pair.text.substr(0, colon);
  Token in = pair;
  in.text = pair.text.substr(colon + 1);
  in.pos.col += static_cast<int>(colon + 1);
  inplace_.emplace_back(out, in);
  return Ok{};
}

Status Parser::resolve_inplace(Entry& e) {
  PLANCK_TRY(settle(true));
  std::vector<InPlace>& pairs = e.mutable_inplace();
  for (const auto& [out_name, in_name] : inplace_) {
    StorageId ids[2] = {0, 0};
    const Token* names[2] = {&out_name, &in_name};
    for (int k = 0; k < 2; ++k) {
      const Token& t = *names[k];
      const std::optional<std::size_t> id = names_.find(StorageIndex::key(t.text));
      if (!id) return error_at(t.pos, fmt::format("undeclared name {}", quoted(t.text)));
      ids[k] = static_cast<StorageId>(*id);
      bool plain = false;
      bool viewed = false;
      for (const Arg& a : e.args) {
        if (storage_of(a) != ids[k]) continue;
        (a.kind == Arg::Kind::Storage ? plain : viewed) = true;
      }
      if (!plain) {
        return error_at(t.pos, viewed ? fmt::format("kernel {} takes {} only through a view; `inplace=` names "
                                                    "storage the kernel takes as a plain argument",
                                                    e.name, quoted(t.text))
                                      : fmt::format("kernel {} does not take {}", e.name, quoted(t.text)));
      }
    }
    if (ids[0] == ids[1]) {
      return error_at(in_name.pos, fmt::format("`inplace=` names {} on both sides", quoted(in_name.text)));
    }
    pairs.push_back({ids[0], ids[1]});
  }
  return Ok{};
}

// `depth` is the number of loops around the statement.
Status Parser::parse_statement(std::vector<Entry>& out, int depth) {
  Token keyword = lex_.take();
  if (keyword.kind == Tok::RBrace) return error_at(keyword.pos, "`}` without a matching `{`");
  if (keyword.kind != Tok::Word) return unexpected(keyword, "a statement");
  const std::string_view k = keyword.text;

  const std::optional<StorageKind> storage = declaration_kind(k);
  if (storage) {
    if (depth > 0) {
      return error_at(
          keyword.pos,
          fmt::format("`{}` declares storage, which belongs at the top level, not inside a loop", k));
    }
    return parse_declaration(keyword, *storage);
  }

  if (same_word(k, "device")) {
    if (depth > 0) return error_at(keyword.pos, "`device` belongs at the top level, not inside a loop");
    return parse_device(keyword);
  }

  Entry e;
  e.pos = keyword.pos;
  if (same_word(k, "kernel") || same_word(k, "copy")) {
    e.kind = same_word(k, "kernel") ? Entry::Kind::Kernel : Entry::Kind::Copy;
    PLANCK_TRY(parse_call(e));
  } else if (same_word(k, "range") || same_word(k, "loop")) {
    if (depth >= kMaxNesting) {
      return error_at(keyword.pos, fmt::format("loops nested deeper than {}", kMaxNesting));
    }
    e.kind = same_word(k, "range") ? Entry::Kind::Range : Entry::Kind::Loop;
    PLANCK_TRY(parse_loop(e, depth + 1));
  } else {
    return error_at(
        keyword.pos,
        fmt::format("unknown statement {} (expected device, buffer, alloc, param, kernel, copy, range or loop)",
                    quoted(k)));
  }
  out.push_back(std::move(e));
  return end_statement();
}

Status Parser::parse_declaration(const Token& keyword, StorageKind kind) {
  PLANCK_ASSIGN(const Token name, expect(Tok::Word, "a storage name"));
  if (is_reserved(name.text)) {
    return error_at(name.pos,
                    fmt::format("{} is a reserved word and cannot name storage", quoted(name.text)));
  }
  if (!is_storage_name(name.text)) {
    return error_at(
        name.pos,
        fmt::format(
            "{} is not a valid storage name (letters, digits, `_` and `.`, starting with a letter or `_`)",
            quoted(name.text)));
  }
  // The storage is listed, and its name queued, once the name is read: an
  // error later in the line comes after that of the name (a duplicate), as
  // in the file. The rest of the line is read into the storage.
  Storage& st = schedule_.storage.emplace_back();
  st.kind = kind;
  st.pos = keyword.pos;
  st.name = name.text;
  const StorageIndex::Key key = StorageIndex::key(name.text);
  names_.prefetch(key);
  PLANCK_TRY(queue({.key = key}));

  PLANCK_ASSIGN(const Token device, expect(Tok::Word, "a device"));
  st.device = device.text;
  PLANCK_ASSIGN(st.dtype, parse_dtype());

  const SourcePos bytes_pos = lex_.peek().pos;
  PLANCK_ASSIGN(st.bytes, parse_number("a size in bytes", "size"));
  if (st.bytes % dtype_size(st.dtype) != 0) {
    return error_at(bytes_pos, fmt::format("size {} is not a multiple of {} bytes, the size of {}", st.bytes,
                                           dtype_size(st.dtype), dtype_name(st.dtype)));
  }

  PLANCK_TRY(parse_options(st));
  return end_statement();
}

// The io word of a buffer option (v2), or 0.
std::uint8_t io_bit(std::string_view word) {
  if (same_word(word, "input")) return kInput;
  if (same_word(word, "output")) return kOutput;
  if (same_word(word, "state")) return kState;
  return 0;
}

// `phase=P`, `held`, and in v2 `input`, `output` and `state`, each at most
// once, in any order, on a buffer only.
Status Parser::parse_options(Storage& st) {
  bool seen_phase = false;
  while (lex_.peek().kind == Tok::Word) {
    Token option = lex_.take();
    const bool is_phase = same_word(option.text, "phase");
    const bool is_held = same_word(option.text, "held");
    const std::uint8_t io = io_bit(option.text);
    if (!is_phase && !is_held && io == 0) {
      if (st.kind != StorageKind::Buffer) {
        return unexpected(option, fmt::format("the end of the line after the size of {} `{}`",
                                              storage_kind_name(st.kind), st.name));
      }
      return error_at(option.pos,
                      fmt::format("unknown option {} (a buffer takes `phase=P`, `held`, and in v2 `input`, "
                                  "`output` and `state`)",
                                  quoted(option.text)));
    }
    if (st.kind != StorageKind::Buffer) {
      return error_at(option.pos, fmt::format("`{}` applies to a buffer only, not to {} `{}`", option.text,
                                              storage_kind_name(st.kind), st.name));
    }
    if (is_held) {
      if (st.held) return error_at(option.pos, "`held` given twice");
      st.held = true;
      continue;
    }
    if (io != 0) {
      PLANCK_TRY(needs_v2(option.pos, fmt::format("`{}`", option.text)));
      if ((st.io & io) != 0) return error_at(option.pos, fmt::format("`{}` given twice", option.text));
      st.io |= io;
      continue;
    }
    if (seen_phase) return error_at(option.pos, "`phase=` given twice");
    seen_phase = true;
    PLANCK_TRY(expect(Tok::Equals, "`=` after `phase`"));
    PLANCK_ASSIGN(st.phase, parse_number("the phase in bytes", "phase"));
  }
  return Ok{};
}

Status Parser::parse_call(Entry& e) {
  if (e.kind == Entry::Kind::Kernel) {
    PLANCK_ASSIGN(const Token name, expect(Tok::Word, "a kernel name"));
    e.name = name.text;
  }
  // The arguments gather in args_, so that each call's list is allocated
  // once, at its size.
  args_.clear();
  inplace_.clear();
  while (!at_statement_end()) {
    // `inplace=` ends a kernel's arguments; `inplace` without `=` names storage.
    const Token& next = lex_.peek();
    if (e.kind == Entry::Kind::Kernel && next.kind == Tok::Word && same_word(next.text, "inplace")) {
      Token word = lex_.take();
      if (lex_.peek().kind == Tok::Equals) {
        PLANCK_TRY(parse_inplace(word));
        continue;
      }
      if (!inplace_.empty()) return unexpected(word, "`inplace=` or the end of the statement");
      PLANCK_ASSIGN(Arg arg, parse_arg_from(std::move(word)));
      args_.push_back(std::move(arg));
      continue;
    }
    if (!inplace_.empty()) return unexpected(next, "`inplace=` or the end of the statement");
    if (e.kind == Entry::Kind::Copy && args_.size() == 2) {
      return error_at(lex_.peek().pos,
                      "copy takes exactly 2 arguments (destination, source); this is a third");
    }
    PLANCK_ASSIGN(Arg arg, parse_arg());
    args_.push_back(std::move(arg));
  }
  e.args.assign(std::make_move_iterator(args_.begin()), std::make_move_iterator(args_.end()));
  PLANCK_TRY(queue_waiting(e.args));
  if (!inplace_.empty()) PLANCK_TRY(resolve_inplace(e));
  if (e.kind == Entry::Kind::Copy && e.args.size() != 2) {
    return error_at(
        e.pos, fmt::format("copy takes exactly 2 arguments (destination, source), found {}", e.args.size()));
  }
  return Ok{};
}

// `range {` or `loop flag=ARG {`, then the body; `depth` counts this loop.
Status Parser::parse_loop(Entry& e, int depth) {
  if (e.kind == Entry::Kind::Loop) {
    constexpr std::string_view kFlag = "`flag=ARG` after `loop`";
    Token flag = lex_.take();
    if (flag.kind != Tok::Word || flag.text != "flag") return unexpected(flag, kFlag);
    PLANCK_TRY(expect(Tok::Equals, kFlag));
    PLANCK_ASSIGN(Arg arg, parse_arg());
    e.mutable_flag().push_back(std::move(arg));
    PLANCK_TRY(queue_waiting(e.mutable_flag()));
  }
  PLANCK_ASSIGN(const Token open, expect(Tok::LBrace, "`{` to open the loop body"));
  return parse_body(open, e.mutable_body(), depth);
}

Status Parser::parse_body(const Token& open, std::vector<Entry>& body, int depth) {
  for (;;) {
    if (std::optional<Status> s = plain_line(body, depth)) {
      PLANCK_TRY(std::move(*s));
      continue;
    }
    const Token& t = lex_.peek();
    if (t.kind == Tok::Newline) {
      lex_.take();
    } else if (t.kind == Tok::RBrace) {
      lex_.take();
      return Ok{};
    } else if (t.kind == Tok::End) {
      return error_at(open.pos, "`{` is never closed");
    } else {
      PLANCK_TRY(parse_statement(body, depth));
    }
  }
}

// A statement ends at a newline, before a `}` that closes its loop, or at the
// end of the file.
Status Parser::end_statement() {
  const Token& t = lex_.peek();
  if (t.kind == Tok::Newline) {
    lex_.take();
    return Ok{};
  }
  if (t.kind == Tok::RBrace || t.kind == Tok::End) return Ok{};
  return unexpected(t, "the end of the statement");
}

// An argument is zero or more view heads (`shrink(`, `bitcast(`, `after(`),
// a storage name, then the tails of the views, innermost first. The heads go
// on a stack, so nesting costs no recursion.
Result<Arg> Parser::parse_arg() { return parse_arg_from(lex_.take()); }

Result<Arg> Parser::parse_arg_from(Token t) {
  std::vector<std::pair<Token, Arg::Kind>> heads;
  while (t.kind == Tok::Word) {
    std::optional<Arg::Kind> kind = view_kind(t.text);
    if (!kind) break;
    if (heads.size() == static_cast<std::size_t>(kMaxNesting)) {
      return error_at(t.pos, fmt::format("views nested deeper than {}", kMaxNesting));
    }
    PLANCK_TRY(expect(Tok::LParen, fmt::format("`(` after `{}`", t.text)));
    heads.emplace_back(t, *kind);
    t = lex_.take();
  }
  if (t.kind != Tok::Word) return unexpected(t, heads.empty() ? "an argument" : "the argument of the view");
  Arg arg;
  arg.kind = Arg::Kind::Storage;
  const StorageIndex::Key key = StorageIndex::key(t.text);
  if (heads.empty()) {
    // Its storage is looked up once the argument has its place.
    wait_for(key);
    return arg;
  }
  // A view's bounds are checked against its base's size as it closes, so
  // its storage is looked up now, after every earlier name.
  PLANCK_TRY(settle(true));
  const std::optional<std::size_t> id = names_.find(key);
  if (!id) return undeclared(t.text);
  arg.storage = static_cast<StorageId>(*id);
  Bytes size = schedule_.storage[*id].bytes;
  while (!heads.empty()) {
    const auto [head, kind] = heads.back();
    heads.pop_back();
    Arg view = make_view(kind, std::move(arg));
    PLANCK_TRY(close_view(head, view, size));
    arg = std::move(view);
  }
  return arg;
}

// Reads the rest of a view after its base, e.g. `, 0, 1024)`, and checks it
// against `size`, the bytes of the base, which it then replaces with the view's.
Status Parser::close_view(const Token& head, Arg& view, Bytes& size) {
  const std::string close = fmt::format("`)` to close `{}(`", head.text);
  if (view.kind == Arg::Kind::Shrink) {
    Bytes* fields[] = {&view.view->start, &view.view->length};
    constexpr std::string_view kWhat[] = {"shrink start", "shrink length"};
    for (int i = 0; i < 2; ++i) {
      PLANCK_TRY(expect(Tok::Comma, fmt::format("`,` before the {}", kWhat[i])));
      PLANCK_ASSIGN(*fields[i], parse_number(fmt::format("the {}", kWhat[i]), kWhat[i]));
    }
    PLANCK_TRY(expect(Tok::RParen, close));
    // Both are below 2^62, so the sum does not wrap.
    const Bytes start = view.view->start;
    const Bytes length = view.view->length;
    if (start + length > size) {
      return error_at(head.pos, fmt::format("{} reaches byte {} of a {}-byte base",
                                            print_arg(schedule_, view), start + length, size));
    }
    size = length;
    return Ok{};
  }
  if (view.kind == Arg::Kind::Bitcast) {
    PLANCK_TRY(expect(Tok::Comma, "`,` before the dtype"));
    PLANCK_ASSIGN(view.dtype, parse_dtype());
    PLANCK_TRY(expect(Tok::RParen, close));
    if (size % dtype_size(view.dtype) != 0) {
      return error_at(head.pos,
                      fmt::format("{} views {} bytes, which is not a multiple of {}, the size of {}",
                                  print_arg(schedule_, view), size, dtype_size(view.dtype),
                                  dtype_name(view.dtype)));
    }
    return Ok{};
  }
  // after(ARG): the same bytes, ordered after earlier work.
  PLANCK_TRY(expect(Tok::RParen, close));
  return Ok{};
}

Result<Bytes> Parser::parse_number(std::string_view expected, std::string_view what) {
  PLANCK_ASSIGN(const Token t, expect(Tok::Word, expected));
  return cur_.decimal({t.text, t.pos}, what);
}

Result<Dtype> Parser::parse_dtype() {
  PLANCK_ASSIGN(const Token t, expect(Tok::Word, "a dtype"));
  if (std::optional<Dtype> d = dtype_from_name(t.text)) return *d;
  return error_at(
      t.pos,
      fmt::format("unknown dtype {} (expected bool, int8, uint8, int16, uint16, float16, bfloat16, int32, "
                  "uint32, float32, int64, uint64 or float64)",
                  quoted(t.text)));
}

}  // namespace
}  // namespace schedule_text

Result<Schedule> parse_schedule(std::string_view text, std::string_view file) {
  return schedule_text::Parser(text, file, schedule_text::expected_statements(text), true).run();
}

Result<Schedule> parse_schedule_by_tokens(std::string_view text, std::string_view file) {
  return schedule_text::Parser(text, file, schedule_text::expected_statements(text), false).run();
}

Result<Schedule> read_schedule(const std::string& path) {
  PLANCK_ASSIGN(const FileText text, read_file(path));
  return parse_schedule(text, source_name(path));
}

}  // namespace planck
