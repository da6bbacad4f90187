// The statements of plan_properties.h about one plan of a schedule of model
// v1: what the checker, the shadow executor, the rewrite, the arena's bounds,
// the optimum oracle, the plain model and the plain twins say of it, that
// planning is deterministic, that a moved buffer is caught and an overflow is
// an error.

#include "properties/plan_properties.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gen/schedule_parts.h"
#include "model/live_bytes.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"
#include "oracle/check/checker.h"
#include "oracle/check/shadow.h"
#include "oracle/optimum/optimum.h"
#include "oracle/optimum/optimum_input.h"
#include "planner/plain_planners.h"
#include "planner/rewrite.h"
#include "properties/plan_facts.h"
#include "properties/tlsf_plain.h"

namespace planck::props {
namespace {

using gen::buffer_decl;
using gen::kernel_call;
using gen::storage_arg;

// ----------------------------------------------------------- the rewrite

// Walks a schedule and its rewrite in step, entry by entry and argument by
// argument, failing where their shapes differ; for every argument, calls
// `f(storage the original names, what the rewrite has in its place, where)`
// once the views the two share are peeled off.
template <class F>
void walk_rewrite(const Schedule& s, const Schedule& r, F&& f) {
  struct Level {
    const std::vector<Entry>* before;
    const std::vector<Entry>* after;
    std::string where;
  };
  std::vector<Level> stack{{&s.entries, &r.entries, "entry "}};
  auto args = [&](const Args& a, const Args& b, const std::string& where) {
    if (a.size() != b.size()) fail(fmt::format("the rewrite changed the argument count of {}", where));
    for (std::size_t i = 0; i < a.size(); ++i) {
      const Arg* x = &a[i];
      const Arg* y = &b[i];
      const std::string at = fmt::format("{} argument {} ({})", where, i, print_arg(s, a[i]));
      while (x->kind != Arg::Kind::Storage) {
        if (y->kind != x->kind || y->view->start != x->view->start || y->view->length != x->view->length ||
            (x->kind == Arg::Kind::Bitcast && y->dtype != x->dtype)) {
          fail(fmt::format("the rewrite changed a view of {}: {}", at, print_arg(r, b[i])));
        }
        x = &x->view->base;
        y = &y->view->base;
      }
      f(x->storage, *y, at);
    }
  };
  while (!stack.empty()) {
    Level level = std::move(stack.back());
    stack.pop_back();
    if (level.before->size() != level.after->size()) {
      fail(fmt::format("the rewrite changed the number of entries at {}", level.where));
    }
    for (std::size_t i = 0; i < level.before->size(); ++i) {
      const Entry& a = (*level.before)[i];
      const Entry& b = (*level.after)[i];
      const std::string where = fmt::format("{}{}", level.where, i);
      if (a.kind != b.kind || a.name != b.name || a.flag().size() != b.flag().size()) {
        fail(fmt::format("the rewrite changed {}", where));
      }
      args(a.args, b.args, where);
      args(a.flag(), b.flag(), where + " flag");
      stack.push_back({&a.body(), &b.body(), where + "."});
    }
  }
}

Schedule rewrite_or_fail(const Schedule& s, const Plan& p) {
  Result<Schedule> r = rewrite(s, p);
  if (!r) fail(fmt::format("the rewrite failed: {}\nplan:\n{}", r.error().message(), print_plan(p)));
  return std::move(*r);
}

std::vector<bool> planned_set(const Schedule& s) {
  std::vector<bool> planned(s.storage.size(), false);
  for (const Lifetime& l : model_lifetimes(s)) planned[l.buffer] = true;
  return planned;
}

// The view a reference to a planned buffer becomes: bitcast(shrink(arena, offset, bytes), dtype).
struct ArenaView {
  std::string arena;
  Bytes offset = 0;
  Bytes length = 0;
};

ArenaView arena_view(const Schedule& r, const Arg& a, const Storage& b, const std::string& where) {
  const bool shaped = a.kind == Arg::Kind::Bitcast && a.view->base.kind == Arg::Kind::Shrink &&
                      a.view->base.view->base.kind == Arg::Kind::Storage;
  if (!shaped || a.dtype != b.dtype) {
    fail(fmt::format("{}: planned buffer {} became {}, not bitcast(shrink(ARENA, OFFSET, {}), {})", where, b.name,
                     print_arg(r, a), b.bytes, dtype_name(b.dtype)));
  }
  const Arg& shrink = a.view->base;
  return {r.storage[shrink.view->base.storage].name, shrink.view->start, shrink.view->length};
}

bool names_word(const std::string& text, const std::string& word) {
  auto is_name_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  };
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool left = at == 0 || !is_name_char(text[at - 1]);
    const std::size_t end = at + word.size();
    const bool right = end == text.size() || !is_name_char(text[end]);
    if (left && right) return true;
  }
  return false;
}

}  // namespace

