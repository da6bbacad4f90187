#pragma once
// The transformer pieces the model-shaped schedules share: an attention
// sublayer (optionally over a KV cache) and an MLP sublayer, each pre-norm
// with its residual add, their weights held buffers of the block
// (docs/commands.md#planck-generate).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gen/choices.h"
#include "gen/models/builder.h"
#include "model/result.h"

namespace planck::gen {

// GPT-2 small.
inline constexpr std::uint64_t kGpt2Model = 768;
inline constexpr std::uint64_t kGpt2Heads = 12;
inline constexpr std::uint64_t kGpt2Mlp = 3072;
inline constexpr std::uint64_t kGpt2Vocab = 50257;

struct BlockShape {
  std::uint64_t batch = 1;
  std::uint64_t queries = 1;  // the tokens this pass computes
  std::uint64_t d_model = kGpt2Model;
  std::uint64_t heads = kGpt2Heads;
  std::uint64_t mlp = kGpt2Mlp;
};

// A layer's KV cache: `rows` token rows of keys and of values, `filled` of
// them before this pass. A prefill (filled 0) copies its keys and values
// into the first rows; a decoding step appends one row (an `after` view,
// since the row it lands in is the kernel's to track) and attends over all.
struct KvCache {
  Arg keys;
  Arg values;
  std::uint64_t rows = 0;
  std::uint64_t filled = 0;
};

// The prefixes of a block's names: of its activations ("c1.l3." in the
// second decoding chunk) and of its weights ("l3.", shared by every pass).
struct BlockNames {
  std::string values;
  std::string weights;
};

// Whether a block may write an activation over its input (inference), or
// must keep every op's inputs (training: ops() then records each op).
enum class InPlace : std::uint8_t { Allowed, Never };

// Norm, Q/K/V, scores, softmax, attention, projection, residual add over x
// ([batch, queries, d_model]); the sum.
StorageId attention(ModelBuilder& b, Choices& c, const BlockNames& names, StorageId x, const BlockShape& shape,
                    InPlace in_place, const std::optional<KvCache>& cache = {});

// Norm, up projection, GELU, down projection, residual add; the sum.
StorageId mlp(ModelBuilder& b, Choices& c, const BlockNames& names, StorageId x, const BlockShape& shape,
              InPlace in_place);

// A float16, bfloat16 or float32 activation type, as compilers mix them.
Dtype activation_dtype(Choices& c);

// The largest sizes the model shapes take: far past any real model, small
// enough that a schedule's entries stay countable.
inline constexpr std::uint64_t kMaxBatch = 1 << 16;
inline constexpr std::uint64_t kMaxSequence = 1 << 20;
inline constexpr std::uint64_t kMaxLayers = 1024;

// An error unless lo <= value <= hi, naming the option.
Status check_option(std::string_view source, std::string_view name, std::uint64_t value, std::uint64_t lo,
                    std::uint64_t hi);
// check_option of the sizes of a model of transformer blocks: the batch,
// the tokens per sequence and the blocks, each from 1 to its largest.
Status check_sizes(std::string_view source, std::uint64_t batch, std::uint64_t sequence, std::uint64_t layers);

}  // namespace planck::gen
