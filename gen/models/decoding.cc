// Autoregressive decoding: a prefill, then flag loops that each generate a
// chunk of tokens into a KV cache that grows between them
// (docs/commands.md#planck-generate).

#include <string>
#include <vector>

#include "gen/models.h"
#include "gen/models/blocks.h"
#include "gen/schedule_parts.h"

namespace planck::gen {
namespace {

// One layer's cache, `rows` token rows of [batch, d_model] each for keys
// and for values: two buffers, or one holding both.
struct LayerCache {
  std::vector<StorageId> buffers;  // one or two
  Bytes half = 0;                  // the bytes of the keys, and of the values
  std::uint64_t rows = 0;

  Arg keys() const {
    return buffers.size() == 2 ? storage_arg(buffers[0]) : shrink_view(storage_arg(buffers[0]), 0, half);
  }
  Arg values() const {
    return buffers.size() == 2 ? storage_arg(buffers[1]) : shrink_view(storage_arg(buffers[0]), half, half);
  }
};

LayerCache make_cache(ModelBuilder& b, const std::string& name, bool fused, std::uint64_t rows, std::uint64_t batch) {
  LayerCache cache{{}, b.bytes({rows, batch, kGpt2Model}), rows};
  if (fused) {
    cache.buffers.push_back(b.buffer(name + ".kv", b.bytes({2, rows, batch, kGpt2Model})));
  } else {
    cache.buffers.push_back(b.buffer(name + ".k", cache.half));
    cache.buffers.push_back(b.buffer(name + ".v", cache.half));
  }
  return cache;
}

// The final norm and the next token's logits, then sampling, which writes
// the token and, in a loop, the flag.
void sample(ModelBuilder& b, const std::string& prefix, StorageId x, StorageId next, Args also,
            std::uint64_t batch, std::uint64_t tokens) {
  const StorageId norm = b.op("layer_norm", prefix + "ln_f", b.bytes({batch, tokens, kGpt2Model}), {storage_arg(x)},
                              {b.weight("ln_f.w", b.bytes({2, kGpt2Model}))});
  const StorageId logits = b.buffer(prefix + "logits", b.bytes({batch, kGpt2Vocab}, Dtype::Float32), Dtype::Float32);
  b.kernel("lm_head_last",
           {storage_arg(logits), storage_arg(norm), storage_arg(b.weight("wte", b.bytes({kGpt2Vocab, kGpt2Model})))});
  Args args{storage_arg(next), storage_arg(logits)};
  args.insert(args.end(), also.begin(), also.end());
  b.kernel("sample", std::move(args));
}

}  // namespace

Result<Schedule> generate_decoding(Choices& c, const DecodingOptions& o) {
  PLANCK_TRY(check_option("decoding", "batch", o.batch, 1, kMaxBatch));
  PLANCK_TRY(check_option("decoding", "prompt", o.prompt, 1, kMaxSequence));
  PLANCK_TRY(check_option("decoding", "steps", o.steps, 1, kMaxSequence));
  PLANCK_TRY(check_option("decoding", "chunks", o.chunks, 1, 1024));
  PLANCK_TRY(check_option("decoding", "layers", o.layers, 1, kMaxLayers));
  // Each chunk and the prefill pass through every layer: a bound on the entries.
  PLANCK_TRY(check_option("decoding", "chunks x layers", o.chunks * o.layers, 1, kMaxLayers * 64));
  ModelBuilder b("decoding", "CUDA", activation_dtype(c));
  const bool fused = c.percent(50);
  std::vector<std::uint64_t> rows;  // the cache's rows in each chunk
  std::uint64_t total = o.prompt;
  for (std::uint64_t k = 0; k < o.chunks; ++k) {
    total += c.draw(std::max<std::uint64_t>(1, o.steps / 2), o.steps);
    rows.push_back(total);
  }

  const StorageId tokens = b.param("tokens", b.bytes({o.batch, o.prompt}, Dtype::Int32), Dtype::Int32);
  const StorageId generated = b.held("generated", b.bytes({o.batch, total}, Dtype::Int32), Dtype::Int32);
  const StorageId next = b.buffer("next", b.bytes({o.batch}, Dtype::Int32), Dtype::Int32);
  const Bytes wte = b.bytes({kGpt2Vocab, kGpt2Model});
  std::vector<LayerCache> caches;
  for (std::uint64_t l = 0; l < o.layers; ++l)
    caches.push_back(make_cache(b, "cache0.l" + std::to_string(l), fused, rows[0], o.batch));

  // The prefill: every prompt token through every layer, keys and values into the cache.
  StorageId x = b.op("embed", "prefill.x", b.bytes({o.batch, o.prompt, kGpt2Model}), {storage_arg(tokens)},
                     {b.weight("wte", wte)});
  const BlockShape prompt{.batch = o.batch, .queries = o.prompt};
  for (std::uint64_t l = 0; l < o.layers; ++l) {
    const BlockNames names{"prefill.l" + std::to_string(l) + ".", "l" + std::to_string(l) + "."};
    x = attention(b, c, names, x, prompt, InPlace::Allowed, KvCache{caches[l].keys(), caches[l].values(), rows[0], 0});
    x = mlp(b, c, names, x, prompt, InPlace::Allowed);
  }
  sample(b, "prefill.", x, next, {after_view(storage_arg(generated))}, o.batch, o.prompt);

  const BlockShape one{.batch = o.batch, .queries = 1};
  for (std::uint64_t k = 0; k < o.chunks; ++k) {
    const std::string chunk = "c" + std::to_string(k);
    if (k > 0) {
      // The cache grows: a larger one per layer, the old rows copied over.
      for (std::uint64_t l = 0; l < o.layers; ++l) {
        const LayerCache old = caches[l];
        caches[l] = make_cache(b, "cache" + std::to_string(k) + ".l" + std::to_string(l), fused, rows[k], o.batch);
        b.copy(shrink_view(caches[l].keys(), 0, old.half), old.keys());
        b.copy(shrink_view(caches[l].values(), 0, old.half), old.values());
      }
    }
    const StorageId done = b.buffer("done." + std::to_string(k), b.bytes({o.batch}, Dtype::Bool), Dtype::Bool);
    const std::size_t body = b.mark();
    StorageId y =
        b.op("embed", chunk + ".x", b.bytes({o.batch, 1, kGpt2Model}), {storage_arg(next)}, {b.weight("wte", wte)});
    for (std::uint64_t l = 0; l < o.layers; ++l) {
      const BlockNames names{chunk + ".l" + std::to_string(l) + ".", "l" + std::to_string(l) + "."};
      const KvCache cache{caches[l].keys(), caches[l].values(), rows[k], k == 0 ? o.prompt : rows[k - 1]};
      y = attention(b, c, names, y, one, InPlace::Allowed, cache);
      y = mlp(b, c, names, y, one, InPlace::Allowed);
    }
    sample(b, chunk + ".", y, next, {after_view(storage_arg(generated)), storage_arg(done)}, o.batch, 1);
    b.wrap_loop(body, storage_arg(done));
  }
  return std::move(b).finish();
}

}  // namespace planck::gen
