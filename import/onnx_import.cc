#include "import/onnx_import.h"

#include <fmt/format.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iterator>
#include <set>
#include <string>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

#include "model/lexical.h"
#include "model/schedule_printer.h"
#include "model/schedule_words.h"

namespace planck::onnx_import {
namespace {

namespace pb = ::onnx;

// ONNX Runtime's kernels that declare KernelDefBuilder::MayInplace(0, 0):
// the CPU activations (onnxruntime/core/providers/cpu/activation/
// activations.cc), Scatter and ScatterElements (cpu/tensor/scatter.cc) and
// Trilu (cuda/tensor/trilu.cc).
const std::vector<std::string_view> kInPlaceOps = {
    "Elu",     "HardSigmoid", "LeakyRelu",       "Relu",    "Selu",           "Sigmoid", "Softplus",
    "Softsign", "Tanh",       "ThresholdedRelu", "Scatter", "ScatterElements", "Trilu",
};

// Ops whose output shape depends on the values of their inputs.
// Ops whose output shape depends on the values of their inputs (a Loop's
// scan outputs: on its trip count).
constexpr std::array<std::string_view, 6> kDataDependentOps = {
    "NonZero", "Unique", "NonMaxSuppression", "Compress", "TopK", "Loop",
};

// A name or word of the model for a message: escaped, in backquotes, cut
// at 200 bytes.
std::string quote(std::string_view name) {
  constexpr std::size_t kLongest = 200;
  if (name.size() > kLongest) return "`" + escaped(name.substr(0, kLongest)) + "...`";
  return "`" + escaped(name) + "`";
}

std::optional<Dtype> dtype_of(int onnx_type) {
  switch (onnx_type) {
    case pb::TensorProto_DataType_FLOAT: return Dtype::Float32;
    case pb::TensorProto_DataType_UINT8: return Dtype::UInt8;
    case pb::TensorProto_DataType_INT8: return Dtype::Int8;
    case pb::TensorProto_DataType_UINT16: return Dtype::UInt16;
    case pb::TensorProto_DataType_INT16: return Dtype::Int16;
    case pb::TensorProto_DataType_INT32: return Dtype::Int32;
    case pb::TensorProto_DataType_INT64: return Dtype::Int64;
    case pb::TensorProto_DataType_BOOL: return Dtype::Bool;
    case pb::TensorProto_DataType_FLOAT16: return Dtype::Float16;
    case pb::TensorProto_DataType_DOUBLE: return Dtype::Float64;
    case pb::TensorProto_DataType_UINT32: return Dtype::UInt32;
    case pb::TensorProto_DataType_UINT64: return Dtype::UInt64;
    case pb::TensorProto_DataType_BFLOAT16: return Dtype::BFloat16;
    default: return std::nullopt;
  }
}

std::string onnx_dtype_name(int onnx_type) {
  if (pb::TensorProto_DataType_IsValid(onnx_type)) {
    return pb::TensorProto_DataType_Name(static_cast<pb::TensorProto_DataType>(onnx_type));
  }
  return fmt::format("{}", onnx_type);
}

// A kernel name: the op type with the bytes that end a .sched word as `_`.
std::string kernel_name(std::string_view op) {
  std::string out(op);
  for (char& c : out) {
    if (schedule_text::ends_word(c)) c = '_';
  }
  return out.empty() ? "_" : out;
}

// The storage name an ONNX name maps to before it is made unique: the
// bytes of a storage name kept, every other byte `_`, with `v` before a
// name that does not start with a letter or `_`, and `_` after a word of
// the format.
std::string mapped_name(std::string_view name) {
  std::string out;
  for (char c : name) out += schedule_text::kInStorageName[static_cast<unsigned char>(c)] ? c : '_';
  if (out.empty() || !(schedule_text::is_ascii_letter(out.front()) || out.front() == '_')) out.insert(0, "v");
  if (schedule_text::is_reserved(out)) out += '_';
  return out;
}

bool is_valid_name(std::string_view name) {
  return schedule_text::is_storage_name(name) && !schedule_text::is_reserved(name);
}

Arg storage_arg(StorageId id) { return Arg{.kind = Arg::Kind::Storage, .storage = id}; }

Entry kernel(std::string_view op, const std::vector<StorageId>& args) {
  Entry e;
  e.kind = Entry::Kind::Kernel;
  e.name = kernel_name(op);
  for (StorageId id : args) e.args.push_back(storage_arg(id));
  return e;
}

// Small integer tensors computed from constants alone, as exporters emit
// them for the shape input of an Expand or a Reshape (torch: Constant,
// ConstantOfShape, Mul, Equal, Where). ONNX's shape inference reads the data
// of initializers and Constant nodes only, so such a shape stays unknown
// unless the nodes that compute it are folded first.
namespace fold {

// Tensors of at most this many elements are folded.
constexpr std::int64_t kMaxElements = 64;

struct Tensor {
  int dtype = pb::TensorProto_DataType_INT64;  // INT64, INT32 or BOOL
  std::vector<std::int64_t> dims;
  std::vector<std::int64_t> values;
};

std::optional<Tensor> from_proto(const pb::TensorProto& t) {
  Tensor out;
  out.dtype = t.data_type();
  if (out.dtype != pb::TensorProto_DataType_INT64 && out.dtype != pb::TensorProto_DataType_INT32 &&
      out.dtype != pb::TensorProto_DataType_BOOL) {
    return std::nullopt;
  }
  if (t.data_location() == pb::TensorProto_DataLocation_EXTERNAL) return std::nullopt;
  std::int64_t count = 1;
  for (std::int64_t d : t.dims()) {
    if (d < 0 || d > kMaxElements) return std::nullopt;
    count *= d;
    if (count > kMaxElements) return std::nullopt;
    out.dims.push_back(d);
  }
  const std::size_t size = out.dtype == pb::TensorProto_DataType_INT64   ? 8
                           : out.dtype == pb::TensorProto_DataType_INT32 ? 4
                                                                         : 1;
  if (t.has_raw_data()) {
    if (t.raw_data().size() != static_cast<std::size_t>(count) * size) return std::nullopt;
    for (std::int64_t i = 0; i < count; ++i) {
      std::int64_t v = 0;
      const char* at = t.raw_data().data() + i * size;
      if (size == 8) {
        std::memcpy(&v, at, 8);
      } else if (size == 4) {
        std::int32_t v32 = 0;
        std::memcpy(&v32, at, 4);
        v = v32;
      } else {
        v = *at != 0;
      }
      out.values.push_back(v);
    }
  } else if (out.dtype == pb::TensorProto_DataType_INT64) {
    out.values.assign(t.int64_data().begin(), t.int64_data().end());
  } else {
    out.values.assign(t.int32_data().begin(), t.int32_data().end());
  }
  if (out.values.size() != static_cast<std::size_t>(count)) return std::nullopt;
  return out;
}

pb::TensorProto to_proto(const Tensor& t) {
  pb::TensorProto out;
  out.set_data_type(t.dtype);
  for (std::int64_t d : t.dims) out.add_dims(d);
  for (std::int64_t v : t.values) {
    if (t.dtype == pb::TensorProto_DataType_INT64) {
      out.add_int64_data(v);
    } else {
      out.add_int32_data(static_cast<std::int32_t>(v));
    }
  }
  return out;
}

// The shape two or three shapes broadcast to, numpy's way.
std::optional<std::vector<std::int64_t>> broadcast(const std::vector<const Tensor*>& ts) {
  std::size_t rank = 0;
  for (const Tensor* t : ts) rank = std::max(rank, t->dims.size());
  std::vector<std::int64_t> out(rank, 1);
  for (const Tensor* t : ts) {
    for (std::size_t i = 0; i < t->dims.size(); ++i) {
      std::int64_t& o = out[rank - t->dims.size() + i];
      const std::int64_t d = t->dims[i];
      if (d == o || d == 1) continue;
      if (o != 1) return std::nullopt;
      o = d;
    }
  }
  return out;
}

// The element of t at the index `at` of the broadcast shape `shape`.
std::int64_t element(const Tensor& t, const std::vector<std::int64_t>& shape, std::int64_t at) {
  std::int64_t offset = 0;
  std::int64_t stride = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    const std::int64_t index = at % shape[i];
    at /= shape[i];
    const std::size_t ti = i + t.dims.size();
    if (ti < shape.size()) continue;  // a leading dimension t lacks
    const std::int64_t d = t.dims[ti - shape.size()];
    if (d != 1) offset += index * stride;
    stride *= d;
  }
  return t.values[static_cast<std::size_t>(offset)];
}

// The row-major strides of a shape.
std::vector<std::int64_t> strides_of(const std::vector<std::int64_t>& dims) {
  std::vector<std::int64_t> strides(dims.size(), 1);
  for (std::size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

// The elements of t picked by `picks` (one list of indices per axis), in
// row-major order of the picks.
Tensor gather_axes(const Tensor& t, const std::vector<std::vector<std::int64_t>>& picks) {
  Tensor out;
  out.dtype = t.dtype;
  std::int64_t count = 1;
  for (const auto& p : picks) {
    out.dims.push_back(static_cast<std::int64_t>(p.size()));
    count *= static_cast<std::int64_t>(p.size());
  }
  const std::vector<std::int64_t> strides = strides_of(t.dims);
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t rest = i;
    std::int64_t offset = 0;
    for (std::size_t axis = picks.size(); axis-- > 0;) {
      const auto n = static_cast<std::int64_t>(picks[axis].size());
      offset += picks[axis][static_cast<std::size_t>(rest % n)] * strides[axis];
      rest /= n;
    }
    out.values.push_back(t.values[static_cast<std::size_t>(offset)]);
  }
  return out;
}

// ONNX's Reshape of t to `shape` (0 keeps a dimension, -1 takes the rest).
std::optional<Tensor> reshape(const Tensor& t, const std::vector<std::int64_t>& shape) {
  Tensor out = t;
  out.dims.clear();
  std::int64_t known = 1;
  int unknown = -1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    std::int64_t d = shape[i];
    if (d == 0) {
      if (i >= t.dims.size()) return std::nullopt;
      d = t.dims[i];
    }
    if (d == -1) {
      if (unknown >= 0) return std::nullopt;
      unknown = static_cast<int>(i);
      d = 1;
    } else if (d < 0 || d > kMaxElements) {
      return std::nullopt;
    }
    known *= d;
    if (known > kMaxElements) return std::nullopt;
    out.dims.push_back(d);
  }
  const auto count = static_cast<std::int64_t>(t.values.size());
  if (unknown >= 0) {
    if (known == 0 || count % known != 0) return std::nullopt;
    out.dims[static_cast<std::size_t>(unknown)] = count / known;
  } else if (known != count) {
    return std::nullopt;
  }
  return out;
}

// ONNX's Slice (opset 10 on: starts, ends, axes, steps as inputs).
std::optional<Tensor> slice(const Tensor& t, const std::vector<const Tensor*>& in) {
  const std::size_t rank = t.dims.size();
  std::vector<std::vector<std::int64_t>> picks(rank);
  for (std::size_t a = 0; a < rank; ++a) {
    for (std::int64_t i = 0; i < t.dims[a]; ++i) picks[a].push_back(i);
  }
  const std::vector<std::int64_t>& starts = in[1]->values;
  const std::vector<std::int64_t>& ends = in[2]->values;
  if (starts.size() != ends.size()) return std::nullopt;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    std::int64_t axis = in.size() > 3 ? (k < in[3]->values.size() ? in[3]->values[k] : -1000) : static_cast<std::int64_t>(k);
    const std::int64_t step = in.size() > 4 ? (k < in[4]->values.size() ? in[4]->values[k] : 0) : 1;
    if (axis < 0) axis += static_cast<std::int64_t>(rank);
    if (axis < 0 || axis >= static_cast<std::int64_t>(rank) || step == 0) return std::nullopt;
    const std::int64_t n = t.dims[static_cast<std::size_t>(axis)];
    auto clamp = [&](std::int64_t v, std::int64_t lo, std::int64_t hi) {
      if (v < 0) v = v < -n ? lo : v + n;
      return std::min(std::max(v, lo), hi);
    };
    std::vector<std::int64_t> pick;
    if (step > 0) {
      for (std::int64_t i = clamp(starts[k], 0, n), e = clamp(ends[k], 0, n); i < e; i += step) pick.push_back(i);
    } else {
      for (std::int64_t i = clamp(starts[k], -1, n - 1), e = clamp(ends[k], -1, n - 1); i > e; i += step) {
        pick.push_back(i);
      }
    }
    picks[static_cast<std::size_t>(axis)] = std::move(pick);
  }
  return gather_axes(t, picks);
}

// The output of the node from its inputs, when it is an op folded here.
std::optional<Tensor> evaluate(const pb::NodeProto& node, const std::vector<const Tensor*>& in) {
  const std::string& op = node.op_type();
  if (op == "Identity" && in.size() == 1) return *in[0];
  if (op == "ConstantOfShape" && in.size() == 1) {
    Tensor out;
    std::optional<std::int64_t> value;  // none: float zeros, not folded
    for (const pb::AttributeProto& a : node.attribute()) {
      if (a.name() != "value" || !a.has_t()) continue;
      std::optional<Tensor> v = from_proto(a.t());
      if (!v || v->values.size() != 1) return std::nullopt;
      out.dtype = v->dtype;
      value = v->values[0];
    }
    if (!value) return std::nullopt;
    std::int64_t count = 1;
    for (std::int64_t d : in[0]->values) {
      if (d < 0 || d > kMaxElements) return std::nullopt;
      count *= d;
      if (count > kMaxElements) return std::nullopt;
      out.dims.push_back(d);
    }
    out.values.assign(static_cast<std::size_t>(count), *value);
    return out;
  }
  auto attr_int = [&](std::string_view name, std::int64_t fallback) {
    for (const pb::AttributeProto& a : node.attribute()) {
      if (a.name() == name && a.type() == pb::AttributeProto::INT) return a.i();
    }
    return fallback;
  };
  if (op == "Cast" && in.size() == 1) {
    const std::int64_t to = attr_int("to", 0);
    if (to != pb::TensorProto_DataType_INT64 && to != pb::TensorProto_DataType_INT32) return std::nullopt;
    Tensor out = *in[0];
    out.dtype = static_cast<int>(to);
    return out;
  }
  // A scalar made a vector of one and back, as shapes are built.
  if (op == "Unsqueeze" && in[0]->dims.empty()) {
    Tensor out = *in[0];
    out.dims = {1};
    return out;
  }
  if (op == "Squeeze" && in[0]->dims == std::vector<std::int64_t>{1}) {
    Tensor out = *in[0];
    out.dims.clear();
    return out;
  }
  if (op == "Concat" && attr_int("axis", 0) == 0) {
    Tensor out;
    out.dtype = in[0]->dtype;
    for (const Tensor* t : in) {
      if (t->dims.size() != 1 || t->dtype != out.dtype) return std::nullopt;
      out.values.insert(out.values.end(), t->values.begin(), t->values.end());
    }
    if (out.values.size() > static_cast<std::size_t>(kMaxElements)) return std::nullopt;
    out.dims = {static_cast<std::int64_t>(out.values.size())};
    return out;
  }
  if (op == "Gather" && in.size() == 2 && in[0]->dims.size() == 1 && attr_int("axis", 0) == 0) {
    Tensor out;
    out.dtype = in[0]->dtype;
    out.dims = in[1]->dims;
    const auto n = static_cast<std::int64_t>(in[0]->values.size());
    for (std::int64_t index : in[1]->values) {
      if (index < -n || index >= n) return std::nullopt;
      out.values.push_back(in[0]->values[static_cast<std::size_t>(index < 0 ? index + n : index)]);
    }
    return out;
  }
  if (op == "Reshape" && in.size() == 2) return reshape(*in[0], in[1]->values);
  if (op == "Slice" && in.size() >= 3) return slice(*in[0], in);
  if (op == "Transpose" && in.size() == 1) {
    const std::size_t rank = in[0]->dims.size();
    std::vector<std::int64_t> perm;
    for (const pb::AttributeProto& a : node.attribute()) {
      if (a.name() == "perm") perm.assign(a.ints().begin(), a.ints().end());
    }
    if (perm.empty()) {
      for (std::size_t i = rank; i-- > 0;) perm.push_back(static_cast<std::int64_t>(i));
    }
    if (perm.size() != rank) return std::nullopt;
    // Output index (i_0, ..., i_r) reads input index with axis perm[k] at i_k.
    const std::vector<std::int64_t> strides = strides_of(in[0]->dims);
    Tensor out;
    out.dtype = in[0]->dtype;
    std::vector<bool> seen(rank, false);
    for (std::int64_t p : perm) {
      if (p < 0 || p >= static_cast<std::int64_t>(rank) || seen[static_cast<std::size_t>(p)]) return std::nullopt;
      seen[static_cast<std::size_t>(p)] = true;
      out.dims.push_back(in[0]->dims[static_cast<std::size_t>(p)]);
    }
    const auto count = static_cast<std::int64_t>(in[0]->values.size());
    for (std::int64_t i = 0; i < count; ++i) {
      std::int64_t rest = i;
      std::int64_t offset = 0;
      for (std::size_t k = rank; k-- > 0;) {
        const std::int64_t d = out.dims[k];
        offset += (rest % d) * strides[static_cast<std::size_t>(perm[k])];
        rest /= d;
      }
      out.values.push_back(in[0]->values[static_cast<std::size_t>(offset)]);
    }
    return out;
  }
  if ((op == "Div" || op == "Mod") && in.size() == 2) {
    for (std::int64_t v : in[1]->values) {
      if (v == 0) return std::nullopt;
    }
  }
  const bool binary = op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Mod" || op == "Equal";
  if ((binary && in.size() == 2) || (op == "Where" && in.size() == 3)) {
    std::optional<std::vector<std::int64_t>> shape = broadcast(in);
    if (!shape) return std::nullopt;
    std::int64_t count = 1;
    for (std::int64_t d : *shape) count *= d;
    if (count > kMaxElements) return std::nullopt;
    Tensor out;
    out.dims = *shape;
    out.dtype = op == "Equal" ? pb::TensorProto_DataType_BOOL : in[op == "Where" ? 1 : 0]->dtype;
    for (std::int64_t i = 0; i < count; ++i) {
      const std::int64_t a = element(*in[0], *shape, i);
      const std::int64_t b = element(*in[1], *shape, i);
      std::int64_t r = 0;
      if (op == "Where") {
        r = a != 0 ? b : element(*in[2], *shape, i);
      } else if (op == "Equal") {
        r = a == b;
      } else if (op == "Div" || op == "Mod") {
        if (a == INT64_MIN && b == -1) return std::nullopt;
        r = op == "Div" ? a / b : a % b;
        // Mod (fmod 0) takes the sign of the divisor.
        if (op == "Mod" && r != 0 && ((r < 0) != (b < 0))) r += b;
      } else {
        std::int64_t v = 0;
        const bool overflow = op == "Add"   ? __builtin_add_overflow(a, b, &v)
                              : op == "Sub" ? __builtin_sub_overflow(a, b, &v)
                                            : __builtin_mul_overflow(a, b, &v);
        if (overflow) return std::nullopt;
        r = v;
      }
      out.values.push_back(r);
    }
    return out;
  }
  return std::nullopt;
}

// A copy of the graph's nodes in which each node that computes a small
// integer tensor from constants alone is a Constant node holding it.
// Returns the indices of the nodes replaced.
// The shape of a value as a tensor, when shape inference has fixed it.
std::optional<Tensor> static_shape(const std::unordered_map<std::string, const pb::TypeProto*>& types,
                                   const std::string& name) {
  auto it = types.find(name);
  if (it == types.end() || !it->second->has_tensor_type() || !it->second->tensor_type().has_shape()) {
    return std::nullopt;
  }
  Tensor out;
  for (const pb::TensorShapeProto_Dimension& d : it->second->tensor_type().shape().dim()) {
    if (!d.has_dim_value()) return std::nullopt;
    out.values.push_back(d.dim_value());
  }
  if (out.values.size() > static_cast<std::size_t>(kMaxElements)) return std::nullopt;
  out.dims = {static_cast<std::int64_t>(out.values.size())};
  return out;
}

// Folds the graph's nodes that compute a small integer tensor from
// constants (and from shapes inference has fixed) into Constant nodes
// holding it; appends each node it replaces, as it was, to `replaced`.
// Returns how many it replaced.
int fold_constants(pb::GraphProto& g, std::vector<std::pair<int, pb::NodeProto>>& replaced) {
  std::unordered_map<std::string, const pb::TypeProto*> types;
  for (const auto* list : {&g.value_info(), &g.input(), &g.output()}) {
    for (const pb::ValueInfoProto& v : *list) types.emplace(v.name(), &v.type());
  }
  std::unordered_map<std::string, Tensor> known;
  for (const pb::TensorProto& t : g.initializer()) {
    if (std::optional<Tensor> v = from_proto(t)) known.emplace(t.name(), std::move(*v));
  }
  int count = 0;
  for (int i = 0; i < g.node_size(); ++i) {
    pb::NodeProto& node = *g.mutable_node(i);
    if (node.output_size() != 1 || !node.domain().empty()) continue;
    if (node.op_type() == "Shape" && node.input_size() == 1 && node.attribute_size() == 0) {
      if (std::optional<Tensor> shape = static_shape(types, node.input(0))) {
        replaced.emplace_back(i, node);
        node.clear_input();
        node.set_op_type("Constant");
        pb::AttributeProto* value = node.add_attribute();
        value->set_name("value");
        value->set_type(pb::AttributeProto::TENSOR);
        *value->mutable_t() = to_proto(*shape);
        known.insert_or_assign(node.output(0), std::move(*shape));
        ++count;
      }
      continue;
    }
    if (node.op_type() == "Constant") {
      for (const pb::AttributeProto& a : node.attribute()) {
        if (a.name() != "value" || !a.has_t()) continue;
        if (std::optional<Tensor> v = from_proto(a.t())) known.insert_or_assign(node.output(0), std::move(*v));
      }
      continue;
    }
    std::vector<const Tensor*> in;
    for (const std::string& name : node.input()) {
      auto it = known.find(name);
      if (it == known.end()) break;
      in.push_back(&it->second);
    }
    if (in.empty() || in.size() != static_cast<std::size_t>(node.input_size())) continue;
    std::optional<Tensor> out = evaluate(node, in);
    if (!out) continue;
    replaced.emplace_back(i, node);
    ++count;
    node.clear_input();
    node.clear_attribute();
    node.set_op_type("Constant");
    pb::AttributeProto* value = node.add_attribute();
    value->set_name("value");
    value->set_type(pb::AttributeProto::TENSOR);
    *value->mutable_t() = to_proto(*out);
    known.insert_or_assign(node.output(0), std::move(*out));
  }
  return count;
}

}  // namespace fold

