#include "gen/shrink.h"

#include <algorithm>
#include <bit>
#include <iterator>
#include <limits>
#include <set>
#include <string>
#include <utility>

#include "gen/schedule_parts.h"

namespace planck::gen {

// Where an edit applies. An entry is found by its indices from the top level
// down; an argument by its entry and its index among the arguments (kFlag:
// the loop's flag); a view layer by its depth below the argument's outermost.
struct Shrinks::Edit {
  enum class Kind : std::uint8_t {
    RemoveEntries,
    Unwrap,
    Collapse,
    LoopToRange,
    CopyToKernel,
    RemoveArg,
    DropViews,
    DropOuterView,
    RemoveUnusedStorage,
    RemoveStorage,
    Bytes0,
    Bytes256,
    BytesHalf,
    NoPhase,
    Unhold,
    Int8,
    Device,
    StartZero,
    RemoveInPlace,
    NoIo,
    RemoveDeviceLine,
    NoCapacity,
    DefaultAlign,
    NoLocal,
    DefaultStream,
  };
  static constexpr std::size_t kFlag = std::numeric_limits<std::size_t>::max();

  Kind kind = Kind::RemoveEntries;
  std::vector<std::size_t> path{};  // entry; for RemoveEntries the first removed
  std::size_t count = 0;            // RemoveEntries
  std::size_t arg = 0;
  std::size_t layer = 0;  // StartZero; RemoveInPlace: the pair; device line edits: the line
  StorageId storage = 0;  // storage edits
  StorageId like = 0;     // Device: the storage whose device it moves to
};

namespace {

using Edit = Shrinks::Edit;

Bytes round_down(Bytes x, Bytes m) { return x - x % m; }

std::vector<Entry>& body_of(Schedule& s, const std::vector<std::size_t>& path, std::size_t levels) {
  std::vector<Entry>* body = &s.entries;
  for (std::size_t i = 0; i < levels; ++i) body = &(*body)[path[i]].mutable_body();
  return *body;
}

Entry& entry_at(Schedule& s, const std::vector<std::size_t>& path) {
  return body_of(s, path, path.size() - 1)[path.back()];
}

Arg& arg_at(Schedule& s, const Edit& edit) {
  Entry& e = entry_at(s, edit.path);
  return edit.arg == Edit::kFlag ? e.mutable_flag().front() : e.args[edit.arg];
}

// The arguments of a loop in the order its entry takes them (docs/planners.md#the-reference-planner-tlsf,
// rule 1): its calls', nested loops' included, then its flag.
void collect_args(const Entry& e, Args& out) {
  for (const Arg& a : e.args) out.push_back(a);
  for (const Entry& inner : e.body()) collect_args(inner, out);
  for (const Arg& a : e.flag()) out.push_back(a);
}

class EditLister {
 public:
  explicit EditLister(const Schedule& s) : s_(s) {}

  std::vector<Edit> list() {
    std::vector<std::size_t> path;
    removals(s_.entries, path);
    entry_edits(s_.entries, path);
    storage_edits();
    return std::move(edits_);
  }

 private:
  // Chunks of every body, halves first, down to single entries: a large
  // irrelevant part goes in one step.
  void removals(const std::vector<Entry>& body, std::vector<std::size_t>& path) {
    for (std::size_t chunk = body.size() / 2; chunk >= 1; chunk /= 2) {
      for (std::size_t start = 0; start + chunk <= body.size(); start += chunk) {
        std::vector<std::size_t> at = path;
        at.push_back(start);
        edits_.push_back({.kind = Edit::Kind::RemoveEntries, .path = std::move(at), .count = chunk});
      }
    }
    if (body.size() == 1) {
      std::vector<std::size_t> at = path;
      at.push_back(0);
      edits_.push_back({.kind = Edit::Kind::RemoveEntries, .path = std::move(at), .count = 1});
    }
    for (std::size_t i = 0; i < body.size(); ++i) {
      path.push_back(i);
      removals(body[i].body(), path);
      path.pop_back();
    }
  }

