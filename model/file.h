#pragma once
// Input files, read whole: what the three readers parse.

#include <string>

#include "model/result.h"

namespace planck {

// The path that names standard input.
inline constexpr const char* kStandardInput = "-";

// The name of an input in messages: the path, or "<stdin>" for `-`.
std::string source_name(const std::string& path);

// Every byte of a file, or of standard input for `-`, or an error naming it
// that says why it cannot be read: "PATH: cannot read: No such file or
// directory", "... Is a directory", "... Permission denied".
Result<std::string> read_file(const std::string& path);

}  // namespace planck
