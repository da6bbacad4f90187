// Pictures of plans: the corpus's text pictures against their goldens, the
// violating buffers marked and no other, SVG text escaped, and the edges:
// no arena, an arena of 0 bytes, no planned buffer, bytes near 2^62, and
// more buffers than SVG draws in full.

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "draw/picture.h"
#include "draw/svg.h"
#include "draw/text.h"
#include "model/plan.h"
#include "model/schedule_reader.h"
#include "oracle/check/checker.h"
#include "tests/run_command.h"

namespace planck::draw {
namespace {

namespace fs = std::filesystem;

Schedule schedule_of(const std::string& text) {
  Result<Schedule> s = parse_schedule(text, "test.sched");
  EXPECT_TRUE(s) << (s ? "" : s.error().message());
  return s ? std::move(s).value() : Schedule{};
}

Plan plan_of(const std::string& text) {
  Result<Plan> p = parse_plan(text, "test.plan");
  EXPECT_TRUE(p) << (p ? "" : p.error().message());
  return p ? std::move(p).value() : Plan{};
}

Picture picture_of(const Schedule& s, const Plan& p) {
  const oracle::CheckReport found = oracle::check_plan(s, p, oracle::kOverlapsListed);
  return make_picture(s, p, found.violations, found.unlisted_overlaps);
}

std::string source_file(const std::string& path) { return testing::read_text(std::string(PLANCK_SOURCE_DIR) + "/" + path); }

// The README's failing example: the loop's calls counted as entries, so h
// shares act's bytes and proj acc's during the loop.
const std::string kRange = source_file("corpus/schedules/08-range.sched");
const std::string kRangeBad = source_file("draw/testdata/08-range-loops.plan");

std::set<std::string> violating(const Picture& p) {
  std::set<std::string> out;
  for (const ArenaPicture& a : p.arenas) {
    for (const Box& b : a.boxes) {
      if (b.violating) out.insert(b.name);
    }
  }
  return out;
}

TEST(Picture, MarksExactlyTheBuffersTheViolationsName) {
  const Schedule s = schedule_of(kRange);
  const Picture p = picture_of(s, plan_of(kRangeBad));
  EXPECT_FALSE(p.valid());
  EXPECT_EQ(violating(p), (std::set<std::string>{"h", "act", "proj", "acc"}));
  ASSERT_EQ(p.arenas.size(), 1u);
  const ArenaPicture& a = p.arenas[0];
  ASSERT_EQ(a.marks.size(), 2u);
  EXPECT_EQ(a.marks[0].begin, 0u);
  EXPECT_EQ(a.marks[0].end, 2048u);
  EXPECT_EQ(a.marks[0].first, 1u);
  EXPECT_EQ(a.marks[0].last, 1u);
  EXPECT_EQ(a.boxes[0].first, 0u);
  EXPECT_EQ(a.boxes[0].last, 1u);
}

TEST(Picture, ValidPlanMarksNothing) {
  const Schedule s = schedule_of(kRange);
  const Picture p = picture_of(s, plan_of("plan v1\narena arena0 CUDA 32768\nplace h arena0 0\nplace proj arena0 "
                                          "8192\nplace act arena0 16384\nplace acc arena0 24576\nplace g arena0 0\n"));
  EXPECT_TRUE(p.valid());
  EXPECT_TRUE(violating(p).empty());
  EXPECT_TRUE(p.arenas[0].marks.empty());
}

// The key lines that start with `!` name the violating buffers, and `#`
// stands in the plot only where the shared bytes are.
TEST(TextPicture, MarksExactlyTheViolatingBuffers) {
  const Schedule s = schedule_of(kRange);
  const std::string text = text_picture(picture_of(s, plan_of(kRangeBad)), {.width = 80});
  std::set<std::string> marked;
  const std::regex key(R"(^! [A-Za-z0-9*] (\w+): )");
  std::smatch m;
  std::istringstream lines(text);
  std::string plot_marks;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, m, key)) marked.insert(m[1]);
    if (line.find(" |") != std::string::npos && line.find('#') != std::string::npos) plot_marks += line + "\n";
  }
  EXPECT_EQ(marked, (std::set<std::string>{"h", "act", "proj", "acc"})) << text;
  EXPECT_NE(plot_marks, "") << text;
  EXPECT_NE(text.find("! overlap: h [0, 2048)"), std::string::npos) << text;
}

