#include "model/interval_schedule.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace planck {
namespace {

Error row_error(const IntervalProblem& p, const Interval& row, std::string what) {
  return Error{fmt::format("{}:{}:1", p.source, row.line), std::move(what)};
}

// `value` times `unit`, kept below 2^62 like every byte count of the model.
std::optional<Bytes> scaled(Bytes value, Bytes unit) {
  const std::optional<Bytes> product = checked_mul(value, unit);
  if (!product || *product >= kMaxBytes) return std::nullopt;
  return product;
}

Arg storage_arg(StorageId id) {
  Arg arg;
  arg.kind = Arg::Kind::Storage;
  arg.storage = id;
  return arg;
}

}  // namespace

Result<Schedule> interval_schedule(const IntervalProblem& p, Bytes unit) {
  Schedule s;
  s.source = p.source;
  std::int64_t steps = 0;
  for (const Interval& row : p.buffers) {
    if (!is_plan_word(row.id)) {
      return row_error(
          p, row, fmt::format("id `{}` cannot name a buffer in a plan file (it has a blank or `#`)", row.id));
    }
    if (row.upper > kMaxIntervalSteps) {
      return row_error(p, row,
                       fmt::format("upper {} is past {}, the most time steps a CSV may have as a schedule "
                                   "(an entry per step)",
                                   row.upper, kMaxIntervalSteps));
    }
    const std::optional<Bytes> bytes = scaled(row.size, unit);
    if (!bytes) {
      return row_error(p, row, fmt::format("size {} as blocks of {} bytes reaches 2^62", row.size, unit));
    }
    steps = std::max(steps, row.upper);
    Storage st;
    st.name = row.id;
    st.device = kIntervalDevice;
    st.dtype = Dtype::Int8;
    st.bytes = *bytes;
    st.pos = {row.line, 1};
    s.storage.push_back(std::move(st));
  }

  s.entries.resize(static_cast<std::size_t>(steps));
  for (std::size_t t = 0; t < s.entries.size(); ++t) s.entries[t].name = fmt::format("t{}", t);
  // Every row begins before it ends, so all beginnings of a step come first
  // when they are taken in one pass and the ends in the next.
  for (std::size_t i = 0; i < p.buffers.size(); ++i) {
    s.entries[static_cast<std::size_t>(p.buffers[i].lower)].args.push_back(
        storage_arg(static_cast<StorageId>(i)));
  }
  for (std::size_t i = 0; i < p.buffers.size(); ++i) {
    const Interval& row = p.buffers[i];
    if (row.upper - 1 == row.lower) continue;
    s.entries[static_cast<std::size_t>(row.upper - 1)].args.push_back(storage_arg(static_cast<StorageId>(i)));
  }
  return s;
}

Result<IntervalCheck> interval_check(const IntervalProblem& p, const Plan& plan) {
  PLANCK_ASSIGN(Schedule schedule, interval_schedule(p, kPlaceAlign));
  Plan blocks = plan;
  auto too_large = [&](const SourcePos& pos, std::string_view what, Bytes value) {
    return Error{fmt::format("{}:{}:{}", plan.source, pos.line, pos.col),
                 fmt::format("{} {} as blocks of {} bytes reaches 2^62, too large to judge against {}", what,
                             value, kPlaceAlign, p.source)};
  };
  for (Arena& a : blocks.arenas) {
    const std::optional<Bytes> size = scaled(a.size, kPlaceAlign);
    if (!size) return too_large(a.pos, "arena size", a.size);
    a.size = *size;
  }
  for (Placement& pl : blocks.placements) {
    const std::optional<Bytes> place = scaled(pl.place, kPlaceAlign);
    if (!place) return too_large(pl.pos, "place", pl.place);
    pl.place = *place;
  }
  return IntervalCheck{std::move(schedule), std::move(blocks)};
}

}  // namespace planck
