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
// zero, so that a dtype's name is found with one comparison per dtype.
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
  for (int i = 0; i < kDtypeCount; ++i) {
    if (kPackedDtypes[i] == key && kDtypes[i].name.size() == name.size()) return static_cast<Dtype>(i);
  }
  return std::nullopt;
}

std::string_view storage_kind_name(StorageKind k) {
  switch (k) {
    case StorageKind::Buffer: return "buffer";
    case StorageKind::Alloc: return "alloc";
    case StorageKind::Param: return "param";
  }
  return "?";
}

bool is_disk(std::string_view device) {
  // Byte by byte rather than by memcmp: this runs for each storage of each
  // plan, and fuzzing builds intercept every memcmp call to learn from it.
  return device.size() >= 4 && device[0] == 'D' && device[1] == 'I' && device[2] == 'S' && device[3] == 'K';
}

std::optional<StorageId> Schedule::find(std::string_view name) const {
  for (StorageId i = 0; i < storage.size(); ++i) {
    if (storage[i].name == name) return i;
  }
  return std::nullopt;
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