void plan_passes_checker(const Planner& planner, const Schedule& s) {
  plan_passes(planner, s, "checker", &oracle::check_plan);
}

void plan_passes_shadow_executor(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  Result<oracle::ShadowRun> run = oracle::run_shadow(s, plan);
  if (!run)
    fail(fmt::format("the shadow executor refuses the plan: {}\nplan:\n{}", run.error().message(), print_plan(plan)));
  if (run->clobber)
    fail(fmt::format("the shadow executor finds a clobber: {}\nplan:\n{}", run->clobber->message(), print_plan(plan)));
}

void live_buffers_share_no_bytes(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  const PlanIndex index(s, plan);
  const std::vector<Lifetime> lives = model_lifetimes(s);
  std::vector<bool> planned(s.storage.size(), false);
  for (const Lifetime& l : lives) planned[l.buffer] = true;
  for (const Placement& pl : plan.placements) {
    std::optional<StorageId> id = s.find(pl.buffer);
    if (!id || !planned[*id]) fail(fmt::format("the plan places {}, which is not a planned buffer", pl.buffer));
  }
  for (const Lifetime& l : lives) {
    const Storage& b = s.storage[l.buffer];
    const Arena& arena = index.arena_of(l.buffer);
    if (arena.device != b.device) {
      fail(fmt::format("{} on {} is placed in {} on {}", b.name, b.device, arena.name, arena.device));
    }
    index.device_arena(b.device);
    const auto bytes = index.bytes_of(l.buffer);
    if (bytes.end > arena.size) {
      fail(fmt::format("{} uses bytes {}, past the end of {} ({} bytes)\nplan:\n{}", b.name, range(bytes), arena.name,
                       arena.size, print_plan(plan)));
    }
  }
  for (std::size_t i = 0; i < lives.size(); ++i) {
    for (std::size_t j = i + 1; j < lives.size(); ++j) {
      const Storage& a = s.storage[lives[i].buffer];
      const Storage& b = s.storage[lives[j].buffer];
      if (a.device != b.device || !alive_together(lives[i], lives[j])) continue;
      const auto x = index.bytes_of(lives[i].buffer);
      const auto y = index.bytes_of(lives[j].buffer);
      if (!x.overlaps(y)) continue;
      fail(
          fmt::format("{} (entries {}..{}, bytes {}) and {} (entries {}..{}, bytes {}) are alive together on {} "
                      "and share bytes\nplan:\n{}",
                      a.name, lives[i].first, lives[i].last, range(x), b.name, lives[j].first, lives[j].last, range(y),
                      a.device, print_plan(plan)));
    }
  }
}

void places_aligned_and_buffers_start_at_place_plus_phase(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  for (const Placement& pl : plan.placements) {
    if (pl.place % kPlaceAlign != 0) {
      fail(fmt::format("{} is placed at {}, not a multiple of {}\nplan:\n{}", pl.buffer, pl.place, kPlaceAlign,
                       print_plan(plan)));
    }
  }
  const PlanIndex index(s, plan);
  const std::vector<bool> planned = planned_set(s);
  const Schedule r = rewrite_or_fail(s, plan);
  walk_rewrite(s, r, [&](StorageId id, const Arg& now, const std::string& where) {
    if (!planned[id]) return;
    const Storage& b = s.storage[id];
    const ArenaView view = arena_view(r, now, b, where);
    const Placement& pl = index.placement(id);
    if (view.arena != pl.arena || view.offset != pl.place + b.phase || view.length != b.bytes) {
      fail(fmt::format("{}: {} (phase {}) is placed at {} in {}, but the rewrite views {} from {} for {} bytes", where,
                       b.name, b.phase, pl.place, pl.arena, view.arena, view.offset, view.length));
    }
    if (view.offset % kPlaceAlign != b.phase % kPlaceAlign) {
      fail(fmt::format("{}: {} starts at {}, which is not {} modulo {}", where, b.name, view.offset, b.phase,
                       kPlaceAlign));
    }
  });
}