// What is in scope while a graph is read: its values, by ONNX name, and
// the types its value_info, inputs and outputs give.
struct Scope {
  std::unordered_map<std::string, StorageId> values;
  std::unordered_map<std::string, const pb::TypeProto*> types;
  // The producer of each node output of the graph, for messages.
  std::unordered_map<std::string, const pb::NodeProto*> producers;
};

// Rounds of shape inference and folding at most.
constexpr int kFoldRounds = 64;

class Importer {
 public:
  Importer(const ImportOptions& options, std::string_view source) : options_(options), source_(source) {}

  Result<Imported> run(pb::ModelProto& model) {
    if (!model.has_ir_version() || !model.has_graph()) {
      return fail(fmt::format("not an ONNX model: it has no {}", model.has_ir_version() ? "graph" : "IR version"));
    }
    PLANCK_TRY(fix_dims(model));
    // Shapes are inferred with the constant computations of the graph
    // folded, again while the shapes inferred let more fold; the schedule
    // keeps the nodes as the model has them.
    std::vector<std::pair<int, pb::NodeProto>> unfolded;
    try {
      pb::ShapeInferenceOptions inference(/*check_type_val=*/false, /*strict_mode_val=*/0, /*data_prop_val=*/true);
      for (int round = 0; round < kFoldRounds; ++round) {
        const int folded = fold::fold_constants(*model.mutable_graph(), unfolded);
        if (round > 0 && folded == 0) break;
        pb::shape_inference::InferShapes(model, pb::OpSchemaRegistry::Instance(), inference);
      }
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {
      std::string what = e.what();
      if (auto end = what.find('\n'); end != std::string::npos) what.resize(end);
      return fail("shape inference failed: " + escaped(what));
    }
    for (auto& [i, node] : unfolded) *model.mutable_graph()->mutable_node(i) = std::move(node);
    if (!options_.device.empty() && options_.align) {
      imported_.schedule.devices.push_back(Device{.name = options_.device, .align = *options_.align});
    }
    PLANCK_TRY(import_graph(model.graph(), imported_.schedule.entries, 0));
    name_storage();
    return std::move(imported_);
  }

 private:
  Error fail(std::string what) const { return Error{source_, std::move(what)}; }

  std::string describe(const pb::NodeProto& node) const {
    if (!node.name().empty()) return fmt::format("node {} ({})", quote(node.name()), quote(node.op_type()));
    return fmt::format("a {} node", quote(node.op_type()));
  }

  // --dim: every symbolic dimension named in the model's graphs is fixed,
  // and the names the model uses are kept to tell a symbol of the model
  // from one shape inference makes up.
  Status fix_dims(pb::ModelProto& model) {
    std::set<std::string, std::less<>> used;
    PLANCK_TRY(fix_graph_dims(*model.mutable_graph(), used, 0));
    for (const auto& [name, value] : options_.dims) {
      if (!used.contains(name)) {
        std::string names;
        for (const std::string& u : used) names += (names.empty() ? "" : ", ") + quote(u);
        return fail(fmt::format("--dim {}: the model has no symbolic dimension {}{}", escaped(name), quote(name),
                                names.empty() ? "" : fmt::format(" (it has {})", names)));
      }
    }
    symbols_ = std::move(used);
    return Ok{};
  }

  Status fix_graph_dims(pb::GraphProto& g, std::set<std::string, std::less<>>& used, int depth) {
    if (depth > kMaxNesting) return fail(fmt::format("subgraphs nest deeper than {}", kMaxNesting));
    auto fix = [&](pb::ValueInfoProto& v) {
      if (!v.has_type() || !v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) return;
      for (pb::TensorShapeProto_Dimension& d : *v.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim()) {
        if (!d.has_dim_param()) continue;
        used.insert(d.dim_param());
        if (auto it = options_.dims.find(d.dim_param()); it != options_.dims.end()) {
          d.set_dim_value(static_cast<std::int64_t>(it->second));
        }
      }
    };
    for (auto& v : *g.mutable_input()) fix(v);
    for (auto& v : *g.mutable_output()) fix(v);
    for (auto& v : *g.mutable_value_info()) fix(v);
    for (auto& node : *g.mutable_node()) {
      for (auto& attr : *node.mutable_attribute()) {
        if (attr.has_g()) PLANCK_TRY(fix_graph_dims(*attr.mutable_g(), used, depth + 1));
        for (auto& sub : *attr.mutable_graphs()) PLANCK_TRY(fix_graph_dims(sub, used, depth + 1));
      }
    }
    return Ok{};
  }

  std::optional<StorageId> lookup(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (auto v = it->values.find(name); v != it->values.end()) return v->second;
    }
    return std::nullopt;
  }

