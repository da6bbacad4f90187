#include "planner/lifetimes.h"

#include <algorithm>
#include <cstdint>
#include <unordered_set>

namespace planck {
namespace {

// Storage in order of first taking, each once. Calls take a few arguments,
// so a linear search dedupes until the list grows long (a big loop body).
class TakenList {
 public:
  void add(StorageId id) {
    if (ids_.size() < kLinear) {
      if (std::find(ids_.begin(), ids_.end(), id) != ids_.end()) return;
    } else {
      if (seen_.empty()) seen_.insert(ids_.begin(), ids_.end());
      if (!seen_.insert(id).second) return;
    }
    ids_.push_back(id);
  }
  std::vector<StorageId> take() { return std::move(ids_); }

 private:
  static constexpr std::size_t kLinear = 16;
  std::vector<StorageId> ids_;
  std::unordered_set<StorageId> seen_;
};

void take_args(const std::vector<Arg>& args, TakenList& out) {
  for (const Arg& a : args) out.add(storage_of(a));
}

// Nesting is bounded by kMaxNesting at parse time, so this recursion is too.
void take_entry(const Entry& e, TakenList& out) {
  switch (e.kind) {
    case Entry::Kind::Kernel:
    case Entry::Kind::Copy:
      take_args(e.args, out);
      return;
    case Entry::Kind::Range:
    case Entry::Kind::Loop:
      for (const Entry& inner : e.body) take_entry(inner, out);
      take_args(e.flag, out);
      return;
  }
}

}  // namespace

std::vector<StorageId> taken(const Entry& entry) {
  TakenList out;
  take_entry(entry, out);
  return out.take();
}

bool is_plannable(const Storage& s) {
  return s.kind == StorageKind::Buffer && !s.held && !is_disk(s.device);
}

std::vector<Lifetime> planned_lifetimes(const Schedule& s) {
  std::vector<Lifetime> out;
  std::vector<std::size_t> index(s.storage.size(), SIZE_MAX);  // storage -> position in out
  for (std::size_t e = 0; e < s.entries.size(); ++e) {
    for (StorageId id : taken(s.entries[e])) {
      if (!is_plannable(s.storage[id])) continue;
      if (index[id] == SIZE_MAX) {
        index[id] = out.size();
        out.push_back({id, e, e});
      } else {
        out[index[id]].last = e;
      }
    }
  }
  return out;
}

}  // namespace planck
