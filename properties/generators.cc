#include "properties/generators.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planck::props {
namespace {

constexpr std::array<std::string_view, 4> kDevices{"CPU", "CUDA:0", "CUDA:1", "METAL"};
constexpr std::array<std::string_view, 2> kDisks{"DISK:/data/w.bin", "DISK:/tmp/cache.bin"};
constexpr std::array<std::string_view, 5> kKernels{"matmul", "relu", "add", "step", "reduce"};

// Every storage together costs at most this much, counting each at
// max(256, rounded size): the planners' capacity (twice the planned part)
// fits 64 bits, and every arena (at most its buffers' total) stays below the
// 2^62 a declaration can hold.
constexpr Bytes kTotalLimit = kMaxBytes - kPlaceAlign;
// The most one storage that is not huge can cost: its bytes (below 2^26), a
// phase below 2048, rounded up.
constexpr Bytes kOrdinaryCost = (Bytes{1} << 26) + 2048 + kPlaceAlign;
// A huge size is at least this many bytes.
constexpr Bytes kHugeMin = Bytes{1} << 40;

// max(256, round_up(phase + bytes, 256)), or nullopt past 2^64. Sizes and
// phases of a valid schedule are below 2^62, so the sum cannot wrap.
std::optional<Bytes> cost(Bytes phase, Bytes bytes) {
  std::optional<Bytes> r = checked_round_up(phase + bytes, kPlaceAlign);
  if (!r) return std::nullopt;
  return std::max(kPlaceAlign, *r);
}

// Uniform-enough choices from RapidCheck's splittable random source: the
// same Random gives the same schedule.
class Dice {
 public:
  explicit Dice(const rc::Random& random) : random_(random) {}

  // Uniform in [lo, hi].
  Bytes between(Bytes lo, Bytes hi) {
    const Bytes span = hi - lo;
    const Bytes r = random_.next();
    return span == std::numeric_limits<Bytes>::max() ? r : lo + r % (span + 1);
  }
  int between(int lo, int hi) { return static_cast<int>(between(static_cast<Bytes>(lo), static_cast<Bytes>(hi))); }
  std::size_t index(std::size_t n) { return static_cast<std::size_t>(between(Bytes{0}, Bytes{n - 1})); }
  bool percent(int p) { return between(0, 99) < p; }

 private:
  rc::Random random_;
};

Bytes round_down(Bytes x, Bytes m) { return x - x % m; }

// --------------------------------------------------------------- generation

class Builder {
 public:
  Builder(const ScheduleOptions& options, const rc::Random& random, int size)
      : options_(options), dice_(random), size_(std::max(size, 0)) {}

  Schedule build() {
    choose_devices();
    const int storage = scaled(options_.max_storage);
    // Ordinary sizes of every declaration fit what the huge ones leave.
    huge_left_ = kTotalLimit - static_cast<Bytes>(storage) * kOrdinaryCost;
    for (int i = 0; i < storage; ++i) declare(i);
    const int entries = scaled(options_.max_entries);
    for (int i = 0; i < entries; ++i) {
      window_ = s_.storage.size() * static_cast<std::size_t>(i) / static_cast<std::size_t>(entries);
      s_.entries.push_back(entry(0));
    }
    return std::move(s_);
  }

 private:
  // 1 at size 0; at the nominal size, from a quarter of `most` to `most`;
  // more past it (RC_PARAMS max_size above 100).
  int scaled(int most) {
    const int high = 1 + (most - 1) * size_ / rc::kNominalSize;
    return dice_.between(std::max(1, high / 4), high);
  }

  void choose_devices() {
    std::vector<std::string_view> pool(kDevices.begin(), kDevices.end());
    const int n = dice_.between(1, std::min<int>(options_.max_devices, static_cast<int>(pool.size())));
    for (int i = 0; i < n; ++i) {
      const std::size_t k = dice_.index(pool.size());
      devices_.emplace_back(pool[k]);
      pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(k));
    }
    const int disks = dice_.between(0, std::min<int>(options_.max_disks, static_cast<int>(kDisks.size())));
    for (int i = 0; i < disks; ++i) disks_.emplace_back(kDisks[static_cast<std::size_t>(i)]);
  }

