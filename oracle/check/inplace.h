#pragma once
// In-place kernels (docs/model-v2.md#in-place-kernels, docs/model-v3.md#in-place-revisited):
// when a kernel's `inplace=OUT:IN` lets two planned buffers that conflict
// share bytes, and why not when it does not. Both checkers take the rule
// from here.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/schedule.h"
#include "oracle/check/lifetimes.h"
#include "oracle/check/order.h"

namespace planck::oracle {

// An `inplace=OUT:IN` of some kernel, at any depth of loops.
struct InPlaceDeclaration {
  InPlace pair;
  std::size_t entry = 0;   // the top-level entry that holds the kernel
  bool top_level = false;  // the kernel is that entry, not inside a loop
  const Entry* kernel = nullptr;
};

// Where a planned buffer is placed, as the rule needs it.
struct InPlaceSpot {
  std::size_t arena = 0;
  Bytes place = 0;
};

class InPlaceRule {
 public:
  // `planned` is planned_buffers(s); the rule refers to it and to s, which
  // must outlive it.
  InPlaceRule(const Schedule& s, const std::vector<Lifetime>& planned);
  InPlaceRule(const Schedule&, std::vector<Lifetime>&&) = delete;

  // Judges by model v3's order of uses from now on: a top-level kernel's
  // pair by happens-before over streams, a pair inside a loop by the
  // positions of local buffers in the loop's body. Without it, by the
  // lifetimes of one stream, and never inside a loop. `order` must outlive
  // the rule.
  void use_order(const UseOrder* order) { order_ = order; }

  // Whether the schedule declares any in-place pair.
  bool empty() const { return declarations_.empty(); }
  const std::vector<InPlaceDeclaration>& declarations() const { return declarations_; }

  // Why declaration d lets OUT and IN, placed at `out` and `in`, share no
  // bytes; nullopt when it lets them share exactly IN's bytes.
  std::optional<std::string> refusal(const InPlaceDeclaration& d, const InPlaceSpot& out,
                                     const InPlaceSpot& in) const;

  // Whether some top-level declaration that names a and b (either as OUT)
  // lets them share bytes, placed at sa and sb.
  bool allows(StorageId a, const InPlaceSpot& sa, StorageId b, const InPlaceSpot& sb) const;

  // The declaration that names a and b (either as OUT), preferring one at
  // the top level; null when none does.
  const InPlaceDeclaration* declared(StorageId a, StorageId b) const;

 private:
  // Why the pair's uses keep it from sharing, by the order of uses.
  std::optional<std::string> order_refusal(const InPlaceDeclaration& d) const;

  const Schedule& s_;
  const UseOrder* order_ = nullptr;
  std::vector<InPlaceDeclaration> declarations_;
  std::vector<const Lifetime*> life_of_;  // by storage, for the storage in a declaration
};

}  // namespace planck::oracle
