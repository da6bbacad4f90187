// The vocabulary every command shares: one spelling and one help text for
// each option that several commands take, --time for a wall-clock limit,
// a JSON object alone on standard output with --json -, and progress on
// standard error only. A command that strays from it fails here.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/run_command.h"

namespace planck {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using nlohmann::json;
using testing::CommandResult;

constexpr const char* kSched = "schedule v1\nbuffer a CPU int8 100\nbuffer b CPU int8 300\nkernel k0 a\nkernel k1 b a\n";
constexpr const char* kPlan = "plan v1\narena arena0 CPU 768\nplace a arena0 0\nplace b arena0 256\n";
constexpr const char* kOverlapPlan = "plan v1\narena arena0 CPU 768\nplace a arena0 0\nplace b arena0 0\n";
const std::string kBaseline = PLANCK_SOURCE_DIR "/corpus/baselines/tlsf.json";

// The subcommands `planck --help` lists.
std::vector<std::string> subcommands() {
  const CommandResult r = testing::run_command(testing::planck_bin() + " --help");
  std::vector<std::string> out;
  std::istringstream lines(r.out.substr(r.out.find("Subcommands:")));
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string name;
    if (words >> name) out.push_back(name);
  }
  return out;
}

// The options of `planck CMD --help`, each name (`--time,--timeout` gives
// both) to its line, a description wrapped onto the next line included.
std::map<std::string, std::string> options_of(const std::string& cmd) {
  const CommandResult r = testing::run_command(testing::planck_bin() + " " + cmd + " --help");
  std::map<std::string, std::string> out;
  std::istringstream lines(r.out);
  std::string line;
  std::vector<std::string> last;
  while (std::getline(lines, line)) {
    if (line.rfind("  -", 0) == 0) {
      last.clear();
      const std::string names = line.substr(2, line.find(' ', 2) - 2);
      std::istringstream split(names);
      for (std::string name; std::getline(split, name, ',');) {
        if (name.rfind("--", 0) == 0) last.push_back(name);
      }
      for (const std::string& name : last) out[name] = line;
    } else if (line.rfind("      ", 0) == 0) {
      for (const std::string& name : last) out[name] += line;
    } else {
      last.clear();
    }
  }
  return out;
}

TEST(CommandLine, EachCommandSaysWhatItDoesFromItsLineOfCommandsTxt) {
  std::ifstream file(PLANCK_SOURCE_DIR "/tools/commands.txt");
  ASSERT_TRUE(file) << "tools/commands.txt";
  std::map<std::string, std::string> about;
  for (std::string line; std::getline(file, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t colon = line.find(": ");
    ASSERT_NE(colon, std::string::npos) << line;
    about[line.substr(0, colon)] = line.substr(colon + 2);
  }
  const std::vector<std::string> commands = subcommands();
  ASSERT_GE(commands.size(), 10u);
  std::size_t command_lines = 0;
  for (const auto& [name, text] : about) command_lines += name.find(' ') == std::string::npos ? 1 : 0;
  EXPECT_EQ(command_lines, commands.size());
  for (const std::string& cmd : commands) {
    ASSERT_TRUE(about.count(cmd)) << cmd << " has no line in tools/commands.txt";
    const CommandResult r = testing::run_command(testing::planck_bin() + " " + cmd + " --help");
    // The first line of the help is the description, as CLI11 prints it.
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), about.at(cmd)) << cmd;
  }
  // And each kind of planck generate, in its footer.
  const CommandResult generate = testing::run_command(testing::planck_bin() + " generate --help");
  for (const char* kind : {"transformer", "convnet", "training", "decoding", "experts", "chain", "random"}) {
    const std::string key = std::string("generate ") + kind;
    ASSERT_TRUE(about.count(key)) << key;
    EXPECT_THAT(generate.out, HasSubstr(about.at(key))) << kind;
  }
}

TEST(CommandLine, EachSharedOptionHasOneHelpTextWhereverItIs) {
  const std::vector<std::string> commands = subcommands();
  ASSERT_GE(commands.size(), 10u);
  std::map<std::string, std::map<std::string, std::string>> seen;  // option: help line: a command that has it
  for (const std::string& cmd : commands) {
    const std::map<std::string, std::string> options = options_of(cmd);
    ASSERT_TRUE(options.count("--json")) << cmd << " has no --json";
    EXPECT_THAT(options.at("--json"), HasSubstr("also write the result as one JSON object to this file; - puts it on "
                                                "standard output in place of the text"))
        << cmd;
    EXPECT_TRUE(options.count("--progress")) << cmd << " has no --progress";
    for (const auto& [name, line] : options) {
      // A wall-clock limit is --time; --timeout is only its other spelling.
      EXPECT_FALSE(name == "--timeout" && line.find("--time,--timeout") == std::string::npos) << cmd << ": " << line;
      for (const char* other : {"--seconds", "--budget", "--deadline", "--limit", "--iterations-time"}) {
        EXPECT_NE(name, other) << cmd;
      }
      if (name != "--json" && name != "--time" && name != "--timeout" && name != "-o" && name != "--output") {
        seen[name][line] = cmd;
      }
    }
  }
  for (const char* shared : {"--progress", "--seed", "--cases", "--planner", "--planner-cmd", "--persistent",
                             "--planner-timeout", "--planner-lib", "--no-flag-loops"}) {
    EXPECT_TRUE(seen.count(shared)) << shared;
  }
  for (const auto& [name, lines] : seen) {
    if (lines.size() == 1) continue;
    std::string all;
    for (const auto& [line, cmd] : lines) all += cmd + ": " + line + "\n";
    ADD_FAILURE() << name << " is described in " << lines.size() << " ways:\n" << all;
  }
}