TEST(SvgPicture, MarksExactlyTheViolatingBuffers) {
  const Schedule s = schedule_of(kRange);
  const std::string svg = svg_picture(picture_of(s, plan_of(kRangeBad)));
  const std::regex rect(R"re(<rect class="buffer( violating)?"[^>]*><title>(\w+):)re");
  std::set<std::string> red, all;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), rect); it != std::sregex_iterator(); ++it) {
    all.insert((*it)[2]);
    if ((*it)[1].matched) red.insert((*it)[2]);
  }
  EXPECT_EQ(all, (std::set<std::string>{"h", "proj", "act", "acc", "g"}));
  EXPECT_EQ(red, (std::set<std::string>{"h", "act", "proj", "acc"}));
  std::size_t shared = 0;
  for (std::size_t at = svg.find("class=\"shared\""); at != std::string::npos; at = svg.find("class=\"shared\"", at + 1)) {
    ++shared;
  }
  EXPECT_EQ(shared, 2u);
  EXPECT_EQ(svg_picture(picture_of(s, plan_of(kRangeBad))), svg) << "the same picture twice";
}

// Kernel names, devices and arena names may hold any of XML's special
// characters (storage names may not): all escaped.
TEST(SvgPicture, EscapesText) {
  const Schedule s = schedule_of("schedule v1\nbuffer a CPU<&\"'> int8 16\nbuffer b CPU<&\"'> int8 16\n"
                                 "kernel k<&\"'> a b\n");
  const std::string svg = svg_picture(picture_of(s, plan_of("plan v1\narena x<&\"'> CPU<&\"'> 512\nplace a "
                                                            "x<&\"'> 0\nplace b x<&\"'> 0\nplace zz<> x<&\"'> 0\n")));
  EXPECT_EQ(svg.find("<&"), std::string::npos);
  EXPECT_EQ(svg.find("\"'"), std::string::npos);
  EXPECT_NE(svg.find("x&lt;&amp;&quot;&apos;&gt;"), std::string::npos);
  EXPECT_EQ(xml_escaped("a\x01\xff\xc3\xa9"), "a??\xc3\xa9");
}

TEST(Picture, PlanWithNoArena) {
  const Schedule s = schedule_of(kRange);
  const Picture p = picture_of(s, plan_of("plan v1\n"));
  EXPECT_TRUE(p.arenas.empty());
  EXPECT_FALSE(p.valid());
  EXPECT_FALSE(p.other_violations.empty());
  const std::string text = text_picture(p);
  EXPECT_NE(text.find("! device-arenas"), std::string::npos) << text;
  EXPECT_NE(svg_picture(p).find("</svg>"), std::string::npos);
}

TEST(Picture, ArenaOfNoBytesAndNothingPlanned) {
  const Schedule s = schedule_of("schedule v1\nbuffer w CPU int8 16 held\nkernel k w\n");
  const Picture p = picture_of(s, plan_of("plan v1\narena a CPU 0\n"));
  ASSERT_EQ(p.arenas.size(), 1u);
  EXPECT_EQ(p.arenas[0].top, 0u);
  EXPECT_NE(text_picture(p).find("nothing to draw"), std::string::npos);
  EXPECT_NE(svg_picture(p).find("</svg>"), std::string::npos);
  const Picture empty = picture_of(schedule_of("schedule v1\n"), plan_of("plan v1\n"));
  EXPECT_TRUE(empty.valid());
  EXPECT_NE(svg_picture(empty).find("</svg>"), std::string::npos);
  EXPECT_NE(text_picture(empty).find("0 arenas"), std::string::npos);
}

