// Mixture-of-experts blocks with the experts spread over devices
// (docs/commands.md#planck-generate).

#include <string>
#include <vector>

#include "gen/models.h"
#include "gen/models/blocks.h"
#include "gen/schedule_parts.h"

namespace planck::gen {
namespace {

// Mixtral 8x7B.
constexpr std::uint64_t kModel = 4096;
constexpr std::uint64_t kHeads = 32;
constexpr std::uint64_t kExpertMlp = 14336;
constexpr std::uint64_t kTopK = 2;
const std::string kHome = "CUDA:0";

// How many of `rows` routed rows each expert gets: uneven, as routing is,
// each expert's share weighted by a draw from 1 to 8.
std::vector<std::uint64_t> routed_rows(Choices& c, std::uint64_t rows, std::uint64_t experts) {
  std::vector<std::uint64_t> weight(experts);
  std::uint64_t sum = 0;
  for (auto& w : weight) sum += w = c.between(1, 8);
  std::vector<std::uint64_t> share(experts);
  std::uint64_t given = 0;
  for (std::uint64_t e = 0; e < experts; ++e) given += share[e] = rows / sum * weight[e] + rows % sum * weight[e] / sum;
  share[c.below(experts)] += rows - given;
  return share;
}

// One expert: its rows of the dispatch buffer in, a SwiGLU MLP on its
// device, its rows of the combine buffer out.
struct Expert {
  std::string name;
  std::string device;
  Bytes start = 0;  // of its rows, in the dispatch and combine buffers
  Bytes bytes = 0;
  std::uint64_t rows = 0;
  Arg in;  // its input rows, on its device
};

void send(ModelBuilder& b, Expert& e, StorageId dispatch) {
  const Arg rows = shrink_view(storage_arg(dispatch), e.start, e.bytes);
  if (e.device == kHome) {
    e.in = rows;
    return;
  }
  b.set_device(e.device);
  const StorageId in = b.buffer(e.name + ".in", e.bytes);
  b.set_device(kHome);
  b.copy(storage_arg(in), rows);
  e.in = storage_arg(in);
}

void compute_and_return(ModelBuilder& b, Choices& c, const Expert& e, StorageId combine) {
  b.set_device(e.device);
  const Bytes hidden = b.bytes({e.rows, kExpertMlp});
  const StorageId gate =
      b.op("matmul", e.name + ".gate", hidden, {e.in}, {b.weight(e.name + ".w1", b.bytes({kModel, kExpertMlp}))});
  const StorageId up =
      b.op("matmul", e.name + ".up", hidden, {e.in}, {b.weight(e.name + ".w3", b.bytes({kModel, kExpertMlp}))});
  StorageId act = gate;
  if (c.percent(50)) {
    b.kernel("silu_mul", {storage_arg(gate), storage_arg(up)});
  } else {
    act = b.op("silu_mul", e.name + ".act", hidden, {storage_arg(gate), storage_arg(up)});
  }
  const StorageId w2 = b.weight(e.name + ".w2", b.bytes({kExpertMlp, kModel}));
  const Arg rows = shrink_view(storage_arg(combine), e.start, e.bytes);
  if (e.device == kHome) {
    b.kernel("matmul", {rows, storage_arg(act), storage_arg(w2)});
  } else {
    const StorageId out = b.op("matmul", e.name + ".out", e.bytes, {storage_arg(act)}, {w2});
    b.set_device(kHome);
    b.copy(rows, storage_arg(out));
  }
  b.set_device(kHome);
}

StorageId moe(ModelBuilder& b, Choices& c, const std::string& layer, StorageId x, const ExpertsOptions& o) {
  const std::uint64_t tokens = o.batch * o.sequence;
  const Bytes act = b.bytes({tokens, kModel});
  const StorageId norm =
      b.op("layer_norm", layer + "ln2", act, {storage_arg(x)}, {b.weight(layer + "ln2.w", b.bytes({2, kModel}))});
  const StorageId router = b.op("matmul", layer + "router", b.bytes({tokens, o.experts}), {storage_arg(norm)},
                                {b.weight(layer + "router.w", b.bytes({kModel, o.experts}))});
  const StorageId index = b.buffer(layer + "top2.index", b.bytes({tokens, kTopK}, Dtype::Int32), Dtype::Int32);
  const StorageId gates = b.buffer(layer + "top2.gate", b.bytes({tokens, kTopK}));
  b.kernel("top2", {storage_arg(index), storage_arg(gates), storage_arg(router)});
  const StorageId dispatch =
      b.op("permute", layer + "dispatch", b.bytes({kTopK, tokens, kModel}), {storage_arg(norm), storage_arg(index)});
  const StorageId combine = b.buffer(layer + "combine.in", b.bytes({kTopK, tokens, kModel}));

  std::vector<Expert> experts;
  Bytes start = 0;
  const std::vector<std::uint64_t> rows = routed_rows(c, kTopK * tokens, o.experts);
  for (std::uint64_t e = 0; e < o.experts; ++e) {
    const Bytes bytes = b.bytes({rows[e], kModel});
    if (rows[e] > 0) {
      experts.push_back(
          Expert{layer + "e" + std::to_string(e), "CUDA:" + std::to_string(e % o.devices), start, bytes, rows[e], {}});
    }
    start += bytes;
  }
  // Every expert's rows sent, then every expert run; or one expert after another.
  if (c.percent(50)) {
    for (Expert& e : experts) send(b, e, dispatch);
    for (const Expert& e : experts) compute_and_return(b, c, e, combine);
  } else {
    for (Expert& e : experts) {
      send(b, e, dispatch);
      compute_and_return(b, c, e, combine);
    }
  }
  const StorageId mixed =
      b.op("combine", layer + "moe", act, {storage_arg(combine), storage_arg(gates), storage_arg(index)});
  return b.op("add", layer + "res2", act, {storage_arg(x), storage_arg(mixed)});
}

}  // namespace

Result<Schedule> generate_experts(Choices& c, const ExpertsOptions& o) {
  PLANCK_TRY(check_sizes("experts", o.batch, o.sequence, o.layers));
  PLANCK_TRY(check_option("experts", "experts", o.experts, 1, 256));
  PLANCK_TRY(check_option("experts", "devices", o.devices, 1, 64));
  ModelBuilder b("experts", kHome, c.percent(50) ? Dtype::BFloat16 : Dtype::Float16);
  const BlockShape shape{
      .batch = o.batch, .queries = o.sequence, .d_model = kModel, .heads = kHeads, .mlp = kExpertMlp};
  StorageId x = b.param("x", b.bytes({o.batch, o.sequence, kModel}));
  for (std::uint64_t l = 0; l < o.layers; ++l) {
    const std::string name = "l" + std::to_string(l) + ".";
    x = attention(b, c, {name, name}, x, shape, InPlace::Allowed);
    x = moe(b, c, name, x, o);
  }
  const StorageId out = b.held("out", b.bytes({o.batch, o.sequence, kModel}));
  b.kernel("copy_out", {storage_arg(out), storage_arg(x)});
  return std::move(b).finish();
}

}  // namespace planck::gen
