// The model-shaped schedules: valid for every planner, the same for a seed,
// and shaped as their documentation says.

#include "gen/models.h"

#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "gen/models/builder.h"
#include "gen/schedule_assertions.h"
#include "gen/schedule_parts.h"
#include "harness/judge.h"
#include "model/schedule_printer.h"
#include "planner/planner.h"

namespace planck::gen {
namespace {

// Each shape at a size small enough to judge in a few milliseconds.
struct Shape {
  std::string name;
  std::function<Result<Schedule>(Choices&)> make;
};

const std::vector<Shape>& small_shapes() {
  static const std::vector<Shape> shapes{
      {"transformer", [](Choices& c) { return generate_transformer(c, {.batch = 1, .sequence = 64, .layers = 2}); }},
      {"convnet", [](Choices& c) { return generate_convnet(c, {.batch = 2, .image = 64}); }},
      {"training", [](Choices& c) { return generate_training(c, {.batch = 1, .sequence = 32, .layers = 2}); }},
      {"decoding",
       [](Choices& c) {
         return generate_decoding(c, {.batch = 2, .prompt = 16, .steps = 8, .chunks = 3, .layers = 2});
       }},
      {"experts",
       [](Choices& c) {
         return generate_experts(c, {.batch = 1, .sequence = 32, .layers = 2, .experts = 8, .devices = 3});
       }},
  };
  return shapes;
}

// Test names and failures name the shape.
void PrintTo(const Shape& shape, std::ostream* os) { *os << shape.name; }

Schedule made(const Shape& shape, std::uint64_t seed) {
  SeededChoices choices(seed);
  Result<Schedule> s = shape.make(choices);
  EXPECT_TRUE(s.ok()) << shape.name << ": " << s.error().message();
  return s.ok() ? std::move(s).value() : Schedule{};
}

class ModelShape : public ::testing::TestWithParam<Shape> {};

TEST_P(ModelShape, EveryPlannerPlansItValidly) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Schedule s = made(GetParam(), seed);
    ASSERT_TRUE(round_trips(s));
    ASSERT_TRUE(within_plannable_total(s));
    for (const std::string& name : planner_names()) {
      const harness::Verdict v = harness::judge(*make_planner(name), s);
      EXPECT_FALSE(v.failed()) << "seed " << seed << ", planner " << name << ": " << v.kind << "\n" << v.explanation;
      EXPECT_EQ(v.note, "") << "seed " << seed << ", planner " << name;
    }
  }
}