void loop_buffers_live_through_the_loop(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  const PlanIndex index(s, plan);
  const std::vector<Lifetime> lives = model_lifetimes(s);
  for (std::size_t e = 0; e < s.entries.size(); ++e) {
    const Entry& loop = s.entries[e];
    if (loop.kind != Entry::Kind::Range && loop.kind != Entry::Kind::Loop) continue;
    for (StorageId inside : model_taken(loop)) {
      const auto in =
          std::find_if(lives.begin(), lives.end(), [&](const Lifetime& l) { return l.buffer == inside; });
      if (in == lives.end()) continue;
      for (const Lifetime& other : lives) {
        if (other.buffer == inside || other.first > e || other.last < e) continue;
        const Storage& a = s.storage[inside];
        const Storage& b = s.storage[other.buffer];
        if (a.device != b.device) continue;
        const auto x = index.bytes_of(inside);
        const auto y = index.bytes_of(other.buffer);
        if (!x.overlaps(y)) continue;
        fail(
            fmt::format("{}, taken by the loop at entry {}, uses bytes {}, which {} (alive at entry {}) also uses: {}"
                        "\nplan:\n{}",
                        a.name, e, range(x), b.name, e, range(y), print_plan(plan)));
      }
    }
  }
}

void rewrite_changes_only_planned_buffers(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  const PlanIndex index(s, plan);
  const std::vector<bool> planned = planned_set(s);
  const Schedule r = rewrite_or_fail(s, plan);

  std::vector<Storage> expected;
  for (StorageId id = 0; id < s.storage.size(); ++id) {
    if (!planned[id]) expected.push_back(s.storage[id]);
  }
  if (planned == std::vector<bool>(s.storage.size(), false)) {
    if (print_schedule(r) != print_schedule(s)) fail("with nothing planned, the rewrite changed the schedule");
    return;
  }
  for (const Arena& a : plan.arenas) {
    expected.push_back(buffer_decl(a.name, a.device, Dtype::Int8, a.size));
  }
  if (r.storage.size() != expected.size()) {
    fail(fmt::format("the rewrite declares {} storage, expected {}:\n{}", r.storage.size(), expected.size(),
                     print_schedule(r)));
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Storage& want = expected[i];
    const Storage& got = r.storage[i];
    if (got.kind != want.kind || got.name != want.name || got.device != want.device || got.dtype != want.dtype ||
        got.bytes != want.bytes || got.phase != want.phase || got.held != want.held) {
      fail(fmt::format("declaration {} of the rewrite is {} {} {} {} {}, expected {} {} {} {} {}", i,
                       storage_kind_name(got.kind), got.name, got.device, dtype_name(got.dtype), got.bytes,
                       storage_kind_name(want.kind), want.name, want.device, dtype_name(want.dtype), want.bytes));
    }
  }
  walk_rewrite(s, r, [&](StorageId id, const Arg& now, const std::string& where) {
    const Storage& b = s.storage[id];
    if (!planned[id]) {
      if (now.kind != Arg::Kind::Storage || r.storage[now.storage].name != b.name) {
        fail(fmt::format("{}: {}, which is not planned, became {}", where, b.name, print_arg(r, now)));
      }
      return;
    }
    const ArenaView view = arena_view(r, now, b, where);
    if (view.arena != index.placement(id).arena) {
      fail(fmt::format("{}: {} is placed in {}, but the rewrite views {}", where, b.name, index.placement(id).arena,
                       view.arena));
    }
  });
  const std::string text = print_schedule(r);
  Result<Schedule> back = parse_schedule(text, "rewritten");
  if (!back) fail(fmt::format("the rewritten schedule does not parse: {}\n{}", back.error().message(), text));
}

