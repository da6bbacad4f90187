#pragma once
// The weights of a model, left out before it is parsed: the import needs
// their dims and dtype only (docs/onnx.md#how-a-model-maps-to-a-schedule),
// and parsing copies every byte of a field. A few bytes of protobuf's wire
// format are read for that: a field's key (its number and wire type, a
// varint), then its value (a varint, 8 or 4 bytes, or a length and as many
// bytes).

#include <optional>
#include <string>
#include <string_view>

namespace planck::onnx_import::wire {

// The bytes of a serialized ModelProto with its weights left out, or
// nullopt when they are not well-formed protobuf (the parser then says so).
std::optional<std::string> strip_weights(std::string_view model);

}  // namespace planck::onnx_import::wire
