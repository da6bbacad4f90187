#include "model/schedule_words.h"

namespace planck::schedule_text {

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

std::optional<Arg::Kind> view_kind(std::string_view word) {
  switch (word.size()) {
    case 5: return same_word(word, "after") ? std::optional(Arg::Kind::After) : std::nullopt;
    case 6: return same_word(word, "shrink") ? std::optional(Arg::Kind::Shrink) : std::nullopt;
    case 7: return same_word(word, "bitcast") ? std::optional(Arg::Kind::Bitcast) : std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace planck::schedule_text