  void entry_edits(const std::vector<Entry>& body, std::vector<std::size_t>& path) {
    for (std::size_t i = 0; i < body.size(); ++i) {
      const Entry& e = body[i];
      path.push_back(i);
      if (e.kind == Entry::Kind::Range || e.kind == Entry::Kind::Loop) {
        edits_.push_back({.kind = Edit::Kind::Unwrap, .path = path});
        if (!e.body().empty() || e.kind == Entry::Kind::Loop) {
          edits_.push_back({.kind = Edit::Kind::Collapse, .path = path});
        }
      }
      if (e.kind == Entry::Kind::Loop) edits_.push_back({.kind = Edit::Kind::LoopToRange, .path = path});
      if (e.kind == Entry::Kind::Copy) edits_.push_back({.kind = Edit::Kind::CopyToKernel, .path = path});
      if (e.kind == Entry::Kind::Kernel) {
        for (std::size_t a = 0; a < e.args.size(); ++a) {
          edits_.push_back({.kind = Edit::Kind::RemoveArg, .path = path, .arg = a});
        }
        for (std::size_t p = 0; p < e.inplace().size(); ++p) {
          edits_.push_back({.kind = Edit::Kind::RemoveInPlace, .path = path, .layer = p});
        }
      }
      for (std::size_t a = 0; a < e.args.size(); ++a) view_edits(e.args[a], path, a);
      if (!e.flag().empty()) view_edits(e.flag().front(), path, Edit::kFlag);
      entry_edits(e.body(), path);
      path.pop_back();
    }
  }

  void view_edits(const Arg& a, const std::vector<std::size_t>& path, std::size_t slot) {
    const std::size_t layers = view_layers(a);
    if (layers == 0) return;
    if (layers > 1) edits_.push_back({.kind = Edit::Kind::DropViews, .path = path, .arg = slot});
    edits_.push_back({.kind = Edit::Kind::DropOuterView, .path = path, .arg = slot});
    std::size_t layer = 0;
    for (const Arg* v = &a; v->kind != Arg::Kind::Storage; v = &v->view->base, ++layer) {
      if (v->kind == Arg::Kind::Shrink && v->view->start != 0) {
        starts_.push_back({.kind = Edit::Kind::StartZero, .path = path, .arg = slot, .layer = layer});
      }
    }
  }

  void storage_edits() {
    std::vector<bool> used(s_.storage.size(), false);
    for_each_arg(s_.entries, [&](const Arg& a) { used[storage_of(a)] = true; });
    if (std::count(used.begin(), used.end(), false) > 1) edits_.push_back({.kind = Edit::Kind::RemoveUnusedStorage});
    for (StorageId id = static_cast<StorageId>(s_.storage.size()); id-- > 0;) {
      if (!used[id]) edits_.push_back({.kind = Edit::Kind::RemoveStorage, .storage = id});
    }
    for (std::size_t d = 0; d < s_.devices.size(); ++d) {
      edits_.push_back({.kind = Edit::Kind::RemoveDeviceLine, .layer = d});
      if (s_.devices[d].capacity) edits_.push_back({.kind = Edit::Kind::NoCapacity, .layer = d});
      if (s_.devices[d].align != kPlaceAlign) edits_.push_back({.kind = Edit::Kind::DefaultAlign, .layer = d});
    }
    for (StorageId id = 0; id < s_.storage.size(); ++id) {
      if (s_.storage[id].io != 0) edits_.push_back({.kind = Edit::Kind::NoIo, .storage = id});
      if (s_.storage[id].local) edits_.push_back({.kind = Edit::Kind::NoLocal, .storage = id});
    }
    for (std::size_t i = 0; i < s_.entries.size(); ++i) {
      if (s_.entries[i].stream != 0) edits_.push_back({.kind = Edit::Kind::DefaultStream, .path = {i}});
    }
    // The first device in name order among the disks, and among the others.
    std::optional<StorageId> first[2];
    for (StorageId id = 0; id < s_.storage.size(); ++id) {
      std::optional<StorageId>& f = first[is_disk(s_.storage[id].device)];
      if (!f || s_.storage[id].device < s_.storage[*f].device) f = id;
    }
    for (StorageId id = 0; id < s_.storage.size(); ++id) {
      const Storage& st = s_.storage[id];
      if (st.bytes != 0) edits_.push_back({.kind = Edit::Kind::Bytes0, .storage = id});
      if (st.bytes >= 512) edits_.push_back({.kind = Edit::Kind::Bytes256, .storage = id});
      if (st.bytes >= 2 * dtype_size(st.dtype)) edits_.push_back({.kind = Edit::Kind::BytesHalf, .storage = id});
      if (st.phase != 0) edits_.push_back({.kind = Edit::Kind::NoPhase, .storage = id});
      if (st.held) edits_.push_back({.kind = Edit::Kind::Unhold, .storage = id});
      if (st.dtype != Dtype::Int8) edits_.push_back({.kind = Edit::Kind::Int8, .storage = id});
      const StorageId like = *first[is_disk(st.device)];
      if (s_.storage[like].device != st.device) {
        edits_.push_back({.kind = Edit::Kind::Device, .storage = id, .like = like});
      }
    }
    for (Edit& e : starts_) edits_.push_back(std::move(e));
  }

