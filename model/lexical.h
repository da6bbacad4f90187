#pragma once
// Pieces shared by the three text readers (.sched, .plan, CSV).

#include <cstddef>
#include <string>
#include <string_view>

#include "model/result.h"
#include "model/schedule.h"

namespace planck {

// A word for a message, in backquotes, cut to 40 characters so that a huge
// token does not make a huge message; bytes outside printable ASCII are
// written as \xNN.
std::string quoted(std::string_view word);

// The 1-based line or column of a 0-based count, saturated: positions only
// appear in messages.
int one_based(std::size_t offset);

// A number of decimal digits only, below kMaxBytes. The error has no place
// (the caller knows it) and says "<what> `<text>` is not a decimal number"
// or "<what> at or above 2^62: `<text>`". The value never overflows while
// it is accumulated.
Result<Bytes> parse_decimal(std::string_view text, std::string_view what);

}  // namespace planck