  void declare(int i) {
    Storage st;
    const int kind = dice_.between(0, 99);
    const int others = (100 - options_.buffer_percent) / 2;
    st.kind = kind < options_.buffer_percent            ? StorageKind::Buffer
              : kind < options_.buffer_percent + others ? StorageKind::Param
                                                        : StorageKind::Alloc;
    st.device = !disks_.empty() && dice_.percent(12) ? disks_[dice_.index(disks_.size())]
                                                     : devices_[dice_.index(devices_.size())];
    st.dtype = static_cast<Dtype>(dice_.between(0, kDtypeCount - 1));
    if (st.kind == StorageKind::Buffer) {
      const int phase = dice_.between(0, 99);
      st.phase = phase < 55   ? 0
                 : phase < 95 ? dice_.between(Bytes{1}, Bytes{255})
                              : dice_.between(Bytes{256}, Bytes{2047});
      st.held = dice_.percent(12);
    }
    st.bytes = bytes(st);
    st.name = name(st, i);
    s_.storage.push_back(std::move(st));
  }

  Bytes bytes(const Storage& st) {
    const Bytes unit = dtype_size(st.dtype);
    const Bytes most = std::min(options_.max_bytes, (Bytes{1} << 26) - 1);
    const int roll = dice_.between(0, 99);
    if (roll < 8) return 0;
    if (roll < 95 || !options_.huge_sizes || huge_left_ < 2 * kHugeMin) {
      // Mostly a few elements, so that sizes round up and small buffers pile up.
      const Bytes cap = most / unit;
      const Bytes elements = roll < 50   ? dice_.between(Bytes{1}, std::min<Bytes>(64, cap))
                             : roll < 80 ? dice_.between(Bytes{1}, std::min<Bytes>(16384, cap))
                                         : dice_.between(Bytes{1}, cap);
      return unit * elements;
    }
    // Near 2^62 for the first huge size, then halves of what is left.
    const Bytes b = round_down(dice_.between((huge_left_ - 4096) / 2, huge_left_ - 4096), unit);
    huge_left_ -= *cost(st.phase, b);
    return b;
  }

  std::string name(const Storage& st, int i) {
    // Names that arena names would take, so that the rewrite has to skip them.
    if (dice_.percent(6)) {
      std::string arena = fmt::format("arena{}", dice_.between(0, 2));
      if (names_.insert(arena).second) return arena;
    }
    std::string_view prefix = st.kind == StorageKind::Param   ? "x"
                              : st.kind == StorageKind::Alloc ? "a"
                              : is_disk(st.device)            ? "d"
                              : st.held                       ? "w"
                                                              : "t";
    std::string out = dice_.percent(10) ? fmt::format("_{}{}.out", prefix, i) : fmt::format("{}{}", prefix, i);
    names_.insert(out);
    return out;
  }

  StorageId pick_storage() {
    const std::size_t n = s_.storage.size();
    if (dice_.percent(25)) return static_cast<StorageId>(dice_.index(n));
    // Mostly storage near the window, which slides over the declarations as
    // the entries go on, so that lifetimes start and end all along the schedule.
    const auto near = static_cast<std::ptrdiff_t>(window_) + dice_.between(0, 4) - 2;
    return static_cast<StorageId>(std::clamp<std::ptrdiff_t>(near, 0, static_cast<std::ptrdiff_t>(n) - 1));
  }

  Arg arg() {
    Arg a = storage_arg(pick_storage());
    Bytes size = s_.storage[a.storage].bytes;
    const int layers = dice_.percent(55) ? 0 : dice_.between(1, options_.max_view_depth);
    for (int i = 0; i < layers; ++i) {
      Arg view;
      const int kind = dice_.between(0, 99);
      if (kind < 40) {
        view.kind = Arg::Kind::Shrink;
        view.start = dice_.between(Bytes{0}, size);
        view.length = dice_.between(Bytes{0}, size - view.start);
        size = view.length;
      } else if (kind < 75) {
        view.kind = Arg::Kind::Bitcast;
        std::vector<Dtype> fits;
        for (int d = 0; d < kDtypeCount; ++d) {
          if (size % dtype_size(static_cast<Dtype>(d)) == 0) fits.push_back(static_cast<Dtype>(d));
        }
        view.dtype = fits[dice_.index(fits.size())];
      } else {
        view.kind = Arg::Kind::After;
      }
      view.base.push_back(std::move(a));
      a = std::move(view);
    }
    return a;
  }

