#include "bench/memory.h"

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

#include "model/pool.h"

namespace planck::bench {
namespace {

std::atomic<std::size_t> in_use{0};
std::atomic<std::size_t> peak{0};

void count(std::ptrdiff_t bytes) {
  const std::size_t now = in_use.fetch_add(static_cast<std::size_t>(bytes), std::memory_order_relaxed) +
                          static_cast<std::size_t>(bytes);
  std::size_t seen = peak.load(std::memory_order_relaxed);
  while (bytes > 0 && now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
}

void* counted(void* p) {
  if (p == nullptr) return nullptr;
  count(static_cast<std::ptrdiff_t>(malloc_usable_size(p)));
  return p;
}

void uncounted(void* p) {
  if (p == nullptr) return;
  count(-static_cast<std::ptrdiff_t>(malloc_usable_size(p)));
  std::free(p);
}

// The pool's lists count as they are handed out and taken back; its chunks
// come from malloc, which is not counted.
[[maybe_unused]] const bool pool_counted = [] {
  pool::set_observer(count);
  return true;
}();

void* allocate(std::size_t size) {
  void* p = counted(std::malloc(std::max<std::size_t>(size, 1)));
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void* allocate_aligned(std::size_t size, std::align_val_t align) {
  const auto a = static_cast<std::size_t>(align);
  // aligned_alloc wants a size that is a multiple of the alignment.
  void* p = counted(std::aligned_alloc(a, (std::max<std::size_t>(size, 1) + a - 1) / a * a));
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

std::size_t heap_in_use() { return in_use.load(std::memory_order_relaxed); }
std::size_t heap_peak() { return peak.load(std::memory_order_relaxed); }
void reset_heap_peak() { peak.store(heap_in_use(), std::memory_order_relaxed); }

HeapPeak::HeapPeak() : base_(heap_in_use()) { reset_heap_peak(); }

void HeapPeak::report(benchmark::State& state) const {
  state.counters["peak_MB"] = static_cast<double>(heap_peak() - std::min(heap_peak(), base_)) / 1e6;
}

}  // namespace planck::bench

using planck::bench::allocate;
using planck::bench::allocate_aligned;
using planck::bench::uncounted;

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void* operator new(std::size_t size, std::align_val_t align) { return allocate_aligned(size, align); }
void* operator new[](std::size_t size, std::align_val_t align) { return allocate_aligned(size, align); }

void operator delete(void* p) noexcept { uncounted(p); }
void operator delete[](void* p) noexcept { uncounted(p); }
void operator delete(void* p, std::size_t) noexcept { uncounted(p); }
void operator delete[](void* p, std::size_t) noexcept { uncounted(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete(void* p, std::align_val_t) noexcept { uncounted(p); }
void operator delete[](void* p, std::align_val_t) noexcept { uncounted(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { uncounted(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { uncounted(p); }
