#include "model/text.h"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "model/file.h"
#include "model/huge_pages.h"
#include "model/lexical.h"
#include "model/name_index.h"

namespace planck {
namespace {

// ---------------------------------------------------------------- tokens

// A word is a maximal run of bytes that are neither blanks, nor one of the
// punctuation bytes, nor '#', nor control bytes. Newlines are tokens because
// they end statements. Bad is a control byte, which no schedule may contain.
enum class Tok : std::uint8_t { Word, LParen, RParen, Comma, LBrace, RBrace, Equals, Newline, End, Bad };

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  SourcePos pos;
};

// The printable bytes that end a word: the blank, punctuation and '#'.
constexpr std::string_view kPrintableEnds = " (),{}=#";

// Which bytes end a word, one lookup per byte: the lexer's inner loop.
constexpr std::array<bool, 256> kEndsWord = [] {
  std::array<bool, 256> ends{};
  for (int c = 0; c < 0x20; ++c) ends[c] = true;  // control bytes, tab and line ends included
  ends[0x7f] = true;
  for (char c : kPrintableEnds) ends[static_cast<unsigned char>(c)] = true;
  return ends;
}();

bool ends_word(char c) { return kEndsWord[static_cast<unsigned char>(c)]; }

#if defined(__SSE2__)
// The bytes that end a word, the blanks and the "\n"s among the 64 bytes at
// p, bit i for byte i: the words of a short line from a few vector
// compares, where the byte loop takes several instructions a byte. Only the
// 16-byte blocks up to the first that holds a "\n" are read, the bits of
// the others left zero: a line of a large schedule is about 32 bytes long.
struct ByteMasks {
  std::uint64_t ends = 0;
  std::uint64_t blanks = 0;
  std::uint64_t newlines = 0;
};
constexpr std::size_t kMaskedBytes = 64;

ByteMasks byte_masks(const char* p) {
  ByteMasks m;
  const auto bits = [](__m128i v) { return static_cast<std::uint64_t>(static_cast<std::uint16_t>(_mm_movemask_epi8(v))); };
  for (std::size_t k = 0; k < kMaskedBytes / 16; ++k) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    // Control bytes and the space are those at most 0x20, unsigned.
    __m128i ends = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x20)), x);
    ends = _mm_or_si128(ends, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));
    // One compare per printable byte of kPrintableEnds, unrolled where this
    // is compiled (a loop over the list was not unrolled).
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((ends = _mm_or_si128(ends, _mm_cmpeq_epi8(x, _mm_set1_epi8(kPrintableEnds[I])))), ...);
    }(std::make_index_sequence<kPrintableEnds.size()>());
    const __m128i blanks =
        _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\t')));
    m.ends |= bits(ends) << (16 * k);
    m.blanks |= bits(blanks) << (16 * k);
    m.newlines |= bits(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n'))) << (16 * k);
    if (m.newlines != 0) break;
  }
  return m;
}
#endif

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

// ---------------------------------------------------------------- words

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

// Words that start a statement or a view. Storage may not take these names,
// so that an argument never reads two ways.
bool is_reserved(std::string_view name) {
  // Only the words of the name's length are compared: this runs for every
  // declaration.
  switch (name.size()) {
    case 4: return same_word(name, "copy") || same_word(name, "loop");
    case 5:
      return same_word(name, "alloc") || same_word(name, "param") || same_word(name, "range") ||
             same_word(name, "after");
    case 6: return same_word(name, "buffer") || same_word(name, "kernel") || same_word(name, "shrink");
    case 7: return same_word(name, "bitcast");
    case 8: return same_word(name, "schedule");
    default: return false;
  }
}

// The kind of storage a statement's keyword declares, if it is one.
std::optional<StorageKind> declaration_kind(std::string_view keyword) {
  switch (keyword.size()) {
    case 5:
      if (same_word(keyword, "alloc")) return StorageKind::Alloc;
      if (same_word(keyword, "param")) return StorageKind::Param;
      return std::nullopt;
    case 6:
      if (same_word(keyword, "buffer")) return StorageKind::Buffer;
      return std::nullopt;
    default: return std::nullopt;
  }
}