TEST_P(ModelShape, ASeedGivesOneScheduleAndSeedsDiffer) {
  const std::string first = print_schedule(made(GetParam(), 7));
  EXPECT_EQ(print_schedule(made(GetParam(), 7)), first);
  std::set<std::string> texts{first};
  for (std::uint64_t seed = 1; seed <= 4; ++seed) texts.insert(print_schedule(made(GetParam(), seed)));
  EXPECT_GT(texts.size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Shapes, ModelShape, ::testing::ValuesIn(small_shapes()),
                         [](const auto& info) { return info.param.name; });

const Storage& named(const Schedule& s, const std::string& name) {
  static const Storage none;
  const std::optional<StorageId> id = s.find(name);
  EXPECT_TRUE(id.has_value()) << "no storage " << name;
  return id ? s.storage[*id] : none;
}

// The top-level entries that take storage `name` (a loop counts once).
std::vector<std::size_t> entries_taking(const Schedule& s, const std::string& name) {
  const std::optional<StorageId> id = s.find(name);
  std::vector<std::size_t> at;
  for (std::size_t i = 0; id && i < s.entries.size(); ++i) {
    bool takes = false;
    for_each_arg(std::vector<Entry>{s.entries[i]}, [&](const Arg& a) { takes = takes || storage_of(a) == *id; });
    if (takes) at.push_back(i);
  }
  return at;
}

TEST(Transformer, ScoresAreBatchByHeadsBySequenceSquared) {
  SeededChoices c(3);
  Result<Schedule> s = generate_transformer(c, {.batch = 2, .sequence = 128, .layers = 3});
  ASSERT_TRUE(s.ok()) << s.error().message();
  for (const std::string layer : {"l0.", "l1.", "l2."}) {
    const Storage& scores = named(*s, layer + "scores");
    EXPECT_EQ(scores.bytes, 2u * 12 * 128 * 128 * dtype_size(scores.dtype)) << layer;
    EXPECT_EQ(named(*s, layer + "fc1").bytes, 2u * 128 * 3072 * dtype_size(scores.dtype)) << layer;
    EXPECT_TRUE(named(*s, layer + "fc1.w").held);
  }
  EXPECT_TRUE(named(*s, "logits").held);
  EXPECT_EQ(named(*s, "x").kind, StorageKind::Param);
}

TEST(ConvNet, StagesHaveResNet50sWidthsAndEachBlockInputLivesToItsSkipAdd) {
  SeededChoices c(2);
  Result<Schedule> s = generate_convnet(c, {.batch = 1, .image = 224});
  ASSERT_TRUE(s.ok()) << s.error().message();
  const Bytes unit = dtype_size(named(*s, "pool").dtype);
  EXPECT_EQ(named(*s, "s1.b0.conv3").bytes, 256u * 56 * 56 * unit);
  EXPECT_EQ(named(*s, "s2.b0.conv3").bytes, 512u * 28 * 28 * unit);
  EXPECT_EQ(named(*s, "s3.b5.conv3").bytes, 1024u * 14 * 14 * unit);
  EXPECT_EQ(named(*s, "s4.b2.conv3").bytes, 2048u * 7 * 7 * unit);
  EXPECT_FALSE(s->find("s3.b6.conv1").has_value());  // 6 blocks in stage 3
  // The second block of stage 2 reads its input first (conv1) and last, in
  // the skip add after its conv3.
  const std::vector<std::size_t> conv1 = entries_taking(*s, "s2.b1.conv1");
  const std::vector<std::size_t> conv3 = entries_taking(*s, "s2.b1.conv3");
  ASSERT_FALSE(conv1.empty());
  ASSERT_FALSE(conv3.empty());
  const std::string input = s->storage[storage_of(s->entries[conv1.front()].args[1])].name;
  std::size_t add = conv3.front();
  while (add < s->entries.size() && s->entries[add].name != "add_relu") ++add;
  ASSERT_LT(add, s->entries.size());
  EXPECT_EQ(entries_taking(*s, input).back(), add) << input << " is not last read by the skip add";
}

TEST(Training, BackwardRunsInReverseReadingTheSavedActivations) {
  SeededChoices c(4);
  Result<Schedule> s = generate_training(c, {.batch = 1, .sequence = 16, .layers = 2});
  ASSERT_TRUE(s.ok()) << s.error().message();
  const std::size_t loss = entries_taking(*s, "loss").front();
  // Layer 0's first activation is used again after the loss, by its gradient
  // kernels, and those of layer 1 run before those of layer 0.
  EXPECT_GT(entries_taking(*s, "l0.ln1").back(), loss);
  EXPECT_LT(entries_taking(*s, "d.l1.ln1").front(), entries_taking(*s, "d.l0.ln1").front());
  EXPECT_EQ(named(*s, "d.l0.fc1").bytes, named(*s, "l0.fc1").bytes);
  // Weights are params, each updated once by Adam.
  EXPECT_EQ(named(*s, "l0.fc1.w").kind, StorageKind::Param);
  std::size_t adam = 0;
  for (const Entry& e : s->entries) adam += e.kind == Entry::Kind::Kernel && e.name == "adam";
  std::size_t weights = 0;
  for (const Storage& st : s->storage)
    weights += st.kind == StorageKind::Param && st.name.ends_with(".w") && !st.name.starts_with("adam.");
  EXPECT_EQ(adam, weights + 1);  // and the tied embedding, wte
}

TEST(Decoding, FlagLoopsOverACacheThatGrowsByCopies) {
  SeededChoices c(5);
  Result<Schedule> s = generate_decoding(c, {.batch = 1, .prompt = 32, .steps = 16, .chunks = 3, .layers = 2});
  ASSERT_TRUE(s.ok()) << s.error().message();
  std::size_t loops = 0;
  std::size_t copies = 0;
  for (const Entry& e : s->entries) {
    loops += e.kind == Entry::Kind::Loop;
    copies += e.kind == Entry::Kind::Copy;
    if (e.kind == Entry::Kind::Loop) {
      EXPECT_EQ(s->storage[storage_of(e.flag().front())].name, "done." + std::to_string(loops - 1));
    }
  }
  EXPECT_EQ(loops, 3u);
  // The prefill copies its keys and values into each layer's cache; each
  // later chunk copies each layer's old keys and values into a larger cache.
  EXPECT_EQ(copies, 2u * 2 + 2u * 2 * 2);
  const std::string suffix = s->find("cache0.l0.kv") ? ".kv" : ".k";
  EXPECT_LT(named(*s, "cache0.l0" + suffix).bytes, named(*s, "cache1.l0" + suffix).bytes);
  EXPECT_LT(named(*s, "cache1.l0" + suffix).bytes, named(*s, "cache2.l0" + suffix).bytes);
}

TEST(Experts, ExpertsSpreadOverDevicesWithCopiesBetween) {
  SeededChoices c(6);
  Result<Schedule> s = generate_experts(c, {.batch = 1, .sequence = 64, .layers = 1, .experts = 8, .devices = 4});
  ASSERT_TRUE(s.ok()) << s.error().message();
  std::set<std::string> devices;
  for (const Storage& st : s->storage) devices.insert(st.device);
  EXPECT_EQ(devices, (std::set<std::string>{"CUDA:0", "CUDA:1", "CUDA:2", "CUDA:3"}));
  EXPECT_EQ(named(*s, "l0.e5.w1").device, "CUDA:1");
  std::size_t across = 0;
  for (const Entry& e : s->entries) {
    if (e.kind != Entry::Kind::Copy) continue;
    across += s->storage[storage_of(e.args[0])].device != s->storage[storage_of(e.args[1])].device;
  }
  // Each of the six experts off CUDA:0 gets its rows and sends its output back
  // (an expert routed no rows is left out).
  EXPECT_GT(across, 0u);
  EXPECT_LE(across, 12u);
  EXPECT_EQ(across % 2, 0u);
}

TEST(ModelOptions, OutOfRangeOrOverflowingSizesAreErrors) {
  SeededChoices c(1);
  Result<Schedule> none = generate_transformer(c, {.batch = 0});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message(), "transformer: batch is 0; it must be 1 to 65536");
  // One layer's scores and probabilities (2^62 * 3/4 bytes) fit below 2^62
  // bytes; three layers' scores alone do not.
  ASSERT_TRUE(generate_transformer(c, {.batch = 1 << 16, .sequence = 1 << 20, .layers = 1}).ok());
  Result<Schedule> total = generate_transformer(c, {.batch = 1 << 16, .sequence = 1 << 20, .layers = 3});
  ASSERT_FALSE(total.ok());
  EXPECT_EQ(total.error().message(),
            "transformer: the model's storage adds up to 2^62 bytes or more: choose a smaller batch or sequence");
  Result<Schedule> odd = generate_convnet(c, {.batch = 1, .image = 100});
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.error().message(), "convnet: image is 100; it must be a multiple of 32");
  EXPECT_FALSE(generate_experts(c, {.devices = 0}).ok());
  EXPECT_FALSE(generate_decoding(c, {.chunks = 0}).ok());
  Result<Schedule> passes = generate_decoding(c, {.chunks = 1024, .layers = 1024});
  ASSERT_FALSE(passes.ok());
  EXPECT_EQ(passes.error().message(), "decoding: chunks x layers is 1048576; it must be 1 to 65536");
}

TEST(ModelBuilder, ATensorPast2To62BytesIsAnError) {
  ModelBuilder b("m", "CUDA", Dtype::Float32);
  b.buffer("t", b.bytes({Bytes{1} << 30, Bytes{1} << 30}));  // 2^62 bytes of float32
  Result<Schedule> s = std::move(b).finish();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message(), "m: a tensor of the model is 2^62 bytes or more: choose a smaller batch or sequence");
}

}  // namespace
}  // namespace planck::gen