void planning_is_deterministic_and_survives_text(const Planner& planner, const Schedule& s) {
  const Plan first = plan_or_fail(planner, s);
  const Plan second = plan_or_fail(planner, s);
  if (print_plan(first) != print_plan(second)) {
    fail(fmt::format("two plans of one schedule differ\nfirst:\n{}second:\n{}", print_plan(first), print_plan(second)));
  }
  const std::string text = print_schedule(s);
  Result<Schedule> read = parse_schedule(text, "generated");
  if (!read) fail(fmt::format("the printed schedule does not parse: {}", read.error().message()));
  if (print_schedule(*read) != text) fail(fmt::format("print(parse(print(s))) differs:\n{}", print_schedule(*read)));
  const Plan reread = plan_or_fail(planner, *read);
  if (print_plan(reread) != print_plan(first)) {
    fail(fmt::format("the schedule read back from its text plans differently\nbefore:\n{}after:\n{}", print_plan(first),
                     print_plan(reread)));
  }
  Result<Plan> plan_back = parse_plan(print_plan(first), "generated.plan");
  if (!plan_back) fail(fmt::format("the printed plan does not parse: {}", plan_back.error().message()));
  if (print_plan(*plan_back) != print_plan(first)) {
    fail(fmt::format("the plan read back from its text differs:\n{}", print_plan(*plan_back)));
  }
}

void arena_between_peak_and_total(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  const PlanIndex index(s, plan);
  const std::vector<Lifetime> lives = model_lifetimes(s);
  std::vector<std::string> devices;
  for (const Lifetime& l : lives) {
    const Name& d = s.storage[l.buffer].device;
    if (std::find(devices.begin(), devices.end(), d) == devices.end()) devices.push_back(d);
  }
  for (const std::string& device : devices) {
    // The generated sizes keep every sum far below 2^64.
    std::vector<Load> loads;
    Bytes total = 0;
    for (const Lifetime& l : lives) {
      const Storage& b = s.storage[l.buffer];
      if (b.device != device) continue;
      loads.push_back(load_of(l, rounded(b)));
      total += std::max(kPlaceAlign, rounded(b));
    }
    const Bytes peak = *peak_live_bytes(loads);
    const Arena* arena = index.device_arena(device);
    if (arena == nullptr) fail(fmt::format("device {} has planned buffers but no arena", device));
    if (arena->size < peak || arena->size > total) {
      fail(fmt::format("the arena of {} is {} bytes, outside [peak of live bytes {}, total {}]\nplan:\n{}", device,
                       arena->size, peak, total, print_plan(plan)));
    }
  }
}

void optimum_at_most_arena(const Planner& planner, const Schedule& s) {
  const Plan plan = plan_or_fail(planner, s);
  const PlanIndex index(s, plan);
  Result<std::vector<oracle::DevicePacking>> packings = oracle::schedule_packings(s);
  if (!packings) fail(fmt::format("the optimum oracle cannot read the schedule: {}", packings.error().message()));
  for (const oracle::DevicePacking& d : *packings) {
    // Z3 alone, not the oracle's own search: the bound under test is Z3's.
    oracle::OptimumOptions options;
    options.use_search = false;
    options.timeout_seconds = 5;
    Result<oracle::OptimumResult> best = oracle::solve_optimum(d.problem, options);
    if (!best) fail(fmt::format("the optimum oracle failed on {}: {}", d.device, best.error().message()));
    const Arena* arena = index.device_arena(d.device);
    if (arena == nullptr) fail(fmt::format("device {} has planned buffers but no arena", d.device));
    const Bytes least = best->lower_bound * kPlaceAlign;
    if (least > arena->size) {
      fail(fmt::format(
          "on {} the optimum oracle proves no arena below {} bytes ({}, by {}), but the plan's is {}"
          "\nplan:\n{}",
          d.device, least, oracle::status_name(best->status), best->lower_bound_by, arena->size, print_plan(plan)));
    }
  }
}

