#pragma once
// The TLSF search lemma (docs/verification.md#the-optimum-oracle), proved by Z3 over 64-bit
// bit-vectors: for every request size r, every free block whose size lies in
// a bin the search of docs/planners.md#the-tlsf-allocator can take holds at least r' = max(B, r)
// bytes. The search starts at bin(s), s = round_up(r', 2^(bitlen(r') - L));
// without that rounding the lemma is false, and Z3 finds a counterexample.
//
// The search is modelled here from docs/planners.md#the-tlsf-allocator alone, in plain integer
// arithmetic and in bit-vectors, independently of planner/tlsf.h, so that a
// mistake in the allocator cannot be copied into its proof.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/result.h"

namespace planck::oracle::tlsf_lemma {

// The allocator's block size B and second-level count C; L = bitlen(C).
// Valid when B >= 1, C >= 1 and bitlen(B) >= L.
struct Params {
  std::uint64_t block = 256;
  std::uint64_t second_level = 32;
};
Status validate(const Params& p);

// Whether the search rounds the request up to its bin's size before it
// starts (the reference rule) or starts at the bin of r' itself.
enum class Search { Rounded, Unrounded };

struct Bin {
  int l1 = 0;
  std::uint64_t l2 = 0;
  friend bool operator==(const Bin&, const Bin&) = default;
};

// Plain arithmetic, the statement the proof is about; p must be valid.
int bitlen(std::uint64_t x);
// bin(size) = (l1, l2) = (bitlen(size), (size - 2^(l1-1)) >> max(0, l1 - L)).
// No block is empty; bin(0) is taken to be (0, 0), here and in the encoding.
Bin bin_of(std::uint64_t size, const Params& p);
// The size whose bin the search starts at: s, or r' when unrounded; nullopt
// when rounding up passes 2^64 - 1.
std::optional<std::uint64_t> search_size(std::uint64_t request, const Params& p, Search search);
// Whether the search for a request whose search size lies in bin `start` can
// take a block from bin `b`: same first level and second level at least
// start's, or a higher first level.
bool search_reaches(const Bin& start, const Bin& b);

// The same quantities as the bit-vector encoding computes them for concrete
// inputs, so tests can hold the encoding to the plain arithmetic above.
struct Probe {
  std::uint64_t request = 0;
  std::uint64_t block_size = 0;
};
struct Encoded {
  std::optional<std::uint64_t> search_size;  // nullopt when rounding overflows
  Bin start;                                 // bin of the search size, when it exists
  Bin block;                                 // bin of the block size
};
Result<std::vector<Encoded>> evaluate_encoding(const Params& p, Search search,
                                               const std::vector<Probe>& probes);

enum class Verdict {
  Proved,   // Z3 found the negation unsatisfiable
  Refuted,  // Z3 found a counterexample
  Vacuous,  // the premises alone are unsatisfiable, so "proved" would mean nothing
  Unknown,  // Z3 gave up (time limit)
};

struct Counterexample {
  std::uint64_t request = 0;
  // A free block the search can take, smaller than max(B, request); 0 for
  // prove_rounding_fits, whose counterexamples are requests alone.
  std::uint64_t block_size = 0;
};

struct Outcome {
  Verdict verdict = Verdict::Unknown;
  std::optional<Counterexample> counterexample;  // when Refuted
  std::string reason;                            // Z3's reason when Unknown
};

// Asks Z3 whether some request r (whose search size does not overflow) and
// some free block size x >= 1 in a bin the search can take have x < max(B, r).
Result<Outcome> prove_search_lemma(const Params& p, Search search, unsigned timeout_ms);

// Asks Z3 whether rounding a request below `limit` up to its search size can
// pass 2^64 - 1; Proved means it never does.
Result<Outcome> prove_rounding_fits(const Params& p, std::uint64_t limit, unsigned timeout_ms);

}  // namespace planck::oracle::tlsf_lemma
