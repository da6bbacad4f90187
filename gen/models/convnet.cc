// ResNet-50 inference: bottleneck blocks whose inputs live on for their skip
// connections (docs/commands.md#planck-generate).

#include <string>

#include "gen/models.h"
#include "gen/models/blocks.h"
#include "gen/schedule_parts.h"

namespace planck::gen {
namespace {

struct Stage {
  std::uint64_t blocks;
  std::uint64_t inner;   // channels inside a bottleneck
  std::uint64_t out;     // channels out
  std::uint64_t stride;  // of the stage's first block
};
constexpr Stage kResNet50[] = {{3, 64, 256, 1}, {4, 128, 512, 2}, {6, 256, 1024, 2}, {3, 512, 2048, 2}};
constexpr std::uint64_t kStemChannels = 64;
constexpr std::uint64_t kClasses = 1000;

struct Activation {
  StorageId id;
  std::uint64_t channels;
  std::uint64_t side;
};

// A conv (or pool) writing a new activation, then, one time in three, a batch
// norm and ReLU of their own rather than folded into the conv.
Activation conv(ModelBuilder& b, Choices& c, const std::string& name, std::string_view kernel, const Activation& in,
                std::uint64_t channels, std::uint64_t side, std::uint64_t weight_elements, std::uint64_t batch) {
  const Bytes bytes = b.bytes({batch, channels, side, side});
  StorageId out =
      b.op(std::string(kernel), name, bytes, {storage_arg(in.id)}, {b.weight(name + ".w", b.bytes({weight_elements}))});
  if (c.percent(33)) {
    out = b.op("batch_norm_relu", name + ".bn", bytes, {storage_arg(out)},
               {b.weight(name + ".bn.w", b.bytes({2, channels}))});
  }
  return {out, channels, side};
}

Activation bottleneck(ModelBuilder& b, Choices& c, const std::string& name, const Activation& x, const Stage& stage,
                      bool first, std::uint64_t batch) {
  const std::uint64_t side = first ? x.side / stage.stride : x.side;
  // The skip's projection, before the main path or after it, as schedulers
  // order the two branches either way.
  const bool project = first;
  const bool project_first = project && c.percent(50);
  Activation skip = x;
  auto projection = [&] {
    return conv(b, c, name + ".down", "conv1x1", x, stage.out, side, stage.out * x.channels, batch);
  };
  if (project_first) skip = projection();
  const Activation a = conv(b, c, name + ".conv1", "conv1x1", x, stage.inner, x.side, stage.inner * x.channels, batch);
  const Activation m =
      conv(b, c, name + ".conv2", "conv3x3", a, stage.inner, side, stage.inner * stage.inner * 9, batch);
  const Activation o = conv(b, c, name + ".conv3", "conv1x1", m, stage.out, side, stage.out * stage.inner, batch);
  if (project && !project_first) skip = projection();
  if (c.percent(50)) {
    b.kernel("add_relu", {storage_arg(o.id), storage_arg(skip.id)});
    return o;
  }
  const StorageId sum = b.op("add_relu", name + ".out", b.bytes({batch, stage.out, side, side}),
                             {storage_arg(o.id), storage_arg(skip.id)});
  return {sum, stage.out, side};
}

}  // namespace

Result<Schedule> generate_convnet(Choices& c, const ConvNetOptions& o) {
  PLANCK_TRY(check_option("convnet", "batch", o.batch, 1, kMaxBatch));
  PLANCK_TRY(check_option("convnet", "image", o.image, 32, 1 << 16));
  if (o.image % 32 != 0) {
    return Error{"convnet", "image is " + std::to_string(o.image) + "; it must be a multiple of 32"};
  }
  ModelBuilder b("convnet", "CUDA", c.percent(50) ? Dtype::Float16 : Dtype::Float32);
  const std::uint64_t batch = o.batch;
  const Activation image{b.param("image", b.bytes({batch, 3, o.image, o.image})), 3, o.image};
  const Activation stem =
      conv(b, c, "stem", "conv7x7", image, kStemChannels, o.image / 2, kStemChannels * 3 * 49, batch);
  Activation x{
      b.op("max_pool", "pool", b.bytes({batch, kStemChannels, o.image / 4, o.image / 4}), {storage_arg(stem.id)}),
      kStemChannels, o.image / 4};
  for (std::size_t s = 0; s < std::size(kResNet50); ++s) {
    for (std::uint64_t k = 0; k < kResNet50[s].blocks; ++k) {
      x = bottleneck(b, c, "s" + std::to_string(s + 1) + ".b" + std::to_string(k), x, kResNet50[s], k == 0, batch);
    }
  }
  const StorageId pooled = b.op("avg_pool", "avg_pool", b.bytes({batch, x.channels}), {storage_arg(x.id)});
  const StorageId logits = b.held("logits", b.bytes({batch, kClasses}));
  b.kernel("linear",
           {storage_arg(logits), storage_arg(pooled), storage_arg(b.weight("fc.w", b.bytes({kClasses, x.channels})))});
  return std::move(b).finish();
}

}  // namespace planck::gen