TEST(CommandLine, ATimeLimitIsSpelledTimeAndTimeoutStaysItsOtherSpelling) {
  for (const char* cmd : {"oracle", "check", "stats"}) {
    const std::map<std::string, std::string> options = options_of(cmd);
    ASSERT_TRUE(options.count("--time")) << cmd;
    EXPECT_TRUE(options.count("--timeout")) << cmd;
  }
  for (const char* cmd : {"verify", "gate", "minimize"}) EXPECT_TRUE(options_of(cmd).count("--time")) << cmd;
}

struct Run {
  std::string name;
  std::string args;  // {dir}: the case's folder
  int exit_code;
};

void PrintTo(const Run& r, std::ostream* os) { *os << r.name; }

class EveryCommand : public testing::PlanckCommandTest, public ::testing::WithParamInterface<Run> {
 protected:
  std::string args() {
    write("s.sched", kSched);
    write("p.plan", kPlan);
    write("bad.plan", kOverlapPlan);
    std::string a = GetParam().args;
    for (std::size_t at = a.find("{dir}"); at != std::string::npos; at = a.find("{dir}")) a.replace(at, 5, dir_);
    return a;
  }
};

const std::vector<Run>& runs() {
  static const std::vector<Run> table{
      {"plan", "plan {dir}/s.sched -o {dir}/out.plan", 0},
      {"check", "check {dir}/s.sched {dir}/p.plan", 0},
      {"check_invalid", "check {dir}/s.sched {dir}/bad.plan", 1},
      {"stats", "stats {dir}/s.sched", 0},
      {"run", "run {dir}/s.sched {dir}/bad.plan", 1},
      {"oracle", "oracle {dir}/s.sched --time 5", 0},
      {"planners", "planners", 0},
      {"verify", "verify --planner tlsf --no-corpus --cases 20 --out {dir}/f", 0},
      {"verify_failing", "verify --planner-cmd 'cat >/dev/null; cat {dir}/bad.plan' {dir}/s.sched --out {dir}/f", 1},
      {"minimize", "minimize {dir}/s.sched --planner tlsf", 0},
      {"minimize_failing", "minimize {dir}/s.sched --planner-cmd 'cat >/dev/null; cat {dir}/bad.plan' --time 5", 1},
      {"gate", "gate --planner tlsf --baseline " + kBaseline + " --no-shared --cases 5", 0},
      {"generate", "generate chain --buffers 5 -o {dir}/c.sched", 0},
  };
  return table;
}

// Standard output holds the JSON object and nothing else, progress or not.
TEST_P(EveryCommand, JsonDashPrintsOneJsonObjectAloneOnStandardOutput) {
  const std::string a = args();
  const CommandResult r = planck(a + " --json - --progress");
  EXPECT_EQ(r.exit_code, GetParam().exit_code) << a << "\n" << r.out << r.err;
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << "planck " << a << " --json - printed:\n" << r.out;
  const std::string command = a.substr(0, a.find(' '));
  EXPECT_EQ(j.begin().key(), "command");
  EXPECT_EQ(j.value("command", ""), command);
  ASSERT_TRUE(j.contains("seconds") && j["seconds"].is_number()) << j;
  // Anything on standard error is a progress line of the command.
  std::istringstream lines(r.err);
  for (std::string line; std::getline(lines, line);) EXPECT_THAT(line, StartsWith(command + ": ")) << a;
}

// --json FILE writes the same object and leaves the text on standard output.
TEST_P(EveryCommand, JsonToAFileKeepsTheTextOnStandardOutput) {
  const std::string a = args();
  const CommandResult text = planck(a);
  const CommandResult both = planck(a + " --json " + dir_ + "/r.json");
  EXPECT_EQ(both.exit_code, GetParam().exit_code) << a << "\n" << both.err;
  // Text results that hold no time or count of their own are the same.
  if (a.find("verify") != 0 && a.find("gate") != 0 && a.find("oracle") != 0 && a.find("minimize") != 0) {
    EXPECT_EQ(both.out, text.out) << a;
  }
  EXPECT_EQ(json::parse(testing::read_text(dir_ + "/r.json")).value("command", ""), a.substr(0, a.find(' ')));
}

INSTANTIATE_TEST_SUITE_P(Table, EveryCommand, ::testing::ValuesIn(runs()),
                         [](const ::testing::TestParamInfo<Run>& info) { return info.param.name; });

class Budget : public testing::PlanckCommandTest {};

