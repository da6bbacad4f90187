#pragma once
// Schedules shaped like real models (docs/commands.md#planck-generate), for
// judging planners on what compilers plan (the random schedules of
// gen/random_schedules.h exercise the format; these exercise the planner).
// Tensor sizes come from published layer shapes; batch, sequence and depth
// are options. A Choices varies the structure as compilers do (fused or
// separate projections, in-place or new activations, where the optimizer
// runs, how tokens spread over experts), so that one seed gives one schedule
// and different seeds give different packing problems. Weights are held
// buffers, the schedule's input a param, and every intermediate value a
// planned buffer.
//
// Each returns an error, never a schedule no planner can place, when the
// sizes asked for overflow (a tensor or the total storage at 2^62 bytes).

#include <cstdint>

#include "gen/choices.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck::gen {

// GPT-2 small's blocks (Radford et al., 2019): d_model 768, 12 heads, MLP
// 3072, vocabulary 50257; pre-norm. Each block: layer norm, Q/K/V
// projections (one fused buffer seen through shrink views, or three),
// attention scores (batch x heads x sequence x sequence), softmax (in place
// or into a new buffer), attention output and its projection, residual add
// (into the projection or a new buffer), layer norm, MLP up, GELU (in place
// or not), MLP down, residual add; then
// the final norm and the logits, held as the output. Float16, bfloat16 or
// float32 activations.
struct TransformerOptions {
  std::uint64_t batch = 1, sequence = 1024, layers = 12;
};
Result<Schedule> generate_transformer(Choices& choices, const TransformerOptions& options = {});

// ResNet-50 inference (He et al., 2016; v1.5, stride in the 3x3 conv): a
// 7x7 stem to 64 channels at image/2, max pool, then four stages of 3, 4, 6
// and 3 bottleneck blocks, 256/512/1024/2048 channels out (64/128/256/512
// inside) at image/4, /8, /16, /32 (56/28/14/7 at 224), each block's input
// kept for its skip connection, a 1x1 projection of the skip at each stage's
// first block; average pool and a 1000-class layer. Each conv folds batch
// norm in or, one time in three, keeps it as a buffer of its own; each block
// computes its skip's projection before or after its main path, and adds
// the skip in place or into a new buffer.
struct ConvNetOptions {
  std::uint64_t batch = 1, image = 224;  // image: pixels a side, a multiple of 32
};
Result<Schedule> generate_convnet(Choices& choices, const ConvNetOptions& options = {});

// One training step of GPT-2 small blocks (as the transformer above, never
// in place, since the backward pass reads every op's inputs): the forward
// pass keeping each op's inputs, the logits and a cross-entropy loss, then
// the backward pass in reverse, each op's gradient kernel reading its saved
// inputs and the gradient of its output and writing (or accumulating into,
// across a residual) the gradients of its inputs and weights. The optimizer
// (Adam, its moments params) updates each weight as soon as its gradient is
// made, or all of them after the backward pass, as a gradient-accumulating
// step does.
struct TrainingOptions {
  std::uint64_t batch = 1, sequence = 256, layers = 4;
};
Result<Schedule> generate_training(Choices& choices, const TrainingOptions& options = {});

// Autoregressive decoding with GPT-2 small blocks and a KV cache: a prefill
// of the prompt writes each layer's keys and values into the first rows of
// its cache; then `chunks` loops (`loop flag=done.C`), each generating up to
// `steps` tokens (the count drawn from steps/2 to steps): one token's pass
// through every layer, its keys and values appended to the cache (an
// `after` view), attention over the cache, and sampling, which sets the
// flag. Before each chunk after the first the cache grows: a larger buffer
// per layer, the old one copied into its first rows (a shrink view), as a
// growing cache is reallocated. K and V are two buffers, or one seen
// through shrink views.
struct DecodingOptions {
  std::uint64_t batch = 1, prompt = 128, steps = 64, chunks = 4, layers = 12;
};
Result<Schedule> generate_decoding(Choices& choices, const DecodingOptions& options = {});

// Mixtral-like mixture-of-experts blocks (Jiang et al., 2024): d_model 4096,
// 32 heads, each expert a SwiGLU MLP of 14336, 8 experts, top-2 routing.
// Attention and the router run on CUDA:0; expert E lives on CUDA:(E mod
// devices), its weights held there. The routed tokens are permuted into one
// dispatch buffer, each expert's rows (their count drawn, as routing is
// uneven) copied to its device, the expert's output copied back into a
// combine buffer (an expert on CUDA:0 reads and writes those buffers through
// shrink views instead), every expert's rows sent before any runs or one
// expert after another; a combine kernel weights and sums them, then the
// residual add.
struct ExpertsOptions {
  std::uint64_t batch = 1, sequence = 512, layers = 2, experts = 8, devices = 4;
};
Result<Schedule> generate_experts(Choices& choices, const ExpertsOptions& options = {});

}  // namespace planck::gen
