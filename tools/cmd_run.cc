#include "tools/commands.h"

namespace planck::cli {

void add_run_command(CLI::App& app) { (void)app; }

}  // namespace planck::cli