TEST_F(Budget, VerifyGivenATimeAloneRunsUntilTheTimeIsSpent) {
  const CommandResult r = planck("verify --planner tlsf --no-corpus --time 2 --out " + dir_ + "/f --json -");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_GE(j["seconds"].get<double>(), 2.0) << j;
  EXPECT_GT(j["generated"].get<int>(), 0) << j;
}

TEST_F(Budget, VerifyGivenCasesAloneRunsThemAll) {
  const CommandResult r = planck("verify --planner tlsf --no-corpus --cases 30 --out " + dir_ + "/f --json -");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(json::parse(r.out)["generated"], 30);
}

TEST_F(Budget, GateGivenATimeAloneGeneratesCasesUntilItIsSpent) {
  const CommandResult r =
      planck("gate --planner tlsf --baseline " + kBaseline + " --no-shared --time 1 --json " + dir_ + "/g.json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json j = json::parse(testing::read_text(dir_ + "/g.json"));
  EXPECT_GT(j["generated"].get<int>(), 0) << j;
  EXPECT_GT(j["files"].get<int>(), 0) << j;
  // --time 0: the instances only.
  const CommandResult none = planck("gate --planner tlsf --baseline " + kBaseline + " --no-shared --time 0 --json -");
  ASSERT_EQ(none.exit_code, 0) << none.out << none.err;
  EXPECT_EQ(json::parse(none.out)["generated"], 0);
}

TEST_F(Budget, ProgressGoesToStandardErrorAndTheResultAloneToStandardOutput) {
  const CommandResult r = planck("verify --planner tlsf --no-corpus --time 1.5 --progress --out " + dir_ + "/f");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(std::regex_match(r.out, std::regex("verify: --planner tlsf passed [0-9]+ cases [^\n]*\n"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.err, std::regex("^verify: [0-9]+ cases \\([0-9]+ files, [0-9]+ generated\\)")))
      << r.err;
}

class Answers : public testing::PlanckCommandTest {};

// The same question asked of two commands has the same answer's shape.
TEST_F(Answers, CheckAndStatsDescribeAPlanAlike) {
  const std::string s = write("s.sched", kSched);
  const std::string p = write("p.plan", kPlan);
  const json check = json::parse(planck("check " + s + " " + p + " --json -").out);
  const json stats = json::parse(planck("stats " + s + " --json -").out);
  const json& file = stats["files"][0];
  for (const char* key : {"schedule", "valid", "violation_count", "violations", "unlisted_overlaps", "devices"}) {
    EXPECT_TRUE(check.contains(key)) << key;
    EXPECT_TRUE(file.contains(key)) << key;
  }
  EXPECT_EQ(check["devices"], file["devices"]);
  const json oracle = json::parse(planck("oracle " + s + " --json -").out);
  EXPECT_EQ(oracle["schedule"], check["schedule"]);
}

// What a planner supports: a list that names nothing is bad usage; a
// command is given model v1 alone unless --features says more.
TEST_F(Answers, FeaturesNameWhatAPlannerSupportsAndACommandGetsModelV1) {
  const CommandResult bad = planck("verify --planner tlsf --features v1,v4 --cases 1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("no feature is named 'v4'"));
  const std::string v2 = write("v2.sched", "schedule v2\ndevice CPU align=64\nbuffer a CPU int8 100\nkernel k a\n");
  const CommandResult v1_only = planck("minimize " + v2 + " --planner-cmd cat");
  EXPECT_EQ(v1_only.exit_code, 2);
  EXPECT_THAT(v1_only.err, HasSubstr("uses what the planner does not support (align); it supports v1"));
  const CommandResult skipped = planck("verify " + v2 + " --planner-cmd cat");
  EXPECT_EQ(skipped.exit_code, 0) << skipped.err;
  EXPECT_THAT(skipped.out, HasSubstr("1 skipped for features switched off"));
}

// A failure that quotes the planner's standard error ends its line before
// the command that reproduces it.
TEST_F(Answers, APlannersLastWordsEndTheirLineBeforeTheReproduceLine) {
  const std::string s = write("s.sched", kSched);
  const CommandResult r =
      planck("verify " + s + " --planner-cmd 'echo oops >&2; exit 3' --shrink-time 5 --out " + dir_ + "/failures");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out + r.err, HasSubstr("oops\nreproduce: "));
}

// An output that is a pipe or a device is written into, not replaced: a
// file renamed onto /dev/null, as root, would have replaced the device.
TEST_F(Answers, AnOutputThatIsAPipeIsWrittenIntoNotReplaced) {
  const std::string s = write("s.sched", kSched);
  const std::string fifo = dir_ + "/out.fifo";
  ASSERT_EQ(testing::run_command("mkfifo " + fifo).exit_code, 0);
  const CommandResult r = testing::run_command("cat " + fifo + " > " + dir_ + "/got & " + testing::planck_bin() +
                                               " plan " + s + " -o " + fifo + "; wait");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_text(dir_ + "/got"), planck("plan " + s).out);
  EXPECT_EQ(testing::run_command("test -p " + fifo).exit_code, 0) << "the pipe was replaced";
  EXPECT_EQ(planck("plan " + s + " -o " + dir_).exit_code, 2);
}

}  // namespace
}  // namespace planck
