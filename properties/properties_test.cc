// The properties of docs/verification.md's harness, each a GoogleTest case run for
// every planner of planner_names(), on random schedules of every feature.

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "model/dump.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"

#include "gen/chain.h"
#include "gen/choices.h"
#include "gen/schedule_parts.h"
#include "model/plan.h"
#include "planner/planner.h"
#include "planner/rules.h"
#include "properties/plan_properties.h"
#include "properties/property_runner.h"
#include "properties/rapidcheck_generators.h"
#include "properties/tlsf_plain.h"
#include "properties/show.h"

namespace planck::props {
namespace {

// Cases per property when RC_PARAMS does not set max_success: the whole
// program stays within seconds in CI; the nightly run raises it.
constexpr int kCases = 250;
// For properties that plan several schedules per case.
constexpr int kMetamorphicCases = 150;
// For the optimum oracle, whose cost grows fast with the buffers.
constexpr int kOptimumCases = 100;

// Generator options of model v1 only.
gen::ScheduleOptions v1(gen::ScheduleOptions options = {}) {
  options.features = v1_only(options.features);
  return options;
}

// The statements of model v1, on schedules of model v1: they read one arena
// per device, blocks of 256 bytes and unstretched lifetimes. Model v2's are
// the suite V2PlannerProperty below.
class PlannerProperty : public ::testing::TestWithParam<std::string> {
 protected:
  void run(PlanStatement statement, int cases, const gen::ScheduleOptions& options = {}) {
    const std::unique_ptr<Planner> planner = make_planner(GetParam());
    ASSERT_NE(planner, nullptr) << GetParam();
    check(planner_property(*planner, schedules(v1(options)), statement), cases);
  }
};

TEST_P(PlannerProperty, PlanPassesTheChecker) { run(&plan_passes_checker, kCases); }

TEST_P(PlannerProperty, PlanPassesTheShadowExecutor) { run(&plan_passes_shadow_executor, kCases); }

TEST_P(PlannerProperty, LiveBuffersShareNoBytes) { run(&live_buffers_share_no_bytes, kCases); }

TEST_P(PlannerProperty, PlacesAreAlignedAndBuffersStartAtPlacePlusPhase) {
  run(&places_aligned_and_buffers_start_at_place_plus_phase, kCases);
}

TEST_P(PlannerProperty, LoopBuffersLiveThroughTheWholeLoop) { run(&loop_buffers_live_through_the_loop, kCases); }

TEST_P(PlannerProperty, RewriteChangesOnlyPlannedBuffers) { run(&rewrite_changes_only_planned_buffers, kCases); }

TEST_P(PlannerProperty, PlanningIsDeterministicAndSurvivesText) {
  run(&planning_is_deterministic_and_survives_text, kMetamorphicCases);
}

TEST_P(PlannerProperty, ArenaIsBetweenPeakAndTotal) { run(&arena_between_peak_and_total, kCases); }

TEST_P(PlannerProperty, OptimumIsAtMostTheArena) {
  run(&optimum_at_most_arena, kOptimumCases, gen::ScheduleOptions::small());
}

TEST_P(PlannerProperty, RenamingStorageKeepsThePlan) { run(&renaming_storage_keeps_the_plan, kMetamorphicCases); }

TEST_P(PlannerProperty, ReorderingDeclarationsKeepsThePlan) {
  run(&reordering_declarations_keeps_the_plan, kMetamorphicCases);
}

TEST_P(PlannerProperty, AddingUnplannedStorageKeepsThePlan) {
  run(&adding_unplanned_storage_keeps_the_plan, kMetamorphicCases);
}

TEST_P(PlannerProperty, CheckerRejectsABufferMovedOntoALiveNeighbour) {
  run(&checker_rejects_a_buffer_moved_onto_a_live_neighbour, kCases);
}

TEST_P(PlannerProperty, OverflowIsAnErrorNamingABuffer) {
  const std::unique_ptr<Planner> planner = make_planner(GetParam());
  ASSERT_NE(planner, nullptr) << GetParam();
  check(planner_property(*planner, overflowing_schedules(), &overflow_is_an_error), kCases);
}

// Every planner that keeps one arena per device, as these properties read
// a plan. tinygrad keeps a copy lane and a compute lane per device (docs/model-v2.md);
// its plans are judged by the checker and the shadow executor
// wherever every planner's are (verify, the corpus, fuzz_schedule) and
// against plans derived by hand (tests/tinygrad_test.cc).
std::vector<std::string> one_arena_planners() {
  std::vector<std::string> out;
  for (const std::string& name : planner_names()) {
    if (name != "tinygrad") out.push_back(name);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Planners, PlannerProperty, ::testing::ValuesIn(one_arena_planners()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The rules of model v2 (docs/model-v2.md), for every planner, tinygrad's
// lanes included, on schedules of every feature of v2: aligned devices,
// devices of fixed capacity, planned inputs, outputs and state, in-place
// kernels.
class V2PlannerProperty : public ::testing::TestWithParam<std::string> {
 protected:
  void run(PlanStatement statement, int cases, gen::ScheduleOptions options = {}) {
    const std::unique_ptr<Planner> planner = make_planner(GetParam());
    ASSERT_NE(planner, nullptr) << GetParam();
    options.features = v2_only(options.features);
    check(planner_property(*planner, schedules(options), statement), cases);
  }
};

TEST_P(V2PlannerProperty, PlanPassesTheChecker) { run(&plan_passes_checker, kCases); }

TEST_P(V2PlannerProperty, PlanPassesTheShadowExecutor) { run(&plan_passes_shadow_executor, kCases); }

TEST_P(V2PlannerProperty, PlacesRespectTheDeviceAlign) { run(&places_respect_the_device_align, kCases); }

TEST_P(V2PlannerProperty, CapacityHolds) { run(&capacity_holds, kCases); }

TEST_P(V2PlannerProperty, BytesAreSharedOnlyInPlace) { run(&bytes_shared_only_in_place, kCases); }

TEST_P(V2PlannerProperty, PlannedInputsOutputsAndStateLiveThroughTheRun) {
  run(&planned_inputs_outputs_and_state_live_through_the_run, kCases);
}

TEST_P(V2PlannerProperty, PlanningIsDeterministicAndSurvivesText) {
  run(&planning_is_deterministic_and_survives_text, kMetamorphicCases);
}

TEST_P(V2PlannerProperty, ReorderingDeclarationsKeepsThePlan) {
  run(&reordering_declarations_keeps_the_plan, kMetamorphicCases);
}

INSTANTIATE_TEST_SUITE_P(Planners, V2PlannerProperty, ::testing::ValuesIn(planner_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The rules of model v3 (docs/model-v3.md), for every planner, on
// schedules of every feature it claims: streams and events (but for tlsf
// and tinygrad, which plan one stream), local buffers in loops, and in-place
// kernels among them. The checker and the shadow executor judge every plan
// by the conflict rule; the checker's two halves agree (oracle tests).
class V3PlannerProperty : public ::testing::TestWithParam<std::string> {
 protected:
  void run(PlanStatement statement, int cases) {
    const std::unique_ptr<Planner> planner = make_planner(GetParam());
    ASSERT_NE(planner, nullptr) << GetParam();
    gen::ScheduleOptions options;
    if (const std::optional<Features> claimed = planner->claimed_features()) options.features = *claimed;
    check(planner_property(*planner, schedules(options), statement), cases);
  }
};

TEST_P(V3PlannerProperty, PlanPassesTheChecker) { run(&plan_passes_checker, kCases); }

TEST_P(V3PlannerProperty, PlanPassesTheShadowExecutor) { run(&plan_passes_shadow_executor, kCases); }

TEST_P(V3PlannerProperty, PlanningIsDeterministicAndSurvivesText) {
  run(&planning_is_deterministic_and_survives_text, kMetamorphicCases);
}

TEST_P(V3PlannerProperty, ConflictingBuffersShareNoBytes) { run(&conflicting_buffers_share_no_bytes, kCases); }

TEST_P(V3PlannerProperty, APlanStaysValidOnOneStream) { run(&a_plan_stays_valid_on_one_stream, kCases); }

TEST_P(V3PlannerProperty, APlanStaysValidWithOneMoreWait) { run(&a_plan_stays_valid_with_one_more_wait, kCases); }

INSTANTIATE_TEST_SUITE_P(Planners, V3PlannerProperty, ::testing::ValuesIn(planner_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// tlsf and tinygrad take blocks of max(256, align): device lines of align
// at most 256 leave their v1 plans as they are.
class BlockPlannerProperty : public ::testing::TestWithParam<std::string> {};

TEST_P(BlockPlannerProperty, DeviceLinesThatChangeNoBlockKeepThePlan) {
  const std::unique_ptr<Planner> planner = make_planner(GetParam());
  ASSERT_NE(planner, nullptr) << GetParam();
  check(planner_property(*planner, schedules(v1()), &device_lines_that_change_no_block_keep_the_plan),
        kMetamorphicCases);
}

INSTANTIATE_TEST_SUITE_P(Planners, BlockPlannerProperty, ::testing::Values("tlsf", "tinygrad"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// Whether some copy, at any depth of loops, takes storage `id`.
bool copied(const Schedule& s, StorageId id) {
  bool found = false;
  gen::for_each_entry(s.entries, [&](const Entry& e) {
    if (e.kind != Entry::Kind::Copy) return;
    for (const Arg& a : e.args) found |= storage_of(a) == id;
  });
  return found;
}

// tinygrad (docs/model-v2.md): a planned buffer a copy takes is in its
// device's copy lane, every other one in the compute lane, each lane an
// arena of its own; without copies, tlsf's plan.
void tinygrad_keeps_its_lanes_apart(const Planner& planner, const Schedule& s) {
  const Result<Plan> plan = planner.plan(s);
  if (!plan) return;  // a refusal, judged by CapacityHolds and the checker
  std::map<std::string, std::pair<std::string, bool>> placed;  // buffer: arena, copied
  for (const Placement& pl : plan->placements) placed[pl.buffer.str()] = {pl.arena.str(), copied(s, *s.find(pl.buffer))};
  for (const auto& [a, x] : placed) {
    for (const auto& [b, y] : placed) {
      const bool same_device = s.storage[*s.find(a)].device == s.storage[*s.find(b)].device;
      if (!same_device) continue;
      if ((x.second == y.second) != (x.first == y.first)) {
        RC_FAIL(fmt::format("{} ({}) is in {}, {} ({}) in {}\n{}", a, x.second ? "copied" : "not copied", x.first, b,
                            y.second ? "copied" : "not copied", y.first, print_plan(*plan)));
      }
    }
  }
}

TEST(TinygradPlanner, KeepsItsCopyLaneAndItsComputeLaneApart) {
  const std::unique_ptr<Planner> tinygrad = make_planner("tinygrad");
  ASSERT_NE(tinygrad, nullptr);
  check(planner_property(*tinygrad, schedules(), &tinygrad_keeps_its_lanes_apart), kCases);
}

TEST(TinygradPlanner, IsTlsfWhereNoCopyTakesAPlannedBuffer) {
  const std::unique_ptr<Planner> tinygrad = make_planner("tinygrad");
  const std::unique_ptr<Planner> tlsf = make_planner("tlsf");
  gen::ScheduleOptions options;
  options.features.copies = false;
  check(
      [&] {
        const Schedule s = *schedules(options);
        const Result<Plan> a = tinygrad->plan(s);
        const Result<Plan> b = tlsf->plan(s);
        RC_ASSERT(a.ok() == b.ok());
        if (a) RC_ASSERT(print_plan(*a) == print_plan(*b));
      },
      kCases);
}

TEST(ReferencePlanner, AgreesByteForByteWithThePlainModel) {
  const std::unique_ptr<Planner> tlsf = make_planner("tlsf");
  ASSERT_NE(tlsf, nullptr);
  check(planner_property(*tlsf, schedules(v1()), &agrees_with_plain_model), kCases);
}

// From 32,768 storage records on, the reference planner takes rules 4 and
// 5 on a second thread while rule 3 walks, and makes the plan there while
// its TLSF run places the buffers. Chains past that size, flat, with loops
// and over four devices, give the plain model's plan byte for byte, and a
// size or a capacity that overflows gives the model's error.
//
// The chains are of 9,000 buffers, some thousands more than the second
// thread takes at a time, and the params no entry takes bring the storage
// records to 33,001, so that the plain model stays quick under the sanitizers.
Schedule chain_past_the_second_thread(const gen::ChainOptions& options) {
  gen::SeededChoices choices(7);
  Schedule s = gen::generate_chain_schedule(choices, options);
  for (std::size_t i = 0; s.storage.size() < 33'001; ++i) {
    s.storage.push_back({.kind = StorageKind::Param, .dtype = Dtype::Float32, .name = fmt::format("unused{}", i),
                         .device = "CUDA", .bytes = 4});
  }
  return s;
}

TEST(ReferencePlanner, PlanMadeAlongsideTheRunIsThePlainModelsPlan) {
  const std::unique_ptr<Planner> tlsf = make_planner("tlsf");
  ASSERT_NE(tlsf, nullptr);
  constexpr std::size_t kBuffers = 9'000;
  const gen::ChainOptions shapes[] = {
      {.buffers = kBuffers}, {.buffers = kBuffers, .loop_body = 16}, {.buffers = kBuffers, .devices = 4}};
  for (const gen::ChainOptions& options : shapes) {
    const Schedule s = chain_past_the_second_thread(options);
    const Result<Plan> got = tlsf->plan(s);
    const Result<Plan> want = model_plan(s);
    ASSERT_TRUE(got.ok()) << got.error().message();
    ASSERT_TRUE(want.ok()) << want.error().message();
    ASSERT_EQ(got->placements.size(), kBuffers);
    EXPECT_EQ(print_plan(*got), print_plan(*want)) << "loop body " << options.loop_body << ", devices " << options.devices;
  }
}

TEST(ReferencePlanner, OverflowAlongsideTheRunIsThePlainModelsError) {
  const std::unique_ptr<Planner> tlsf = make_planner("tlsf");
  ASSERT_NE(tlsf, nullptr);
  const Schedule chain = chain_past_the_second_thread({.buffers = 9'000});
  // A rounded size past 2^64 (t5000, made by the 5,000th kernel), and two
  // halves of 2^64 whose sum of rounded sizes passes it at t8000. The model
  // words its errors its own way: both name the buffer.
  Schedule sized = chain;
  sized.storage[5'001].bytes = ~Bytes{0} - 100;
  Schedule summed = chain;
  summed.storage[5'001].bytes = Bytes{1} << 63;
  summed.storage[8'001].bytes = Bytes{1} << 63;
  const std::pair<const Schedule*, std::string> cases[] = {{&sized, "buffer t5000"}, {&summed, "buffer t8000"}};
  for (const auto& [s, buffer] : cases) {
    const Result<Plan> got = tlsf->plan(*s);
    const Result<Plan> want = model_plan(*s);
    ASSERT_FALSE(got.ok());
    ASSERT_FALSE(want.ok());
    EXPECT_NE(got.error().message().find(buffer), std::string::npos) << got.error().message();
    EXPECT_NE(want.error().message().find(buffer), std::string::npos) << want.error().message();
  }
  // The same error as the rules one at a time give.
  EXPECT_EQ(tlsf->plan(sized).error().message(), sizes_and_devices(sized, planned_lifetimes(sized)).error().message());
  EXPECT_NE(tlsf->plan(summed).error().message().find("the sum of planned sizes"), std::string::npos);
}

// greedy and bysize find the buffers alive with each one through an index by
// lifetime; their plain twins compare it with every buffer placed. On
// schedules of every feature, and on ones of few distinct sizes and many
// buffers alive together, where sizes, gaps and ends tie often.
class FastHeuristicProperty : public ::testing::TestWithParam<std::string> {
 protected:
  void run(const rc::Gen<Schedule>& generator) {
    const std::unique_ptr<Planner> planner = make_planner(GetParam());
    ASSERT_NE(planner, nullptr) << GetParam();
    check(planner_property(*planner, generator, &agrees_with_plain_twin), kCases);
  }
};

gen::ScheduleOptions tied_sizes() {
  gen::ScheduleOptions o;
  o.max_entries = 60;
  o.max_storage = 48;
  o.buffer_percent = 95;
  o.max_bytes = 1024;
  o.max_phase = 256;
  o.features.huge_sizes = false;
  return o;
}

TEST_P(FastHeuristicProperty, AgreesByteForByteWithItsPlainTwin) { run(schedules()); }

TEST_P(FastHeuristicProperty, AgreesWithItsPlainTwinWhenSizesTie) { run(schedules(tied_sizes())); }

TEST_P(FastHeuristicProperty, FailsAsItsPlainTwinDoesOnOverflow) { run(overflowing_schedules()); }

// The parser reads plain lines by a fast path and the others token by
// token: read token by token alone, the text must give the same records, or
// the same error.
void both_parser_paths_agree(const std::string& text) {
  const std::optional<std::string> differ =
      parse_results_differ(parse_schedule(text, "t.sched"), parse_schedule_by_tokens(text, "t.sched"));
  if (differ) RC_FAIL(fmt::format("plain lines first, tokens second: {}\n{}", *differ, text));
}

// The printed text of random schedules with a few bytes inserted, replaced
// or removed.
TEST(Parser, ThePlainLinePathAgreesWithTheTokenPathOnChangedSchedules) {
  check(
      [] {
        std::string text = print_schedule(*schedules());
        const int edits = *rc::gen::inRange(0, 6);
        for (int i = 0; i < edits; ++i) {
          const std::string piece = *rc::gen::element<std::string>(
              " ", "\t", "\n", "\r", "#", "(", ")", ",", "{", "}", "=", "\x07", "0", "9", "x", "_", "\r\n");
          const std::size_t at = *rc::gen::inRange<std::size_t>(0, text.size() + 1);
          switch (*rc::gen::inRange(0, 3)) {
            case 0: text.insert(at, piece); break;
            case 1: text.replace(at, 1, piece); break;
            default: text.erase(at, 1); break;
          }
        }
        both_parser_paths_agree(text);
      },
      kCases);
}

// Lines of words near the plain shapes, most of them plain: a keyword, then
// names, devices, dtypes, numbers and now and then a word that makes the
// line something else, between blanks of one kind or another.
TEST(Parser, ThePlainLinePathAgreesWithTheTokenPathOnLinesOfWords) {
  check(
      [] {
        const std::vector<std::string> keywords = {"buffer", "buffer", "alloc", "param",  "kernel", "kernel",
                                                   "copy",   "range",  "loop",  "}",      "#",      "held"};
        const std::vector<std::string> words = {
            "t0",    "t1",  "t2",     "t3",     "CUDA",   "CPU:1",  "int8",   "int32",   "float16", "0",
            "4",     "6",   "1024",   "x4",     "99999999999999999999",   "shrink", "after",   "bitcast",
            "range", "held", "phase=8", "{",    "}",      "#",      "(",      "shrink(t0, 0, 1)", "\x07", ""};
        const std::vector<std::string> blanks = {" ", " ", " ", "  ", "\t"};
        std::string text = "schedule v1\n";
        const int lines = *rc::gen::inRange(1, 30);
        for (int l = 0; l < lines; ++l) {
          if (*rc::gen::inRange(0, 4) == 0) text += *rc::gen::elementOf(blanks);
          text += *rc::gen::elementOf(keywords);
          const int count = *rc::gen::inRange(0, 7);
          for (int w = 0; w < count; ++w) {
            text += *rc::gen::elementOf(blanks);
            text += *rc::gen::elementOf(words);
          }
          if (*rc::gen::inRange(0, 8) == 0) text += *rc::gen::elementOf(blanks);
          text += *rc::gen::inRange(0, 10) == 0 ? "\r\n" : "\n";
        }
        both_parser_paths_agree(text);
      },
      kCases);
}

INSTANTIATE_TEST_SUITE_P(Heuristics, FastHeuristicProperty, ::testing::Values("greedy", "bysize"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace planck::props
