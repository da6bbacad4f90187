#include "model/pool.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>

#include "model/huge_pages.h"

namespace planck::pool {
namespace {

Observer observer = nullptr;

#if !defined(PLANCK_POOL_CHECKED)

// Sizes are rounded up to a multiple of the grain, one freed list per multiple.
constexpr std::size_t kGrain = 8;
constexpr std::size_t kClasses = kLargestPooled / kGrain + 1;
constexpr std::size_t kChunk = std::size_t{2} << 20;

// The class of a list of `bytes` bytes (at most kLargestPooled): its size
// in grains, at least one.
std::size_t grains_of(std::size_t bytes) { return bytes == 0 ? 1 : (bytes + kGrain - 1) / kGrain; }

struct FreeBlock {
  FreeBlock* next;
};

// A chunk starts with a link to the chunk made before it, so that every
// chunk stays reachable from `last_chunk` (leak checkers see none lost).
struct ChunkHeader {
  ChunkHeader* previous;
};
static_assert(sizeof(ChunkHeader) % kGrain == 0);
std::atomic<ChunkHeader*> last_chunk{nullptr};

struct ThreadPool {
  std::array<FreeBlock*, kClasses> freed{};
  char* next = nullptr;  // the uncut rest of this thread's chunk
  char* end = nullptr;
};
constinit thread_local ThreadPool this_thread;

void new_chunk(ThreadPool& t) {
  void* memory = std::aligned_alloc(kChunk, kChunk);
  if (memory == nullptr) throw std::bad_alloc();
  advise_huge_pages(memory, kChunk);
  auto* header = static_cast<ChunkHeader*>(memory);
  header->previous = last_chunk.load(std::memory_order_relaxed);
  while (!last_chunk.compare_exchange_weak(header->previous, header, std::memory_order_release,
                                           std::memory_order_relaxed)) {
  }
  t.next = static_cast<char*>(memory) + sizeof(ChunkHeader);
  t.end = static_cast<char*>(memory) + kChunk;
}

#endif

}  // namespace

#if defined(PLANCK_POOL_CHECKED)

// Every list is the heap's, where a replaced operator new sees it: the
// observer has nothing to add.
void* allocate(std::size_t bytes) { return ::operator new(bytes); }
void deallocate(void* p, std::size_t /*bytes*/) noexcept { ::operator delete(p); }

#else

void* allocate(std::size_t bytes) {
  if (bytes > kLargestPooled) return ::operator new(bytes);
  const std::size_t grains = grains_of(bytes);
  const std::size_t size = grains * kGrain;
  if (observer != nullptr) observer(static_cast<std::ptrdiff_t>(size));
  ThreadPool& t = this_thread;
  if (FreeBlock* block = t.freed[grains]) {
    t.freed[grains] = block->next;
    return block;
  }
  if (static_cast<std::size_t>(t.end - t.next) < size) new_chunk(t);
  void* block = t.next;
  t.next += size;
  return block;
}

void deallocate(void* p, std::size_t bytes) noexcept {
  if (bytes > kLargestPooled) {
    ::operator delete(p);
    return;
  }
  const std::size_t grains = grains_of(bytes);
  if (observer != nullptr) observer(-static_cast<std::ptrdiff_t>(grains * kGrain));
  ThreadPool& t = this_thread;
  auto* block = static_cast<FreeBlock*>(p);
  block->next = t.freed[grains];
  t.freed[grains] = block;
}

#endif

void set_observer(Observer o) { observer = o; }

}  // namespace planck::pool
