#pragma once
// The schedule model (docs/formats.md#schedules-sched): storage declarations and a list of
// entries run in order, each a call (kernel, copy), a loop (range, loop) or,
// in model v3, an event's record or wait on a stream (docs/model-v3.md).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/name.h"
#include "model/pool.h"
#include "model/result.h"

namespace planck {

// A count of bytes. Every size, phase, shrink bound and place in an input is
// below kMaxBytes, so a sum of two of them never wraps; longer sums are
// checked (see checked_add).
using Bytes = std::uint64_t;
inline constexpr Bytes kMaxBytes = Bytes{1} << 62;

// Places in an arena are multiples of this, and planned sizes are rounded up
// to it, on a device no `device` line gives another alignment (docs/model-v2.md).
inline constexpr Bytes kPlaceAlign = 256;
// A device's alignment is a power of two from 1 to this.
inline constexpr Bytes kMaxAlign = Bytes{1} << 20;

// Views and loops nest at most this deep; deeper input is an error, so that
// no recursion over the model is unbounded.
inline constexpr int kMaxNesting = 200;

struct SourcePos {
  int line = 0;  // 1-based; 0 when the thing was not read from a file
  int col = 0;
};

enum class Dtype : std::uint8_t {
  Bool, Int8, UInt8, Int16, UInt16, Float16, BFloat16,
  Int32, UInt32, Float32, Int64, UInt64, Float64,
};
inline constexpr int kDtypeCount = 13;

std::string_view dtype_name(Dtype d);
Bytes dtype_size(Dtype d);
std::optional<Dtype> dtype_from_name(std::string_view name);

enum class StorageKind : std::uint8_t { Buffer, Alloc, Param };
std::string_view storage_kind_name(StorageKind k);

// A device whose name starts with "DISK" is a disk; its storage is never
// planned. Byte by byte rather than by memcmp: this runs for each storage of
// each plan, and fuzzing builds intercept every memcmp call to learn from
// it. Inline, as the planners and the checker ask it of every buffer.
inline bool is_disk(std::string_view device) {
  return device.size() >= 4 && device[0] == 'D' && device[1] == 'I' && device[2] == 'S' && device[3] == 'K';
}

// What the caller does with a planned buffer around a run of the schedule
// (docs/model-v2.md): bits of Storage::io.
enum IoBits : std::uint8_t {
  kInput = 1,   // written before entry 0: it lives from entry 0
  kOutput = 2,  // read after the last entry: it lives to the last entry
  kState = 4,   // both, and kept from one run to the next
};

// The small members sit together, first, so that a storage record takes 64
// bytes, a cache line.
struct Storage {
  StorageKind kind = StorageKind::Buffer;
  Dtype dtype = Dtype::Int8;
  bool held = false;  // buffer only: its contents outlive the schedule
  std::uint8_t io = 0;  // buffer only: IoBits
  // buffer only (v3): every iteration of the innermost loop around its uses
  // writes it before reading it and nothing reads it after that loop, so
  // its bytes are its own only between its uses within one iteration.
  bool local = false;
  SourcePos pos;
  Name name;
  Name device;
  Bytes bytes = 0;
  Bytes phase = 0;    // buffer only: it starts at an address = phase (mod 256)
};

using StorageId = std::uint32_t;  // index into Schedule::storage

// A buffer the caller writes before the schedule runs (input or state).
inline bool lives_from_start(const Storage& s) { return (s.io & (kInput | kState)) != 0; }
// A buffer the caller reads after the schedule runs (output or state).
inline bool lives_to_end(const Storage& s) { return (s.io & (kOutput | kState)) != 0; }

// A `device` line (docs/model-v2.md): the alignment of every place on the
// device, and the memory its arenas may take together.
struct Device {
  Name name;
  Bytes align = kPlaceAlign;  // a power of two, 1 to kMaxAlign
  std::optional<Bytes> capacity;
  SourcePos pos;
};

// A kernel's `inplace=OUT:IN`: it may write OUT over IN's bytes.
struct InPlace {
  StorageId out = 0;
  StorageId in = 0;
  friend bool operator==(const InPlace&, const InPlace&) = default;
};

// A T on the heap, or none, copied deeply: one pointer in the many small
// records of a schedule for what few of them have, a view's base or a loop's
// body. T may be incomplete where a Boxed<T> is declared.
template <class T>
class Boxed {
 public:
  Boxed() = default;
  explicit Boxed(T v) : p_(new T(std::move(v))) {}
  Boxed(const Boxed& other) : p_(other.p_ ? new T(*other.p_) : nullptr) {}
  Boxed(Boxed&& other) noexcept : p_(std::exchange(other.p_, nullptr)) {}
  Boxed& operator=(const Boxed& other) {
    if (this != &other) *this = Boxed(other);
    return *this;
  }
  Boxed& operator=(Boxed&& other) noexcept {
    // other may live inside the T this box drops (a = std::move(a.view->base)),
    // so it is emptied before that T is deleted.
    T* taken = std::exchange(other.p_, nullptr);
    delete p_;
    p_ = taken;
    return *this;
  }
  ~Boxed() { delete p_; }

