// planner/'s TLSF allocator against the plain model of docs/planners.md#the-tlsf-allocator, under
// random sequences of alloc and free: the same addresses, the same blocks
// and the same bin queues after every call.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "planner/tlsf.h"
#include "properties/property_runner.h"
#include "properties/tlsf_plain.h"
#include "properties/show.h"

namespace planck::props {
namespace {

constexpr int kCases = 500;

// Calls of a sequence: allocate `value` (scaled to the capacity), free the
// live block at index `value` modulo their count, or free the address
// `value` modulo the capacity, which may start no used block.
enum class Call { Alloc, FreeLive, FreeAny };

std::string blocks_text(const std::vector<ModelTlsf::Block>& blocks) {
  std::string out;
  for (const auto& b : blocks) out += fmt::format(" [{}, +{}{}]", b.start, b.size, b.used ? " used" : "");
  return out;
}

void same_state(const Tlsf& tlsf, const ModelTlsf& model, std::size_t step) {
  const std::vector<Tlsf::Block> got = tlsf.blocks();
  const std::vector<ModelTlsf::Block>& want = model.blocks();
  bool same = got.size() == want.size();
  for (std::size_t i = 0; same && i < got.size(); ++i) {
    same = got[i].start == want[i].start && got[i].size == want[i].size && got[i].used == want[i].used;
  }
  if (!same) {
    std::vector<ModelTlsf::Block> as_model;
    for (const auto& b : got) as_model.push_back({b.start, b.size, b.used, 0});
    RC_FAIL(fmt::format("after call {} the blocks differ\n tlsf: {}\nmodel: {}", step, blocks_text(as_model),
                        blocks_text(want)));
  }
  // Each bin's queue: the model's free blocks of the bin, oldest first.
  std::map<std::pair<int, int>, std::vector<std::pair<std::uint64_t, Bytes>>> queues;
  for (const auto& b : want) {
    if (b.used) continue;
    const Tlsf::Bin bin = tlsf.bin(b.size);
    queues[{bin.l1, bin.l2}].emplace_back(b.appended, b.start);
  }
  for (auto& [bin, queue] : queues) {
    std::sort(queue.begin(), queue.end());
    std::vector<Bytes> expected;
    for (const auto& [appended, start] : queue) expected.push_back(start);
    const std::vector<Bytes> actual = tlsf.bin_queue({bin.first, bin.second});
    if (actual != expected) {
      RC_FAIL(fmt::format("after call {} bin ({}, {}) holds [{}], the model [{}]", step, bin.first, bin.second,
                          fmt::join(actual, ", "), fmt::join(expected, ", ")));
    }
  }
}

TEST(TlsfAllocator, MatchesThePlainModelUnderRandomAllocAndFree) {
  check(
      [] {
        const Bytes second_level = *rc::gen::element<Bytes>(32, 1, 2, 3, 16, 64, 127);
        // The block size must have at least as many bits as the second-level count.
        const Bytes block_size =
            std::max<Bytes>(*rc::gen::element<Bytes>(256, 1, 32, 100, 4096), Bytes{1} << (bitlen(second_level) - 1));
        const Bytes capacity =
            *rc::gen::oneOf(rc::gen::inRange<Bytes>(0, 1 << 16), rc::gen::inRange<Bytes>(1 << 16, Bytes{1} << 34),
                            rc::gen::element<Bytes>(Bytes{1} << 62, (Bytes{1} << 63) + 4096));
        const auto calls = *rc::gen::container<std::vector<std::tuple<Call, Bytes>>>(
            rc::gen::tuple(rc::gen::weightedElement<Call>({{6, Call::Alloc}, {3, Call::FreeLive}, {1, Call::FreeAny}}),
                           rc::gen::arbitrary<Bytes>()));

        Result<Tlsf> made = Tlsf::create(capacity, block_size, second_level);
        RC_ASSERT(made.ok());
        Tlsf& tlsf = *made;
        ModelTlsf model(capacity, block_size, second_level);
        std::vector<Bytes> live;
        for (std::size_t step = 0; step < calls.size(); ++step) {
          const auto [call, value] = calls[step];
          if (call == Call::Alloc) {
            // Mostly requests well within the capacity, some past it.
            const Bytes r = value % (capacity / 4 + 2 * block_size + 1);
            const std::optional<Bytes> got = tlsf.alloc(r);
            Result<std::optional<Bytes>> want = model.alloc(r);
            if (!want) RC_FAIL(fmt::format("call {}: alloc({}): {}", step, r, want.error().message()));
            if (got != *want) {
              RC_FAIL(fmt::format("call {}: alloc({}) gives {}, the model {}", step, r,
                                  got ? std::to_string(*got) : "nothing", *want ? std::to_string(**want) : "nothing"));
            }
            if (got) live.push_back(*got);
          } else if (call == Call::FreeLive && !live.empty()) {
            const std::size_t k = static_cast<std::size_t>(value % live.size());
            const Bytes addr = live[k];
            live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
            RC_ASSERT(model.free(addr));
            const Status freed = tlsf.free(addr);
            if (!freed)
              RC_FAIL(fmt::format("call {}: free({}) of a live block fails: {}", step, addr, freed.error().message()));
          } else if (call == Call::FreeAny) {
            const Bytes addr = capacity == 0 ? value : value % capacity;
            const bool model_freed = model.free(addr);
            const bool tlsf_freed = tlsf.free(addr).ok();
            if (model_freed != tlsf_freed) {
              RC_FAIL(fmt::format("call {}: free({}) {} in the model but {} in tlsf", step, addr,
                                  model_freed ? "succeeds" : "fails", tlsf_freed ? "succeeds" : "fails"));
            }
            std::erase(live, addr);
          }
          same_state(tlsf, model, step);
        }
      },
      kCases);
}

}  // namespace
}  // namespace planck::props
