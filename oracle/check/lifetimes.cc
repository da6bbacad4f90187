#include "oracle/check/lifetimes.h"

#include <variant>
#include <vector>

#include "model/huge_pages.h"

namespace planck::oracle {
namespace {

constexpr std::size_t kNotTaken = static_cast<std::size_t>(-1);
constexpr std::size_t kNotKept = kNotTaken - 1;

// Calls take(storage) for every storage the top-level entry `top` takes, in
// the order of rule 1, repeats included. It walks an explicit stack instead
// of recursing, so that however deep loops nest, the depth costs heap, not
// call stack. A stack item is an entry still to walk or a loop flag still to
// take; a loop pushes its flag under its body so the flag comes after it.
// The stack is the caller's, empty, so that one serves every entry.
using TakeStack = std::vector<std::variant<const Entry*, const Arg*>>;
template <class Take>
void for_each_taken(const Entry& top, TakeStack& stack, Take take) {
  if (top.kind == Entry::Kind::Kernel || top.kind == Entry::Kind::Copy) {
    for (const Arg& arg : top.args) take(storage_of(arg));  // most entries: no stack needed
    return;
  }
  stack.emplace_back(&top);
  while (!stack.empty()) {
    auto item = stack.back();
    stack.pop_back();
    if (const Arg* const* flag = std::get_if<const Arg*>(&item)) {
      take(storage_of(**flag));
      continue;
    }
    const Entry& e = *std::get<const Entry*>(item);
    switch (e.kind) {
      case Entry::Kind::Kernel:
      case Entry::Kind::Copy:
        for (const Arg& arg : e.args) take(storage_of(arg));
        break;
      case Entry::Kind::Record:
      case Entry::Kind::Wait:
        break;  // takes no storage
      case Entry::Kind::Range:
      case Entry::Kind::Loop: {
        const Args& flag = e.flag();
        const std::vector<Entry>& body = e.body();
        for (auto it = flag.rbegin(); it != flag.rend(); ++it) stack.emplace_back(&*it);
        for (auto it = body.rbegin(); it != body.rend(); ++it) stack.emplace_back(&*it);
        break;
      }
    }
  }
}

// The storage some entry takes and keep(id) accepts, in order of first
// appearance, with the first and last top-level entry that takes it. Each
// storage is put to `keep` once, when first taken. With `stretch`, a
// planned input or state lives from entry 0 and a planned output or state
// to the last entry (docs/model-v2.md).
template <class Keep>
std::vector<Lifetime> kept_lifetimes(const Schedule& s, Keep keep, bool stretch) {
  // At most one per storage: the first `count` are kept, the rest cut off
  // at the end, so that keeping one is a store, not a push_back's call.
  std::vector<Lifetime> kept = huge_vector<Lifetime>(s.storage.size());
  std::size_t count = 0;
  // Into `kept`, or kNotTaken, or kNotKept for storage taken that keep refused.
  std::vector<std::size_t> index_of = huge_vector(s.storage.size(), kNotTaken);
  TakeStack stack;
  bool to_end = false;  // some kept storage lives to the last entry
  for (std::size_t entry = 0; entry < s.entries.size(); ++entry) {
    for_each_taken(s.entries[entry], stack, [&](StorageId id) __attribute__((always_inline)) {
      std::size_t& at = index_of[id];
      if (at == kNotTaken) {
        if (keep(id)) {
          at = count++;
          const Storage& st = s.storage[id];
          kept[at] = {.buffer = id, .first = stretch && lives_from_start(st) ? 0 : entry, .last = entry};
          to_end = to_end || (stretch && lives_to_end(st));
        } else {
          at = kNotKept;
        }
      } else if (at != kNotKept) {
        kept[at].last = entry;
      }
    });
  }
  kept.resize(count);
  if (to_end) {
    for (Lifetime& life : kept) {
      if (lives_to_end(s.storage[life.buffer])) life.last = s.entries.size() - 1;
    }
  }
  return kept;
}

}  // namespace

std::vector<Lifetime> taken_storage(const Schedule& s) {
  return kept_lifetimes(s, [](StorageId) { return true; }, false);
}

std::vector<Lifetime> planned_buffers(const Schedule& s) {
  return kept_lifetimes(s, [&](StorageId id) { return plannable(s.storage[id]); }, true);
}

}  // namespace planck::oracle
