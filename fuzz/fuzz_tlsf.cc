// Bytes decoded into a TLSF configuration and a sequence of alloc and free
// calls, run on planner/'s allocator and on its plain twin
// (properties/tlsf_plain.h, docs/planners.md#the-tlsf-allocator) side by side: every call must give the
// same answer, and after every call both must hold the same blocks. Any
// disagreement aborts, naming the call.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gen/choices.h"
#include "planner/tlsf.h"
#include "properties/tlsf_plain.h"

namespace {

using namespace planck;

[[noreturn]] void fail(std::size_t call, const std::string& what) {
  std::fprintf(stderr, "tlsf: call %zu: %s\n", call, what.c_str());
  std::abort();
}

std::string address(const std::optional<Bytes>& a) { return a ? std::to_string(*a) : "nothing"; }

void same_blocks(const Tlsf& tlsf, const props::ModelTlsf& model, std::size_t call) {
  const std::vector<Tlsf::Block> got = tlsf.blocks();
  const std::vector<props::ModelTlsf::Block>& want = model.blocks();
  if (got.size() != want.size()) {
    fail(call, "tlsf holds " + std::to_string(got.size()) + " blocks, the model " + std::to_string(want.size()));
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i].start != want[i].start || got[i].size != want[i].size || got[i].used != want[i].used) {
      fail(call, "block " + std::to_string(i) + " is [" + std::to_string(got[i].start) + ", +" +
                     std::to_string(got[i].size) + (got[i].used ? " used" : "") + "] in tlsf, [" +
                     std::to_string(want[i].start) + ", +" + std::to_string(want[i].size) +
                     (want[i].used ? " used" : "") + "] in the model");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gen::ByteChoices choices(std::span<const std::uint8_t>(data, size));
  // The configurations the allocator allows (docs/planners.md#the-tlsf-allocator):
  // 1 <= C <= 127 and bitlen(B) >= bitlen(C); capacities from none to near 2^63.
  const Bytes second_level = choices.draw(1, 127);
  const Bytes block_size = choices.draw(Bytes{1} << (bitlen(second_level) - 1), 8192);
  const Bytes capacity =
      choices.percent(80) ? choices.draw(0, 1 << 20) : choices.draw(0, (Bytes{1} << 63) + 4096);
  Result<Tlsf> made = Tlsf::create(capacity, block_size, second_level);
  if (!made) fail(0, "create(" + std::to_string(capacity) + ", " + std::to_string(block_size) + ", " +
                         std::to_string(second_level) + ") refused: " + made.error().message());
  Tlsf& tlsf = *made;
  props::ModelTlsf model(capacity, block_size, second_level);

  std::vector<Bytes> live;
  const std::size_t calls = choices.draw(0, 200);
  for (std::size_t call = 1; call <= calls; ++call) {
    const int what = choices.between(0, 9);
    if (what < 6) {
      // Mostly requests well within the capacity, some past it.
      const Bytes r = choices.draw(0, capacity / 4 + 2 * block_size);
      const std::optional<Bytes> got = tlsf.alloc(r);
      Result<std::optional<Bytes>> want = model.alloc(r);
      if (!want) fail(call, "alloc(" + std::to_string(r) + ") in the model: " + want.error().message());
      if (got != *want) fail(call, "alloc(" + std::to_string(r) + ") gives " + address(got) + ", the model " +
                                       address(*want));
      if (got) live.push_back(*got);
    } else if (what < 9 && !live.empty()) {
      const std::size_t k = choices.below(live.size());
      const Bytes addr = live[k];
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      if (!model.free(addr)) fail(call, "free(" + std::to_string(addr) + ") of a live block fails in the model");
      const Status freed = tlsf.free(addr);
      if (!freed) fail(call, "free(" + std::to_string(addr) + ") of a live block fails: " + freed.error().message());
    } else {
      // Any address, which may start no used block: both must agree.
      const Bytes addr = choices.draw(0, capacity);
      const bool model_freed = model.free(addr);
      const bool tlsf_freed = tlsf.free(addr).ok();
      if (model_freed != tlsf_freed) {
        fail(call, "free(" + std::to_string(addr) + ") " + (model_freed ? "succeeds" : "fails") +
                       " in the model but " + (tlsf_freed ? "succeeds" : "fails") + " in tlsf");
      }
      std::erase(live, addr);
    }
    same_blocks(tlsf, model, call);
  }
  return 0;
}
