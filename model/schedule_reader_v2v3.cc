// The statements and words that models v2 and v3 add to the .sched format,
// read by the token path (schedule_parser.h): `device` lines and in-place
// pairs (v2); `stream=`, `record`, `wait` and the rules of `local` (v3)
// (docs/formats.md#model-v2, docs/formats.md#model-v3).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "model/lexical.h"
#include "model/schedule_parser.h"
#include "model/schedule_words.h"

namespace planck::schedule_text {

Status Parser::needs_v2(SourcePos pos, std::string_view what) const {
  if (version_ >= 2) return Ok{};
  return error_at(pos, fmt::format("{} needs the header `schedule v2`", what));
}

Status Parser::needs_v3(SourcePos pos, std::string_view what) const {
  if (version_ >= 3) return Ok{};
  return error_at(pos, fmt::format("{} needs the header `schedule v3`", what));
}

Status Parser::parse_stream(const Token& word, Entry& e, int depth) {
  PLANCK_TRY(needs_v3(word.pos, "`stream=`"));
  if (depth > 0) {
    return error_at(word.pos, "`stream=` inside a loop: everything in a loop body runs on the loop's stream");
  }
  PLANCK_TRY(expect(Tok::Equals, "`=` after `stream`"));
  PLANCK_ASSIGN(const Token name, expect(Tok::Word, "a stream name after `stream=`"));
  if (!is_storage_name(name.text)) {
    return error_at(name.pos, fmt::format("{} is not a valid stream name (letters, digits, `_` and `.`, starting "
                                          "with a letter or `_`)",
                                          quoted(name.text)));
  }
  const std::optional<StreamId> id = schedule_.add_stream(name.text);
  if (!id) return error_at(name.pos, fmt::format("more than {} streams", kMaxStreams));
  e.stream = *id;
  // A second `stream=`, or anything else, is left to end_statement's error
  // unless it is `stream=` itself, which is named.
  const Token& next = lex_.peek();
  if (next.kind == Tok::Word && same_word(next.text, "stream")) {
    return error_at(next.pos, "`stream=` given twice");
  }
  return Ok{};
}

Status Parser::parse_event(const Token& keyword, Entry& e, int depth) {
  const bool record = e.kind == Entry::Kind::Record;
  PLANCK_TRY(needs_v3(keyword.pos, fmt::format("`{}`", keyword.text)));
  if (depth > 0) {
    return error_at(keyword.pos, fmt::format("`{}` belongs at the top level, not inside a loop", keyword.text));
  }
  PLANCK_ASSIGN(const Token name, expect(Tok::Word, "an event name"));
  if (!is_storage_name(name.text)) {
    return error_at(name.pos, fmt::format("{} is not a valid event name (letters, digits, `_` and `.`, starting "
                                          "with a letter or `_`)",
                                          quoted(name.text)));
  }
  e.name = name.text;
  const auto recorded = recorded_.find(std::string(name.text));
  if (record && recorded != recorded_.end()) {
    return error_at(name.pos, fmt::format("event {} is recorded twice, first at {}:{}", quoted(name.text),
                                          recorded->second.line, recorded->second.col));
  }
  if (!record && recorded == recorded_.end()) {
    return error_at(name.pos, fmt::format("`wait {}` before `record {}`: an event is waited for after it is "
                                          "recorded",
                                          name.text, name.text));
  }
  if (record) recorded_.emplace(std::string(name.text), keyword.pos);
  if (lex_.peek().kind == Tok::Word && same_word(lex_.peek().text, "stream")) {
    const Token word = lex_.take();
    PLANCK_TRY(parse_stream(word, e, depth));
  }
  return Ok{};
}

namespace {

// Which top-level entries take each storage: the first, and a second one
// when there is, walking loops with an explicit stack.
struct TopUses {
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t first = kNone;
  std::size_t other = kNone;  // a second top-level entry that takes it
};

void note_use(std::vector<TopUses>& uses, StorageId id, std::size_t entry) {
  TopUses& u = uses[id];
  if (u.first == TopUses::kNone) {
    u.first = entry;
  } else if (u.first != entry && u.other == TopUses::kNone) {
    u.other = entry;
  }
}

}  // namespace

Status Parser::check_local_scopes() const {
  bool any = false;
  for (const Storage& st : schedule_.storage) any = any || st.local;
  if (!any) return Ok{};
  std::vector<TopUses> uses(schedule_.storage.size());
  // A top-level loop's flag is taken by the loop entry itself, outside
  // every loop: marked apart.
  std::vector<std::size_t> top_flag(schedule_.storage.size(), TopUses::kNone);
  for (std::size_t i = 0; i < schedule_.entries.size(); ++i) {
    for (const Arg& a : schedule_.entries[i].flag()) top_flag[storage_of(a)] = i;
    std::vector<const Entry*> stack{&schedule_.entries[i]};
    while (!stack.empty()) {
      const Entry* e = stack.back();
      stack.pop_back();
      for (const Arg& a : e->args) note_use(uses, storage_of(a), i);
      for (const Arg& a : e->flag()) note_use(uses, storage_of(a), i);
      for (const Entry& inner : e->body()) stack.push_back(&inner);
    }
  }
  for (std::size_t id = 0; id < schedule_.storage.size(); ++id) {
    const Storage& st = schedule_.storage[id];
    const TopUses& u = uses[id];
    if (!st.local || u.first == TopUses::kNone) continue;
    const auto is_loop = [](const Entry& e) { return e.kind == Entry::Kind::Range || e.kind == Entry::Kind::Loop; };
    // The top-level call that takes it, if either entry noted is one.
    const bool other_is_call = u.other != TopUses::kNone && !is_loop(schedule_.entries[u.other]);
    const Entry& first = schedule_.entries[other_is_call ? u.other : u.first];
    const bool loop = is_loop(first);
    if (top_flag[id] != TopUses::kNone) {
      return error_at(schedule_.entries[top_flag[id]].pos,
                      fmt::format("`local` buffer {} (line {}) is the flag of this top-level loop, which takes it "
                                  "outside every loop; a flag is local only to a loop around its own",
                                  st.name, st.pos.line));
    }
    if (!loop) {
      return error_at(first.pos, fmt::format("`local` buffer {} (line {}) is taken at the top level here; a local "
                                             "buffer is taken inside one loop only",
                                             st.name, st.pos.line));
    }
    if (u.other != TopUses::kNone) {
      const Entry& other = schedule_.entries[u.other];
      return error_at(other.pos, fmt::format("`local` buffer {} (line {}) is taken here and in the loop at line {}: "
                                             "a local buffer is taken inside one top-level loop only",
                                             st.name, st.pos.line, first.pos.line));
    }
  }
  return Ok{};
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

}  // namespace planck::schedule_text
