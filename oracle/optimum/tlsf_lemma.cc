#include "oracle/optimum/tlsf_lemma.h"

#include <algorithm>
#include <bit>
#include <limits>

#include <fmt/format.h>
#include <z3++.h>

namespace planck::oracle::tlsf_lemma {
namespace {

constexpr unsigned kWidth = 64;

int levels(const Params& p) { return bitlen(p.second_level); }

// The search of docs/planners.md#the-tlsf-allocator as bit-vector terms over 64-bit sizes. Every
// bit length and shift amount is a 64-bit term too, so that shifts take them
// without conversion.
class Encoder {
 public:
  Encoder(z3::context& ctx, const Params& p) : ctx_(ctx), p_(p) {}

  z3::expr constant(std::uint64_t v) { return ctx_.bv_val(v, kWidth); }

  // bitlen(x) as a chain of ite over the bits of x, the highest set bit outermost.
  z3::expr bitlen(const z3::expr& x) {
    z3::expr len = constant(0);
    for (unsigned i = 0; i < kWidth; ++i) {
      len = z3::ite(x.extract(i, i) == ctx_.bv_val(1, 1), constant(i + 1), len);
    }
    return len;
  }

  // The shift from a size in first level l1 to its second-level index: max(0, l1 - L).
  z3::expr level_shift(const z3::expr& l1) {
    z3::expr l = constant(static_cast<std::uint64_t>(levels(p_)));
    return z3::ite(z3::uge(l1, l), l1 - l, constant(0));
  }

  struct BinTerms {
    z3::expr l1;
    z3::expr l2;
  };
  // bin(size); for size 0, (0, 0) as in bin_of: 2^(0-1) shifts the 1 out.
  BinTerms bin(const z3::expr& size) {
    z3::expr l1 = bitlen(size);
    z3::expr l2 = z3::lshr(size - z3::shl(constant(1), l1 - constant(1)), level_shift(l1));
    return {l1, l2};
  }

  struct SearchTerms {
    z3::expr request_floor;  // r' = max(B, r)
    z3::expr fits;           // the search size does not pass 2^64 - 1
    z3::expr size;           // s, meaningful when fits
  };
  SearchTerms search(const z3::expr& request, Search mode) {
    z3::expr floor = z3::ite(z3::uge(request, constant(p_.block)), request, constant(p_.block));
    if (mode == Search::Unrounded) return {floor, ctx_.bool_val(true), floor};
    // r' >= B and bitlen(B) >= L, so the exponent bitlen(r') - L never goes below zero.
    z3::expr unit = z3::shl(constant(1), bitlen(floor) - constant(static_cast<std::uint64_t>(levels(p_))));
    // One more bit, so that a carry past 2^64 - 1 shows instead of wrapping.
    z3::expr wide_floor = z3::zext(floor, 1);
    z3::expr wide_mask = z3::zext(unit, 1) - ctx_.bv_val(1, kWidth + 1);
    z3::expr wide_size = (wide_floor + wide_mask) & ~wide_mask;
    return {floor, wide_size.extract(kWidth, kWidth) == ctx_.bv_val(0, 1),
            wide_size.extract(kWidth - 1, 0)};
  }

  z3::expr reaches(const BinTerms& start, const BinTerms& b) {
    return (b.l1 == start.l1 && z3::uge(b.l2, start.l2)) || z3::ugt(b.l1, start.l1);
  }

