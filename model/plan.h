#pragma once
// The plan file (docs/formats.md#plans-plan): the contract between a planner, this
// project's or anybody's, and the checker, the shadow executor and the rewrite.
//
//   plan v1
//   arena arena0 CUDA 8192
//   place t0 arena0 0
//   place t1 arena0 4096     # the buffer's bytes start at place + phase

#include <string>
#include <string_view>
#include <vector>

#include "model/result.h"
#include "model/schedule.h"

namespace planck {

struct Arena {
  Name name;
  Name device;
  Bytes size = 0;
  SourcePos pos;
};

struct Placement {
  Name buffer;
  Name arena;
  Bytes place = 0;  // the buffer's bytes start at place + phase
  SourcePos pos;
};

struct Plan {
  std::string source;  // the file it was read from, for messages
  std::vector<Arena> arenas;
  std::vector<Placement> placements;
};

// Parses a plan file; errors are "FILE:LINE:COL: what is wrong". Only the
// syntax is judged here: whether the plan is right for a schedule is the
// checker's question.
Result<Plan> parse_plan(std::string_view text, std::string_view file);
// Reads and parses a plan file (`-` is standard input).
Result<Plan> read_plan(const std::string& path);

// Whether a name can be a word of a plan file: not empty, no blank, no `#`,
// no control byte.
bool is_plan_word(std::string_view word);

// Arenas in order, then placements in order, one per line.
std::string print_plan(const Plan& p);

}  // namespace planck
