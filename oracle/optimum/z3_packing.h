#pragma once
// The Z3 engine of the optimum oracle (docs/verification.md#the-optimum-oracle): a pairwise model of one part in the
// QF_IDL logic (integer difference logic). Each item has an integer offset
// o >= 0; each two items alive together are disjoint, one below the other:
// o_a + size_a <= o_b or o_b + size_b <= o_a. A capacity c is asked about
// under an assumption that implies o + size <= c for every item, so one
// incremental solver answers a rising series of capacities, keeping what it
// learnt. Symmetry breaking (each valid for any capacity):
//
//  - identical items (same size and lifetime) lie in index order, one above
//    the next, since swapping two of them changes nothing;
//  - mirroring a placement within [0, c) keeps it valid, so the largest item
//    with no identical twin may be kept in the lower half: 2 o + size <= c.
//
// Optionally, each item is also required to rest on 0 or on the end of an
// item alive with it (every placement can be pushed down so); that breaks
// mirroring, so the second rule is dropped then.
//
// z3++.h stays inside z3_packing.cc: it is slow to compile.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "oracle/optimum/optimum_problem.h"

namespace planck::oracle {

struct Z3Switches {
  bool symmetry_breaking = true;
  bool canonical = false;  // every item on 0 or on the end of an item alive with it
};

class Z3Packing {
 public:
  // With explicit conflicts (`together` not by lifetimes), the pairs it
  // lists must be apart, and neither symmetry breaking nor the canonical
  // form is used: items alike in size and lifetime may differ in conflicts.
  explicit Z3Packing(std::vector<UnitItem> items, Z3Switches switches = {}, Together together = {});
  ~Z3Packing();
  Z3Packing(const Z3Packing&) = delete;
  Z3Packing& operator=(const Z3Packing&) = delete;

  // Whether the items fit in `capacity` units; Timeout when Z3 answers
  // unknown or `deadline` passes first.
  Fit fit(std::int64_t capacity, Clock::time_point deadline);

  // Why the last call answered Timeout, as Z3 put it.
  const std::string& reason_unknown() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace planck::oracle