  Entry entry(int depth) {
    Entry e;
    const int kind = dice_.between(0, 99);
    const bool may_loop = depth < options_.max_loop_depth;
    if (may_loop && kind < 28) {
      e.kind = kind < 14 ? Entry::Kind::Range : Entry::Kind::Loop;
      if (e.kind == Entry::Kind::Loop) e.flag.push_back(arg());
      const int body = dice_.percent(8) ? 0 : dice_.between(1, 3);
      for (int i = 0; i < body; ++i) e.body.push_back(entry(depth + 1));
      return e;
    }
    if (kind < 42) {
      e.kind = Entry::Kind::Copy;
      e.args.push_back(arg());
      e.args.push_back(arg());
      return e;
    }
    e.kind = Entry::Kind::Kernel;
    e.name = std::string(kKernels[dice_.index(kKernels.size())]);
    const int args = dice_.percent(5) ? 0 : dice_.between(1, 4);
    for (int i = 0; i < args; ++i) e.args.push_back(arg());
    return e;
  }

  const ScheduleOptions& options_;
  Dice dice_;
  int size_;
  Schedule s_;
  std::vector<std::string> devices_;
  std::vector<std::string> disks_;
  std::set<std::string> names_;
  Bytes huge_left_ = 0;
  std::size_t window_ = 0;
};

// The storage each top-level entry takes, through views, loops and flags.
void collect_taken(const Entry& e, std::vector<StorageId>& out) {
  for (const Arg& a : e.args) out.push_back(storage_of(a));
  for (const Entry& inner : e.body) collect_taken(inner, out);
  for (const Arg& a : e.flag) out.push_back(storage_of(a));
}

// Whether some entry takes buffers of one device that cannot all fit in 2^64
// bytes at once, so that no plan can exist.
bool cannot_fit(const Schedule& s) {
  for (const Entry& e : s.entries) {
    std::vector<StorageId> taken;
    collect_taken(e, taken);
    std::sort(taken.begin(), taken.end());
    taken.erase(std::unique(taken.begin(), taken.end()), taken.end());
    std::vector<std::pair<std::string, Bytes>> per_device;
    for (StorageId id : taken) {
      const Storage& st = s.storage[id];
      if (st.kind != StorageKind::Buffer || st.held || is_disk(st.device)) continue;
      auto it = std::find_if(per_device.begin(), per_device.end(), [&](const auto& d) { return d.first == st.device; });
      if (it == per_device.end()) {
        per_device.emplace_back(st.device, 0);
        it = per_device.end() - 1;
      }
      std::optional<Bytes> c = cost(st.phase, st.bytes);
      std::optional<Bytes> sum = c ? checked_add(it->second, *c) : std::nullopt;
      if (!sum) return true;
      it->second = *sum;
    }
  }
  return false;
}

// ---------------------------------------------------------------- shrinking

// Where an edit applies. An entry is found by its indices from the top level
// down; an argument by its entry and its index among the arguments (kFlag:
// the loop's flag); a view layer by its depth below the argument's outermost.
struct Edit {
  enum class Kind {
    RemoveEntries,
    Unwrap,
    Collapse,
    LoopToRange,
    CopyToKernel,
    RemoveArg,
    DropViews,
    DropOuterView,
    RemoveStorage,
    Bytes0,
    Bytes256,
    BytesHalf,
    NoPhase,
    Unhold,
    Int8,
    Device,
    StartZero,
  };
  static constexpr std::size_t kFlag = std::numeric_limits<std::size_t>::max();

