#pragma once
// Pool: where the small lists of a schedule live, a call's arguments above
// all. A large schedule holds a list for each of its million calls, a few
// dozen bytes each: from malloc, each takes a header and a place on the
// heap's 4 KiB pages, faulted in one by one, and a free of each at the end.
// The pool cuts them from 2 MiB chunks on huge pages, in the order they are
// asked for (so a schedule's argument lists lie in the order of its calls),
// and keeps freed ones on a list per size for the next list of that size
// (docs/performance.md#how-the-hot-paths-are-built).
//
// Each thread cuts from chunks of its own and keeps its own freed lists, so
// that nothing is locked; a list may be freed by another thread than the one
// that made it. Chunks come from malloc, not operator new, and are never
// given back. Under AddressSanitizer every list comes from operator new, so
// that its bounds and its lifetime are checked.

#include <cstddef>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define PLANCK_POOL_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PLANCK_POOL_CHECKED 1
#endif
#endif

namespace planck {

namespace pool {

// Whether lists come from the pool's chunks (false under AddressSanitizer).
#if defined(PLANCK_POOL_CHECKED)
inline constexpr bool kPooled = false;
#else
inline constexpr bool kPooled = true;
#endif

// Lists of at most this many bytes come from the pool; longer ones from
// operator new.
inline constexpr std::size_t kLargestPooled = 512;

void* allocate(std::size_t bytes);
void deallocate(void* p, std::size_t bytes) noexcept;

// Told of each list the pool hands out (+bytes) or takes back (-bytes), for
// measuring memory: the pool's chunks are never freed, so the heap alone
// does not show what a piece of work held. Lists of more than
// kLargestPooled bytes, and every list under AddressSanitizer, come from
// operator new and are not told. None by default; set it before any thread
// uses the pool.
using Observer = void (*)(std::ptrdiff_t bytes);
void set_observer(Observer observer);

}  // namespace pool

// An allocator for std::vector that takes its memory from the pool. It holds
// no state, so any two are equal and a list moves between vectors whole.
template <class T>
struct PoolAllocator {
  static_assert(alignof(T) <= 8, "the pool gives 8-byte alignment");
  using value_type = T;

  PoolAllocator() = default;
  template <class U>
  PoolAllocator(const PoolAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor): rebinding

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(pool::allocate(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { pool::deallocate(p, n * sizeof(T)); }

  friend bool operator==(const PoolAllocator&, const PoolAllocator&) { return true; }
};

}  // namespace planck