namespace {

// The planner's plan is `expected`'s byte for byte, or both fail (with one
// message, when `same_errors`).
void agrees_with(const Planner& planner, const Schedule& s, const Result<Plan>& expected,
                 std::string_view expected_name, bool same_errors) {
  Result<Plan> actual = planner.plan(s);
  if (!expected && !actual) {
    if (same_errors && expected.error().message() != actual.error().message()) {
      fail(fmt::format("{} and {} fail apart: {} and {}", planner.name(), expected_name,
                       actual.error().message(), expected.error().message()));
    }
    return;
  }
  if (!expected)
    fail(fmt::format("{} fails ({}) but {} plans:\n{}", expected_name, expected.error().message(),
                     planner.name(), print_plan(*actual)));
  if (!actual)
    fail(fmt::format("{} fails ({}) but {} plans:\n{}", planner.name(), actual.error().message(),
                     expected_name, print_plan(*expected)));
  if (print_plan(*expected) != print_plan(*actual)) {
    fail(fmt::format("{} and {} disagree\n{}:\n{}{}:\n{}", planner.name(), expected_name, planner.name(),
                     print_plan(*actual), expected_name, print_plan(*expected)));
  }
}

}  // namespace

void agrees_with_plain_model(const Planner& planner, const Schedule& s) {
  // The model's errors are its own words: only whether it fails is compared.
  agrees_with(planner, s, model_plan(s), "the plain model of the reference planner", false);
}

void agrees_with_plain_twin(const Planner& planner, const Schedule& s) {
  const std::unique_ptr<Planner> twin = plain_twin(planner.name());
  if (!twin) fail(fmt::format("{} has no plain twin", planner.name()));
  agrees_with(planner, s, twin->plan(s), twin->name(), true);
}

void checker_rejects_a_buffer_moved_onto_a_live_neighbour(const Planner& planner, const Schedule& s) {
  Schedule live = s;
  auto pairs = [](const Schedule& x) {
    std::vector<std::pair<StorageId, StorageId>> out;
    const std::vector<Lifetime> lives = model_lifetimes(x);
    for (const Lifetime& a : lives) {
      for (const Lifetime& b : lives) {
        const Storage& sa = x.storage[a.buffer];
        const Storage& sb = x.storage[b.buffer];
        if (a.buffer != b.buffer && sa.device == sb.device && alive_together(a, b) && rounded(sa) > 0 &&
            rounded(sb) > 0) {
          out.emplace_back(a.buffer, b.buffer);
        }
      }
    }
    return out;
  };
  std::vector<std::pair<StorageId, StorageId>> candidates = pairs(live);
  if (candidates.empty()) {
    // Two buffers alive together, taken by one more kernel at the end.
    Entry both = kernel_call("both");
    for (int i = 0; i < 2; ++i) {
      both.args.push_back(storage_arg(static_cast<StorageId>(live.storage.size())));
      live.storage.push_back(buffer_decl(fresh_name(live, "pair"), "CPU", Dtype::Float32, 1024));
    }
    live.entries.push_back(std::move(both));
    candidates = pairs(live);
  }
  const Plan plan = plan_or_fail(planner, live);
  if (!oracle::check_plan(live, plan).empty()) fail("the plan is invalid before any buffer is moved");
  const auto [still, moved] = candidates[static_cast<std::size_t>(pick_seed() % candidates.size())];
  Plan broken = plan;
  const Name& target = live.storage[still].name;
  const Name& mover = live.storage[moved].name;
  Bytes onto = 0;
  for (const Placement& pl : plan.placements) {
    if (pl.buffer == target) onto = pl.place;
  }
  for (Placement& pl : broken.placements) {
    if (pl.buffer == mover) pl.place = onto;
  }
  for (const oracle::Violation& v : oracle::check_plan(live, broken)) {
    if (v.rule == oracle::Rule::Overlap) return;
  }
  fail(fmt::format("the checker reports no overlap after {} is moved onto {} (place {})\nplan:\n{}", mover, target,
                   onto, print_plan(broken)));
}

void overflow_is_an_error(const Planner& planner, const Schedule& s) {
  Result<Plan> plan = planner.plan(s);
  if (plan) {
    fail(fmt::format("{} planned buffers that need more than 2^64 bytes at once:\n{}", planner.name(),
                     print_plan(*plan)));
  }
  const std::string message = plan.error().message();
  for (const Lifetime& l : model_lifetimes(s)) {
    if (names_word(message, s.storage[l.buffer].name)) return;
  }
  fail(fmt::format("the overflow error names no planned buffer: {}", message));
}

Property planner_property(const Planner& planner, const rc::Gen<Schedule>& schedules, PlanStatement statement) {
  return [&planner, schedules, statement] {
    const Schedule s = *schedules;
    statement(planner, s);
  };
}

}  // namespace planck::props