  Kind kind = Kind::RemoveEntries;
  std::vector<std::size_t> path{};  // entry; for RemoveEntries the first removed
  std::size_t count = 0;            // RemoveEntries
  std::size_t arg = 0;
  std::size_t layer = 0;  // StartZero
  StorageId storage = 0;  // storage edits
  std::string device{};   // Device
};

std::vector<Entry>& body_of(Schedule& s, const std::vector<std::size_t>& path, std::size_t levels) {
  std::vector<Entry>* body = &s.entries;
  for (std::size_t i = 0; i < levels; ++i) body = &(*body)[path[i]].body;
  return *body;
}

Entry& entry_at(Schedule& s, const std::vector<std::size_t>& path) {
  return body_of(s, path, path.size() - 1)[path.back()];
}

Arg& arg_at(Schedule& s, const Edit& edit) {
  Entry& e = entry_at(s, edit.path);
  return edit.arg == Edit::kFlag ? e.flag.front() : e.args[edit.arg];
}

// The shrinker only sees generated schedules, whose loops and views nest a
// few levels deep, so the recursions below are shallow.
void for_each_arg(std::vector<Entry>& entries, auto&& f) {
  for (Entry& e : entries) {
    for (Arg& a : e.args) f(a);
    for (Arg& a : e.flag) f(a);
    for_each_arg(e.body, f);
  }
}

void for_each_arg(const std::vector<Entry>& entries, auto&& f) {
  for (const Entry& e : entries) {
    for (const Arg& a : e.args) f(a);
    for (const Arg& a : e.flag) f(a);
    for_each_arg(e.body, f);
  }
}

void collect_args(const Entry& e, std::vector<Arg>& out) {
  for (const Arg& a : e.args) out.push_back(a);
  for (const Entry& inner : e.body) collect_args(inner, out);
  for (const Arg& a : e.flag) out.push_back(a);
}

std::size_t view_layers(const Arg& a) {
  std::size_t n = 0;
  for (const Arg* v = &a; v->kind != Arg::Kind::Storage; v = &v->base.front()) ++n;
  return n;
}

