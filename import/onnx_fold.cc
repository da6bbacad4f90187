#include "import/onnx_fold.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>

namespace planck::onnx_import::fold {
namespace {

namespace pb = ::onnx;

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

// Makes the node a Constant holding `value`, its inputs and other
// attributes gone.
void make_constant(pb::NodeProto& node, const Tensor& value) {
  node.clear_input();
  node.clear_attribute();
  node.set_op_type("Constant");
  pb::AttributeProto* attribute = node.add_attribute();
  attribute->set_name("value");
  attribute->set_type(pb::AttributeProto::TENSOR);
  *attribute->mutable_t() = to_proto(value);
}

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

}  // namespace

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
    if (node.op_type() == "Constant") {
      for (const pb::AttributeProto& a : node.attribute()) {
        if (a.name() != "value" || !a.has_t()) continue;
        if (std::optional<Tensor> v = from_proto(a.t())) known.insert_or_assign(node.output(0), std::move(*v));
      }
      continue;
    }
    std::optional<Tensor> value;
    if (node.op_type() == "Shape" && node.input_size() == 1 && node.attribute_size() == 0) {
      value = static_shape(types, node.input(0));
    } else {
      std::vector<const Tensor*> in;
      for (const std::string& name : node.input()) {
        auto it = known.find(name);
        if (it == known.end()) break;
        in.push_back(&it->second);
      }
      if (in.empty() || in.size() != static_cast<std::size_t>(node.input_size())) continue;
      value = evaluate(node, in);
    }
    if (!value) continue;
    replaced.emplace_back(i, node);
    make_constant(node, *value);
    known.insert_or_assign(node.output(0), std::move(*value));
    ++count;
  }
  return count;
}

}  // namespace planck::onnx_import::fold
