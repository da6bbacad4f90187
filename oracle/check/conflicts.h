#pragma once
// The overlap rule of model v3 (docs/model-v3.md#what-the-checker-reports):
// two buffers of one arena whose blocks share bytes must not conflict
// (oracle/check/order.h) unless an in-place declaration grants the pair. A
// conflict is a race where file order on one stream would have kept the
// two apart, else an overlap or, where a kernel declares the pair in place,
// a refused in-place pair.

#include <cstddef>
#include <utility>
#include <vector>

#include "model/plan.h"
#include "model/schedule.h"
#include "oracle/check/inplace.h"
#include "oracle/check/order.h"
#include "oracle/check/plan_rules.h"
#include "oracle/check/violation.h"

namespace planck::oracle {

// Some of the pairs (x < y, into `placed`, in ascending order) of buffers
// that share bytes in one arena and conflict with no in-place grant: at
// least one whenever any pair does. `inplace` judges by `order`.
//
// A sweep in an order in which b comes before c whenever b is before c
// (BufferUses::order): each buffer claims its block in an interval map of
// its arena from the buffers that held those bytes last, and is judged
// against each of them. Some pair is found whenever one exists: if b and d
// conflict over bytes that b held before d claimed them, the bytes passed
// through a chain b = e0, e1, ..., ek = d of holders, each judged against
// the one before; were every link granted or ordered, b would be before d,
// as "before" is transitive (and an in-place grant orders IN's uses before
// OUT's). O(n log n) plus the pieces of blocks claimed.
std::vector<std::pair<std::size_t, std::size_t>> claim_conflicts(const std::vector<PlacedBuffer>& placed,
                                                                 std::size_t arenas, const UseOrder& order,
                                                                 const InPlaceRule& inplace);

// The violation of a pair that conflicts and shares bytes, placed at x and
// y: a race where the two would be apart on one stream in file order (their
// lifetimes apart, or granted by `file_order_inplace`, the rule judged by
// lifetimes alone), else an overlap, or inplace-not-allowed where a kernel
// declares the pair (`inplace` says why it grants nothing). x's placement
// comes first in the plan.
struct ConflictFacts {
  StorageId buffer = 0;
  std::size_t placement = 0;
  std::size_t arena = 0;
  ByteRange block;
};
Violation conflict_violation(const Schedule& s, const Plan& p, const UseOrder& order, const InPlaceRule& inplace,
                             const InPlaceRule& file_order_inplace, const ConflictFacts& x, const ConflictFacts& y);

}  // namespace planck::oracle
