#include "import/onnx_import.h"

#include <fmt/format.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <array>
#include <climits>
#include <exception>
#include <filesystem>
#include <iterator>
#include <set>
#include <string>
#include <system_error>
#include <unordered_map>

#include "import/onnx_fold.h"
#include "import/onnx_names.h"
#include "import/onnx_wire.h"
#include "model/lexical.h"
#include "model/schedule_printer.h"

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

// Ops whose output shape depends on the values of their inputs (a Loop's
// scan outputs: on its trip count).
constexpr std::array<std::string_view, 6> kDataDependentOps = {
    "NonZero", "Unique", "NonMaxSuppression", "Compress", "TopK", "Loop",
};

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

Arg storage_arg(StorageId id) { return Arg{.kind = Arg::Kind::Storage, .storage = id}; }

Entry kernel(std::string_view op, const std::vector<StorageId>& args) {
  Entry e;
  e.kind = Entry::Kind::Kernel;
  e.name = kernel_name(op);
  for (StorageId id : args) e.args.push_back(storage_arg(id));
  return e;
}

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
    // The storage made while the subgraphs are read: what their nodes compute.
    const std::size_t made_from = imported_.schedule.storage.size();
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
    const std::size_t made_to = imported_.schedule.storage.size();
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
      mark_local(made_from, made_to, s);
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

  // The values the body of a Loop or Scan computes, other than its inputs
  // and outputs, are rewritten every iteration and read nowhere else: local
  // to the loop (docs/model-v3.md#loop-local-storage). Storage [from, to)
  // was made while the body was read.
  template <class Sub>
  void mark_local(std::size_t from, std::size_t to, const Sub& body) {
    std::vector<Storage>& storage = imported_.schedule.storage;
    for (std::size_t id = from; id < to; ++id) {
      Storage& st = storage[id];
      const auto boundary = [&](const std::vector<StorageId>& ids) {
        return std::find(ids.begin(), ids.end(), static_cast<StorageId>(id)) != ids.end();
      };
      if (st.kind != StorageKind::Buffer || st.held || st.io != 0 || boundary(body.inputs) || boundary(body.outputs)) {
        continue;
      }
      st.local = true;
    }
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

  void name_storage() {
    std::vector<Storage>& storage = imported_.schedule.storage;
    StorageNames names = storage_names(onnx_names_);
    for (std::size_t i = 0; i < storage.size(); ++i) storage[i].name = std::move(names.names[i]);
    for (std::size_t i : names.renamed) imported_.renamed.emplace_back(static_cast<StorageId>(i), onnx_names_[i]);
  }

  const ImportOptions& options_;
  std::string source_;
  Imported imported_;
  std::vector<std::string> onnx_names_;  // per storage
  std::vector<Scope> scopes_;
  std::set<std::string, std::less<>> symbols_;  // the symbolic dimensions the model names
};

}  // namespace

Result<Imported> import_model(std::string_view bytes, const ImportOptions& options, std::string_view source) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    return Error{std::string(source), "the model is 2 GiB or larger; ONNX keeps such weights as external data"};
  }
  std::optional<std::string> stripped = wire::strip_weights(bytes);
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