// Returns the size of the bytes `a` views, after clamping it to fit.
Bytes repair_arg(const Schedule& s, Arg& a) {
  if (a.kind == Arg::Kind::Storage) return s.storage[a.storage].bytes;
  const Bytes base = repair_arg(s, a.base.front());
  switch (a.kind) {
    case Arg::Kind::Shrink:
      a.start = std::min(a.start, base);
      a.length = std::min(a.length, base - a.start);
      return a.length;
    case Arg::Kind::Bitcast:
      if (base % dtype_size(a.dtype) != 0) a.dtype = Dtype::Int8;
      return base;
    case Arg::Kind::After:
    case Arg::Kind::Storage:
      return base;
  }
  return base;
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
      removals(body[i].body, path);
      path.pop_back();
    }
  }

  void entry_edits(const std::vector<Entry>& body, std::vector<std::size_t>& path) {
    for (std::size_t i = 0; i < body.size(); ++i) {
      const Entry& e = body[i];
      path.push_back(i);
      if (e.kind == Entry::Kind::Range || e.kind == Entry::Kind::Loop) {
        edits_.push_back({.kind = Edit::Kind::Unwrap, .path = path});
        if (!e.body.empty() || e.kind == Entry::Kind::Loop) {
          edits_.push_back({.kind = Edit::Kind::Collapse, .path = path});
        }
      }
      if (e.kind == Entry::Kind::Loop) edits_.push_back({.kind = Edit::Kind::LoopToRange, .path = path});
      if (e.kind == Entry::Kind::Copy) edits_.push_back({.kind = Edit::Kind::CopyToKernel, .path = path});
      if (e.kind == Entry::Kind::Kernel) {
        for (std::size_t a = 0; a < e.args.size(); ++a) {
          edits_.push_back({.kind = Edit::Kind::RemoveArg, .path = path, .arg = a});
        }
      }
      for (std::size_t a = 0; a < e.args.size(); ++a) view_edits(e.args[a], path, a);
      if (!e.flag.empty()) view_edits(e.flag.front(), path, Edit::kFlag);
      entry_edits(e.body, path);
      path.pop_back();
    }
  }

  void view_edits(const Arg& a, const std::vector<std::size_t>& path, std::size_t slot) {
    const std::size_t layers = view_layers(a);
    if (layers == 0) return;
    if (layers > 1) edits_.push_back({.kind = Edit::Kind::DropViews, .path = path, .arg = slot});
    edits_.push_back({.kind = Edit::Kind::DropOuterView, .path = path, .arg = slot});
    std::size_t layer = 0;
    for (const Arg* v = &a; v->kind != Arg::Kind::Storage; v = &v->base.front(), ++layer) {
      if (v->kind == Arg::Kind::Shrink && v->start != 0) {
        starts_.push_back({.kind = Edit::Kind::StartZero, .path = path, .arg = slot, .layer = layer});
      }
    }
  }

  void storage_edits() {
    std::vector<bool> used(s_.storage.size(), false);
    for_each_arg(s_.entries, [&](const Arg& a) { used[storage_of(a)] = true; });
    for (StorageId id = static_cast<StorageId>(s_.storage.size()); id-- > 0;) {
      if (!used[id]) edits_.push_back({.kind = Edit::Kind::RemoveStorage, .storage = id});
    }
    for (StorageId id = 0; id < s_.storage.size(); ++id) {
      const Storage& st = s_.storage[id];
      if (st.bytes != 0) edits_.push_back({.kind = Edit::Kind::Bytes0, .storage = id});
      if (st.bytes >= 512) edits_.push_back({.kind = Edit::Kind::Bytes256, .storage = id});
      if (st.bytes >= 2 * dtype_size(st.dtype)) edits_.push_back({.kind = Edit::Kind::BytesHalf, .storage = id});
      if (st.phase != 0) edits_.push_back({.kind = Edit::Kind::NoPhase, .storage = id});
      if (st.held) edits_.push_back({.kind = Edit::Kind::Unhold, .storage = id});
      if (st.dtype != Dtype::Int8) edits_.push_back({.kind = Edit::Kind::Int8, .storage = id});
      // Onto the first device (in name order) of its kind, disk or not.
      std::string first = st.device;
      for (const Storage& other : s_.storage) {
        if (is_disk(other.device) == is_disk(st.device)) first = std::min(first, other.device);
      }
      if (first != st.device) edits_.push_back({.kind = Edit::Kind::Device, .storage = id, .device = first});
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
      std::vector<Entry> inner = std::move(at->body);
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
      e.flag.clear();
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
      Arg base = std::move(a.base.front());
      a = std::move(base);
      break;
    }
    case Edit::Kind::StartZero: {
      Arg* v = &arg_at(s, edit);
      for (std::size_t i = 0; i < edit.layer; ++i) v = &v->base.front();
      v->start = 0;
      break;
    }
    case Edit::Kind::RemoveStorage:
      s.storage.erase(s.storage.begin() + edit.storage);
      for_each_arg(s.entries, [&](Arg& a) {
        Arg* base = &a;
        while (base->kind != Arg::Kind::Storage) base = &base->base.front();
        if (base->storage > edit.storage) --base->storage;
      });
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
      s.storage[edit.storage].device = edit.device;
      break;
  }
  repair_views(s);
  return s;
}

Schedule overflowing(const rc::Random& random, int size) {
  ScheduleOptions base = ScheduleOptions::small();
  base.max_disks = 0;
  // Two independent streams: one for the ordinary part, one for the rest.
  rc::Random ordinary = random;
  const rc::Random rest = ordinary.split();
  Schedule s = Builder(base, ordinary, size).build();
  Dice dice(rest);

  std::string device;
  for (const Storage& st : s.storage) {
    if (!is_disk(st.device)) device = st.device;
  }
  Entry all = kernel_call("all");
  const int huge = dice.between(5, 7);
  for (int i = 0; i < huge; ++i) {
    Storage st = buffer_decl(fmt::format("huge{}", i), device, static_cast<Dtype>(dice.between(0, kDtypeCount - 1)), 0);
    st.phase = dice.percent(50) ? 0 : dice.between(Bytes{1}, Bytes{255});
    st.bytes = round_down(dice.between(kMaxBytes - (Bytes{1} << 40), kMaxBytes - 1), dtype_size(st.dtype));
    all.args.push_back(storage_arg(static_cast<StorageId>(s.storage.size())));
    s.storage.push_back(std::move(st));
  }
  const std::size_t at = dice.index(s.entries.size() + 1);
  s.entries.insert(s.entries.begin() + static_cast<std::ptrdiff_t>(at), std::move(all));
  return s;
}

}  // namespace

