#pragma once
// What the two paths of the .sched reader share while they read a text: the
// cursor over it, the schedule made so far, and the lookups of the names
// read. The token path (schedule_reader.cc) and the plain-line path
// (line_parser.cc) add their statements to the same schedule and queue their
// names in the same order, the order of the text. Internal to the .sched
// reader.
//
// The names of a large schedule are a cache miss each in the index, so they
// are not looked up where they are read: each lookup is queued, its slot
// asked for (prefetched), and run kQueued lookups later, when the slot has
// come, in the order the names were read. An error ends the parse only after
// the lookups queued before it have run, so that when one of them fails, its
// error is the one reported, as the first in the file
// (docs/performance.md#how-the-hot-paths-are-built).

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/lexical.h"
#include "model/name_index.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck::schedule_text {

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

class ParseState {
 public:
  ParseState(std::string_view text, std::string_view file, Expected expected);
  // names_ reads the storage through this object.
  ParseState(const ParseState&) = delete;
  ParseState& operator=(const ParseState&) = delete;

 protected:
  Error error_at(SourcePos pos, std::string what) const { return cur_.error_at(pos, std::move(what)); }

  // The error of a name, a word of the text, placed where it is.
  Error undeclared(std::string_view name) const;

  // Makes the name of an argument wait for its statement, and asks for its slot.
  void wait_for(const StorageIndex::Key& key) {
    names_.prefetch(key);
    waiting_.push_back(key);
  }
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
  Error first_error(Error later) {
    if (Status s = settle(false); !s) return std::move(s).error();
    return later;
  }

  Cursor cur_;
  Schedule schedule_;
  StorageIndex names_;

 private:
  // How many lookups wait in the queue: enough statements that a slot has
  // come from memory by the time its lookup runs.
  static constexpr std::size_t kQueued = 64;

  // The error of a declaration's name declared before, at index `first`.
  Error duplicate(std::string_view name, std::size_t first) const;
  // Runs a queued lookup: an argument's finds its storage, and with `fill`
  // writes the id to its target; a declaration's adds its name. Whether it
  // did: lookup_failed makes the error of one that did not.
  bool run_lookup(const Lookup& l, bool fill) {
    if (l.target == nullptr) return names_.emplace(names_.size(), l.key).second;
    const std::optional<std::size_t> id = names_.find(l.key);
    if (!id) return false;
    if (fill) *l.target = static_cast<StorageId>(*id);
    return true;
  }
  // The error of a queued lookup that failed, its name undeclared or a
  // declaration's declared before, with the lookups still queued or waiting
  // dropped. Cold, as it runs once a parse at most: queue's path for the
  // lookups that succeed makes no error.
  [[gnu::cold]] Status lookup_failed(const Lookup& l);
  // After a lookup failed, the ones still queued or waiting come after it in
  // the file and are dropped, so that no later error replaces it.
  Error drop_lookups(Error e) {
    queued_count_ = 0;
    waiting_.clear();
    return e;
  }

  std::array<Lookup, kQueued> queued_;  // a ring, oldest at queued_first_
  std::size_t queued_first_ = 0;
  std::size_t queued_count_ = 0;
  // The names of the arguments of the call being parsed, in order, read
  // before the call has a place for their ids.
  std::vector<StorageIndex::Key> waiting_;
};

}  // namespace planck::schedule_text
