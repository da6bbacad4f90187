#include "oracle/check/lifetimes.h"

#include <variant>
#include <vector>

#include "model/huge_pages.h"

namespace planck::oracle {
namespace {

constexpr std::size_t kNotTaken = static_cast<std::size_t>(-1);

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

}  // namespace

std::vector<Lifetime> taken_storage(const Schedule& s) {
  std::vector<Lifetime> taken;
  taken.reserve(s.storage.size());  // at most one per storage
  advise_huge_pages(taken);
  std::vector<std::size_t> index_of = huge_vector(s.storage.size(), kNotTaken);  // into `taken`
  TakeStack stack;
  for (std::size_t entry = 0; entry < s.entries.size(); ++entry) {
    for_each_taken(s.entries[entry], stack, [&](StorageId id) __attribute__((always_inline)) {
      if (index_of[id] == kNotTaken) {
        index_of[id] = taken.size();
        taken.push_back({.storage = id, .first = entry, .last = entry});
      }
      taken[index_of[id]].last = entry;
    });
  }
  return taken;
}

bool plannable(const Storage& s) {
  return s.kind == StorageKind::Buffer && !s.held && !is_disk(s.device);
}

std::vector<Lifetime> planned_buffers(const Schedule& s) {
  std::vector<Lifetime> planned = taken_storage(s);
  std::erase_if(planned, [&](const Lifetime& life) { return !plannable(s.storage[life.storage]); });
  return planned;
}

}  // namespace planck::oracle