  // The T is the box's own: a const box gives a const T.
  explicit operator bool() const { return p_ != nullptr; }
  T& operator*() { return *p_; }
  const T& operator*() const { return *p_; }
  T* operator->() { return p_; }
  const T* operator->() const { return p_; }
  // The T, made first (value-initialized) if there is none.
  T& make() {
    if (!p_) p_ = new T();
    return *p_;
  }

 private:
  T* p_ = nullptr;
};

struct View;
struct EntryParts;

// An argument: storage, or a view of another argument. It has no place of
// its own in the text: a call's arguments are a large part of a schedule,
// and 16 bytes each instead of 24 keep the model of a million buffers
// within a few hundred megabytes. What an argument does wrong is reported at
// its entry's place.
struct Arg {
  enum class Kind : std::uint8_t { Storage, Shrink, Bitcast, After };
  Kind kind = Kind::Storage;
  Dtype dtype = Dtype::Int8;  // Kind::Bitcast
  StorageId storage = 0;      // Kind::Storage
  Boxed<View> view;  // a view's base and bounds: set for a view, empty for storage
};

// A call's arguments, or a loop's flag: a list from the pool (model/pool.h).
using Args = std::vector<Arg, PoolAllocator<Arg>>;

// What a view (Kind::Shrink, Bitcast, After) views, and for a shrink which
// bytes of it.
struct View {
  Bytes start = 0;   // Kind::Shrink: bytes of the base
  Bytes length = 0;  // Kind::Shrink
  Arg base;
};

// A view of `base`: a shrink keeps `length` bytes from `start`, a bitcast reads
// them as `dtype`.
Arg make_view(Arg::Kind kind, Arg base, Bytes start = 0, Bytes length = 0, Dtype dtype = Dtype::Int8);

// The storage an argument names or views, through any depth of views.
inline StorageId storage_of(const Arg& arg) {
  const Arg* a = &arg;
  while (a->kind != Arg::Kind::Storage) a = &a->view->base;
  return a->storage;
}

// A stream of model v3 (docs/model-v3.md): an index into Schedule::streams.
// 0 is the default stream, which has no name.
using StreamId = std::uint16_t;
// A schedule names at most this many streams besides the default one.
inline constexpr std::size_t kMaxStreams = 65535;

// The small members sit first and an entry holds no room for the parts few
// entries have, so that an entry takes 64 bytes.
struct Entry {
  // Record and Wait (v3) take no storage: `record E` completes when every
  // earlier entry of its stream has; nothing after `wait E` on its stream
  // starts before E completes.
  enum class Kind : std::uint8_t { Kernel, Copy, Range, Loop, Record, Wait };
  Kind kind = Kind::Kernel;
  // The stream a top-level entry runs on; an entry inside a loop runs on its
  // top-level loop's stream and keeps 0 here.
  StreamId stream = 0;
  SourcePos pos;
  Name name;         // Kernel: the kernel's name; Record, Wait: the event's
  Args args;         // Kernel: its arguments; Copy: destination, source
  Boxed<EntryParts> parts;  // a loop's body and flag, a kernel's in-place pairs, once any is given

