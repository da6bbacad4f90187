#include "tools/commands.h"

namespace planck::cli {

void add_plan_command(CLI::App& app) { (void)app; }

}  // namespace planck::cli