  // A new storage for the ONNX value `name`.
  Result<StorageId> add_storage(const std::string& name, StorageKind kind, Dtype dtype, Bytes bytes, bool held) {
    if (lookup(name)) return fail(fmt::format("value {} is defined twice", quote(name)));
    if (imported_.schedule.storage.size() >= UINT32_MAX) return fail("the model has too many values");
    Storage st;
    st.kind = kind;
    st.dtype = dtype;
    st.held = held;
    st.device = options_.device;
    st.bytes = bytes;
    const auto id = static_cast<StorageId>(imported_.schedule.storage.size());
    imported_.schedule.storage.push_back(std::move(st));
    onnx_names_.push_back(name);
    scopes_.back().values.emplace(name, id);
    return id;
  }

  // The bytes of `count` elements of `dtype`, or an error naming the value.
  Result<Bytes> byte_size(const std::string& name, const std::vector<std::int64_t>& dims, Dtype dtype) {
    Bytes bytes = dtype_size(dtype);
    for (std::int64_t d : dims) {
      if (d < 0) return fail(fmt::format("value {} has a negative dimension {}", quote(name), d));
      std::optional<Bytes> product = checked_mul(bytes, static_cast<Bytes>(d));
      if (!product || *product >= kMaxBytes) {
        return fail(fmt::format("value {} has 2^62 bytes or more", quote(name)));
      }
      bytes = *product;
    }
    return bytes;
  }

