// Any bytes as an ONNX model: the importer either fails with a one-line
// error naming the input, or gives a schedule whose text (with its comments
// for renamed storage) parses back to the same canonical schedule. External
// data is not looked for, so no input reaches the file system.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_target.h"
#include "import/onnx_import.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace planck;
  using fuzz::expect;
  const std::string_view bytes = fuzz::input_text(data, size);
  onnx_import::ImportOptions options;
  // The first byte picks the options, so that each path is reached.
  if (size > 0) {
    options.inplace = (data[0] & 1) != 0;
    options.planned_inputs = (data[0] & 2) != 0;
    if ((data[0] & 4) != 0) options.align = 64;
    if ((data[0] & 8) != 0) options.dims["batch"] = 3;
    if ((data[0] & 16) != 0) options.max_dim = 5;
  }
  auto imported = onnx_import::import_model(bytes, options, "fuzz.onnx");
  if (!imported) {
    const std::string message = imported.error().message();
    expect(message.rfind("fuzz.onnx: ", 0) == 0, "an error without the input's name", message);
    expect(message.find('\n') == std::string::npos, "an error of more than one line", message);
    return 0;
  }
  const std::string text = onnx_import::print_imported(*imported);
  auto back = parse_schedule(text, "imported.sched");
  expect(back.ok(), "the imported schedule does not parse", back ? text : back.error().message() + "\n" + text);
  expect(print_schedule(*back) == print_schedule(imported->schedule), "the imported schedule reads back as another",
         text);
  return 0;
}
