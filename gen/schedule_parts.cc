#include "gen/schedule_parts.h"

#include <algorithm>
#include <set>
#include <span>
#include <string>
#include <utility>

namespace planck::gen {
namespace {

// Returns the size of the bytes `a` views, after clamping it to fit.
Bytes repair_arg(const Schedule& s, Arg& a) {
  if (a.kind == Arg::Kind::Storage) return s.storage[a.storage].bytes;
  const Bytes base = repair_arg(s, a.view->base);
  switch (a.kind) {
    case Arg::Kind::Shrink:
      a.view->start = std::min(a.view->start, base);
      a.view->length = std::min(a.view->length, base - a.view->start);
      return a.view->length;
    case Arg::Kind::Bitcast:
      if (base % dtype_size(a.dtype) != 0) a.dtype = Dtype::Int8;
      return base;
    case Arg::Kind::After:
    case Arg::Kind::Storage:
      return base;
  }
  return base;
}

}  // namespace

Arg storage_arg(StorageId id) {
  Arg a;
  a.kind = Arg::Kind::Storage;
  a.storage = id;
  return a;
}

Entry kernel_call(std::string name, Args args) {
  Entry e;
  e.kind = Entry::Kind::Kernel;
  e.name = std::move(name);
  e.args = std::move(args);
  return e;
}

Storage buffer_decl(std::string name, std::string device, Dtype dtype, Bytes bytes) {
  Storage st;
  st.kind = StorageKind::Buffer;
  st.name = std::move(name);
  st.device = std::move(device);
  st.dtype = dtype;
  st.bytes = bytes;
  return st;
}

Arg shrink_view(Arg base, Bytes start, Bytes length) {
  return make_view(Arg::Kind::Shrink, std::move(base), start, length);
}

Arg bitcast_view(Arg base, Dtype dtype) { return make_view(Arg::Kind::Bitcast, std::move(base), 0, 0, dtype); }

Arg after_view(Arg base) { return make_view(Arg::Kind::After, std::move(base)); }

std::size_t count_entries(const Schedule& s) {
  std::size_t n = 0;
  std::vector<const std::vector<Entry>*> bodies{&s.entries};
  while (!bodies.empty()) {
    const std::vector<Entry>* body = bodies.back();
    bodies.pop_back();
    n += body->size();
    for (const Entry& e : *body) bodies.push_back(&e.body());
  }
  return n;
}

std::size_t view_layers(const Arg& a) {
  std::size_t n = 0;
  for (const Arg* v = &a; v->kind != Arg::Kind::Storage; v = &v->view->base) ++n;
  return n;
}

void drop_unused_storage(Schedule& s) {
  std::vector<bool> used(s.storage.size(), false);
  for_each_arg(s.entries, [&](const Arg& a) { used[storage_of(a)] = true; });
  std::vector<StorageId> renumbered(s.storage.size(), 0);
  std::vector<Storage> kept;
  for (StorageId id = 0; id < s.storage.size(); ++id) {
    if (!used[id]) continue;
    renumbered[id] = static_cast<StorageId>(kept.size());
    kept.push_back(std::move(s.storage[id]));
  }
  s.storage = std::move(kept);
  renumber_storage(s, renumbered);
}

void renumber_storage(Schedule& s, const std::vector<StorageId>& renumbered) {
  for_each_arg(s.entries, [&](Arg& a) {
    Arg* base = &a;
    while (base->kind != Arg::Kind::Storage) base = &base->view->base;
    base->storage = renumbered[base->storage];
  });
  for_each_entry(s.entries, [&](Entry& e) {
    if (e.inplace().empty()) return;
    for (InPlace& p : e.mutable_inplace()) {
      p.out = renumbered[p.out];
      p.in = renumbered[p.in];
    }
  });
}

void repair_inplace(Schedule& s) {
  for_each_entry(s.entries, [](Entry& e) {
    if (e.inplace().empty()) return;
    const auto plain = [&e](StorageId id) {
      return std::any_of(e.args.begin(), e.args.end(),
                         [id](const Arg& a) { return a.kind == Arg::Kind::Storage && a.storage == id; });
    };
    std::vector<InPlace>& pairs = e.mutable_inplace();
    std::erase_if(pairs, [&](const InPlace& p) {
      return e.kind != Entry::Kind::Kernel || p.out == p.in || !plain(p.out) || !plain(p.in);
    });
  });
}

void repair_views(Schedule& s) {
  for_each_arg(s.entries, [&](Arg& a) { repair_arg(s, a); });
}

void repair_v3(Schedule& s) {
  std::set<std::string> recorded;
  std::erase_if(s.entries, [&](const Entry& e) {
    if (e.kind == Entry::Kind::Record) return !recorded.insert(e.name.str()).second;
    return e.kind == Entry::Kind::Wait && !recorded.contains(e.name.str());
  });
  bool any_local = false;
  for (const Storage& st : s.storage) any_local = any_local || st.local;
  if (!any_local) return;
  // The top-level loop that alone takes each storage, or kNone where a
  // top-level call, a top-level loop's flag, or two top-level entries take it.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  constexpr std::size_t kUntaken = kNone - 1;
  std::vector<std::size_t> loop_of(s.storage.size(), kUntaken);
  for (std::size_t i = 0; i < s.entries.size(); ++i) {
    const Entry& top = s.entries[i];
    const bool loop = top.kind == Entry::Kind::Range || top.kind == Entry::Kind::Loop;
    for_each_arg(std::span<const Entry>(&top, 1), [&](const Arg& a) {
      std::size_t& at = loop_of[storage_of(a)];
      at = !loop || (at != kUntaken && at != i) ? kNone : i;
    });
    for (const Arg& a : top.flag()) loop_of[storage_of(a)] = kNone;
  }
  for (StorageId id = 0; id < s.storage.size(); ++id) {
    Storage& st = s.storage[id];
    if (st.local && (loop_of[id] == kNone || st.held || st.io != 0 || st.kind != StorageKind::Buffer)) {
      st.local = false;
    }
  }
}

}  // namespace planck::gen
