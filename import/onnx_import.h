#pragma once
// ONNX models in: a ModelProto's graph as a schedule
// (docs/onnx.md#how-a-model-maps-to-a-schedule).
//
// Nodes in graph order become kernels named by their op type, the node's
// outputs then its inputs as arguments. Every value becomes storage of its
// exact byte size, from its static shape and dtype after ONNX's shape
// inference: initializers `held`, graph inputs `param` (planned `input`
// with planned_inputs), graph outputs planned `output`, every other value a
// planned buffer. A Loop is a `loop` on its body's condition, an If, a Scan
// or any other node with graph attributes a `range` holding its subgraphs;
// the values of subgraphs are storage like any other. Weights are never
// read: sizes come from dims, and an external-data file is only checked to
// exist.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/result.h"
#include "model/schedule.h"

namespace planck::onnx_import {

struct ImportOptions {
  // Symbolic dimensions fixed before shape inference (--dim NAME=N).
  std::map<std::string, std::uint64_t, std::less<>> dims;
  std::string device = "CPU";
  // A `device` line with this align, when given.
  std::optional<Bytes> align;
  // Every dimension shape inference leaves open that is no symbolic
  // dimension of the model (a NonZero's count, a Loop's trips) takes this
  // size, an upper bound (--max-dim N); none: such a dimension is an error.
  std::optional<std::uint64_t> max_dim;
  // Graph inputs as planned `input` buffers instead of `param`.
  bool planned_inputs = false;
  // `inplace=OUT:IN` on the ops of inplace_ops().
  bool inplace = false;
  // The folder external-data locations are relative to (the model's);
  // nullopt: external data is not looked for.
  std::optional<std::string> external_data_dir;
};

struct Imported {
  Schedule schedule;
  // The storage whose name is not its ONNX name, with the ONNX name.
  std::vector<std::pair<StorageId, std::string>> renamed;
};

// The schedule of a serialized ModelProto. `source` names it in messages.
// Bad input (not ONNX, a shape inference leaves open, an unsupported dtype,
// a graph out of order, a missing external-data file) is an error naming
// the node or value.
Result<Imported> import_model(std::string_view bytes, const ImportOptions& options, std::string_view source);

// The schedule's canonical text, with `# onnx: NAME` after each storage line
// whose name was mapped: it reads back as the same schedule.
std::string print_imported(const Imported& imported);

// The ops whose output 0 may take input 0's bytes, as ONNX Runtime's
// kernels declare them (KernelDefBuilder::MayInplace(0, 0)).
const std::vector<std::string_view>& inplace_ops();

}  // namespace planck::onnx_import