// Sizes and places near 2^62, and a place whose end passes the arena.
TEST(Picture, HugeBytes) {
  const Schedule s = schedule_of("schedule v1\nbuffer a CPU int8 4611686018427387392\nbuffer b CPU int8 256\n"
                                 "kernel k a b\n");
  const Picture p = picture_of(s, plan_of("plan v1\narena r CPU 4611686018427387648\nplace a r 0\n"
                                          "place b r 4611686018427387392\n"));
  ASSERT_EQ(p.arenas.size(), 1u);
  EXPECT_TRUE(p.valid());
  EXPECT_EQ(p.arenas[0].boxes.size(), 2u);
  const std::string text = text_picture(p, {.width = 60});
  EXPECT_NE(text.find("4611686018427387648 +"), std::string::npos) << text;
  EXPECT_NE(svg_picture(p).find("4611686018427387648"), std::string::npos);
  const Picture past = picture_of(s, plan_of("plan v1\narena r CPU 4611686018427387392\nplace a r 0\n"
                                             "place b r 4611686018427387392\n"));
  EXPECT_EQ(violating(past), (std::set<std::string>{"b"}));
  EXPECT_EQ(past.arenas[0].marks.size(), 1u);
  EXPECT_NE(text_picture(past, {.width = 60}).find("the arena's end"), std::string::npos);
  EXPECT_NE(svg_picture(past).find("(end)"), std::string::npos);
}

// Model v3: a band per stream with its events, and a loop around local
// buffers drawn over the positions of its body.
TEST(Picture, StreamsEventsAndLocalBuffers) {
  const Schedule s = schedule_of(R"(schedule v3
buffer a CPU int8 256
buffer b CPU int8 256
buffer t CPU int8 256 local
buffer u CPU int8 256 local
kernel fill a stream=s1
record done stream=s1
wait done stream=s2
kernel use b a stream=s2
range {
  kernel k1 t b
  kernel k2 t
  kernel k3 u
}
)");
  const Picture p = picture_of(s, plan_of("plan v1\narena r CPU 768\nplace a r 0\nplace b r 256\nplace t r 512\n"
                                          "place u r 512\n"));
  EXPECT_TRUE(p.valid());
  EXPECT_TRUE(p.has_streams());
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.events[0].record, 1u);
  EXPECT_EQ(p.events[0].wait, 2u);
  EXPECT_EQ(p.columns[4].positions, 3u);
  EXPECT_EQ(p.slots(), 7u);
  const ArenaPicture& a = p.arenas[0];
  ASSERT_EQ(a.boxes.size(), 4u);
  EXPECT_EQ(a.boxes[2].name, "t");
  EXPECT_EQ(a.boxes[2].from, 4u);
  EXPECT_EQ(a.boxes[2].to, 5u);
  EXPECT_EQ(a.boxes[3].from, 6u);
  EXPECT_EQ(a.boxes[3].to, 6u);
  const std::string text = text_picture(p);
  EXPECT_NE(text.find("event done: recorded at entry 1, waited for at entry 2"), std::string::npos) << text;
  EXPECT_NE(text.find("local to the loop: positions 0..1 of its body"), std::string::npos) << text;
  const std::string svg = svg_picture(p);
  EXPECT_NE(svg.find("<g id=\"streams\">"), std::string::npos);
  EXPECT_NE(svg.find("marker-end=\"url(#arrow)\""), std::string::npos);
}

