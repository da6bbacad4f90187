#pragma once
// Name: the text of a name or a device in the model's records, in 16 bytes
// where std::string takes 32. A schedule holds three for each buffer (its
// name, its device, its kernel's name) and a plan two for each placement,
// nearly all a few bytes long: up to 15 bytes sit in the Name itself, longer
// ones on the heap. It reads as a std::string_view and compares, hashes and
// formats as one (docs/performance.md#how-the-hot-paths-are-built).

#include <bit>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace planck {

// Shortlex order: a shorter text first, texts of one length by their bytes.
inline bool shortlex_less(std::string_view a, std::string_view b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

class Name {
 public:
  static constexpr std::size_t kInline = 15;  // the longest text held in place

  Name() = default;
  Name(std::string_view text) { assign(text); }  // NOLINT(google-explicit-constructor): a name is its text
  Name(const char* text) : Name(std::string_view(text)) {}  // NOLINT(google-explicit-constructor)
  Name(const std::string& text) : Name(std::string_view(text)) {}  // NOLINT(google-explicit-constructor)
  Name(const Name& other) {
    if (other.on_heap()) {
      assign(other.view());
    } else {
      std::memcpy(bytes_, other.bytes_, sizeof bytes_);
    }
  }
  Name(Name&& other) noexcept {
    std::memcpy(bytes_, other.bytes_, sizeof bytes_);
    std::memset(other.bytes_, 0, sizeof other.bytes_);
  }
  Name& operator=(const Name& other) {
    if (this != &other) *this = Name(other);
    return *this;
  }
  Name& operator=(Name&& other) noexcept {
    if (this != &other) {
      release();
      std::memcpy(bytes_, other.bytes_, sizeof bytes_);
      std::memset(other.bytes_, 0, sizeof other.bytes_);
    }
    return *this;
  }
  Name& operator=(std::string_view text) { return *this = Name(text); }
  Name& operator=(const char* text) { return *this = Name(text); }
  Name& operator=(const std::string& text) { return *this = Name(text); }
  ~Name() { release(); }

  std::string_view view() const {
    if (on_heap()) return {heap_data(), heap_size()};
    return {bytes_, static_cast<std::size_t>(bytes_[kInline])};
  }
  operator std::string_view() const { return view(); }  // NOLINT(google-explicit-constructor)
  // A copy as a std::string, for code that takes one.
  operator std::string() const { return str(); }  // NOLINT(google-explicit-constructor)
  std::string str() const { return std::string(view()); }

  // Writes the text at `out` and returns its end. `out` has room for at
  // least kInline + 1 bytes however short the name: a name held in place is
  // copied as its 16 bytes at once, the bytes past its text included.
  char* copy_to(char* out) const {
    if (on_heap()) {
      std::memcpy(out, heap_data(), heap_size());
      return out + heap_size();
    }
    std::memcpy(out, bytes_, sizeof bytes_);
    return out + static_cast<unsigned char>(bytes_[kInline]);
  }

  std::size_t size() const { return view().size(); }
  bool empty() const { return view().empty(); }
  const char* data() const { return view().data(); }
  const char* begin() const { return data(); }
  const char* end() const { return data() + size(); }
  char front() const { return view().front(); }
  char back() const { return view().back(); }
  char operator[](std::size_t i) const { return view()[i]; }
  std::string_view substr(std::size_t pos, std::size_t n = std::string_view::npos) const {
    return view().substr(pos, n);
  }
  bool starts_with(std::string_view prefix) const { return view().starts_with(prefix); }
  bool ends_with(std::string_view suffix) const { return view().ends_with(suffix); }
  std::size_t find(std::string_view s, std::size_t pos = 0) const { return view().find(s, pos); }
  std::size_t find(char c, std::size_t pos = 0) const { return view().find(c, pos); }

  // Two names whose 16 bytes are equal are equal: held in place, the same
  // text (the bytes past it are zero); on the heap, the same text at the
  // same address. Two held in place whose bytes differ are not. The words
  // are compared first, with no branch on where each name is held.
  friend bool operator==(const Name& a, const Name& b) {
    if (((a.word(0) ^ b.word(0)) | (a.word(1) ^ b.word(1))) == 0) return true;
    if (!a.on_heap() && !b.on_heap()) return false;
    return a.view() == b.view();
  }
  friend bool operator==(const Name& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(const Name& a, const char* b) { return a.view() == std::string_view(b); }
  friend bool operator==(const Name& a, const std::string& b) { return a.view() == std::string_view(b); }
  // Shortlex order, as of their texts. Two names held in place compare as
  // their length bytes, then as two words read in the order of their bytes,
  // with no call to memcmp.
  friend bool shortlex_less(const Name& a, const Name& b) {
    if (!a.on_heap() && !b.on_heap()) {
      const std::uint64_t a_size = a.word(1) >> 56;
      const std::uint64_t b_size = b.word(1) >> 56;
      if (a_size != b_size) return a_size < b_size;
      const std::uint64_t a0 = __builtin_bswap64(a.word(0));
      const std::uint64_t b0 = __builtin_bswap64(b.word(0));
      if (a0 != b0) return a0 < b0;
      return __builtin_bswap64(a.word(1)) < __builtin_bswap64(b.word(1));
    }
    return planck::shortlex_less(a.view(), b.view());
  }
  friend std::strong_ordering operator<=>(const Name& a, const Name& b) { return a.view() <=> b.view(); }
  friend std::strong_ordering operator<=>(const Name& a, std::string_view b) { return a.view() <=> b; }
  friend std::strong_ordering operator<=>(const Name& a, const char* b) { return a.view() <=> std::string_view(b); }
  friend std::strong_ordering operator<=>(const Name& a, const std::string& b) {
    return a.view() <=> std::string_view(b);
  }

 private:
  static_assert(std::endian::native == std::endian::little,
                "the flag of a heap name is the top bit of its size, the last byte");
  static constexpr std::uint64_t kOnHeap = std::uint64_t{1} << 63;

  // bytes_[0, 15) hold the text and bytes_[15] its length, or the first 8
  // bytes a heap pointer and the last 8 its size with kOnHeap set.
  bool on_heap() const { return (static_cast<unsigned char>(bytes_[kInline]) & 0x80) != 0; }
  std::uint64_t word(int i) const {
    std::uint64_t w;
    std::memcpy(&w, bytes_ + 8 * i, sizeof w);
    return w;
  }
  char* heap_data() const {
    char* p;
    std::memcpy(&p, bytes_, sizeof p);
    return p;
  }
  std::size_t heap_size() const { return static_cast<std::size_t>(word(1) & ~kOnHeap); }

  // Sets the text; the Name holds nothing on the heap before.
  void assign(std::string_view text) {
    std::memset(bytes_, 0, sizeof bytes_);
    if (text.size() <= kInline) {
      copy_short(text.data(), text.size());
      bytes_[kInline] = static_cast<char>(text.size());
      return;
    }
    char* p = new char[text.size()];
    std::memcpy(p, text.data(), text.size());
    const std::uint64_t size = static_cast<std::uint64_t>(text.size()) | kOnHeap;
    std::memcpy(bytes_, &p, sizeof p);
    std::memcpy(bytes_ + 8, &size, sizeof size);
  }
  // Copies n <= 15 bytes into bytes_ as at most two copies of a size known
  // at compile time, overlapping in the middle: a memcpy of a size known
  // only at run time is a call to the library's, which costs more than the
  // copy of a short name.
  void copy_short(const char* from, std::size_t n) {
    if (n >= 8) {
      std::memcpy(bytes_, from, 8);
      std::memcpy(bytes_ + n - 8, from + n - 8, 8);
    } else if (n >= 4) {
      std::memcpy(bytes_, from, 4);
      std::memcpy(bytes_ + n - 4, from + n - 4, 4);
    } else if (n > 0) {
      bytes_[0] = from[0];
      bytes_[n / 2] = from[n / 2];
      bytes_[n - 1] = from[n - 1];
    }
  }
  void release() {
    if (on_heap()) delete[] heap_data();
  }

  alignas(8) char bytes_[16] = {};
};

static_assert(sizeof(Name) == 16);

// std::string + a name, as std::string + std::string.
inline std::string operator+(std::string a, const Name& b) { return a.append(b.view()); }
inline std::string operator+(const Name& a, std::string_view b) { return a.str().append(b); }
inline std::string operator+(const Name& a, const char* b) { return a.str().append(b); }

std::ostream& operator<<(std::ostream& out, const Name& name);

}  // namespace planck

template <>
struct std::hash<planck::Name> {
  std::size_t operator()(const planck::Name& n) const noexcept { return std::hash<std::string_view>{}(n.view()); }
};

template <>
struct fmt::formatter<planck::Name> : fmt::formatter<std::string_view> {
  template <class Context>
  auto format(const planck::Name& n, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(n.view(), ctx);
  }
};
