// planck draw: a plan as a picture, per arena entries along and addresses
// up, the buffers of the checker's violations marked; in characters for a
// terminal, as SVG for a browser (docs/commands.md#planck-draw).

#include <fmt/format.h>

#include <memory>
#include <string>

#include "draw/svg.h"
#include "draw/text.h"
#include "oracle/check/checker.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/output.h"
#include "tools/progress.h"
#include "tools/quality.h"

namespace planck::cli {
namespace {

struct DrawArgs {
  std::string schedule;
  std::string plan;
  std::string output;
  bool text = false;
  std::size_t width = 0;  // 0: the terminal's, else 100
  OutputOptions out;
};

nlohmann::ordered_json picture_json(const draw::Picture& picture) {
  nlohmann::ordered_json arenas = nlohmann::ordered_json::array();
  for (const draw::ArenaPicture& a : picture.arenas) {
    nlohmann::ordered_json violating = nlohmann::ordered_json::array();
    for (const draw::Box& b : a.boxes) {
      if (b.violating) violating.push_back(b.name);
    }
    arenas.push_back({{"name", a.name},
                      {"device", a.device},
                      {"size", a.size},
                      {"buffers", a.boxes.size()},
                      {"violating", std::move(violating)}});
  }
  return arenas;
}

void run_draw(const DrawArgs& args) {
  check_json_beside_output("draw", args.out.json, args.output, "the picture");
  check_output_folder(args.output);
  check_output_folder(args.out.json);
  Report report("draw", args.out.json);
  std::optional<Progress> progress(std::in_place, "draw", args.out.progress);
  progress->stage("reading " + args.schedule + " and " + args.plan);
  const auto& [s, p, scale] = keep_until_exit(load_check_input(args.schedule, args.plan));
  progress->stage("checking");
  const oracle::CheckReport found = oracle::check_plan(s, p, oracle::kOverlapsListed);
  progress->stage("drawing");
  const draw::Picture picture = draw::make_picture(s, p, found.violations, found.unlisted_overlaps);
  const bool to_stdout = args.output.empty() || args.output == "-";
  const bool text = args.text || (args.output.empty() && stdout_is_terminal());
  const std::string drawn =
      text ? draw::text_picture(picture, {.width = args.width > 0 ? args.width : output_width(100)})
           : draw::svg_picture(picture);
  progress.reset();

  const std::uint64_t total = violation_count(found);
  const std::string verdict = picture.valid() ? "valid plan"
                                              : fmt::format("invalid plan: {} violation{}", total, total == 1 ? "" : "s");
  if (to_stdout) {
    if (!report.json_on_stdout()) report.text = drawn;
  } else {
    write_output(args.output, drawn);
    report.text = fmt::format("{}: drawn to {} ({})\n", args.plan, args.output, verdict);
  }
  report.object = {{"schedule", args.schedule},
                   {"plan", args.plan},
                   {"output", to_stdout ? "-" : args.output},
                   {"format", text ? "text" : "svg"},
                   {"valid", picture.valid()},
                   {"violations", total},
                   {"arenas", picture_json(picture)}};
  report.finish(picture.valid() ? kExitOk : kExitFound);
}

}  // namespace

void add_draw_command(CLI::App& app) {
  add_command<DrawArgs>(app, "draw", run_draw, [](CLI::App& cmd, DrawArgs& args) {
    add_input_files(cmd, args.schedule, &args.plan, true);
    cmd.add_option("-o,--output", args.output, "write the picture to this file (written whole or not at all)");
    cmd.add_flag("--text", args.text, "draw in characters instead of SVG");
    cmd.add_option("--width", args.width,
                   fmt::format("characters per line of --text (at least {}; default: the terminal's, else 100)",
                               draw::kMinTextWidth))
        ->check(CLI::Range(draw::kMinTextWidth, std::size_t{100000}));
  });
}

}  // namespace planck::cli
