#include "gen/random_schedules.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gen/schedule_parts.h"

namespace planck::gen {
namespace {

constexpr std::array<std::string_view, 4> kDevices{"CPU", "CUDA:0", "CUDA:1", "METAL"};
constexpr std::array<std::string_view, 2> kDisks{"DISK:/data/w.bin", "DISK:/tmp/cache.bin"};
constexpr std::array<std::string_view, 5> kKernels{"matmul", "relu", "add", "step", "reduce"};

// Every storage together costs at most this much, counting each at
// max(256, rounded size): the planners' capacity (twice the planned part)
// fits 64 bits, and every arena (at most its buffers' total) stays below the
// 2^62 a declaration can hold.
constexpr Bytes kTotalLimit = kMaxBytes - kPlaceAlign;
constexpr Bytes kPhaseLimit = Bytes{1} << 20;
constexpr Bytes kUnitLimit = Bytes{1} << 20;

// The aligns a device line may give, ExecuTorch's 16 and TFLite's 64 more
// often than the others.
constexpr std::array<Bytes, 14> kAligns{1, 8, 16, 16, 32, 64, 64, 128, 256, 512, 1024, 4096, 65536, Bytes{1} << 20};

// max(unit, round_up(phase + bytes, unit)), unit a power of two. Sizes and phases of a valid schedule are below 2^62, so neither the
// sum nor the rounding wraps.
Bytes cost(Bytes phase, Bytes bytes, Bytes unit = kPlaceAlign) {
  const Bytes r = phase + bytes;
  return std::max(unit, (r + unit - 1) / unit * unit);
}

Bytes round_down(Bytes x, Bytes m) { return x - x % m; }

Dtype any_dtype(Choices& c) { return static_cast<Dtype>(c.between(0, kDtypeCount - 1)); }

class Builder {
 public:
  Builder(const ScheduleOptions& options, Choices& choices)
      : options_(options), features_(options.features), c_(choices), size_(std::max(options.size, 0)) {
    max_phase_ = std::min(options.max_phase, kPhaseLimit - 1);
    unit_ = std::bit_ceil(std::clamp<Bytes>(options.bytes_unit, 1, kUnitLimit));
    // One element of the widest dtype at least, so that every storage can
    // have a size that is not 0.
    max_bytes_ = std::clamp(options.max_bytes, std::max<Bytes>(unit_, 8), kHugeBytes - 1);
  }

  Schedule build() {
    choose_devices();
    const int storage = scaled(options_.max_storage);
    // Ordinary sizes of every declaration fit what the huge ones leave.
    max_bytes_ = std::min(max_bytes_, kTotalLimit / static_cast<Bytes>(storage) - max_phase_ - block_);
    huge_left_ = kTotalLimit - static_cast<Bytes>(storage) * cost(max_phase_, max_bytes_, block_);
    s_.storage.reserve(static_cast<std::size_t>(storage));
    for (int i = 0; i < storage; ++i) declare(i);
    const int entries = scaled(options_.max_entries);
    s_.entries.reserve(static_cast<std::size_t>(entries));
    for (int i = 0; i < entries; ++i) {
      window_ = s_.storage.size() * static_cast<std::size_t>(i) / static_cast<std::size_t>(entries);
      s_.entries.push_back(entry(0));
    }
    if (!features_.unused_storage) drop_unused_storage(s_);
    if (features_.inplace) {
      declare_inplace();
      repair_views(s_);  // a bitcast of a buffer made larger may no longer divide it
    }
    if (features_.local) declare_local();
    if (features_.capacity) give_capacities();
    if (features_.streams) spread_over_streams();
    return std::move(s_);
  }

 private:
  // 1 at size 0; at the nominal size 100, from a quarter of `most` to
  // `most`; more past it.
  int scaled(int most) {
    const long high = 1 + static_cast<long>(std::max(most, 1) - 1) * size_ / 100;
    const int top = static_cast<int>(std::min<long>(high, 1 << 24));
    return c_.between(std::max(1, top / 4), top);
  }

