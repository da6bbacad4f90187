#pragma once
// Huge pages for the large arrays the readers fill: an array of many
// megabytes on 4 KiB pages takes a page fault for every page as it fills,
// and a TLB miss for most accesses at random; on 2 MiB pages it takes few of
// either. Linux gives huge pages to memory that asks for them (madvise), if
// the system allows it (docs/performance.md#how-the-hot-paths-are-built).

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace planck {

// Asks that the whole 2 MiB pages within [data, data + bytes) be huge
// pages; a hint only, nothing where the system has none. Pages already
// touched keep their size until the kernel merges them, so this is for an
// allocation not yet written.
void advise_huge_pages(const void* data, std::size_t bytes);

// The same for the room a vector has reserved past its elements.
template <class T>
void advise_huge_pages(const std::vector<T>& v) {
  advise_huge_pages(v.data() + v.size(), (v.capacity() - v.size()) * sizeof(T));
}

// A vector of n copies of `value` (by default value-initialized elements),
// on huge pages where the system has them: for a large array reached at random.
template <class T>
std::vector<T> huge_vector(std::size_t n, const T& value = T()) {
  std::vector<T> v;
  v.reserve(n);
  advise_huge_pages(v);
  v.resize(n, value);
  return v;
}

// n elements of T, every byte zero, on huge pages where the system has
// them: for a large table reached at random whose empty value is all zero
// bytes. The memory comes from calloc, which takes fresh pages from the
// system already zeroed, so the table is not written once to clear it and
// its pages are only faulted in as they are first used.
template <class T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  ZeroedArray() = default;
  explicit ZeroedArray(std::size_t n) : size_(n) {
    if (n == 0) return;
    data_ = static_cast<T*>(std::calloc(n, sizeof(T)));
    if (data_ == nullptr) throw std::bad_alloc();
    advise_huge_pages(data_, n * sizeof(T));
  }
  ZeroedArray(const ZeroedArray& other) : ZeroedArray(other.size_) {
    if (size_ != 0) std::memcpy(data_, other.data_, size_ * sizeof(T));
  }
  ZeroedArray(ZeroedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  ZeroedArray& operator=(ZeroedArray other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  ~ZeroedArray() { std::free(data_); }

  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace planck
