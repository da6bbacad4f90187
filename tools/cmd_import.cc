// planck import MODEL.onnx [-o OUT.sched] [--dim NAME=N]... [--max-dim N] [--device DEV] [--align A]
//                          [--planned-inputs] [--inplace]
// (docs/onnx.md#onnx-models-in-planck-import)

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "import/onnx_import.h"
#include "model/file.h"
#include "model/lexical.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/output.h"

namespace planck::cli {
namespace {

struct ImportArgs {
  std::string model;
  std::string output;
  std::vector<std::string> dims;
  std::string device = "CPU";
  std::uint64_t align = 0;  // 0: none given
  std::optional<std::uint64_t> max_dim;
  bool planned_inputs = false;
  bool inplace = false;
  OutputOptions out;
};

[[noreturn]] void bad_usage(const std::string& what) { throw Exit{kExitBadInput, "planck import: " + what}; }

onnx_import::ImportOptions import_options(const ImportArgs& args) {
  onnx_import::ImportOptions o;
  for (const std::string& dim : args.dims) {
    const std::size_t eq = dim.find('=');
    if (eq == std::string::npos || eq == 0) bad_usage(fmt::format("--dim {}: it must be NAME=N", planck::quoted(dim)));
    Result<Bytes> n = parse_decimal(std::string_view(dim).substr(eq + 1), "--dim " + dim.substr(0, eq));
    if (!n) bad_usage(n.error().message());
    if (!o.dims.emplace(dim.substr(0, eq), *n).second) bad_usage(fmt::format("--dim {} is given twice", dim.substr(0, eq)));
  }
  if (args.device.empty() || std::any_of(args.device.begin(), args.device.end(), [](char c) {
        return is_control(c) || std::string_view(" (),{}=#").find(c) != std::string_view::npos;
      })) {
    bad_usage(fmt::format("--device {}: a device is one word, such as CPU or CUDA:0", planck::quoted(args.device)));
  }
  o.device = args.device;
  if (args.align != 0) {
    if ((args.align & (args.align - 1)) != 0 || args.align > kMaxAlign) {
      bad_usage(fmt::format("--align {}: it must be a power of two from 1 to {}", args.align, kMaxAlign));
    }
    o.align = args.align;
  }
  o.max_dim = args.max_dim;
  o.planned_inputs = args.planned_inputs;
  o.inplace = args.inplace;
  if (args.model != kStandardInput) {
    o.external_data_dir = std::filesystem::path(args.model).parent_path().string();
    if (o.external_data_dir->empty()) o.external_data_dir = ".";
  }
  return o;
}

void run_import(const ImportArgs& args) {
  check_json_beside_output("import", args.out.json, args.output, "the schedule");
  Report report("import", args.out.json);
  const onnx_import::ImportOptions options = import_options(args);
  Result<FileText> bytes = read_file(args.model);
  if (!bytes) throw Exit{kExitBadInput, bytes.error().message()};
  Result<onnx_import::Imported> imported = onnx_import::import_model(*bytes, options, source_name(args.model));
  if (!imported) throw Exit{kExitBadInput, imported.error().message()};
  write_output(args.output, onnx_import::print_imported(*imported));
  std::size_t held = 0;
  for (const Storage& s : imported->schedule.storage) held += s.held ? 1 : 0;
  report.object = {{"model", args.model},
                   {"output", args.output.empty() ? "-" : args.output},
                   {"declarations", imported->schedule.storage.size()},
                   {"held", held},
                   {"renamed", imported->renamed.size()},
                   {"entries", imported->schedule.entries.size()}};
  report.write();
}

}  // namespace

void add_import_command(CLI::App& app) {
  add_command<ImportArgs>(app, "import", run_import, [](CLI::App& cmd, ImportArgs& args) {
    cmd.add_option("model", args.model, "the .onnx file (- for standard input)")->required();
    cmd.add_option("-o,--output", args.output, "write the schedule to this file instead of standard output");
    cmd.add_option("--dim", args.dims, "NAME=N: fix a symbolic dimension (batch, sequence) before shape inference")
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd.add_option("--device", args.device, "the device of every storage (default CPU)");
    cmd.add_option("--align", args.align, "a `device` line with this align, a power of two")->check(whole_number());
    cmd.add_option_function<std::uint64_t>(
           "--max-dim", [&args](std::uint64_t n) { args.max_dim = n; },
           "N: every dimension shape inference leaves open and the model does not name (a NonZero's count) takes "
           "N, an upper bound")
        ->check(whole_number());
    cmd.add_flag("--planned-inputs", args.planned_inputs, "graph inputs as planned `input` buffers, not param");
    cmd.add_flag("--inplace", args.inplace,
                 "declare inplace=OUT:IN on the elementwise ops ONNX Runtime runs in place (see docs/commands.md)");
  });
}

}  // namespace planck::cli
