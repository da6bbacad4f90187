#pragma once
// Where a command finds the data it judges when none is named (verify's
// corpus, gate's instances), the same for a build in the source tree and an
// installed tree (docs/commands.md#where-the-corpus-is-found).

#include <filesystem>
#include <string_view>

namespace planck::cli {

// The file or folder `relative` names from the top of the source tree
// (corpus/schedules, ../shared/intervals). A path under corpus/ is the
// installed copy (cmake --install puts corpus/schedules and
// corpus/regressions under PREFIX/share/planck, found from where the
// command is) when there is one; every other path, and a corpus folder not
// installed, is the source tree's that the command was built from.
std::filesystem::path data_path(std::string_view relative);

}  // namespace planck::cli
