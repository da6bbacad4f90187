// The tokens of the .sched reader's token path (schedule_parser.h), and the
// count of statements a text holds, read ahead to reserve room for them.

#include <bit>
#include <cstddef>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "model/lexical.h"
#include "model/schedule_parser.h"
#include "model/schedule_words.h"

namespace planck::schedule_text {
namespace {

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

}  // namespace

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
      case 'k': case 'c': case 'r': case 'l': case 'w': ++counts.entries; break;
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

}  // namespace planck::schedule_text