  Result<Dtype> dtype_for(const std::string& name, int onnx_type) {
    if (std::optional<Dtype> d = dtype_of(onnx_type)) return *d;
    if (onnx_type == pb::TensorProto_DataType_UNDEFINED) {
      return fail(fmt::format("value {} has no dtype after shape inference", quote(name)));
    }
    return fail(fmt::format("value {} has dtype {}, which a schedule cannot hold (bool, integers and floats only)",
                            quote(name), onnx_dtype_name(onnx_type)));
  }

  Status check_external_data(const pb::TensorProto& t) {
    if (t.data_location() != pb::TensorProto_DataLocation_EXTERNAL || !options_.external_data_dir) return Ok{};
    std::string location;
    for (const pb::StringStringEntryProto& kv : t.external_data()) {
      if (kv.key() == "location") location = kv.value();
    }
    if (location.empty()) {
      return fail(fmt::format("initializer {} keeps its data outside the model but names no location", quote(t.name())));
    }
    const std::filesystem::path path = std::filesystem::path(*options_.external_data_dir) / location;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      return fail(fmt::format("initializer {} keeps its data in {}, which is missing (looked for {})", quote(t.name()),
                              quote(location), quote(path.string())));
    }
    return Ok{};
  }

  Status add_initializer(const pb::TensorProto& t) {
    PLANCK_TRY(check_external_data(t));
    PLANCK_ASSIGN(const Dtype dtype, dtype_for(t.name(), t.data_type()));
    std::vector<std::int64_t> dims(t.dims().begin(), t.dims().end());
    PLANCK_ASSIGN(const Bytes bytes, byte_size(t.name(), dims, dtype));
    PLANCK_TRY(add_storage(t.name(), StorageKind::Buffer, dtype, bytes, /*held=*/true));
    return Ok{};
  }

  // Why the dimension `index` of a value has no number, as a message.
  std::string unknown_dim(const std::string& name, const pb::TensorShapeProto_Dimension& d, int index,
                          int rank) const {
    const pb::NodeProto* producer = nullptr;
    if (auto it = scopes_.back().producers.find(name); it != scopes_.back().producers.end()) producer = it->second;
    if (d.has_dim_param() && symbols_.contains(d.dim_param())) {
      return fmt::format("value {} has the symbolic dimension {} (dimension {} of {}); fix it with --dim {}=N",
                         quote(name), quote(d.dim_param()), index, rank, escaped(d.dim_param()));
    }
    if (producer && std::find(kDataDependentOps.begin(), kDataDependentOps.end(), producer->op_type()) !=
                        kDataDependentOps.end()) {
      return fmt::format("value {} of {} has a data-dependent shape (dimension {} of {} is known only when the "
                         "model runs); give it an upper bound with --max-dim N, or export the model with that size "
                         "fixed",
                         quote(name), describe(*producer), index, rank);
    }
    return fmt::format("shape inference cannot fix dimension {} of value {}{} (rank {}); give it an upper bound "
                       "with --max-dim N, fix the symbolic dimensions it depends on with --dim NAME=N, or export "
                       "the model with fixed sizes",
                       index, quote(name), producer ? " of " + describe(*producer) : "", rank);
  }

  // A value of the graph being read, from the type shape inference gave it,
  // or else from `same`: a storage the value has the dtype and size of.
  Result<StorageId> add_value(const std::string& name, StorageKind kind, std::optional<StorageId> same = {}) {
    if (same) {
      const Storage& like = imported_.schedule.storage[*same];
      const Dtype dtype = like.dtype;
      const Bytes bytes = like.bytes;
      return add_storage(name, kind, dtype, bytes, /*held=*/false);
    }
    const Scope& scope = scopes_.back();
    const pb::TypeProto* type = nullptr;
    if (auto it = scope.types.find(name); it != scope.types.end()) type = it->second;
    std::string from;
    if (auto it = scope.producers.find(name); it != scope.producers.end()) from = " of " + describe(*it->second);
    if (!type || type->value_case() == pb::TypeProto::VALUE_NOT_SET) {
      return fail(fmt::format("value {}{} has no type after shape inference", quote(name), from));
    }
    if (!type->has_tensor_type()) {
      const char* what = type->has_sequence_type() ? "a sequence" : type->has_map_type() ? "a map"
                         : type->has_optional_type() ? "an optional" : type->has_sparse_tensor_type() ? "a sparse tensor"
                                                                                                        : "not a tensor";
      return fail(fmt::format("value {}{} is {}; a schedule holds dense tensors only", quote(name), from, what));
    }
    const pb::TypeProto_Tensor& tensor = type->tensor_type();
    PLANCK_ASSIGN(const Dtype dtype, dtype_for(name, tensor.elem_type()));
    if (!tensor.has_shape()) {
      return fail(fmt::format("value {}{} has no shape after shape inference (its rank is unknown)", quote(name), from));
    }
    std::vector<std::int64_t> dims;
    const int rank = tensor.shape().dim_size();
    for (int i = 0; i < rank; ++i) {
      const pb::TensorShapeProto_Dimension& d = tensor.shape().dim(i);
      if (d.has_dim_value()) {
        dims.push_back(d.dim_value());
      } else if (options_.max_dim && !(d.has_dim_param() && symbols_.contains(d.dim_param()))) {
        if (*options_.max_dim >= kMaxBytes) return fail("--max-dim is at or above 2^62");
        dims.push_back(static_cast<std::int64_t>(*options_.max_dim));
      } else {
        return fail(unknown_dim(name, d, i, rank));
      }
    }
    PLANCK_ASSIGN(const Bytes bytes, byte_size(name, dims, dtype));
    return add_storage(name, kind, dtype, bytes, /*held=*/false);
  }

  // The storage a node reads, or why it has none.
  Result<StorageId> read(const pb::NodeProto& node, const std::string& name, const pb::GraphProto& g) {
    if (std::optional<StorageId> id = lookup(name)) return *id;
    for (const pb::NodeProto& later : g.node()) {
      for (const std::string& out : later.output()) {
        if (out == name) {
          return fail(fmt::format("{} reads {}, which {} writes after it: the graph is not in topological order",
                                  describe(node), quote(name), describe(later)));
        }
      }
    }
    return fail(fmt::format("{} reads {}, which no input, initializer or earlier node defines", describe(node),
                            quote(name)));
  }

  // The storage of a graph's inputs (initializers left out) and outputs.
  struct Boundary {
    std::vector<StorageId> inputs;
    std::vector<StorageId> outputs;
  };

  // The graph's entries appended to `out`; `depth` 0 is the model's graph.
  Result<Boundary> import_graph(const pb::GraphProto& g, std::vector<Entry>& out, int depth) {
    if (depth > kMaxNesting) return fail(fmt::format("subgraphs nest deeper than {}", kMaxNesting));
    const bool top = depth == 0;
    scopes_.emplace_back();
    Scope& scope = scopes_.back();
    for (const auto* list : {&g.value_info(), &g.input(), &g.output()}) {
      for (const pb::ValueInfoProto& v : *list) scope.types.emplace(v.name(), &v.type());
    }
    for (const pb::NodeProto& node : g.node()) {
      for (const std::string& o : node.output()) scope.producers.emplace(o, &node);
    }
    for (const pb::TensorProto& t : g.initializer()) PLANCK_TRY(add_initializer(t));
    for (const pb::SparseTensorProto& t : g.sparse_initializer()) {
      PLANCK_ASSIGN(const Dtype dtype, dtype_for(t.values().name(), t.values().data_type()));
      std::vector<std::int64_t> dims(t.dims().begin(), t.dims().end());
      PLANCK_ASSIGN(const Bytes bytes, byte_size(t.values().name(), dims, dtype));
      PLANCK_TRY(add_storage(t.values().name(), StorageKind::Buffer, dtype, bytes, /*held=*/true));
    }
    Boundary boundary;
    for (const pb::ValueInfoProto& v : g.input()) {
      if (scopes_.back().values.contains(v.name())) continue;  // an initializer listed as an input
      StorageKind kind = top && !options_.planned_inputs ? StorageKind::Param : StorageKind::Buffer;
      PLANCK_ASSIGN(const StorageId id, add_value(v.name(), kind));
      if (top && options_.planned_inputs) imported_.schedule.storage[id].io |= kInput;
      boundary.inputs.push_back(id);
    }
    for (const pb::NodeProto& node : g.node()) PLANCK_TRY(import_node(node, g, out, depth));
    for (const pb::ValueInfoProto& v : g.output()) {
      if (v.name().empty()) continue;
      std::optional<StorageId> id = lookup(v.name());
      if (!id) return fail(fmt::format("graph output {} is not defined by any node, input or initializer", quote(v.name())));
      Storage& st = imported_.schedule.storage[*id];
      if (top && st.kind == StorageKind::Buffer && !st.held) st.io |= kOutput;
      boundary.outputs.push_back(*id);
    }
    scopes_.pop_back();
    return boundary;
  }

  Status import_node(const pb::NodeProto& node, const pb::GraphProto& g, std::vector<Entry>& out, int depth) {
    std::vector<StorageId> inputs;
    for (const std::string& name : node.input()) {
      if (name.empty()) continue;  // an optional input left out
      PLANCK_ASSIGN(const StorageId id, read(node, name, g));
      inputs.push_back(id);
    }
    // Subgraphs see the values defined before the node.
    struct Sub {
      std::vector<Entry> entries;
      std::vector<StorageId> inputs;
      std::vector<StorageId> outputs;
    };
    std::vector<Sub> subs;
    for (const pb::AttributeProto& attr : node.attribute()) {
      std::vector<const pb::GraphProto*> graphs;
      if (attr.has_g()) graphs.push_back(&attr.g());
      for (const pb::GraphProto& sub : attr.graphs()) graphs.push_back(&sub);
      for (const pb::GraphProto* sub : graphs) {
        Sub s;
        PLANCK_ASSIGN(Boundary boundary, import_graph(*sub, s.entries, depth + 1));
        s.inputs = std::move(boundary.inputs);
        s.outputs = std::move(boundary.outputs);
        subs.push_back(std::move(s));
      }
    }
    std::vector<StorageId> outputs;
    for (int i = 0; i < node.output_size(); ++i) {
      const std::string& name = node.output(i);
      if (name.empty()) continue;  // an optional output left out
      PLANCK_ASSIGN(const StorageId id, add_value(name, StorageKind::Buffer, loop_carried(node, i, subs)));
      outputs.push_back(id);
    }
    if (subs.empty()) {
      std::vector<StorageId> args = outputs;
      args.insert(args.end(), inputs.begin(), inputs.end());
      Entry e = kernel(node.op_type(), args);
      // Output 0 over input 0, both given, two storages.
      if (options_.inplace && node.output_size() > 0 && !node.output(0).empty() && node.input_size() > 0 &&
          !node.input(0).empty() && outputs[0] != inputs[0] &&
          std::find(kInPlaceOps.begin(), kInPlaceOps.end(), node.op_type()) != kInPlaceOps.end()) {
        e.mutable_inplace().push_back(InPlace{.out = outputs[0], .in = inputs[0]});
      }
      out.push_back(std::move(e));
      return Ok{};
    }
    const bool carried = (node.op_type() == "Loop" || node.op_type() == "Scan") && subs.size() == 1;
    Entry wrapper;
    wrapper.kind = Entry::Kind::Range;
    std::vector<Entry>& body = wrapper.mutable_body();
    if (carried) {
      // The node hands its inputs to the body's, runs the body, and takes its
      // outputs from the body's.
      Sub& s = subs.front();
      std::vector<StorageId> args = s.inputs;
      args.insert(args.end(), inputs.begin(), inputs.end());
      body.push_back(kernel(node.op_type(), args));
      std::move(s.entries.begin(), s.entries.end(), std::back_inserter(body));
      args = outputs;
      args.insert(args.end(), s.outputs.begin(), s.outputs.end());
      body.push_back(kernel(node.op_type(), args));
      if (node.op_type() == "Loop") {
        if (s.outputs.empty()) return fail(fmt::format("{} has a body with no condition output", describe(node)));
        wrapper.kind = Entry::Kind::Loop;
        wrapper.mutable_flag().push_back(storage_arg(s.outputs.front()));
      }
    } else {
      // Every subgraph, then the node, which reads what the one that ran wrote.
      std::vector<StorageId> args = outputs;
      args.insert(args.end(), inputs.begin(), inputs.end());
      for (Sub& s : subs) {
        std::move(s.entries.begin(), s.entries.end(), std::back_inserter(body));
        args.insert(args.end(), s.outputs.begin(), s.outputs.end());
      }
      body.push_back(kernel(node.op_type(), args));
    }
    out.push_back(std::move(wrapper));
    return Ok{};
  }

  // ONNX's shape inference keeps only the dtype of a Loop's carried outputs
  // (their shape may change from one iteration to the next). Where the
  // body's carried output has the dtype and size of the initial value, every
  // iteration keeps them, and so does the node's output i: the storage of
  // the initial value, which it has the size of.
  template <class Subs>
  std::optional<StorageId> loop_carried(const pb::NodeProto& node, int i, const Subs& subs) const {
    if (node.op_type() != "Loop" || subs.size() != 1) return std::nullopt;
    const auto& body_outputs = subs.front().outputs;
    const std::size_t carried = body_outputs.empty() ? 0 : body_outputs.size() - 1;
    if (static_cast<std::size_t>(i) >= carried || node.input_size() < 2 + i + 1) return std::nullopt;
    if (has_static_shape(scopes_.back(), node.output(i))) return std::nullopt;
    std::optional<StorageId> initial = lookup(node.input(2 + i));
    if (!initial) return std::nullopt;
    const Storage& a = imported_.schedule.storage[*initial];
    const Storage& b = imported_.schedule.storage[body_outputs[1 + i]];
    if (a.dtype != b.dtype || a.bytes != b.bytes) return std::nullopt;
    return initial;
  }

  static bool has_static_shape(const Scope& scope, const std::string& name) {
    auto it = scope.types.find(name);
    if (it == scope.types.end() || !it->second->has_tensor_type() || !it->second->tensor_type().has_shape()) {
      return false;
    }
    for (const auto& d : it->second->tensor_type().shape().dim()) {
      if (!d.has_dim_value()) return false;
    }
    return true;
  }

  // Names: a valid ONNX name is kept where no other value of that name
  // came first; every other is mapped (mapped_name) and made unique with a
  // suffix `_2`, `_3`, ... in declaration order.
  void name_storage() {
    std::vector<Storage>& storage = imported_.schedule.storage;
    std::unordered_set<std::string> taken;
    std::vector<bool> named(storage.size(), false);
    for (std::size_t i = 0; i < storage.size(); ++i) {
      if (is_valid_name(onnx_names_[i]) && taken.insert(onnx_names_[i]).second) {
        storage[i].name = onnx_names_[i];
        named[i] = true;
      }
    }
    for (std::size_t i = 0; i < storage.size(); ++i) {
      if (named[i]) continue;
      const std::string base = mapped_name(onnx_names_[i]);
      std::string name = base;
      for (std::uint64_t n = 2; !taken.insert(name).second; ++n) name = fmt::format("{}_{}", base, n);
      storage[i].name = name;
      imported_.renamed.emplace_back(static_cast<StorageId>(i), onnx_names_[i]);
    }
  }

  const ImportOptions& options_;
  std::string source_;
  Imported imported_;
  std::vector<std::string> onnx_names_;  // per storage
  std::vector<Scope> scopes_;
  std::set<std::string, std::less<>> symbols_;  // the symbolic dimensions the model names
};