  void choose_devices() {
    std::vector<std::string_view> pool(kDevices.begin(), kDevices.end());
    const int most = features_.several_devices ? std::clamp(options_.max_devices, 1, static_cast<int>(pool.size())) : 1;
    const int n = c_.between(1, most);
    for (int i = 0; i < n; ++i) {
      const std::size_t k = c_.below(pool.size());
      devices_.emplace_back(pool[k]);
      pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(k));
      // A device line with an align, or with a capacity only (given when
      // the storage is known), or none.
      const bool aligned = features_.align && c_.percent(40);
      const bool bounded = features_.capacity && c_.percent(30);
      if (!aligned && !bounded) continue;
      Device d{.name = devices_.back()};
      if (aligned) d.align = kAligns[c_.below(kAligns.size())];
      if (bounded) d.capacity = 0;  // made by give_capacities
      block_ = std::max(block_, d.align);
      s_.devices.push_back(std::move(d));
    }
    if (!features_.disks) return;
    const int disks = c_.between(0, std::clamp(options_.max_disks, 0, static_cast<int>(kDisks.size())));
    for (int i = 0; i < disks; ++i) disks_.emplace_back(kDisks[static_cast<std::size_t>(i)]);
  }

  void declare(int i) {
    Storage st;
    st.kind = StorageKind::Buffer;
    if (features_.alloc_param) {
      const int kind = c_.between(0, 99);
      const int others = (100 - options_.buffer_percent) / 2;
      st.kind = kind < options_.buffer_percent            ? StorageKind::Buffer
                : kind < options_.buffer_percent + others ? StorageKind::Param
                                                          : StorageKind::Alloc;
    }
    st.device = !disks_.empty() && c_.percent(12) ? disks_[c_.below(disks_.size())] : devices_[c_.below(devices_.size())];
    st.dtype = any_dtype(c_);
    if (st.kind == StorageKind::Buffer) {
      st.phase = phase();
      st.held = features_.held && c_.percent(12);
      st.io = io_words();
    }
    st.bytes = bytes(st);
    st.name = name(st, i);
    s_.storage.push_back(std::move(st));
  }

  // `input`, `output`, `state` or none, each of those switched on about one
  // buffer in ten; input and output together now and then.
  std::uint8_t io_words() {
    std::uint8_t io = 0;
    if (features_.state && c_.percent(7)) return kState;
    if (features_.inputs && c_.percent(10)) io |= kInput;
    if (features_.outputs && c_.percent(10)) io |= kOutput;
    return io;
  }

  // The first and last top-level entry that takes each storage (docs/planners.md#the-reference-planner-tlsf,
  // rule 1, without the stretching of rule 3), or -1.
  void top_level_uses(std::vector<long>& first, std::vector<long>& last) const {
    first.assign(s_.storage.size(), -1);
    last.assign(s_.storage.size(), -1);
    for (std::size_t i = 0; i < s_.entries.size(); ++i) {
      for_each_arg(std::span<const Entry>(&s_.entries[i], 1), [&](const Arg& a) {
        const StorageId id = storage_of(a);
        if (first[id] < 0) first[id] = static_cast<long>(i);
        last[id] = static_cast<long>(i);
      });
    }
  }

