#pragma once
// How the names of an ONNX model become the words of a schedule: op types
// as kernel names, value names as storage names, and any name quoted for a
// message (docs/onnx.md#how-a-model-maps-to-a-schedule).

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planck::onnx_import {

// A name or word of the model for a message: escaped (model/lexical.h), in
// backquotes, cut at 200 bytes.
std::string quote(std::string_view name);

// A kernel name: the op type with the bytes that end a .sched word as `_`.
std::string kernel_name(std::string_view op);

// The storage name an ONNX name maps to before it is made unique: the
// bytes of a storage name kept, every other byte `_`, with `v` before a
// name that does not start with a letter or `_`, and `_` after a word of
// the format.
std::string mapped_name(std::string_view name);

// The storage names of values with these ONNX names, in declaration order.
// A valid ONNX name is kept where no other value of that name came first;
// every other is mapped (mapped_name) and made unique with a suffix `_2`,
// `_3`, ...
struct StorageNames {
  std::vector<std::string> names;
  // The indices whose name is not their ONNX name.
  std::vector<std::size_t> renamed;
};
StorageNames storage_names(const std::vector<std::string>& onnx_names);

}  // namespace planck::onnx_import
