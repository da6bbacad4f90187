#include "import/onnx_wire.h"

#include <cstdint>

namespace planck::onnx_import::wire {
namespace {


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

// A message of the kind's bytes with its weights left out, or nullopt when
// they are not well-formed protobuf.
std::optional<std::string> strip_message(std::string_view bytes, Kind kind) {
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
          std::optional<std::string> stripped = strip_message(value, *inner);
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

}  // namespace

std::optional<std::string> strip_weights(std::string_view model) { return strip_message(model, Kind::Model); }

}  // namespace planck::onnx_import::wire
