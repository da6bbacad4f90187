#pragma once
// The plain-line path of the .sched reader (parse_plain_line below;
// docs/performance.md#how-the-hot-paths-are-built). The token path
// (schedule_reader.cc), built on this class, reads every other line, and
// every line of parse_schedule_by_tokens. Internal to the .sched reader.

#include <optional>
#include <string_view>
#include <vector>

#include "model/parse_state.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck::schedule_text {

class LineParser : public ParseState {
 public:
  LineParser(std::string_view text, std::string_view file, Expected expected);

 protected:
  // A statement in one of the shapes nearly every line of a large schedule
  // takes, read in one pass over the line's bytes instead of token by token:
  // `buffer|alloc|param NAME DEVICE DTYPE SIZE`, a buffer's followed by
  // `held` and `phase=P` (no blank before the `=`), `kernel NAME ARG...` or
  // `copy DST SRC`, each argument naming storage, the words between blanks
  // and nothing else on the line. It makes what the token path would. Any
  // other line, or one that the token path would refuse, is left to it
  // (nullopt, nothing read), so that each message has one source. The line
  // starts at the cursor: the token path calls this where a statement may
  // start and it has read no token ahead.
  std::optional<Status> parse_plain_line(std::vector<Entry>& out, int depth);

 private:
  const char* plain_end_ = nullptr;  // one past the text's last "\n": parse_plain_line reads no further
};

}  // namespace planck::schedule_text