// The weights of a model, left out before it is parsed: the import needs
// their dims and dtype only, and parsing copies every byte of a field. A
// few bytes of protobuf's wire format are read for that: a field's key (its
// number and wire type, a varint), then its value (a varint, 8 or 4 bytes,
// or a length and as many bytes).
namespace wire {

// Numeric data fields of a TensorProto larger than this are left out; the
// tensors shape inference reads (a Reshape's shape, a Slice's starts) are a
// few numbers.
constexpr std::size_t kKeptData = 4096;

bool read_varint(const char*& p, const char* end, std::uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p == end) return false;
    const auto byte = static_cast<unsigned char>(*p++);
    v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

void write_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

// What to do with the length-delimited field `number` of a message: keep
// it, rewrite its bytes as a message of another kind, or drop it.
enum class Kind { Model, Graph, Tensor };

// The message's bytes with its weights left out, or nullopt when they are
// not well-formed protobuf (the parser then says so).
std::optional<std::string> strip(std::string_view bytes, Kind kind) {
  std::string out;
  const char* p = bytes.data();
  const char* end = p + bytes.size();
  while (p != end) {
    const char* field_start = p;
    std::uint64_t key = 0;
    if (!read_varint(p, end, key)) return std::nullopt;
    const std::uint64_t number = key >> 3;
    switch (key & 7) {
      case 0: {
        std::uint64_t ignored = 0;
        if (!read_varint(p, end, ignored)) return std::nullopt;
        break;
      }
      case 1:
        if (end - p < 8) return std::nullopt;
        p += 8;
        break;
      case 5:
        if (end - p < 4) return std::nullopt;
        p += 4;
        break;
      case 2: {
        std::uint64_t length = 0;
        if (!read_varint(p, end, length) || length > static_cast<std::uint64_t>(end - p)) return std::nullopt;
        const std::string_view value(p, static_cast<std::size_t>(length));
        p += length;
        // ModelProto.graph = 7, GraphProto.initializer = 5; TensorProto's
        // float_data 4, int32_data 5, int64_data 7, raw_data 9, double_data
        // 10, uint64_data 11.
        std::optional<Kind> inner;
        if (kind == Kind::Model && number == 7) inner = Kind::Graph;
        if (kind == Kind::Graph && number == 5) inner = Kind::Tensor;
        if (inner) {
          std::optional<std::string> stripped = strip(value, *inner);
          if (!stripped) return std::nullopt;
          write_varint(out, key);
          write_varint(out, stripped->size());
          out += *stripped;
          continue;
        }
        if (kind == Kind::Tensor && length > kKeptData &&
            (number == 4 || number == 5 || number == 7 || number == 9 || number == 10 || number == 11)) {
          continue;
        }
        break;
      }
      default: return std::nullopt;  // groups, or no wire type
    }
    out.append(field_start, p);
  }
  return out;
}

}  // namespace wire

}  // namespace