  // `inplace=OUT:IN` on kernels at every depth: mostly where IN's last
  // top-level entry and OUT's first are the kernel's (where docs/model-v2.md
  // lets OUT take IN's bytes, at the top level), now and then anywhere.
  // Where one is made, IN is often given OUT's size and OUT IN's phase, so
  // that the sharing is allowed; sometimes the kernel takes IN through a
  // view as well, which forbids it.
  void declare_inplace() {
    std::vector<long> first;
    std::vector<long> last;
    top_level_uses(first, last);
    for (std::size_t i = 0; i < s_.entries.size(); ++i) {
      const long top = static_cast<long>(i);
      for_each_entry(std::span<Entry>(&s_.entries[i], 1), [&](Entry& e) {
        if (e.kind != Entry::Kind::Kernel) return;
        std::vector<StorageId> plain;
        for (const Arg& a : e.args) {
          if (a.kind == Arg::Kind::Storage && std::find(plain.begin(), plain.end(), a.storage) == plain.end()) {
            plain.push_back(a.storage);
          }
        }
        if (plain.size() < 2) return;
        std::vector<InPlace> fitting;
        for (StorageId out : plain) {
          for (StorageId in : plain) {
            if (out != in && first[out] == top && last[in] == top) fitting.push_back({.out = out, .in = in});
          }
        }
        InPlace pair;
        if (!fitting.empty() && c_.percent(60)) {
          pair = fitting[c_.below(fitting.size())];
          make_fit(pair);
        } else if (c_.percent(10)) {
          const std::size_t out = c_.below(plain.size());
          const std::size_t in = (out + 1 + c_.below(plain.size() - 1)) % plain.size();
          pair = {.out = plain[out], .in = plain[in]};
        } else {
          return;
        }
        e.mutable_inplace().push_back(pair);
        if (c_.percent(12)) {
          if (const std::optional<Arg::Kind> kind = view_kind(); kind) {
            Arg view = make_view(*kind, storage_arg(pair.in));
            if (*kind == Arg::Kind::Shrink) view.view->length = s_.storage[pair.in].bytes;
            if (*kind == Arg::Kind::Bitcast) view.dtype = Dtype::Int8;
            e.args.push_back(std::move(view));
          }
        }
      });
    }
  }

  // Mostly, gives IN at least OUT's bytes and OUT IN's phase, where neither
  // is huge and the sizes fit the dtypes, for a sharing docs/model-v2.md
  // allows.
  void make_fit(const InPlace& pair) {
    Storage& out = s_.storage[pair.out];
    Storage& in = s_.storage[pair.in];
    if (out.kind != StorageKind::Buffer || in.kind != StorageKind::Buffer || c_.percent(30)) return;
    if (out.bytes > in.bytes && out.bytes < kHugeBytes && out.bytes % dtype_size(in.dtype) == 0) {
      in.bytes = out.bytes;
    }
    out.phase = in.phase;
  }

  // Model v3: within each top-level loop, now and then new scratch buffers
  // that one or two calls of its body take, marked `local`; and buffers that
  // the loop alone takes marked `local` about half the time. A loop's own
  // flag is taken outside every loop, so never local to it.
  void declare_local() {
    for (Entry& top : s_.entries) {
      if (top.kind != Entry::Kind::Range && top.kind != Entry::Kind::Loop) continue;
      std::vector<Entry*> calls;
      for_each_entry(std::span<Entry>(top.mutable_body()), [&](Entry& e) {
        if (e.kind == Entry::Kind::Kernel || e.kind == Entry::Kind::Copy) calls.push_back(&e);
      });
      if (calls.empty() || size_ == 0 || !c_.percent(60)) continue;
      const int scratch = c_.between(1, 3);
      for (int k = 0; k < scratch; ++k) {
        Storage st = buffer_decl(fmt::format("l{}", s_.storage.size()), devices_[c_.below(devices_.size())],
                                 Dtype::Int8, 0);
        st.bytes = bytes(st);
        st.local = true;
        const auto id = static_cast<StorageId>(s_.storage.size());
        s_.storage.push_back(std::move(st));
        const std::size_t at = c_.below(calls.size());
        const std::size_t uses = std::min<std::size_t>(calls.size() - at, c_.between(1, 2));
        for (std::size_t u = 0; u < uses; ++u) {
          Entry& call = *calls[at + u];
          if (call.kind == Entry::Kind::Kernel) call.args.push_back(storage_arg(id));
        }
        if (calls[at]->kind != Entry::Kind::Kernel && (uses < 2 || calls[at + 1]->kind != Entry::Kind::Kernel)) {
          s_.storage.pop_back();  // no kernel took it
        }
      }
    }
    // Buffers that one top-level loop alone takes, its flag aside.
    std::vector<long> first;
    std::vector<long> last;
    top_level_uses(first, last);
    for (StorageId id = 0; id < s_.storage.size(); ++id) {
      Storage& st = s_.storage[id];
      if (st.kind != StorageKind::Buffer || st.held || st.io != 0 || st.local || first[id] < 0) continue;
      if (first[id] != last[id]) continue;
      const Entry& top = s_.entries[static_cast<std::size_t>(first[id])];
      if (top.kind != Entry::Kind::Range && top.kind != Entry::Kind::Loop) continue;
      if (top.kind == Entry::Kind::Loop && storage_of(top.flag().front()) == id) continue;
      st.local = c_.percent(50);
    }
  }

