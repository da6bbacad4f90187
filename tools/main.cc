// planck: plan, check, run and bound the memory of ML compiler schedules
// (docs/commands.md#the-planck-command).

#include <cstdio>
#include <exception>
#include <string>

#include "tools/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"planck: a memory planner for ML compiler schedules, and the oracles that check it"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "planck " PLANCK_VERSION);
  using namespace planck::cli;
  for (auto* add : {add_plan_command, add_check_command, add_draw_command, add_stats_command, add_run_command,
                    add_oracle_command, add_planners_command, add_verify_command, add_minimize_command,
                    add_gate_command, add_generate_command, add_import_command}) {
    add(app);
  }
  // A first word that is no option and no subcommand is a misspelt
  // subcommand: CLI11 alone would say only that one is required.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string word = argv[1];
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known = known || sub->check_name(word);
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      std::fprintf(stderr, "planck: unknown subcommand `%s`; the subcommands are %s (planck --help)\n",
                   word.c_str(), names.c_str());
      return planck::cli::kExitBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help and version are successes; every other parse error is bad input.
    int code = app.exit(e);
    return code == 0 ? 0 : planck::cli::kExitBadInput;
  } catch (const planck::cli::Exit& e) {
    if (!e.message.empty()) std::fprintf(stderr, "%s\n", e.message.c_str());
    return e.code;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "planck: out of memory\n");
    return planck::cli::kExitBadInput;
  }
  return planck::cli::kExitOk;
}