Result<Imported> import_model(std::string_view bytes, const ImportOptions& options, std::string_view source) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    return Error{std::string(source), "the model is 2 GiB or larger; ONNX keeps such weights as external data"};
  }
  std::optional<std::string> stripped = wire::strip(bytes, wire::Kind::Model);
  const std::string_view parsed = stripped ? std::string_view(*stripped) : bytes;
  pb::ModelProto model;
  if (!model.ParseFromArray(parsed.data(), static_cast<int>(parsed.size()))) {
    return Error{std::string(source), "not an ONNX model: the bytes are not a ModelProto (truncated, or another format)"};
  }
  return Importer(options, source).run(model);
}

std::string print_imported(const Imported& imported) {
  const std::string text = print_schedule(imported.schedule);
  if (imported.renamed.empty()) return text;
  std::unordered_map<StorageId, const std::string*> comments;
  for (const auto& [id, name] : imported.renamed) comments.emplace(id, &name);
  // The header and the device lines, then one line per storage in order.
  std::string out;
  std::size_t line = 0;
  std::size_t pos = 0;
  const std::size_t first = 1 + imported.schedule.devices.size();
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    out.append(text, pos, end - pos);
    if (line >= first && line - first < imported.schedule.storage.size()) {
      if (auto it = comments.find(static_cast<StorageId>(line - first)); it != comments.end()) {
        out += "  # onnx: " + escaped(*it->second);
      }
    }
    if (end < text.size()) out += '\n';
    pos = end + 1;
    ++line;
  }
  return out;
}

const std::vector<std::string_view>& inplace_ops() { return kInPlaceOps; }

}  // namespace planck::onnx_import