  // Model v3: 1 to 4 streams (the default one among them), each top-level
  // call and loop on one of them, and events between: a `record` after
  // some entry and a `wait` of it later, on the same stream now and then,
  // so that some uses are ordered across streams and some are not.
  void spread_over_streams() {
    const int streams = c_.between(1, 4);
    for (int k = 1; k < streams; ++k) s_.streams.emplace_back(fmt::format("s{}", k));
    // At size 0, the one entry alone.
    if ((streams == 1 && c_.percent(50)) || s_.entries.size() < 2) return;
    std::vector<Entry> out;
    out.reserve(s_.entries.size() * 2);
    struct Recorded {
      std::string name;
      StreamId stream;
    };
    std::vector<Recorded> recorded;
    const auto any_stream = [&] { return static_cast<StreamId>(c_.below(static_cast<std::size_t>(streams))); };
    for (Entry& e : s_.entries) {
      e.stream = any_stream();
      const StreamId on = e.stream;
      out.push_back(std::move(e));
      if (c_.percent(30)) {
        Entry record{.kind = Entry::Kind::Record, .stream = on};
        record.name = fmt::format("e{}", recorded.size());
        recorded.push_back({record.name.str(), on});
        out.push_back(std::move(record));
      }
      if (!recorded.empty() && c_.percent(30)) {
        const Recorded& r = recorded[c_.below(recorded.size())];
        Entry wait{.kind = Entry::Kind::Wait, .stream = c_.percent(15) ? r.stream : any_stream()};
        wait.name = r.name;
        out.push_back(std::move(wait));
      }
    }
    s_.entries = std::move(out);
  }

  // A capacity for each device line that wants one: the device's planned
  // buffers at their rounded sizes added up, times 30% to 160%, so that a
  // plan fits in most and in some none does.
  void give_capacities() {
    for (Device& d : s_.devices) {
      if (!d.capacity) continue;
      Bytes total = 0;
      for (const Storage& st : s_.storage) {
        if (st.device != d.name || st.kind != StorageKind::Buffer || st.held) continue;
        total += cost(st.phase, st.bytes, d.align);
      }
      const Bytes percent = c_.draw(30, 160);
      d.capacity = std::min(total / 100 * percent + total % 100 * percent / 100, kMaxBytes - 1);
    }
  }

  Bytes phase() {
    if (!features_.phases || max_phase_ == 0) return 0;
    const int roll = c_.between(0, 99);
    if (roll < 55) return 0;
    if (roll < 95 || max_phase_ < 256) return c_.draw(1, std::min<Bytes>(255, max_phase_));
    return c_.draw(256, max_phase_);
  }