// Two buffers on two streams that nothing orders share bytes: a race,
// hatched over both boxes.
TEST(Picture, RaceMarksBothBoxes) {
  const Schedule s = schedule_of("schedule v3\nbuffer a CPU int8 256\nbuffer b CPU int8 256\n"
                                 "kernel k a stream=s1\nkernel l b stream=s2\n");
  const Picture p = picture_of(s, plan_of("plan v1\narena r CPU 256\nplace a r 0\nplace b r 0\n"));
  EXPECT_EQ(violating(p), (std::set<std::string>{"a", "b"}));
  ASSERT_EQ(p.arenas[0].marks.size(), 1u);
  EXPECT_EQ(p.arenas[0].marks[0].rule, oracle::Rule::Race);
  EXPECT_EQ(p.arenas[0].marks[0].from, 0u);
  EXPECT_EQ(p.arenas[0].marks[0].to, 1u);
}

// The example of model v3, drawn in characters as its golden says.
TEST(ExamplePictures, PipelineV3) {
  const testing::CommandResult r = testing::run_command(
      fmt::format("cd {} && {} draw --text --width 100 examples/schedules/pipeline-v3.sched "
                  "draw/testdata/pipeline-v3.plan", PLANCK_SOURCE_DIR, testing::planck_bin()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string golden = std::string(PLANCK_SOURCE_DIR) + "/draw/testdata/pipeline-v3.picture";
  if (std::getenv("PLANCK_UPDATE_PICTURES") != nullptr) testing::write_text(golden, r.out);
  EXPECT_EQ(r.out, testing::read_text(golden));
}

TEST(SvgPicture, OutlinesPastTheLimit) {
  std::string sched = "schedule v1\n", plan = "plan v1\narena a CPU 256\n";
  for (std::size_t i = 0; i <= kOutlineAbove; ++i) {
    sched += fmt::format("buffer b{} CPU int8 256\nkernel k b{}\n", i, i);
    plan += fmt::format("place b{} a 0\n", i);
  }
  const Schedule s = schedule_of(sched);
  const std::string svg = svg_picture(picture_of(s, plan_of(plan)));
  EXPECT_NE(svg.find("drawn as outlines"), std::string::npos);
  EXPECT_EQ(svg.find("<rect class=\"buffer\""), std::string::npos);
}

// Each corpus schedule's plan, drawn in characters 100 wide, as
// NAME.picture beside it says; PLANCK_UPDATE_PICTURES=1 writes them.
TEST(CorpusPictures, MatchTheirGoldens) {
  const bool update = std::getenv("PLANCK_UPDATE_PICTURES") != nullptr;
  std::size_t checked = 0;
  for (const char* dir : {"corpus/schedules", "corpus/schedules/v2", "corpus/schedules/v3"}) {
    if (!fs::is_directory(fs::path(PLANCK_SOURCE_DIR) / dir)) continue;
    for (const fs::directory_entry& e : fs::directory_iterator(fs::path(PLANCK_SOURCE_DIR) / dir)) {
      const fs::path sched = e.path();
      if (sched.extension() != ".sched" || !sched.stem().extension().empty()) continue;
      fs::path plan = sched, golden = sched;
      plan.replace_extension(".plan");
      golden.replace_extension(".picture");
      if (!fs::exists(plan)) continue;
      const testing::CommandResult r = testing::run_command(
          fmt::format("cd {} && {} draw --text --width 100 {}/{} {}/{}", PLANCK_SOURCE_DIR, testing::planck_bin(), dir,
                      sched.filename().string(), dir, plan.filename().string()));
      EXPECT_EQ(r.exit_code, 0) << sched << ": " << r.err;
      if (update) testing::write_text(golden.string(), r.out);
      ASSERT_TRUE(fs::exists(golden)) << "no picture beside " << sched << " (PLANCK_UPDATE_PICTURES=1 writes it)";
      EXPECT_EQ(r.out, testing::read_text(golden.string())) << "planck draw --text --width 100 " << sched;
      ++checked;
    }
  }
  EXPECT_GE(checked, 20u);
}

}  // namespace
}  // namespace planck::draw
