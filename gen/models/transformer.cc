// The transformer and the training step: GPT-2 small blocks, forward only,
// or forward, loss, backward and the optimizer (docs/commands.md#planck-generate).

#include <map>
#include <string>
#include <vector>

#include "gen/models.h"
#include "gen/models/blocks.h"
#include "gen/schedule_parts.h"

namespace planck::gen {
namespace {

// The blocks over x; the last block's output.
StorageId blocks(ModelBuilder& b, Choices& c, StorageId x, const BlockShape& shape, std::uint64_t layers,
                 InPlace in_place) {
  for (std::uint64_t l = 0; l < layers; ++l) {
    const std::string name = "l" + std::to_string(l) + ".";
    x = attention(b, c, {name, name}, x, shape, in_place);
    x = mlp(b, c, {name, name}, x, shape, in_place);
  }
  return x;
}

// The backward pass of every op recorded so far, from the gradient of
// `loss`, and the optimizer's step for every weight with a gradient.
void backward(ModelBuilder& b, Choices& c, StorageId loss) {
  std::map<StorageId, StorageId> grads;
  auto grad_of = [&](StorageId id) {
    auto it = grads.find(id);
    if (it != grads.end()) return it->second;
    const Storage& st = b.storage(id);
    const std::string name = "d." + st.name;
    const Bytes bytes = st.bytes;
    const Dtype dtype = st.dtype;
    return grads[id] = b.buffer(name, bytes, dtype);
  };
  const std::vector<ForwardOp> ops = b.ops();
  std::map<StorageId, int> weight_uses;
  for (const ForwardOp& op : ops) {
    for (StorageId w : op.weights) ++weight_uses[w];
  }
  const bool step_at_once = c.percent(50);
  std::vector<StorageId> waiting;
  auto step = [&](StorageId w) {
    const std::string name = b.storage(w).name;
    const Bytes bytes = b.storage(w).bytes;
    const StorageId m = b.param("adam.m." + name, bytes);
    const StorageId v = b.param("adam.v." + name, bytes);
    b.kernel("adam", {storage_arg(w), storage_arg(grad_of(w)), storage_arg(m), storage_arg(v)});
  };

  b.kernel("ones", {storage_arg(grad_of(loss))});
  for (auto op = ops.rbegin(); op != ops.rend(); ++op) {
    auto out = grads.find(op->out);
    if (out == grads.end()) continue;  // nothing downstream reached the loss
    const StorageId out_grad = out->second;
    Args args;
    for (const Arg& in : op->inputs) {
      // Planned activations get gradients; the schedule's inputs do not.
      const StorageId base = storage_of(in);
      const bool planned = b.storage(base).kind == StorageKind::Buffer && !b.storage(base).held;
      if (planned) args.push_back(rebased(in, grad_of(base)));
    }
    for (StorageId w : op->weights) args.push_back(storage_arg(grad_of(w)));
    args.push_back(storage_arg(out_grad));
    args.insert(args.end(), op->inputs.begin(), op->inputs.end());
    for (StorageId w : op->weights) args.push_back(storage_arg(w));
    b.kernel(op->kernel + "_grad", std::move(args));
    for (StorageId w : op->weights) {
      if (--weight_uses[w] > 0) continue;  // a gradient still to come (tied weights)
      if (step_at_once) {
        step(w);
      } else {
        waiting.push_back(w);
      }
    }
  }
  for (StorageId w : waiting) step(w);
}

}  // namespace

Result<Schedule> generate_transformer(Choices& c, const TransformerOptions& o) {
  PLANCK_TRY(check_sizes("transformer", o.batch, o.sequence, o.layers));
  ModelBuilder b("transformer", "CUDA", activation_dtype(c));
  const BlockShape shape{.batch = o.batch, .queries = o.sequence};
  const StorageId x = b.param("x", b.bytes({o.batch, o.sequence, kGpt2Model}));
  const StorageId last = blocks(b, c, x, shape, o.layers, InPlace::Allowed);
  const StorageId norm = b.op("layer_norm", "ln_f", b.bytes({o.batch, o.sequence, kGpt2Model}), {storage_arg(last)},
                              {b.weight("ln_f.w", b.bytes({2, kGpt2Model}))});
  const StorageId logits = b.held("logits", b.bytes({o.batch, o.sequence, kGpt2Vocab}));
  b.kernel("matmul",
           {storage_arg(logits), storage_arg(norm), storage_arg(b.weight("wte", b.bytes({kGpt2Vocab, kGpt2Model})))});
  return std::move(b).finish();
}

Result<Schedule> generate_training(Choices& c, const TrainingOptions& o) {
  PLANCK_TRY(check_sizes("training", o.batch, o.sequence, o.layers));
  ModelBuilder b("training", "CUDA", activation_dtype(c));
  b.weights_are_params();
  const BlockShape shape{.batch = o.batch, .queries = o.sequence};
  const Bytes act = b.bytes({o.batch, o.sequence, kGpt2Model});
  const StorageId tokens = b.param("tokens", b.bytes({o.batch, o.sequence}, Dtype::Int32), Dtype::Int32);
  const StorageId labels = b.param("labels", b.bytes({o.batch, o.sequence}, Dtype::Int32), Dtype::Int32);
  const StorageId wte = b.weight("wte", b.bytes({kGpt2Vocab, kGpt2Model}));
  const StorageId x = b.op("embed", "embed", act, {storage_arg(tokens)}, {wte});
  const StorageId last = blocks(b, c, x, shape, o.layers, InPlace::Never);
  const StorageId norm =
      b.op("layer_norm", "ln_f", act, {storage_arg(last)}, {b.weight("ln_f.w", b.bytes({2, kGpt2Model}))});
  // The output embedding is the input one, tied as in GPT-2: its gradient
  // gathers from both ends of the pass.
  const StorageId logits =
      b.op("matmul", "logits", b.bytes({o.batch, o.sequence, kGpt2Vocab}), {storage_arg(norm)}, {wte});
  const StorageId loss =
      b.op("cross_entropy", "loss", b.bytes({o.batch}, Dtype::Float32), {storage_arg(logits), storage_arg(labels)});
  backward(b, c, loss);
  return std::move(b).finish();
}

}  // namespace planck::gen