  Bytes bytes(const Storage& st) {
    const Bytes unit = std::max(dtype_size(st.dtype), unit_);  // both powers of two
    const int roll = c_.between(0, 99);
    if (roll < 8 && features_.zero_bytes) return 0;
    if (roll < 95 || !features_.huge_sizes || huge_left_ < 2 * kHugeBytes) {
      // Mostly a few elements, so that sizes round up and small buffers pile up.
      const Bytes cap = std::max<Bytes>(max_bytes_ / unit, 1);
      const Bytes elements = roll < 50   ? c_.draw(1, std::min<Bytes>(64, cap))
                             : roll < 80 ? c_.draw(1, std::min<Bytes>(16384, cap))
                                         : c_.draw(1, cap);
      return unit * elements;
    }
    // Near 2^62 for the first huge size, then halves of what is left.
    const Bytes b = std::max(round_down(c_.draw((huge_left_ - 4096) / 2, huge_left_ - 4096), unit), kHugeBytes);
    huge_left_ -= cost(st.phase, b);
    return b;
  }

  std::string name(const Storage& st, int i) {
    // Names that arena names would take, so that the rewrite has to skip them.
    if (c_.percent(6)) {
      const int k = c_.between(0, 2);
      if (!arena_name_taken_[static_cast<std::size_t>(k)]) {
        arena_name_taken_[static_cast<std::size_t>(k)] = true;
        return fmt::format("arena{}", k);
      }
    }
    std::string_view prefix = st.kind == StorageKind::Param   ? "x"
                              : st.kind == StorageKind::Alloc ? "a"
                              : is_disk(st.device)            ? "d"
                              : st.held                       ? "w"
                                                              : "t";
    // Unique by i; no arena name starts with these prefixes.
    return c_.percent(10) ? fmt::format("_{}{}.out", prefix, i) : fmt::format("{}{}", prefix, i);
  }

  StorageId pick_storage() {
    const std::size_t n = s_.storage.size();
    if (c_.percent(25)) return static_cast<StorageId>(c_.below(n));
    // Mostly storage near the window, which slides over the declarations as
    // the entries go on, so that lifetimes start and end all along the schedule.
    const auto near = static_cast<std::ptrdiff_t>(window_) + c_.between(0, 4) - 2;
    return static_cast<StorageId>(std::clamp<std::ptrdiff_t>(near, 0, static_cast<std::ptrdiff_t>(n) - 1));
  }

  // The kind of one view layer, in proportions 40:35:25 among those switched on.
  std::optional<Arg::Kind> view_kind() {
    const std::array<std::pair<Arg::Kind, int>, 3> kinds{{
        {Arg::Kind::Shrink, features_.shrink_views ? 40 : 0},
        {Arg::Kind::Bitcast, features_.bitcast_views ? 35 : 0},
        {Arg::Kind::After, features_.after_views ? 25 : 0},
    }};
    int total = 0;
    for (const auto& k : kinds) total += k.second;
    if (total == 0) return std::nullopt;
    int roll = c_.between(0, total - 1);
    for (const auto& [kind, weight] : kinds) {
      if (roll < weight) return kind;
      roll -= weight;
    }
    return std::nullopt;
  }

  Arg arg() {
    Arg a = storage_arg(pick_storage());
    Bytes size = s_.storage[a.storage].bytes;
    const int depth = std::max(options_.max_view_depth, 0);
    const int layers = depth == 0 || c_.percent(55) ? 0 : c_.between(1, depth);
    for (int i = 0; i < layers; ++i) {
      const std::optional<Arg::Kind> kind = view_kind();
      if (!kind) break;
      Arg view = make_view(*kind, Arg{});
      if (view.kind == Arg::Kind::Shrink) {
        // Without zero-byte views, every view keeps at least one byte: the
        // storage has one, and so has every shrink of it.
        const Bytes least = features_.zero_bytes ? 0 : 1;
        view.view->start = c_.draw(0, size - least);
        view.view->length = c_.draw(least, size - view.view->start);
        size = view.view->length;
      } else if (view.kind == Arg::Kind::Bitcast) {
        std::array<Dtype, kDtypeCount> fits{};
        std::size_t count = 0;
        for (int d = 0; d < kDtypeCount; ++d) {
          if (size % dtype_size(static_cast<Dtype>(d)) == 0) fits[count++] = static_cast<Dtype>(d);
        }
        view.dtype = fits[c_.below(count)];
      }
      view.view->base = std::move(a);
      a = std::move(view);
    }
    return a;
  }

