#include "model/schedule.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "model/lexical.h"

namespace planck {
namespace {

struct DtypeInfo {
  std::string_view name;
  Bytes size;
};

constexpr std::array<DtypeInfo, kDtypeCount> kDtypes{{
    {"bool", 1},     {"int8", 1},     {"uint8", 1},   {"int16", 2},
    {"uint16", 2},   {"float16", 2},  {"bfloat16", 2}, {"int32", 4},
    {"uint32", 4},   {"float32", 4},  {"int64", 8},   {"uint64", 8},
    {"float64", 8},
}};

}  // namespace

std::string_view dtype_name(Dtype d) { return kDtypes[static_cast<int>(d)].name; }
Bytes dtype_size(Dtype d) { return kDtypes[static_cast<int>(d)].size; }

namespace {

// A name of up to 8 bytes as one number, its first byte lowest and the rest
// zero, so that a dtype's name is found with one comparison.
constexpr std::uint64_t packed_name(std::string_view name) {
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    key |= std::uint64_t{static_cast<unsigned char>(name[i])} << (8 * i);
  }
  return key;
}

constexpr std::array<std::uint64_t, kDtypeCount> kPackedDtypes = [] {
  std::array<std::uint64_t, kDtypeCount> packed{};
  for (int i = 0; i < kDtypeCount; ++i) packed[i] = packed_name(kDtypes[i].name);
  return packed;
}();
static_assert(std::all_of(kDtypes.begin(), kDtypes.end(),
                          [](const DtypeInfo& d) { return d.name.size() >= 4 && d.name.size() <= 8; }));

// The one dtype a packed name can be: a table of 32 slots, indexed by the
// top bits of the name times a multiplier that sends each dtype's name to a
// slot of its own (a perfect hash). The parser reads a dtype on every
// declaration, where a comparison with each dtype in turn cost 80
// instructions for `float32`, this about 30.
constexpr int kDtypeSlotBits = 5;
constexpr int dtype_slot(std::uint64_t packed, std::uint64_t multiplier) {
  return static_cast<int>((packed * multiplier) >> (64 - kDtypeSlotBits));
}
constexpr std::uint64_t kDtypeMultiplier = [] {
  for (std::uint64_t multiplier = 0x9e3779b97f4a7c15;; multiplier += 2) {
    std::uint32_t taken = 0;
    bool distinct = true;
    for (const std::uint64_t packed : kPackedDtypes) {
      const std::uint32_t bit = std::uint32_t{1} << dtype_slot(packed, multiplier);
      distinct = distinct && (taken & bit) == 0;
      taken |= bit;
    }
    if (distinct) return multiplier;
  }
}();
// Each slot's dtype, or kDtypeCount for none.
constexpr std::array<std::uint8_t, std::size_t{1} << kDtypeSlotBits> kDtypeSlots = [] {
  std::array<std::uint8_t, std::size_t{1} << kDtypeSlotBits> slots{};
  slots.fill(kDtypeCount);
  for (int i = 0; i < kDtypeCount; ++i) {
    slots[dtype_slot(kPackedDtypes[i], kDtypeMultiplier)] = static_cast<std::uint8_t>(i);
  }
  return slots;
}();

}  // namespace

std::optional<Dtype> dtype_from_name(std::string_view name) {
  if (name.size() < 4 || name.size() > 8) return std::nullopt;
  // The name's bytes as packed_name packs them, from two loads of 4 bytes,
  // its first and its last, which overlap on a name shorter than 8 bytes
  // (an overlapping byte is the same in both).
  static_assert(std::endian::native == std::endian::little);
  std::uint32_t head;
  std::uint32_t tail;
  std::memcpy(&head, name.data(), 4);
  std::memcpy(&tail, name.data() + name.size() - 4, 4);
  const std::uint64_t key = head | std::uint64_t{tail} << (8 * (name.size() - 4));
  // Trailing NUL bytes pack as nothing: the sizes must agree too.
  const int i = kDtypeSlots[dtype_slot(key, kDtypeMultiplier)];
  if (i == kDtypeCount || kPackedDtypes[i] != key || kDtypes[i].name.size() != name.size()) return std::nullopt;
  return static_cast<Dtype>(i);
}

std::string_view storage_kind_name(StorageKind k) {
  switch (k) {
    case StorageKind::Buffer: return "buffer";
    case StorageKind::Alloc: return "alloc";
    case StorageKind::Param: return "param";
  }
  return "?";
}

std::optional<StorageId> Schedule::find(std::string_view name) const {
  for (StorageId i = 0; i < storage.size(); ++i) {
    if (storage[i].name == name) return i;
  }
  return std::nullopt;
}

const Device* Schedule::find_device(std::string_view name) const {
  for (const Device& d : devices) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

Bytes Schedule::align_of(std::string_view device) const {
  const Device* d = devices.empty() ? nullptr : find_device(device);
  return d ? d->align : kPlaceAlign;
}

std::optional<Bytes> Schedule::capacity_of(std::string_view device) const {
  const Device* d = devices.empty() ? nullptr : find_device(device);
  return d ? d->capacity : std::nullopt;
}

// The sizes the comments of schedule.h promise: a cache line each.
static_assert(sizeof(Storage) == 64);
static_assert(sizeof(Entry) == 64);

namespace {
bool any_inplace(const std::vector<Entry>& entries) {
  for (const Entry& e : entries) {
    if (!e.inplace().empty() || any_inplace(e.body())) return true;
  }
  return false;
}
}  // namespace

// One pass over the storage and one over the top-level entries: the
// checkers and planners ask it of every schedule.
int Schedule::version() const {
  bool v2 = !devices.empty();
  for (const Storage& st : storage) {
    if (st.local) return 3;
    v2 = v2 || st.io != 0;
  }
  // Streams and events are top-level entries only; in-place pairs are at
  // any depth, in entries that have parts.
  for (const Entry& e : entries) {
    if (e.stream != 0 || e.kind == Entry::Kind::Record || e.kind == Entry::Kind::Wait) return 3;
    if (!v2 && e.parts) v2 = !e.inplace().empty() || any_inplace(e.body());
  }
  return v2 ? 2 : 1;
}

std::optional<StreamId> Schedule::find_stream(std::string_view name) const {
  for (std::size_t i = 0; i < streams.size(); ++i) {
    if (streams[i] == name) return static_cast<StreamId>(i);
  }
  return std::nullopt;
}

std::optional<StreamId> Schedule::add_stream(std::string_view name) {
  if (streams.empty()) streams.emplace_back();
  if (std::optional<StreamId> id = find_stream(name)) return id;
  if (streams.size() > kMaxStreams) return std::nullopt;
  streams.emplace_back(name);
  return static_cast<StreamId>(streams.size() - 1);
}

}  // namespace planck

namespace planck {

Error overflow_error(const Storage& s, std::string_view what) {
  return Error{"", fmt::format("byte count overflow at buffer {} ({}): {}", s.name,
                               s.pos.line ? fmt::format("line {}", s.pos.line) : "generated",
                               what)};
}

Error rounded_size_overflow(const Storage& s) { return overflow_error(s, "phase + bytes rounded up to 256"); }

Arg make_view(Arg::Kind kind, Arg base, Bytes start, Bytes length, Dtype dtype) {
  return Arg{.kind = kind,
             .dtype = dtype,
             .view = Boxed<View>(View{.start = start, .length = length, .base = std::move(base)})};
}

}  // namespace planck