constexpr bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The bytes a storage name is made of, one lookup per byte: every
// declaration's name is checked.
constexpr std::array<bool, 256> kInStorageName = [] {
  std::array<bool, 256> in{};
  for (int c = 0; c < 256; ++c) {
    in[c] = is_ascii_letter(static_cast<char>(c)) || is_digit(static_cast<char>(c)) || c == '_' || c == '.';
  }
  return in;
}();

bool is_storage_name(std::string_view name) {
  if (name.empty() || !(is_ascii_letter(name.front()) || name.front() == '_')) return false;
  for (char c : name) {
    if (!kInStorageName[static_cast<unsigned char>(c)]) return false;
  }
  return true;
}

std::optional<Arg::Kind> view_kind(std::string_view word) {
  switch (word.size()) {
    case 5: return same_word(word, "after") ? std::optional(Arg::Kind::After) : std::nullopt;
    case 6: return same_word(word, "shrink") ? std::optional(Arg::Kind::Shrink) : std::nullopt;
    case 7: return same_word(word, "bitcast") ? std::optional(Arg::Kind::Bitcast) : std::nullopt;
    default: return std::nullopt;
  }
}

// A size of 1 to 18 decimal digits, read for a plain line: it is below
// kMaxBytes, so it needs no overflow check. Anything else is nullopt, and
// left to parse_decimal and its message.
std::optional<Bytes> plain_decimal(std::string_view word) {
  if (word.empty() || word.size() > 18) return std::nullopt;
  Bytes value = 0;
  for (char c : word) {
    if (!is_digit(c)) return std::nullopt;
    value = value * 10 + static_cast<Bytes>(c - '0');
  }
  return value;
}
static_assert(Bytes{999'999'999'999'999'999} < kMaxBytes);

// ---------------------------------------------------------------- parser

// How many declarations and top-level entries a text holds at most, as
// the lines whose first letter starts one of their keywords count them: an
// estimate, to reserve room for them at once. Growing a million-element
// list one doubling at a time moved every element and faulted in new memory
// each time, a fifth of the parse. A line that only starts with the letter
// makes the estimate high, which costs address space, not memory: the room
// is not touched.
struct Expected {
  std::size_t storage = 0;
  std::size_t entries = 0;
};

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

// The names of the storage declared so far, by id, for the name index.
struct StorageNames {
  const std::vector<Storage>* storage;
  std::string_view operator()(std::size_t id) const { return (*storage)[id].name; }
};
using StorageIndex = BasicNameIndex<StorageNames>;

// A name the parser looks up in its index: the storage an argument names,
// or a declaration's, which must not be there yet and is then added. The
// key's name is the word in the text, whose place a message finds from it.
struct Lookup {
  StorageIndex::Key key;
  // An argument's: its storage, where the id found is written. Null for a
  // declaration's, which adds its name as that of the next storage:
  // declarations are queued, and run, in the order of the storage list,
  // and each adds a name or ends the parse.
  StorageId* target = nullptr;
};
static_assert(sizeof(Lookup) <= 32);

// The lookups of a call point into its arguments, which move with their
// entries as the lists of entries grow: a move keeps each vector's elements
// where they are, and a move that could throw would be a copy instead.
static_assert(std::is_nothrow_move_constructible_v<Entry>);

// A recursive-descent parser over one token of lookahead. Loops recurse, at
// most kMaxNesting deep; views are parsed with an explicit stack.
//
// The names of a large schedule are a cache miss each in the index, so they
// are not looked up where they are read: each lookup is queued, its slot
// asked for (prefetched), and run kQueued lookups later, when the slot has
// come, in the order the names were read. An error ends the parse only after
// the lookups queued before it have run, so that when one of them fails, its
// error is the one reported, as the first in the file.
class Parser {
 public:
  Parser(std::string_view text, std::string_view file, Expected expected, bool plain_lines)
      : plain_lines_(plain_lines),
        cur_(text, file),
        lex_(cur_),
        names_(expected.storage, StorageNames{&schedule_.storage}) {
    schedule_.source = std::string(file);
    const std::string_view all = cur_.rest();
    plain_end_ = all.data() + (all.rfind('\n') + 1);  // the start when there is none (npos + 1 = 0)
    schedule_.storage.reserve(expected.storage);
    schedule_.entries.reserve(expected.entries);
    advise_huge_pages(schedule_.storage);
    advise_huge_pages(schedule_.entries);
  }
  // names_ reads the storage through this parser.
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  Result<Schedule> run();

 private:
  // How many lookups wait in the queue: enough statements that a slot has
  // come from memory by the time its lookup runs.
  static constexpr std::size_t kQueued = 64;

  Error error_at(SourcePos pos, std::string what) const { return cur_.error_at(pos, std::move(what)); }

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

  Status parse_header();
  // A statement in one of the shapes nearly every line of a large schedule
  // takes, read in one pass over the line's bytes instead of token by token:
  // `buffer|alloc|param NAME DEVICE DTYPE SIZE`, a buffer's followed by
  // `held` and `phase=P` (no blank before the `=`), `kernel NAME ARG...` or
  // `copy DST SRC`, each argument naming storage, the words between blanks
  // and nothing else on the line. It makes what parse_statement would.
  // Any other line, or one that parse_statement would refuse, is left to
  // it (nullopt, nothing read), so that each message has one source.
  std::optional<Status> parse_plain_line(std::vector<Entry>& out, int depth);
  Status parse_statement(std::vector<Entry>& out, int depth);
  Status parse_declaration(const Token& keyword, StorageKind kind);
  Status parse_options(Storage& st);
  Status parse_call(Entry& e);
  Status parse_loop(Entry& e, int depth);
  Status parse_body(const Token& open, std::vector<Entry>& body, int depth);
  Status end_statement();
  Result<Arg> parse_arg();
  Status close_view(const Token& head, Arg& view, Bytes& size);
  // A word token that holds a decimal number, or a dtype's name.
  Result<Bytes> parse_number(std::string_view expected, std::string_view what);
  Result<Dtype> parse_dtype();

  // The errors of a name, a word of the text, placed where it is.
  Error undeclared(std::string_view name) const {
    return error_at(cur_.pos_of(name.data()), fmt::format("undeclared name {}", quoted(name)));
  }
  Error duplicate(std::string_view name, std::size_t first) const {
    const SourcePos earlier = schedule_.storage[first].pos;
    return error_at(cur_.pos_of(name.data()), fmt::format("duplicate name {}, first declared at {}:{}",
                                                          quoted(name), earlier.line, earlier.col));
  }
  // Runs a queued lookup: an argument's finds its storage, and with `fill`
  // writes the id to its target; a declaration's adds its name. Whether it
  // did: lookup_failed makes the error of one that did not.
  bool run_lookup(const Lookup& l, bool fill);
  // The error of a queued lookup that failed, its name undeclared or a
  // declaration's declared before, with the lookups still queued or waiting
  // dropped. Cold, as it runs once a parse at most: queue's path for the
  // lookups that succeed makes no error.
  [[gnu::cold]] Status lookup_failed(const Lookup& l);
  // Makes the name of an argument wait for its statement, and asks for its slot.
  void wait_for(const StorageIndex::Key& key);
  // Queues a lookup whose slot was asked for, running the oldest one if the
  // queue is full.
  Status queue(const Lookup& l);
  // Queues the waiting names of the statement, now that its arguments are in
  // `placed`: each argument that is storage itself, not a view, is the
  // target of the next one.
  Status queue_waiting(Args& placed);
  // Runs every queued lookup, then checks that the waiting names are in the
  // index, so that it holds every name declared so far and no earlier name
  // is unknown.
  // Without `fill`, the targets are not written: after an error, the
  // arguments they point into may be gone.
  Status settle(bool fill);
  // The first error in the file: that of an earlier lookup, else `later`.
  Error first_error(Error later);
  // After a lookup failed, the ones still queued or waiting come after it in
  // the file and are dropped, so that no later error replaces it.
  Error drop_lookups(Error e);

  bool plain_lines_;  // whether parse_plain_line is tried
  const char* plain_end_ = nullptr;  // one past the text's last "\n": parse_plain_line reads no further
  Cursor cur_;
  Lexer lex_;
  Schedule schedule_;
  StorageIndex names_;
  Args args_;  // the arguments of the call being parsed
  std::array<Lookup, kQueued> queued_;  // a ring, oldest at queued_first_
  std::size_t queued_first_ = 0;
  std::size_t queued_count_ = 0;
  // The names of the arguments of the call being parsed, in order, read
  // before the call has a place for their ids.
  std::vector<StorageIndex::Key> waiting_;
};

bool Parser::run_lookup(const Lookup& l, bool fill) {
  if (l.target == nullptr) return names_.emplace(names_.size(), l.key).second;
  const std::optional<std::size_t> id = names_.find(l.key);
  if (!id) return false;
  if (fill) *l.target = static_cast<StorageId>(*id);
  return true;
}

Status Parser::lookup_failed(const Lookup& l) {
  if (l.target == nullptr) return drop_lookups(duplicate(l.key.name, *names_.find(l.key)));
  return drop_lookups(undeclared(l.key.name));
}

void Parser::wait_for(const StorageIndex::Key& key) {
  names_.prefetch(key);
  waiting_.push_back(key);
}

Status Parser::queue(const Lookup& l) {
  if (queued_count_ == kQueued) {
    const Lookup& oldest = queued_[queued_first_];
    queued_first_ = (queued_first_ + 1) % kQueued;
    --queued_count_;
    if (!run_lookup(oldest, true)) return lookup_failed(oldest);
  }
  queued_[(queued_first_ + queued_count_) % kQueued] = l;
  ++queued_count_;
  return Ok{};
}

Status Parser::queue_waiting(Args& placed) {
  std::size_t next = 0;
  for (Arg& arg : placed) {
    if (arg.kind != Arg::Kind::Storage) continue;
    PLANCK_TRY(queue({.key = waiting_[next++], .target = &arg.storage}));
  }
  waiting_.clear();
  return Ok{};
}

Status Parser::settle(bool fill) {
  for (; queued_count_ > 0; --queued_count_) {
    const Lookup& oldest = queued_[queued_first_];
    queued_first_ = (queued_first_ + 1) % kQueued;
    if (!run_lookup(oldest, fill)) return lookup_failed(oldest);
  }
  for (const StorageIndex::Key& key : waiting_) {
    if (!names_.find(key)) return drop_lookups(undeclared(key.name));
  }
  return Ok{};
}

Error Parser::first_error(Error later) {
  if (Status s = settle(false); !s) return std::move(s).error();
  return later;
}

Error Parser::drop_lookups(Error e) {
  queued_count_ = 0;
  waiting_.clear();
  return e;
}

Result<Schedule> Parser::run() {
  PLANCK_TRY(parse_header());
  for (;;) {
    if (std::optional<Status> s = parse_plain_line(schedule_.entries, 0)) {
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
  constexpr std::string_view kHeader = "the header `schedule v1`";
  while (lex_.peek().kind == Tok::Newline) lex_.take();
  Token first = lex_.take();
  if (first.kind != Tok::Word || first.text != "schedule") return unexpected(first, kHeader);
  Token version = lex_.take();
  if (version.kind == Tok::Word && version.text != "v1") {
    return error_at(version.pos,
                    fmt::format("unsupported version {}, expected `schedule v1`", quoted(version.text)));
  }
  if (version.kind != Tok::Word) return unexpected(version, kHeader);
  Token end = lex_.take();
  if (end.kind != Tok::Newline && end.kind != Tok::End) {
    return unexpected(end, "the end of the line after `schedule v1`");
  }
  return Ok{};
}

std::optional<Status> Parser::parse_plain_line(std::vector<Entry>& out, int depth) {
  // Longer lines, and more words, than plain statements have take the token path.
  constexpr std::size_t kMaxLine = 4096;
  constexpr std::size_t kMaxWords = 16;
  if (!plain_lines_ || lex_.has_peeked()) return std::nullopt;
  const SourcePos start = cur_.pos();
  if (start.col > INT_MAX / 2) return std::nullopt;

  // The words up to the line end, in one pass: a byte that ends a word and
  // is neither a blank nor the "\n" sends the line to the token path, but
  // for the `=` of `phase=P`, which the masks let through with the others
  // for the declaration to account for. Only a line that a "\n" ends is read
  // here, so that the "\n" stops each loop with no check of the text's end.
  const std::string_view rest = cur_.rest();
  if (rest.data() >= plain_end_) return std::nullopt;
  // Where each word starts and its length: a trivial type, so that the
  // array is not zeroed for every line.
  struct Word {
    const char* data;
    std::size_t size;
    std::string_view view() const { return {data, size}; }
  };
  std::array<Word, kMaxWords> words;
  std::size_t count = 0;
  // The bytes of the line that end a word and are no blank, bit i for byte
  // i (punctuation, '#', control bytes): from the masks only, as the byte
  // loop leaves the line at the first.
  std::uint64_t punctuation = 0;
  const char* p = rest.data();
#if defined(__SSE2__)
  // A line shorter than 64 bytes, with 64 bytes of text to read: its words
  // from the masks.
  ByteMasks m;
  if (rest.size() >= kMaskedBytes && (m = byte_masks(p)).newlines != 0) {
    const int n = std::countr_zero(m.newlines);  // the line's length, below 64
    const std::uint64_t in_line = (std::uint64_t{1} << n) - 1;
    punctuation = m.ends & ~m.blanks & in_line;
    const std::uint64_t in_words = ~m.ends & in_line;
    std::uint64_t starts = in_words & ~(in_words << 1);
    for (; starts != 0; starts &= starts - 1) {
      if (count == kMaxWords) return std::nullopt;
      const int at = std::countr_zero(starts);
      // The "\n" ends a word too, so a word's end is always found.
      const int size = std::countr_zero(m.ends >> at);
      words[count++] = {p + at, static_cast<std::size_t>(size)};
    }
    p += n;
  } else
#endif
  for (;;) {
    while (is_blank(*p)) ++p;
    if (*p == '\n') break;
    const char* const word = p;
    while (!ends_word(*p)) ++p;
    if (!is_blank(*p) && *p != '\n') return std::nullopt;  // punctuation, '#', a control byte
    if (count == kMaxWords || static_cast<std::size_t>(p - rest.data()) > kMaxLine) return std::nullopt;
    words[count++] = {word, static_cast<std::size_t>(p - word)};
  }
  const std::string_view line(rest.data(), static_cast<std::size_t>(p - rest.data()));
  if (count == 0) return std::nullopt;
  const auto at = [&](std::string_view word) {
    return SourcePos{start.line, start.col + static_cast<int>(word.data() - line.data())};
  };

  const std::string_view k = words[0].view();
  const std::optional<StorageKind> storage = declaration_kind(k);
  if (storage) {
    if (count < 5 || depth > 0) return std::nullopt;
    const std::string_view name = words[1].view();
    if (is_reserved(name) || !is_storage_name(name)) return std::nullopt;
    const std::optional<Dtype> dtype = dtype_from_name(words[3].view());
    if (!dtype) return std::nullopt;
    const std::optional<Bytes> bytes = plain_decimal(words[4].view());
    if (!bytes || *bytes % dtype_size(*dtype) != 0) return std::nullopt;
    // A buffer's options, each at most once: `held`, and `phase=P`, whose
    // `=` directly follows `phase` and is then the line's one punctuation
    // byte. Any other punctuation is left to the token path.
    bool held = false;
    std::optional<Bytes> phase;
    for (std::size_t i = 5; i < count; ++i) {
      const std::string_view option = words[i].view();
      if (*storage != StorageKind::Buffer) return std::nullopt;
      if (same_word(option, "held") && !held) {
        held = true;
      } else if (same_word(option, "phase") && !phase && option.data()[5] == '=' && i + 1 < count) {
        phase = plain_decimal(words[++i].view());
        if (!phase) return std::nullopt;
      } else {
        return std::nullopt;
      }
    }
    if ((punctuation & (punctuation - 1)) != 0 || (punctuation != 0) != phase.has_value()) return std::nullopt;

    cur_.take(line.size());
    cur_.take_line_end();
    // Made in place, field by field: a record made whole was zeroed, moved
    // into the list and destroyed.
    Storage& st = schedule_.storage.emplace_back();
    st.kind = *storage;
    st.dtype = *dtype;
    st.pos = at(k);
    st.name = name;
    st.device = words[2].view();
    st.bytes = *bytes;
    st.phase = phase.value_or(0);
    st.held = held;
    const StorageIndex::Key key = StorageIndex::key(name);
    names_.prefetch(key);
    return queue({.key = key});
  }

  const bool kernel = same_word(k, "kernel");
  if (!kernel && !same_word(k, "copy")) return std::nullopt;
  if (punctuation != 0) return std::nullopt;
  const std::size_t first_arg = kernel ? 2 : 1;
  if (kernel ? count < 2 : count != 3) return std::nullopt;
  for (std::size_t i = first_arg; i < count; ++i) {
    if (view_kind(words[i].view())) return std::nullopt;  // a view's head, without its `(`
  }

  cur_.take(line.size());
  cur_.take_line_end();
  // Made in place, as a storage record is; each argument is in its place
  // once the list is made at its size (made, not grown by resize, whose
  // general path cost more), so that its lookup is queued with no wait.
  Entry& e = out.emplace_back();
  e.kind = kernel ? Entry::Kind::Kernel : Entry::Kind::Copy;
  e.pos = at(k);
  if (kernel) e.name = words[1].view();
  e.args = Args(count - first_arg);
  for (std::size_t i = first_arg; i < count; ++i) {
    Arg& arg = e.args[i - first_arg];
    const StorageIndex::Key key = StorageIndex::key(words[i].view());
    names_.prefetch(key);
    if (Status s = queue({.key = key, .target = &arg.storage}); !s) return s;
  }
  return Status(Ok{});
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
        fmt::format("unknown statement {} (expected buffer, alloc, param, kernel, copy, range or loop)",
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

// `phase=P` and `held`, each at most once, in any order, on a buffer only.
Status Parser::parse_options(Storage& st) {
  bool seen_phase = false;
  while (lex_.peek().kind == Tok::Word) {
    Token option = lex_.take();
    const bool is_phase = same_word(option.text, "phase");
    const bool is_held = same_word(option.text, "held");
    if (!is_phase && !is_held) {
      if (st.kind != StorageKind::Buffer) {
        return unexpected(option, fmt::format("the end of the line after the size of {} `{}`",
                                              storage_kind_name(st.kind), st.name));
      }
      return error_at(option.pos, fmt::format("unknown option {} (a buffer takes `phase=P` and `held`)",
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
  while (!at_statement_end()) {
    if (e.kind == Entry::Kind::Copy && args_.size() == 2) {
      return error_at(lex_.peek().pos,
                      "copy takes exactly 2 arguments (destination, source); this is a third");
    }
    PLANCK_ASSIGN(Arg arg, parse_arg());
    args_.push_back(std::move(arg));
  }
  e.args.assign(std::make_move_iterator(args_.begin()), std::make_move_iterator(args_.end()));
  PLANCK_TRY(queue_waiting(e.args));
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
    if (std::optional<Status> s = parse_plain_line(body, depth)) {
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
Result<Arg> Parser::parse_arg() {
  std::vector<std::pair<Token, Arg::Kind>> heads;
  Token t = lex_.take();
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

// ---------------------------------------------------------------- printer

void append_arg(std::string& out, const Schedule& s, const Arg& arg) {
  std::vector<const Arg*> views;
  const Arg* a = &arg;
  while (a->kind != Arg::Kind::Storage) {
    views.push_back(a);
    a = &a->view->base;
  }
  for (const Arg* v : views) {
    switch (v->kind) {
      case Arg::Kind::Shrink: out += "shrink("; break;
      case Arg::Kind::Bitcast: out += "bitcast("; break;
      case Arg::Kind::After: out += "after("; break;
      case Arg::Kind::Storage: break;
    }
  }
  out += s.storage[a->storage].name;
  for (auto it = views.rbegin(); it != views.rend(); ++it) {
    const Arg& v = **it;
    switch (v.kind) {
      case Arg::Kind::Shrink: fmt::format_to(std::back_inserter(out), ", {}, {})", v.view->start, v.view->length); break;
      case Arg::Kind::Bitcast: fmt::format_to(std::back_inserter(out), ", {})", dtype_name(v.dtype)); break;
      case Arg::Kind::After: out += ')'; break;
      case Arg::Kind::Storage: break;
    }
  }
}

void append_declaration(std::string& out, const Storage& st) {
  fmt::format_to(std::back_inserter(out), "{} {} {} {} {}", storage_kind_name(st.kind), st.name, st.device,
                 dtype_name(st.dtype), st.bytes);
  if (st.kind == StorageKind::Buffer) {
    if (st.phase != 0) fmt::format_to(std::back_inserter(out), " phase={}", st.phase);
    if (st.held) out += " held";
  }
  out += '\n';
}

// Entries are walked with an explicit stack, so a model of any depth prints.
void append_entries(std::string& out, const Schedule& s) {
  struct Level {
    const std::vector<Entry>* entries;
    std::size_t next;
  };
  std::vector<Level> stack{{&s.entries, 0}};
  auto indent = [&](std::size_t depth) { out.append(2 * depth, ' '); };
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.entries->size()) {
      stack.pop_back();
      if (!stack.empty()) {
        indent(stack.size() - 1);
        out += "}\n";
      }
      continue;
    }
    const Entry& e = (*level.entries)[level.next++];
    indent(stack.size() - 1);
    switch (e.kind) {
      case Entry::Kind::Kernel:
      case Entry::Kind::Copy:
        out += e.kind == Entry::Kind::Kernel ? "kernel " + e.name : std::string("copy");
        for (const Arg& a : e.args) {
          out += ' ';
          append_arg(out, s, a);
        }
        out += '\n';
        break;
      case Entry::Kind::Range:
        out += "range {\n";
        stack.push_back({&e.body(), 0});
        break;
      case Entry::Kind::Loop:
        out += "loop flag=";
        append_arg(out, s, e.flag().front());
        out += " {\n";
        stack.push_back({&e.body(), 0});
        break;
    }
  }
}

}  // namespace

Result<Schedule> parse_schedule(std::string_view text, std::string_view file) {
  return Parser(text, file, expected_statements(text), true).run();
}

Result<Schedule> parse_schedule_by_tokens(std::string_view text, std::string_view file) {
  return Parser(text, file, expected_statements(text), false).run();
}

Result<Schedule> read_schedule(const std::string& path) {
  PLANCK_ASSIGN(const FileText text, read_file(path));
  return parse_schedule(text, source_name(path));
}

std::string print_schedule(const Schedule& s) {
  std::string out = "schedule v1\n";
  for (const Storage& st : s.storage) append_declaration(out, st);
  append_entries(out, s);
  return out;
}

std::string print_arg(const Schedule& s, const Arg& arg) {
  std::string out;
  append_arg(out, s, arg);
  return out;
}

}  // namespace planck
