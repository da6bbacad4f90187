#pragma once
// Huge pages for the large arrays the readers fill: an array of many
// megabytes on 4 KiB pages takes a page fault for every page as it fills,
// and a TLB miss for most accesses at random; on 2 MiB pages it takes few of
// either. Linux gives huge pages to memory that asks for them (madvise), if
// the system allows it.

#include <cstddef>
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

}  // namespace planck