  const Schedule& s_;
  std::vector<Edit> edits_;
  std::vector<Edit> starts_;  // last: a shrink's start matters least
};

Schedule apply(Schedule s, const Edit& edit) {
  switch (edit.kind) {
    case Edit::Kind::RemoveEntries: {
      std::vector<Entry>& body = body_of(s, edit.path, edit.path.size() - 1);
      const auto first = body.begin() + static_cast<std::ptrdiff_t>(edit.path.back());
      body.erase(first, first + static_cast<std::ptrdiff_t>(edit.count));
      break;
    }
    case Edit::Kind::Unwrap: {
      std::vector<Entry>& body = body_of(s, edit.path, edit.path.size() - 1);
      const auto at = body.begin() + static_cast<std::ptrdiff_t>(edit.path.back());
      std::vector<Entry> inner = std::move(at->mutable_body());
      body.insert(body.erase(at), std::make_move_iterator(inner.begin()), std::make_move_iterator(inner.end()));
      break;
    }
    case Edit::Kind::Collapse: {
      // One kernel that takes what the loop takes, in the same order: at the
      // top level the lifetimes stay the same.
      Entry& e = entry_at(s, edit.path);
      Entry body = kernel_call("body");
      collect_args(e, body.args);
      e = std::move(body);
      break;
    }
    case Edit::Kind::CopyToKernel: {
      Entry& e = entry_at(s, edit.path);
      e.kind = Entry::Kind::Kernel;
      e.name = "copied";
      break;
    }
    case Edit::Kind::LoopToRange: {
      Entry& e = entry_at(s, edit.path);
      e.kind = Entry::Kind::Range;
      e.mutable_flag().clear();
      break;
    }
    case Edit::Kind::RemoveArg: {
      Entry& e = entry_at(s, edit.path);
      e.args.erase(e.args.begin() + static_cast<std::ptrdiff_t>(edit.arg));
      break;
    }
    case Edit::Kind::DropViews: {
      Arg& a = arg_at(s, edit);
      a = storage_arg(storage_of(a));
      break;
    }
    case Edit::Kind::DropOuterView: {
      Arg& a = arg_at(s, edit);
      Arg base = std::move(a.view->base);
      a = std::move(base);
      break;
    }
    case Edit::Kind::StartZero: {
      Arg* v = &arg_at(s, edit);
      for (std::size_t i = 0; i < edit.layer; ++i) v = &v->view->base;
      v->view->start = 0;
      break;
    }
    case Edit::Kind::RemoveUnusedStorage:
      drop_unused_storage(s);
      break;
    case Edit::Kind::RemoveStorage: {
      s.storage.erase(s.storage.begin() + edit.storage);
      std::vector<StorageId> renumbered(s.storage.size() + 1);
      for (StorageId id = 0; id < renumbered.size(); ++id) renumbered[id] = id > edit.storage ? id - 1 : id;
      renumber_storage(s, renumbered);
      break;
    }
    case Edit::Kind::RemoveInPlace: {
      std::vector<InPlace>& pairs = entry_at(s, edit.path).mutable_inplace();
      pairs.erase(pairs.begin() + static_cast<std::ptrdiff_t>(edit.layer));
      break;
    }
    case Edit::Kind::NoIo:
      s.storage[edit.storage].io = 0;
      break;
    case Edit::Kind::RemoveDeviceLine:
      s.devices.erase(s.devices.begin() + static_cast<std::ptrdiff_t>(edit.layer));
      break;
    case Edit::Kind::NoCapacity:
      s.devices[edit.layer].capacity.reset();
      break;
    case Edit::Kind::DefaultAlign:
      s.devices[edit.layer].align = kPlaceAlign;
      break;
    case Edit::Kind::NoLocal:
      s.storage[edit.storage].local = false;
      break;
    case Edit::Kind::DefaultStream:
      s.entries[edit.path.front()].stream = 0;
      break;
    case Edit::Kind::Bytes0:
      s.storage[edit.storage].bytes = 0;
      break;
    case Edit::Kind::Bytes256:
      s.storage[edit.storage].bytes = 256;
      break;
    case Edit::Kind::BytesHalf: {
      Storage& st = s.storage[edit.storage];
      st.bytes = round_down(st.bytes / 2, dtype_size(st.dtype));
      break;
    }
    case Edit::Kind::NoPhase:
      s.storage[edit.storage].phase = 0;
      break;
    case Edit::Kind::Unhold:
      s.storage[edit.storage].held = false;
      break;
    case Edit::Kind::Int8:
      s.storage[edit.storage].dtype = Dtype::Int8;
      break;
    case Edit::Kind::Device:
      s.storage[edit.storage].device = s.storage[edit.like].device;
      break;
  }
  repair_views(s);
  repair_inplace(s);
  repair_v3(s);
  return s;
}

}  // namespace

Shrinks::Shrinks(Schedule original) : original_(std::move(original)), edits_(EditLister(original_).list()) {}
Shrinks::Shrinks(Shrinks&&) noexcept = default;
Shrinks& Shrinks::operator=(Shrinks&&) noexcept = default;
Shrinks::~Shrinks() = default;

std::size_t Shrinks::size() const { return edits_.size(); }

Schedule Shrinks::operator[](std::size_t i) const { return apply(original_, edits_[i]); }

std::vector<Schedule> shrink_candidates(const Schedule& s) {
  const Shrinks shrinks(s);
  std::vector<Schedule> out;
  out.reserve(shrinks.size());
  for (std::size_t i = 0; i < shrinks.size(); ++i) out.push_back(shrinks[i]);
  return out;
}

std::vector<std::size_t> shrink_measure(const Schedule& s) {
  std::size_t loops = 0;
  std::size_t copies = 0;
  std::size_t args = 0;
  std::vector<const std::vector<Entry>*> bodies{&s.entries};
  while (!bodies.empty()) {
    const std::vector<Entry>* body = bodies.back();
    bodies.pop_back();
    for (const Entry& e : *body) {
      if (e.kind == Entry::Kind::Loop) ++loops;
      if (e.kind == Entry::Kind::Copy) ++copies;
      args += e.args.size() + e.flag().size();
      bodies.push_back(&e.body());
    }
  }
  std::size_t layers = 0;
  std::size_t starts = 0;
  std::size_t wide = 0;
  for_each_arg(s.entries, [&](const Arg& a) {
    for (const Arg* v = &a; v->kind != Arg::Kind::Storage; v = &v->view->base) {
      ++layers;
      if (v->kind == Arg::Kind::Shrink && v->view->start != 0) ++starts;
      if (v->kind == Arg::Kind::Bitcast && v->dtype != Dtype::Int8) ++wide;
    }
  });
  std::set<std::string> devices;
  for (const Storage& st : s.storage) devices.insert(st.device);
  std::size_t bits = 0;
  std::size_t phases = 0;
  std::size_t held = 0;
  std::size_t ranks = 0;
  // Model v2's words: device lines, capacities, aligns, io words and
  // `inplace=` pairs.
  std::size_t v2 = 0;
  for (const Device& d : s.devices) v2 += 1 + d.capacity.has_value() + (d.align != kPlaceAlign);
  for_each_entry(s.entries, [&](const Entry& e) { v2 += e.inplace().size(); });
  // And model v3's: streams named, events, local buffers.
  for (const Entry& e : s.entries) {
    v2 += (e.stream != 0) + (e.kind == Entry::Kind::Record || e.kind == Entry::Kind::Wait);
  }
  for (const Storage& st : s.storage) v2 += st.local;
  for (const Storage& st : s.storage) {
    v2 += static_cast<std::size_t>(std::popcount(st.io));
    bits += static_cast<std::size_t>(std::bit_width(st.bytes));
    phases += st.phase != 0;
    held += st.held;
    wide += st.dtype != Dtype::Int8;
    ranks += static_cast<std::size_t>(std::distance(devices.begin(), devices.find(st.device)));
  }
  return {count_entries(s), loops, copies, args, layers, s.storage.size(), v2, bits, phases, held, wide, ranks, starts};
}

}  // namespace planck::gen
