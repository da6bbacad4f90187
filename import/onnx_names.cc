#include "import/onnx_names.h"

#include <fmt/format.h>

#include <unordered_set>

#include "model/lexical.h"
#include "model/schedule_words.h"

namespace planck::onnx_import {
namespace {

bool is_valid_name(std::string_view name) {
  return schedule_text::is_storage_name(name) && !schedule_text::is_reserved(name);
}

}  // namespace

std::string quote(std::string_view name) {
  constexpr std::size_t kLongest = 200;
  if (name.size() > kLongest) return "`" + escaped(name.substr(0, kLongest)) + "...`";
  return "`" + escaped(name) + "`";
}

std::string kernel_name(std::string_view op) {
  std::string out(op);
  for (char& c : out) {
    if (schedule_text::ends_word(c)) c = '_';
  }
  return out.empty() ? "_" : out;
}

std::string mapped_name(std::string_view name) {
  std::string out;
  for (char c : name) out += schedule_text::kInStorageName[static_cast<unsigned char>(c)] ? c : '_';
  if (out.empty() || !(schedule_text::is_ascii_letter(out.front()) || out.front() == '_')) out.insert(0, "v");
  if (schedule_text::is_reserved(out)) out += '_';
  return out;
}

StorageNames storage_names(const std::vector<std::string>& onnx_names) {
  StorageNames out;
  out.names.resize(onnx_names.size());
  std::unordered_set<std::string> taken;
  std::vector<bool> named(onnx_names.size(), false);
  for (std::size_t i = 0; i < onnx_names.size(); ++i) {
    if (is_valid_name(onnx_names[i]) && taken.insert(onnx_names[i]).second) {
      out.names[i] = onnx_names[i];
      named[i] = true;
    }
  }
  for (std::size_t i = 0; i < onnx_names.size(); ++i) {
    if (named[i]) continue;
    const std::string base = mapped_name(onnx_names[i]);
    std::string name = base;
    for (std::uint64_t n = 2; !taken.insert(name).second; ++n) name = fmt::format("{}_{}", base, n);
    out.names[i] = std::move(name);
    out.renamed.push_back(i);
  }
  return out;
}

}  // namespace planck::onnx_import
