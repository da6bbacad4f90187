#include "model/parse_state.h"

#include <fmt/format.h>

#include "model/huge_pages.h"

namespace planck::schedule_text {

ParseState::ParseState(std::string_view text, std::string_view file, Expected expected)
    : cur_(text, file), names_(expected.storage, StorageNames{&schedule_.storage}) {
  schedule_.source = std::string(file);
  schedule_.storage.reserve(expected.storage);
  schedule_.entries.reserve(expected.entries);
  advise_huge_pages(schedule_.storage);
  advise_huge_pages(schedule_.entries);
}

Error ParseState::undeclared(std::string_view name) const {
  return error_at(cur_.pos_of(name.data()), fmt::format("undeclared name {}", quoted(name)));
}

Error ParseState::duplicate(std::string_view name, std::size_t first) const {
  const SourcePos earlier = schedule_.storage[first].pos;
  return error_at(cur_.pos_of(name.data()), fmt::format("duplicate name {}, first declared at {}:{}",
                                                        quoted(name), earlier.line, earlier.col));
}

Status ParseState::lookup_failed(const Lookup& l) {
  if (l.target == nullptr) return drop_lookups(duplicate(l.key.name, *names_.find(l.key)));
  return drop_lookups(undeclared(l.key.name));
}

Status ParseState::queue(const Lookup& l) {
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

Status ParseState::queue_waiting(Args& placed) {
  std::size_t next = 0;
  for (Arg& arg : placed) {
    if (arg.kind != Arg::Kind::Storage) continue;
    PLANCK_TRY(queue({.key = waiting_[next++], .target = &arg.storage}));
  }
  waiting_.clear();
  return Ok{};
}

Status ParseState::settle(bool fill) {
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

}  // namespace planck::schedule_text