 private:
  z3::context& ctx_;
  Params p_;
};

// Each question gets a fresh solver from a plain bit-blasting pipeline. Z3's
// default solver is several times slower on these terms (it preprocesses them
// for arithmetic they do not need), and after a second check on one solver it
// switches to its incremental core, slower still.
z3::check_result check(z3::context& ctx, const z3::expr_vector& facts, unsigned timeout_ms,
                       std::optional<z3::model>* model, std::string* reason) {
  z3::tactic pipeline = z3::tactic(ctx, "simplify") & z3::tactic(ctx, "solve-eqs") &
                        z3::tactic(ctx, "bit-blast") & z3::tactic(ctx, "sat");
  z3::solver solver = z3::try_for(pipeline, timeout_ms).mk_solver();
  solver.add(facts);
  z3::check_result r = solver.check();
  if (r == z3::sat && model) *model = solver.get_model();
  if (r == z3::unknown) *reason = solver.reason_unknown();
  return r;
}

// Checks the premises alone, then the premises with the negated conclusion.
// A counterexample reads the request, and the block size when there is one.
Outcome decide(z3::context& ctx, z3::expr_vector premises, const z3::expr& negated_conclusion,
               unsigned timeout_ms, const z3::expr& request,
               const std::optional<z3::expr>& block_size) {
  Outcome out;
  switch (check(ctx, premises, timeout_ms, nullptr, &out.reason)) {
    case z3::unsat: out.verdict = Verdict::Vacuous; return out;
    case z3::unknown: out.verdict = Verdict::Unknown; return out;
    case z3::sat: break;
  }
  premises.push_back(negated_conclusion);
  std::optional<z3::model> model;
  switch (check(ctx, premises, timeout_ms, &model, &out.reason)) {
    case z3::unsat: out.verdict = Verdict::Proved; break;
    case z3::unknown: out.verdict = Verdict::Unknown; break;
    case z3::sat:
      out.verdict = Verdict::Refuted;
      out.counterexample = Counterexample{
          model->eval(request, true).get_numeral_uint64(),
          block_size ? model->eval(*block_size, true).get_numeral_uint64() : 0};
      break;
  }
  return out;
}

Error z3_error(const z3::exception& e) { return Error{"", fmt::format("z3: {}", e.msg())}; }

// The proof's unknowns, a free request and a free block size, and the
// search's terms over the request.
struct Unknowns {
  Unknowns(z3::context& ctx, Encoder& enc, Search search)
      : request(ctx.bv_const("request", kWidth)),
        block_size(ctx.bv_const("block_size", kWidth)),
        terms(enc.search(request, search)) {}
  z3::expr request;
  z3::expr block_size;
  Encoder::SearchTerms terms;
};

// The answer of `question(ctx, enc)`, asked of a fresh context and encoder of
// p's search once p is valid; a Z3 exception is an error.
template <class T, class Question>
Result<T> ask(const Params& p, Question question) {
  PLANCK_TRY(validate(p));
  try {
    z3::context ctx;
    Encoder enc(ctx, p);
    return question(ctx, enc);
  } catch (const z3::exception& e) {
    return z3_error(e);
  }
}

}  // namespace

Status validate(const Params& p) {
  if (p.block == 0 || p.second_level == 0) {
    return Error{"", "TLSF block size and second-level count must be at least 1"};
  }
  if (bitlen(p.block) < levels(p)) {
    return Error{"", fmt::format("TLSF block size {} has fewer bits than second-level count {}",
                                 p.block, p.second_level)};
  }
  return Ok{};
}

int bitlen(std::uint64_t x) { return std::bit_width(x); }

Bin bin_of(std::uint64_t size, const Params& p) {
  if (size == 0) return {0, 0};
  int l1 = bitlen(size);
  int shift = std::max(0, l1 - levels(p));
  return {l1, (size - (std::uint64_t{1} << (l1 - 1))) >> shift};
}

std::optional<std::uint64_t> search_size(std::uint64_t request, const Params& p, Search search) {
  std::uint64_t floor = std::max(p.block, request);
  if (search == Search::Unrounded) return floor;
  std::uint64_t mask = (std::uint64_t{1} << (bitlen(floor) - levels(p))) - 1;
  if (floor > std::numeric_limits<std::uint64_t>::max() - mask) return std::nullopt;
  return (floor + mask) & ~mask;
}

bool search_reaches(const Bin& start, const Bin& b) {
  return (b.l1 == start.l1 && b.l2 >= start.l2) || b.l1 > start.l1;
}

Result<std::vector<Encoded>> evaluate_encoding(const Params& p, Search search,
                                               const std::vector<Probe>& probes) {
  return ask<std::vector<Encoded>>(p, [&](z3::context& ctx, Encoder& enc) {
    // The very terms the proof uses, evaluated in a model that fixes the
    // request and the block size.
    const Unknowns u(ctx, enc, search);
    const Encoder::SearchTerms& s = u.terms;
    Encoder::BinTerms start = enc.bin(s.size);
    Encoder::BinTerms block = enc.bin(u.block_size);
    z3::func_decl request_decl = u.request.decl();
    z3::func_decl block_decl = u.block_size.decl();
    std::vector<Encoded> out;
    out.reserve(probes.size());
    for (const Probe& probe : probes) {
      z3::model m(ctx);
      z3::expr r = enc.constant(probe.request);
      z3::expr x = enc.constant(probe.block_size);
      m.add_const_interp(request_decl, r);
      m.add_const_interp(block_decl, x);
      auto value = [&](const z3::expr& e) { return m.eval(e, true).get_numeral_uint64(); };
      Encoded e;
      if (m.eval(s.fits, true).is_true()) {
        e.search_size = value(s.size);
        e.start = {static_cast<int>(value(start.l1)), value(start.l2)};
      }
      e.block = {static_cast<int>(value(block.l1)), value(block.l2)};
      out.push_back(e);
    }
    return out;
  });
}

Result<Outcome> prove_search_lemma(const Params& p, Search search, unsigned timeout_ms) {
  return ask<Outcome>(p, [&](z3::context& ctx, Encoder& enc) {
    const Unknowns u(ctx, enc, search);
    const z3::expr& block_size = u.block_size;
    const Encoder::SearchTerms& s = u.terms;
    z3::expr_vector premises(ctx);
    premises.push_back(s.fits);
    // No block is empty: a split leaves a free remainder only when the block is larger than r'.
    premises.push_back(z3::uge(block_size, enc.constant(1)));
    premises.push_back(enc.reaches(enc.bin(s.size), enc.bin(block_size)));
    return decide(ctx, premises, z3::ult(block_size, s.request_floor), timeout_ms, u.request, block_size);
  });
}

Result<Outcome> prove_rounding_fits(const Params& p, std::uint64_t limit, unsigned timeout_ms) {
  return ask<Outcome>(p, [&](z3::context& ctx, Encoder& enc) {
    z3::expr request = ctx.bv_const("request", kWidth);
    Encoder::SearchTerms s = enc.search(request, Search::Rounded);
    z3::expr_vector premises(ctx);
    premises.push_back(z3::ult(request, enc.constant(limit)));
    return decide(ctx, premises, !s.fits, timeout_ms, request, std::nullopt);
  });
}

}  // namespace planck::oracle::tlsf_lemma
