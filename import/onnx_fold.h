#pragma once
// Small integer tensors computed from constants alone, as exporters emit
// them for the shape input of an Expand or a Reshape (torch: Constant,
// ConstantOfShape, Mul, Equal, Where). ONNX's shape inference reads the data
// of initializers and Constant nodes only, so such a shape stays unknown
// unless the nodes that compute it are folded first
// (docs/onnx.md#how-a-model-maps-to-a-schedule).

#include <onnx/onnx_pb.h>

#include <utility>
#include <vector>

namespace planck::onnx_import::fold {

// Folds the graph's nodes that compute a small integer tensor from
// constants (and from shapes inference has fixed) into Constant nodes
// holding it; appends each node it replaces, as it was, to `replaced`.
// Returns how many it replaced.
int fold_constants(::onnx::GraphProto& g, std::vector<std::pair<int, ::onnx::NodeProto>>& replaced);

}  // namespace planck::onnx_import::fold
