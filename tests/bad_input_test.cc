// Every kind of bad input to the planck command, as one table: the files a
// case writes, the arguments, the exit code and a pattern its message must
// match on standard error. Exit 2 is bad input; 1 a well-formed input found
// wrong. Arguments may hold `{dir}`, the case's folder, and shell
// redirections.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <iterator>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "tests/run_command.h"

namespace planck {
namespace {

using testing::CommandResult;

constexpr const char* kSched = "schedule v1\nbuffer a CPU int8 100\nbuffer b CPU int8 300\nkernel k0 a\nkernel k1 b a\n";
constexpr const char* kPlan = "plan v1\narena arena0 CPU 768\nplace a arena0 0\nplace b arena0 256\n";
constexpr const char* kCsv = "id,lower,upper,size\na,0,2,100\nb,1,3,300\n";

struct BadInput {
  const char* name;
  std::map<std::string, std::string> files;  // written into the case's folder first
  const char* args;
  int exit_code;
  const char* message;  // an ECMAScript pattern searched for in standard error
};

void PrintTo(const BadInput& c, std::ostream* os) { *os << c.name << ": planck " << c.args; }

const std::map<std::string, std::string> kGood{{"s.sched", kSched}, {"p.plan", kPlan}, {"x.csv", kCsv}};

std::map<std::string, std::string> with(std::map<std::string, std::string> files, const std::string& name,
                                        const std::string& text) {
  files[name] = text;
  return files;
}

const std::vector<BadInput>& cases() {
  static const std::vector<BadInput> table{
      // The command line.
      {"NoSubcommand", {}, "", 2, "A subcommand is required"},
      {"UnknownSubcommand", {}, "frob", 2, "unknown subcommand `frob`; the subcommands are plan, check, draw, stats, run, oracle"},
      {"UnknownFlag", kGood, "check {dir}/s.sched {dir}/p.plan --frob", 2, "--frob"},
      {"MissingArgument", kGood, "check {dir}/s.sched", 2, "plan is required"},
      {"NegativeTimeout", kGood, "oracle {dir}/s.sched --timeout -1", 2,
       "^--time: `-1` is not a number of seconds, 0 or more\n"},
      {"NegativeTime", kGood, "verify --time -1", 2, "^--time: `-1` is not a number of seconds, 0 or more\n"},
      {"MinimizeTimeNotANumber", kGood, "minimize {dir}/s.sched --time soon", 2,
       "^--time: `soon` is not a number of seconds, 0 or more\n"},
      {"GateTimeNotANumber", kGood, "gate --baseline {dir}/b.json --time soon", 2,
       "^--time: `soon` is not a number of seconds, 0 or more\n"},
      {"NegativeCases", kGood, "verify --cases -1", 2, "^--cases: `-1` is not a whole number, 0 or more\n"},
      {"NegativeSeed", kGood, "gate --baseline {dir}/b.json --seed -1", 2,
       "^--seed: `-1` is not a whole number, 0 or more\n"},
      {"GateCasesZeroAlone", with(kGood, "b.json", "{\"instances\": {}}"), "gate --baseline {dir}/b.json --cases 0",
       2, "^--cases 0 is no limit on cases: it needs --time SECONDS"},
      {"MinimizeAScheduleThePlannerDoesNotSupport",
       with(kGood, "param.sched", "schedule v1\nparam w CPU int8 64\nbuffer a CPU int8 100\nkernel k0 a w\n"),
       "minimize {dir}/param.sched --no-alloc-param", 2,
       "param.sched: uses what the planner does not support \\(alloc-param\\)"},
      {"TimeoutNotANumber", kGood, "oracle {dir}/s.sched --timeout soon", 2, "`soon` is not a number of seconds"},
      {"CheckTimeoutNotFinite", kGood, "check {dir}/s.sched {dir}/p.plan --optimum --timeout inf", 2,
       "`inf` is not a number of seconds"},
      {"BadNumber", kGood, "check {dir}/s.sched {dir}/p.plan --max-overlaps many", 2, "--max-overlaps"},
      {"TooFewIterations", kGood, "run {dir}/s.sched {dir}/p.plan --iterations 1", 2, "--iterations"},
      {"UnknownPlanner", kGood, "plan {dir}/s.sched --planner nope", 2, "nope"},
      {"TwoPlanners", kGood, "plan {dir}/s.sched --planner tlsf --planner-cmd true", 2,
       "--planner excludes --planner-cmd"},
      {"PersistentWithoutCommand", kGood, "stats {dir}/s.sched --persistent", 2, "--persistent requires --planner-cmd"},
      {"MissingPlannerLibrary", kGood, "plan {dir}/s.sched --planner-lib {dir}/none.so", 2,
       "cannot load the planner library"},
      {"JsonOnStandardOutputWithThePlan", kGood, "plan {dir}/s.sched --json -", 2, "--json - needs -o FILE"},
      {"JsonOnStandardOutputWithTheSchedule", {}, "generate chain --json -", 2,
       "^planck generate: --json - needs -o FILE for the schedule\n"},
      {"GenerateUnknownKind", {}, "generate nope", 2,
       "^planck generate: unknown kind `nope`; the kinds are transformer, convnet, training, decoding, experts, chain, "
       "random\n"},
      {"GenerateFlagOfAnotherKind", {}, "generate convnet --layers 3", 2,
       "^planck generate: --layers does not apply to convnet; its options are --batch, --image\n"},
      {"GenerateNegativeSize", {}, "generate random --size -1", 2, "^--size: `-1` is not a whole number, 0 or more\n"},
      {"GenerateSeedNotANumber", {}, "generate chain --seed x", 2, "^--seed: `x` is not a whole number, 0 or more\n"},
      {"GenerateZeroBatch", {}, "generate transformer --batch 0", 2,
       "^planck generate: transformer: batch is 0; it must be 1 to 65536\n"},
      {"GenerateImageNotAMultipleOf32", {}, "generate convnet --image 100", 2, "image is 100; it must be a multiple of 32"},
      {"GenerateTooLarge", {}, "generate transformer --batch 65536 --sequence 1048576 --layers 3", 2,
       "transformer: the model's storage adds up to 2\\^62 bytes or more"},
      {"GenerateChainTooLong", {}, "generate chain --buffers 99999999", 2, "chain: buffers is 99999999; it must be at most"},
      // Files that cannot be read.
      {"MissingFile", kGood, "check {dir}/missing.sched {dir}/p.plan", 2,
       "missing.sched: cannot read: No such file or directory"},
      {"MissingPlan", kGood, "run {dir}/s.sched {dir}/missing.plan", 2, "missing.plan: cannot read"},
      {"Directory", kGood, "stats {dir}", 2, ": cannot read: Is a directory"},
      // Parse errors in each format, at their place.
      {"ScheduleParseError", with(kGood, "bad.sched", "schedule v1\nkernel k0 a\n"), "plan {dir}/bad.sched", 2,
       "bad.sched:2:11: undeclared name `a`"},
      {"ScheduleHeader", with(kGood, "bad.sched", "schedule v4\n"), "oracle {dir}/bad.sched", 2, "bad.sched:1:"},
      {"PlanParseError", with(kGood, "bad.plan", "plan v1\narena arena0 CPU lots\n"), "check {dir}/s.sched {dir}/bad.plan",
       2, "bad.plan:2:"},
      {"CsvParseError", with(kGood, "bad.csv", "id,lower,upper,size\na,0,x,100\n"), "oracle {dir}/bad.csv", 2,
       "bad.csv:2:"},
      {"CsvHeader", with(kGood, "bad.csv", "id,start,end,size\na,0,1,100\n"), "plan {dir}/bad.csv", 2, "bad.csv:1:"},
      {"CsvSizeTooLarge", with(kGood, "big.csv", "id,lower,upper,size\na,0,1,4611686018427387904\n"),
       "oracle {dir}/big.csv", 2, "big.csv:2:"},
      {"StandardInputParseError", kGood, "plan - < {dir}/p.plan", 2, "^<stdin>:1:"},
      {"PlanForAnotherSchedule", with(kGood, "other.plan", "plan v1\narena arena0 CPU 768\nplace zz arena0 0\n"),
       "run {dir}/s.sched {dir}/other.plan", 2, "other.plan:3:1: zz is placed but the schedule declares no storage"},
      // Results that cannot be written: never exit 0, never a truncated file.
      {"CheckToFullDisk", kGood, "check {dir}/s.sched {dir}/p.plan > /dev/full", 2,
       "standard output: cannot write: No space left on device"},
      {"PlanToFullDisk", kGood, "plan {dir}/s.sched > /dev/full", 2, "standard output: cannot write"},
      {"RunToFullDisk", kGood, "run {dir}/s.sched {dir}/p.plan > /dev/full", 2, "standard output: cannot write"},
      {"StatsToFullDisk", kGood, "stats {dir}/s.sched > /dev/full", 2, "standard output: cannot write"},
      {"OracleToFullDisk", kGood, "oracle {dir}/s.sched > /dev/full", 2, "standard output: cannot write"},
      {"JsonToFullDisk", kGood, "check {dir}/s.sched {dir}/p.plan --json - > /dev/full", 2,
       "standard output: cannot write"},
      {"GenerateToFullDisk", {}, "generate chain --buffers 10 > /dev/full", 2, "standard output: cannot write"},
      {"GenerateIntoMissingDirectory", {}, "generate chain -o {dir}/none/c.sched", 2, "none/c.sched: cannot write"},
      {"PlanIntoMissingDirectory", kGood, "plan {dir}/s.sched -o {dir}/none/p.plan", 2,
       "none/p.plan: cannot write: No such file or directory"},
      {"OraclePlanIntoMissingDirectory", kGood, "oracle {dir}/s.sched -o {dir}/none/p.plan", 2,
       "none/p.plan: cannot write"},
      {"JsonIntoMissingDirectory", kGood, "stats {dir}/s.sched --json {dir}/none/r.json", 2, "none/r.json: cannot write"},
      // Well-formed input found wrong: exit 1.
      {"InvalidPlan", with(kGood, "bad.plan", "plan v1\narena arena0 CPU 768\nplace a arena0 0\nplace b arena0 0\n"),
       "check {dir}/s.sched {dir}/bad.plan", 1, "^$"},
      {"Infeasible", kGood, "oracle {dir}/s.sched --capacity 256", 1, "^$"},
  };
  return table;
}

class BadInputTest : public testing::PlanckCommandTest, public ::testing::WithParamInterface<BadInput> {};

TEST_P(BadInputTest, ExitsWithItsCodeAndSaysWhy) {
  const BadInput& c = GetParam();
  for (const auto& [name, text] : c.files) write(name, text);
  std::string args = c.args;
  for (std::size_t at = args.find("{dir}"); at != std::string::npos; at = args.find("{dir}")) {
    args.replace(at, 5, dir_);
  }
  const CommandResult r = planck(args);
  EXPECT_EQ(r.exit_code, c.exit_code) << "planck " << args << "\nout: " << r.out << "\nerr: " << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex(c.message)))
      << "planck " << args << "\nerr: " << r.err << "\nexpected to match: " << c.message;
}

INSTANTIATE_TEST_SUITE_P(Table, BadInputTest, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.name); });

// A result written with -o is whole or absent: a write that fails (here for
// a file size limit of 0, with the signal it raises ignored so that the write
// returns EFBIG) leaves no partial file, and the file it would have replaced
// stays as it was. The message goes through a pipe, which the limit spares.
class WrittenFiles : public testing::PlanckCommandTest {};

TEST_F(WrittenFiles, AFailedWriteLeavesNoPartialFile) {
  write("s.sched", kSched);
  const std::string before = "plan v1\n# kept\n";
  write("out.plan", before);
  const CommandResult r = testing::run_command(
      fmt::format("(trap '' XFSZ; ulimit -f 0; {} plan {}/s.sched -o {}/out.plan 2>&1; echo \"exit $?\") | cat",
                  testing::planck_bin(), dir_, dir_));
  EXPECT_EQ(r.out, dir_ + "/out.plan: cannot write: File too large\nexit 2\n");
  EXPECT_EQ(testing::read_text(dir_ + "/out.plan"), before);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), std::filesystem::directory_iterator()), 2);
}

}  // namespace
}  // namespace planck
