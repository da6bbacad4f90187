// The .sched reader: the statements of model v1 on the token path
// (schedule_parser.h), and the entry points. Most lines of a large schedule are read by
// the plain-line path instead (line_parser.h); the two share the schedule
// being made and its name lookups (parse_state.h) and the words of the
// format (schedule_words.h).

#include "model/schedule_reader.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "model/file.h"
#include "model/lexical.h"
#include "model/schedule_parser.h"
#include "model/schedule_printer.h"
#include "model/schedule_words.h"

namespace planck {
namespace schedule_text {

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
  if (version_ >= 3) PLANCK_TRY(check_local_scopes());
  return std::move(schedule_);
}

Status Parser::parse_header() {
  constexpr std::string_view kHeader = "the header `schedule v1`, `schedule v2` or `schedule v3`";
  while (lex_.peek().kind == Tok::Newline) lex_.take();
  Token first = lex_.take();
  if (first.kind != Tok::Word || first.text != "schedule") return unexpected(first, kHeader);
  Token version = lex_.take();
  if (version.kind == Tok::Word && version.text != "v1" && version.text != "v2" && version.text != "v3") {
    return error_at(version.pos,
                    fmt::format("unsupported version {}, expected `schedule v1`, `schedule v2` or `schedule v3`",
                                quoted(version.text)));
  }
  if (version.kind != Tok::Word) return unexpected(version, kHeader);
  version_ = version.text == "v3" ? 3 : version.text == "v2" ? 2 : 1;
  Token end = lex_.take();
  if (end.kind != Tok::Newline && end.kind != Tok::End) {
    return unexpected(end, fmt::format("the end of the line after `schedule {}`", version.text));
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
    PLANCK_TRY(parse_call(e, depth));
  } else if (same_word(k, "record") || same_word(k, "wait")) {
    e.kind = same_word(k, "record") ? Entry::Kind::Record : Entry::Kind::Wait;
    PLANCK_TRY(parse_event(keyword, e, depth));
  } else if (same_word(k, "range") || same_word(k, "loop")) {
    if (depth >= kMaxNesting) {
      return error_at(keyword.pos, fmt::format("loops nested deeper than {}", kMaxNesting));
    }
    e.kind = same_word(k, "range") ? Entry::Kind::Range : Entry::Kind::Loop;
    PLANCK_TRY(parse_loop(e, depth + 1));
  } else {
    return error_at(
        keyword.pos,
        fmt::format("unknown statement {} (expected device, buffer, alloc, param, kernel, copy, range, loop, "
                    "record or wait)",
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

namespace {

// The io word of a buffer option (v2), or 0.
std::uint8_t io_bit(std::string_view word) {
  if (same_word(word, "input")) return kInput;
  if (same_word(word, "output")) return kOutput;
  if (same_word(word, "state")) return kState;
  return 0;
}

}  // namespace

// `phase=P`, `held`, in v2 `input`, `output` and `state`, and in v3
// `local`, each at most once, in any order, on a buffer only; `local` with
// none of `held`, `input`, `output` and `state`.
Status Parser::parse_options(Storage& st) {
  bool seen_phase = false;
  std::string_view lives_on;  // a word that `local` may not stand with
  while (lex_.peek().kind == Tok::Word) {
    Token option = lex_.take();
    const bool is_phase = same_word(option.text, "phase");
    const bool is_held = same_word(option.text, "held");
    const bool is_local = same_word(option.text, "local");
    const std::uint8_t io = io_bit(option.text);
    if (!is_phase && !is_held && !is_local && io == 0) {
      if (st.kind != StorageKind::Buffer) {
        return unexpected(option, fmt::format("the end of the line after the size of {} `{}`",
                                              storage_kind_name(st.kind), st.name));
      }
      return error_at(option.pos,
                      fmt::format("unknown option {} (a buffer takes `phase=P`, `held`, in v2 `input`, "
                                  "`output` and `state`, and in v3 `local`)",
                                  quoted(option.text)));
    }
    if (st.kind != StorageKind::Buffer) {
      return error_at(option.pos, fmt::format("`{}` applies to a buffer only, not to {} `{}`", option.text,
                                              storage_kind_name(st.kind), st.name));
    }
    if (is_local) {
      PLANCK_TRY(needs_v3(option.pos, "`local`"));
      if (st.local) return error_at(option.pos, "`local` given twice");
      st.local = true;
      if (!lives_on.empty()) {
        return error_at(option.pos, fmt::format("a buffer cannot be both `{}` and `local`: a local buffer lives "
                                                "within one iteration of its loop",
                                                lives_on));
      }
      continue;
    }
    if (is_held || io != 0) {
      lives_on = option.text;
      if (st.local) {
        return error_at(option.pos, fmt::format("a buffer cannot be both `local` and `{}`: a local buffer lives "
                                                "within one iteration of its loop",
                                                option.text));
      }
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

Status Parser::parse_call(Entry& e, int depth) {
  if (e.kind == Entry::Kind::Kernel) {
    PLANCK_ASSIGN(const Token name, expect(Tok::Word, "a kernel name"));
    e.name = name.text;
  }
  // The arguments gather in args_, so that each call's list is allocated
  // once, at its size.
  args_.clear();
  inplace_.clear();
  while (!at_statement_end()) {
    // `stream=` (v3) ends a call; `stream` without `=` names storage.
    if (lex_.peek().kind == Tok::Word && same_word(lex_.peek().text, "stream")) {
      Token word = lex_.take();
      if (lex_.peek().kind == Tok::Equals) {
        PLANCK_TRY(parse_stream(word, e, depth));
        break;
      }
      if (!inplace_.empty()) return unexpected(word, "`inplace=`, `stream=` or the end of the statement");
      if (e.kind == Entry::Kind::Copy && args_.size() == 2) {
        return error_at(word.pos, "copy takes exactly 2 arguments (destination, source); this is a third");
      }
      PLANCK_ASSIGN(Arg arg, parse_arg_from(std::move(word)));
      args_.push_back(std::move(arg));
      continue;
    }
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

// `range {` or `loop flag=ARG {`, with `stream=S` (v3) before the `{` of a
// top-level loop, then the body; `depth` counts this loop.
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
  if (lex_.peek().kind == Tok::Word && same_word(lex_.peek().text, "stream")) {
    const Token word = lex_.take();
    PLANCK_TRY(parse_stream(word, e, depth - 1));
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
