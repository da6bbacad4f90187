// planck generate: a model-shaped, chain or random schedule
// (docs/commands.md#planck-generate).

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gen/chain.h"
#include "gen/models.h"
#include "gen/random_schedules.h"
#include "gen/schedule_parts.h"
#include "model/schedule_printer.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/output.h"
#include "tools/progress.h"

namespace planck::cli {
namespace {

constexpr std::uint64_t kMaxChainBuffers = std::uint64_t{1} << 22;
constexpr std::uint64_t kMaxRandomSize = 100000;

// The size options, by flag; a kind takes some of them.
using Sizes = std::map<std::string, std::uint64_t>;

struct GenerateArgs {
  std::string kind;
  std::uint64_t seed = 1;
  std::string output;
  Sizes sizes;  // the size flags given
  std::string features;  // random: --only, the features it may use, as --features lists them
  OutputOptions out;
};

struct Kind {
  std::string name;
  std::string description;  // one line, for --help: its line of tools/commands.txt
  std::vector<std::string> flags;
  // The sizes given, and for random the features it may use.
  std::function<Result<Schedule>(gen::Choices&, const Sizes&, const Features&)> make;
};

// A model shape: its size flags, each setting one field of its options.
template <class Options>
using Fields = std::vector<std::pair<std::string, std::uint64_t Options::*>>;

template <class Options>
Kind model_kind(std::string name, Fields<Options> fields, Result<Schedule> (*generate)(gen::Choices&, const Options&)) {
  std::vector<std::string> flags;
  for (const auto& field : fields) flags.push_back(field.first);
  std::string description = about("generate " + name);
  return {std::move(name), std::move(description), std::move(flags),
          [fields, generate](gen::Choices& c, const Sizes& sizes, const Features&) {
            Options o;
            for (const auto& [flag, member] : fields) {
              if (auto it = sizes.find(flag); it != sizes.end()) o.*member = it->second;
            }
            return generate(c, o);
          }};
}

// `sizes[flag]` into `field` when given.
void take(const Sizes& sizes, const std::string& flag, std::uint64_t& field) {
  if (auto it = sizes.find(flag); it != sizes.end()) field = it->second;
}

const std::vector<Kind>& kinds() {
  using Tf = gen::TransformerOptions;
  using Cn = gen::ConvNetOptions;
  using Tr = gen::TrainingOptions;
  using Dc = gen::DecodingOptions;
  using Ex = gen::ExpertsOptions;
  static const std::vector<Kind> table{
      model_kind<Tf>("transformer",  //
                     {{"--batch", &Tf::batch}, {"--sequence", &Tf::sequence}, {"--layers", &Tf::layers}},
                     gen::generate_transformer),
      model_kind<Cn>("convnet", {{"--batch", &Cn::batch}, {"--image", &Cn::image}}, gen::generate_convnet),
      model_kind<Tr>("training",  //
                     {{"--batch", &Tr::batch}, {"--sequence", &Tr::sequence}, {"--layers", &Tr::layers}},
                     gen::generate_training),
      model_kind<Dc>("decoding",
                     {{"--batch", &Dc::batch}, {"--prompt", &Dc::prompt}, {"--steps", &Dc::steps},
                      {"--chunks", &Dc::chunks}, {"--layers", &Dc::layers}},
                     gen::generate_decoding),
      model_kind<Ex>("experts",
                     {{"--batch", &Ex::batch}, {"--sequence", &Ex::sequence}, {"--layers", &Ex::layers},
                      {"--experts", &Ex::experts}, {"--devices", &Ex::devices}},
                     gen::generate_experts),
      {"chain",
       about("generate chain"),
       {"--buffers"},
       [](gen::Choices& c, const Sizes& s, const Features&) -> Result<Schedule> {
         gen::ChainOptions o;
         std::uint64_t buffers = o.buffers;
         take(s, "--buffers", buffers);
         if (buffers > kMaxChainBuffers) {
           return Error{"chain", fmt::format("buffers is {}; it must be at most {}", buffers, kMaxChainBuffers)};
         }
         o.buffers = buffers;
         return gen::generate_chain_schedule(c, o);
       }},
      {"random",
       about("generate random"),
       {"--size"},
       [](gen::Choices& c, const Sizes& s, const Features& features) -> Result<Schedule> {
         gen::ScheduleOptions o;
         o.features = features;
         std::uint64_t size = static_cast<std::uint64_t>(o.size);
         take(s, "--size", size);
         if (size > kMaxRandomSize) {
           return Error{"random", fmt::format("size is {}; it must be at most {}", size, kMaxRandomSize)};
         }
         o.size = static_cast<int>(size);
         return gen::generate_schedule(c, o);
       }},
  };
  return table;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

void run_generate(const GenerateArgs& args) {
  check_json_beside_output("generate", args.out.json, args.output, "the schedule");
  Report report("generate", args.out.json);
  const Kind* kind = nullptr;
  std::vector<std::string> names;
  for (const Kind& k : kinds()) {
    names.push_back(k.name);
    if (k.name == args.kind) kind = &k;
  }
  if (!kind) {
    throw Exit{kExitBadInput,
               fmt::format("planck generate: unknown kind `{}`; the kinds are {}", args.kind, joined(names))};
  }
  for (const auto& [flag, value] : args.sizes) {
    if (std::find(kind->flags.begin(), kind->flags.end(), flag) == kind->flags.end()) {
      throw Exit{kExitBadInput, fmt::format("planck generate: {} does not apply to {}; its options are {}", flag,
                                            kind->name, joined(kind->flags))};
    }
  }
  Features features;  // every one
  if (!args.features.empty()) {
    if (kind->name != "random") {
      throw Exit{kExitBadInput, fmt::format("planck generate: --only applies to random, not to {}", kind->name)};
    }
    Result<Features> f = parse_features(args.features);
    if (!f) throw Exit{kExitBadInput, "planck generate: --only: " + f.error().message()};
    features = *f;
  }
  Result<Schedule> s = [&] {
    Progress progress("generate", args.out.progress);
    progress.stage("generating " + kind->name);
    gen::SeededChoices choices(args.seed);
    return kind->make(choices, args.sizes, features);
  }();
  if (!s) throw Exit{kExitBadInput, "planck generate: " + s.error().message()};
  write_output(args.output, print_schedule(*s));
  nlohmann::ordered_json sizes = nlohmann::ordered_json::object();
  for (const auto& [flag, value] : args.sizes) sizes[flag.substr(2)] = value;
  report.object = {{"kind", kind->name},
                   {"seed", args.seed},
                   {"sizes", std::move(sizes)},
                   {"output", args.output.empty() ? "-" : args.output},
                   {"entries", gen::count_entries(*s)},
                   {"declarations", s->storage.size()}};
  report.write();
}

}  // namespace

void add_generate_command(CLI::App& app) {
  add_command<GenerateArgs>(app, "generate", run_generate, [](CLI::App& cmd, GenerateArgs& args) {
    std::string footer = "Kinds:\n";
    for (const Kind& k : kinds())
      footer += fmt::format("  {:<12} {}\n{:15}options: {}\n", k.name, k.description, "", joined(k.flags));
    cmd.footer(footer);
    cmd.add_option("kind", args.kind, "what to generate (listed below)")->required();
    add_seed_option(cmd, args.seed);
    cmd.add_option("-o,--output", args.output, "write the schedule to this file instead of standard output");
    cmd.add_option("--only", args.features,
                   "random: only these features of the model, listed as planck verify --features lists them (v1, "
                   "v2, v3, names); default every one");
    const std::pair<const char*, const char*> sizes[] = {
        {"--batch", "batch size"},
        {"--sequence", "tokens per sequence"},
        {"--layers", "transformer blocks"},
        {"--image", "image side in pixels, a multiple of 32"},
        {"--prompt", "prompt tokens before decoding"},
        {"--steps", "the most tokens each decoding loop generates"},
        {"--chunks", "decoding loops, the cache growing before each after the first"},
        {"--experts", "experts per block"},
        {"--devices", "devices the experts are spread over"},
        {"--buffers", "buffers of the chain"},
        {"--size", "the random schedule's size, 100 nominal"},
    };
    for (const auto& [flag, description] : sizes) {
      const std::string name = flag;
      cmd.add_option_function<std::uint64_t>(
             name, [&args, name](std::uint64_t value) { args.sizes[name] = value; }, description)
          ->check(whole_number());
    }
  });
}

}  // namespace planck::cli