  // The kind of a loop, if the roll of 0..99 makes one: 28 in 100, shared
  // between the kinds switched on.
  std::optional<Entry::Kind> loop_kind(int roll) const {
    if (roll >= 28) return std::nullopt;
    if (features_.range_loops && features_.flag_loops) return roll < 14 ? Entry::Kind::Range : Entry::Kind::Loop;
    if (features_.range_loops) return Entry::Kind::Range;
    if (features_.flag_loops) return Entry::Kind::Loop;
    return std::nullopt;
  }

  Entry entry(int depth) {
    Entry e;
    const int roll = c_.between(0, 99);
    const std::optional<Entry::Kind> loop = depth < options_.max_loop_depth ? loop_kind(roll) : std::nullopt;
    if (loop) {
      e.kind = *loop;
      if (e.kind == Entry::Kind::Loop) e.mutable_flag().push_back(arg());
      const int body = c_.percent(8) ? 0 : c_.between(1, 3);
      std::vector<Entry>& inner = e.mutable_body();
      inner.reserve(static_cast<std::size_t>(body));
      for (int i = 0; i < body; ++i) inner.push_back(entry(depth + 1));
      return e;
    }
    if (roll < 42 && features_.copies) {
      e.kind = Entry::Kind::Copy;
      e.args.reserve(2);
      e.args.push_back(arg());
      e.args.push_back(arg());
      return e;
    }
    e.kind = Entry::Kind::Kernel;
    e.name = kKernels[c_.below(kKernels.size())];
    const int args = c_.percent(5) ? 0 : c_.between(1, 4);
    e.args.reserve(static_cast<std::size_t>(args));
    for (int i = 0; i < args; ++i) e.args.push_back(arg());
    return e;
  }

  const ScheduleOptions& options_;
  const Features& features_;
  Choices& c_;
  int size_;
  Bytes max_phase_ = 0;
  Bytes unit_ = 1;
  Bytes max_bytes_ = 0;
  Bytes block_ = kPlaceAlign;  // the largest align of a device, at least 256
  Schedule s_;
  std::vector<std::string> devices_;
  std::vector<std::string> disks_;
  std::array<bool, 3> arena_name_taken_{};  // whether storage took the name arena0, arena1, arena2
  Bytes huge_left_ = 0;
  std::size_t window_ = 0;
};


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
  o.max_bytes = 32 * kPlaceAlign;
  o.features.huge_sizes = false;
  return o;
}

Schedule generate_schedule(Choices& choices, const ScheduleOptions& options) {
  return Builder(options, choices).build();
}

Schedule generate_unplannable_schedule(Choices& choices, const ScheduleOptions& ordinary) {
  ScheduleOptions base = ordinary;
  base.features.huge_sizes = false;
  base.features.disks = false;
  base.features.capacity = false;  // a planner must fail by the overflow, not refuse a capacity first
  base.features.streams = false;   // nor refuse several streams
  Schedule s = generate_schedule(choices, base);

  std::string device = "CPU";
  for (const Storage& st : s.storage) device = st.device;
  Entry all = kernel_call("all");
  const int huge = choices.between(5, 7);
  for (int i = 0; i < huge; ++i) {
    Storage st = buffer_decl(fmt::format("huge{}", i), device, any_dtype(choices), 0);
    st.phase = !ordinary.features.phases || choices.percent(50) ? 0 : choices.draw(1, 255);
    st.bytes = round_down(choices.draw(kMaxBytes - kHugeBytes, kMaxBytes - 1), dtype_size(st.dtype));
    all.args.push_back(storage_arg(static_cast<StorageId>(s.storage.size())));
    s.storage.push_back(std::move(st));
  }
  const std::size_t at = choices.below(s.entries.size() + 1);
  s.entries.insert(s.entries.begin() + static_cast<std::ptrdiff_t>(at), std::move(all));
  return s;
}

}  // namespace planck::gen