  // Range, Loop: the entries of one iteration; empty for a call.
  const std::vector<Entry>& body() const;
  // Loop: exactly one, the flag; else empty.
  const Args& flag() const;
  // Kernel: its `inplace=OUT:IN` declarations in order; else empty.
  const std::vector<InPlace>& inplace() const;
  // The same to change, an empty list made first if the entry has none.
  std::vector<Entry>& mutable_body();
  Args& mutable_flag();
  std::vector<InPlace>& mutable_inplace();
};

struct EntryParts {
  std::vector<Entry> body;
  Args flag;
  std::vector<InPlace> inplace;
};

// What a call's body() and flag(), and a loop's inplace(), return.
inline const std::vector<Entry> kNoEntries;
inline const Args kNoArgs;
inline const std::vector<InPlace> kNoInPlace;

inline const std::vector<Entry>& Entry::body() const { return parts ? parts->body : kNoEntries; }
inline const Args& Entry::flag() const { return parts ? parts->flag : kNoArgs; }
inline const std::vector<InPlace>& Entry::inplace() const { return parts ? parts->inplace : kNoInPlace; }
inline std::vector<Entry>& Entry::mutable_body() { return parts.make().body; }
inline Args& Entry::mutable_flag() { return parts.make().flag; }
inline std::vector<InPlace>& Entry::mutable_inplace() { return parts.make().inplace; }

struct Schedule {
  std::string source;  // the file it was read from, for messages
  std::vector<Device> devices;  // the `device` lines, in order (v2)
  // The names of the streams (v3) in order of first appearance, after the
  // default stream's empty name at index 0: never empty.
  std::vector<Name> streams{Name()};
  std::vector<Storage> storage;
  std::vector<Entry> entries;

  std::optional<StorageId> find(std::string_view name) const;
  // The `device` line of a device, or null.
  const Device* find_device(std::string_view name) const;
  // Every place on the device is a multiple of this: its `device` line's
  // align, else kPlaceAlign.
  Bytes align_of(std::string_view device) const;
  // Its `device` line's capacity, or none.
  std::optional<Bytes> capacity_of(std::string_view device) const;
  // The lowest model that says everything it says, which its text's header
  // names: 3 with a stream other than the default, an event or a `local`
  // buffer (docs/model-v3.md); else 2 with a device line, a planned input,
  // output or state, or an in-place kernel (docs/model-v2.md); else 1.
  int version() const;
  // Whether it says anything v1 cannot: version() >= 2.
  bool uses_v2() const { return version() >= 2; }
  // The stream named `name` ("" is the default stream), or none.
  std::optional<StreamId> find_stream(std::string_view name) const;
  // The id of the stream named `name`, added if new; none when the schedule
  // names kMaxStreams streams already.
  std::optional<StreamId> add_stream(std::string_view name);
};

// The error for a byte count of s that would pass 2^64, naming s.
Error overflow_error(const Storage& s, std::string_view what);

// a + b, or nullopt when the sum would pass the largest Bytes. These three
// are inline: the planners and checkers ask them of every buffer.
inline std::optional<Bytes> checked_add(Bytes a, Bytes b) {
  Bytes r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
// a * b, or nullopt on overflow.
inline std::optional<Bytes> checked_mul(Bytes a, Bytes b) {
  Bytes r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}
// x rounded up to a multiple of align (> 0), or nullopt on overflow.
inline std::optional<Bytes> checked_round_up(Bytes x, Bytes align) {
  const Bytes rem = x % align;
  if (rem == 0) return x;
  return checked_add(x, align - rem);
}

// The error of rounded_size for s.
Error rounded_size_overflow(const Storage& s);

// docs/planners.md#rule-4-sizes: the bytes a planned buffer is given,
// round_up(phase + bytes, align), or an error naming it on overflow. The
// align is 256 in v1; in v2 it is the unit a planner or the checker places
// the buffer's device in (a power of two).
inline Result<Bytes> rounded_size(const Storage& s, Bytes align = kPlaceAlign) {
  std::optional<Bytes> sum = checked_add(s.phase, s.bytes);
  if (sum) sum = checked_round_up(*sum, align);
  if (!sum) return rounded_size_overflow(s);
  return *sum;
}

}  // namespace planck
