#include "model/line_parser.h"

#include <array>
#include <bit>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "model/lexical.h"
#include "model/schedule_words.h"

namespace planck::schedule_text {
namespace {

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

}  // namespace

LineParser::LineParser(std::string_view text, std::string_view file, Expected expected)
    : ParseState(text, file, expected) {
  const std::string_view all = cur_.rest();
  plain_end_ = all.data() + (all.rfind('\n') + 1);  // the start when there is none (npos + 1 = 0)
}

std::optional<Status> LineParser::parse_plain_line(std::vector<Entry>& out, int depth) {
  // Longer lines, and more words, than plain statements have take the token path.
  constexpr std::size_t kMaxLine = 4096;
  constexpr std::size_t kMaxWords = 16;
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

}  // namespace planck::schedule_text
