#include "gen/models/blocks.h"

#include <fmt/format.h>

#include "gen/schedule_parts.h"

namespace planck::gen {

StorageId attention(ModelBuilder& b, Choices& c, const BlockNames& names, StorageId x, const BlockShape& shape,
                    InPlace in_place, const std::optional<KvCache>& cache) {
  const std::string& prefix = names.values;
  const std::string& layer = names.weights;
  const std::uint64_t batch = shape.batch;
  const std::uint64_t tokens = shape.queries;
  const std::uint64_t d = shape.d_model;
  const Bytes act = b.bytes({batch, tokens, d});
  const StorageId ln =
      b.op("layer_norm", prefix + "ln1", act, {storage_arg(x)}, {b.weight(layer + "ln1.w", b.bytes({2, d}))});

  Arg q, k, v;
  if (!cache && c.percent(50)) {
    const StorageId qkv = b.op("matmul", prefix + "qkv", b.bytes({3, batch, tokens, d}), {storage_arg(ln)},
                               {b.weight(layer + "qkv.w", b.bytes({d, 3 * d}))});
    q = shrink_view(storage_arg(qkv), 0, act);
    k = shrink_view(storage_arg(qkv), act, act);
    v = shrink_view(storage_arg(qkv), 2 * act, act);
  } else {
    Arg* outs[] = {&q, &k, &v};
    const char* which[] = {"q", "k", "v"};
    for (int i = 0; i < 3; ++i) {
      *outs[i] = storage_arg(b.op("matmul", prefix + which[i], act, {storage_arg(ln)},
                                  {b.weight(layer + which[i] + ".w", b.bytes({d, d}))}));
    }
  }

  // Attention reads the keys and values of this pass, or the whole cache.
  std::uint64_t keys = tokens;
  Arg k_read = k;
  Arg v_read = v;
  if (cache && cache->filled == 0) {
    b.copy(shrink_view(cache->keys, 0, act), k);
    b.copy(shrink_view(cache->values, 0, act), v);
    k_read = shrink_view(cache->keys, 0, act);
    v_read = shrink_view(cache->values, 0, act);
  } else if (cache) {
    b.kernel("append_kv", {after_view(cache->keys), after_view(cache->values), k, v});
    keys = cache->rows;
    k_read = cache->keys;
    v_read = cache->values;
  }

  const Bytes scores_bytes = b.bytes({batch, shape.heads, tokens, keys});
  const StorageId scores = b.op("attention_scores", prefix + "scores", scores_bytes, {q, k_read});
  StorageId probs = scores;
  if (in_place == InPlace::Allowed && c.percent(40)) {
    b.kernel("softmax", {storage_arg(scores)});
  } else {
    probs = b.op("softmax", prefix + "probs", scores_bytes, {storage_arg(scores)});
  }
  const StorageId out = b.op("attention_values", prefix + "attn", act, {storage_arg(probs), v_read});
  const StorageId proj =
      b.op("matmul", prefix + "proj", act, {storage_arg(out)}, {b.weight(layer + "proj.w", b.bytes({d, d}))});
  if (in_place == InPlace::Allowed && c.percent(30)) {
    b.kernel("add", {storage_arg(proj), storage_arg(x)});
    return proj;
  }
  return b.op("add", prefix + "res1", act, {storage_arg(x), storage_arg(proj)});
}

StorageId mlp(ModelBuilder& b, Choices& c, const BlockNames& names, StorageId x, const BlockShape& shape,
              InPlace in_place) {
  const std::string& prefix = names.values;
  const std::string& layer = names.weights;
  const std::uint64_t d = shape.d_model;
  const Bytes act = b.bytes({shape.batch, shape.queries, d});
  const Bytes hidden = b.bytes({shape.batch, shape.queries, shape.mlp});
  const StorageId ln =
      b.op("layer_norm", prefix + "ln2", act, {storage_arg(x)}, {b.weight(layer + "ln2.w", b.bytes({2, d}))});
  const StorageId up =
      b.op("matmul", prefix + "fc1", hidden, {storage_arg(ln)}, {b.weight(layer + "fc1.w", b.bytes({d, shape.mlp}))});
  StorageId gelu = up;
  if (in_place == InPlace::Allowed && c.percent(50)) {
    b.kernel("gelu", {storage_arg(up)});
  } else {
    gelu = b.op("gelu", prefix + "gelu", hidden, {storage_arg(up)});
  }
  const StorageId down =
      b.op("matmul", prefix + "fc2", act, {storage_arg(gelu)}, {b.weight(layer + "fc2.w", b.bytes({shape.mlp, d}))});
  return b.op("add", prefix + "res2", act, {storage_arg(x), storage_arg(down)});
}

Dtype activation_dtype(Choices& c) {
  constexpr Dtype kTypes[] = {Dtype::Float16, Dtype::Float16, Dtype::BFloat16, Dtype::Float32};
  return kTypes[c.below(4)];
}

Status check_option(std::string_view source, std::string_view name, std::uint64_t value, std::uint64_t lo,
                    std::uint64_t hi) {
  if (value >= lo && value <= hi) return Ok{};
  return Error{std::string(source), fmt::format("{} is {}; it must be {} to {}", name, value, lo, hi)};
}

Status check_sizes(std::string_view source, std::uint64_t batch, std::uint64_t sequence, std::uint64_t layers) {
  PLANCK_TRY(check_option(source, "batch", batch, 1, kMaxBatch));
  PLANCK_TRY(check_option(source, "sequence", sequence, 1, kMaxSequence));
  return check_option(source, "layers", layers, 1, kMaxLayers);
}

}  // namespace planck::gen