ScheduleOptions ScheduleOptions::small() {
  ScheduleOptions o;
  o.max_devices = 2;
  o.max_disks = 1;
  o.max_storage = 24;
  o.max_entries = 16;
  o.buffer_percent = 90;
  o.max_loop_depth = 2;
  o.max_view_depth = 2;
  o.huge_sizes = false;
  o.max_bytes = 32 * kPlaceAlign;
  o.longer_past_nominal_size = false;
  return o;
}

rc::Gen<Schedule> schedules(ScheduleOptions options) {
  return [options](const rc::Random& random, int size) {
    return rc::shrinkable::shrinkRecur(Builder(options, random, size).build(), &shrink_schedule);
  };
}

rc::Gen<Schedule> overflowing_schedules() {
  return [](const rc::Random& random, int size) {
    // Shrinks keep the schedule unplannable, else a planner that wrongly
    // accepts it would shrink to a schedule it rightly accepts.
    return rc::shrinkable::shrinkRecur(
        overflowing(random, size), [](const Schedule& s) { return rc::seq::filter(shrink_schedule(s), &cannot_fit); });
  };
}

rc::Seq<Schedule> shrink_schedule(const Schedule& s) {
  return rc::seq::map(rc::seq::fromContainer(EditLister(s).list()), [s](const Edit& edit) { return apply(s, edit); });
}

Arg storage_arg(StorageId id) {
  Arg a;
  a.kind = Arg::Kind::Storage;
  a.storage = id;
  return a;
}

Entry kernel_call(std::string name, std::vector<Arg> args) {
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

std::size_t count_entries(const Schedule& s) {
  std::size_t n = 0;
  std::vector<const std::vector<Entry>*> bodies{&s.entries};
  while (!bodies.empty()) {
    const std::vector<Entry>* body = bodies.back();
    bodies.pop_back();
    n += body->size();
    for (const Entry& e : *body) bodies.push_back(&e.body);
  }
  return n;
}

void repair_views(Schedule& s) {
  for_each_arg(s.entries, [&](Arg& a) { repair_arg(s, a); });
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
      args += e.args.size() + e.flag.size();
      bodies.push_back(&e.body);
    }
  }
  std::size_t layers = 0;
  std::size_t starts = 0;
  std::size_t wide = 0;
  for_each_arg(s.entries, [&](const Arg& a) {
    for (const Arg* v = &a; v->kind != Arg::Kind::Storage; v = &v->base.front()) {
      ++layers;
      if (v->kind == Arg::Kind::Shrink && v->start != 0) ++starts;
      if (v->kind == Arg::Kind::Bitcast && v->dtype != Dtype::Int8) ++wide;
    }
  });
  std::set<std::string> devices;
  for (const Storage& st : s.storage) devices.insert(st.device);
  std::size_t bits = 0;
  std::size_t phases = 0;
  std::size_t held = 0;
  std::size_t ranks = 0;
  for (const Storage& st : s.storage) {
    bits += static_cast<std::size_t>(std::bit_width(st.bytes));
    phases += st.phase != 0;
    held += st.held;
    wide += st.dtype != Dtype::Int8;
    ranks += static_cast<std::size_t>(std::distance(devices.begin(), devices.find(st.device)));
  }
  return {count_entries(s), loops, copies, args, layers, s.storage.size(), bits, phases, held, wide, ranks, starts};
}

}  // namespace planck::props
