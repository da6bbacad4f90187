#include "harness/verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "gen/choices.h"
#include "model/features.h"
#include "gen/minimize.h"
#include "gen/schedule_parts.h"

namespace planck::harness {
namespace {

using Clock = std::chrono::steady_clock;

// Cases grow by one size step every this many cases.
constexpr std::uint64_t kCasesPerSize = 4;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

void Progress::judged(const Schedule& s, double seconds_now) {
  cases++;
  seconds = seconds_now;
  const std::size_t entries = gen::count_entries(s);
  if (entries > largest_entries || (entries == largest_entries && s.storage.size() > largest_storage)) {
    largest_entries = entries;
    largest_storage = s.storage.size();
  }
}

void Progress::generated_uses(const Schedule& s) {
  const auto switches = feature_switches();
  feature_cases.resize(switches.size(), 0);
  const Features used = used_features(s);
  for (std::size_t k = 0; k < switches.size(); ++k) feature_cases[k] += used.*switches[k].on ? 1 : 0;
}

void Progress::add(const Progress& more) {
  if (feature_cases.size() < more.feature_cases.size()) feature_cases.resize(more.feature_cases.size(), 0);
  for (std::size_t k = 0; k < more.feature_cases.size(); ++k) feature_cases[k] += more.feature_cases[k];
  cases += more.cases;
  files += more.files;
  skipped += more.skipped;
  seconds += more.seconds;
  if (more.largest_entries > largest_entries ||
      (more.largest_entries == largest_entries && more.largest_storage > largest_storage)) {
    largest_entries = more.largest_entries;
    largest_storage = more.largest_storage;
  }
}

std::uint64_t case_seed(std::uint64_t seed, std::uint64_t k) {
  // splitmix64 of the pair: a bijection of each, well mixed.
  std::uint64_t z = seed * 0x9e3779b97f4a7c15ULL + k + 0x632be59bd9b4e019ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

gen::ScheduleOptions case_options(std::uint64_t k, const VerifyOptions& options) {
  gen::ScheduleOptions o;
  const std::uint64_t size = 1 + k / kCasesPerSize;
  o.size = static_cast<int>(std::min<std::uint64_t>(size, static_cast<std::uint64_t>(std::max(1, options.max_size))));
  o.features = options.features;
  if (!o.features.several_devices) o.max_devices = 1;
  if (!o.features.disks) o.max_disks = 0;
  return o;
}

std::string failure_summary(const Failure& f, std::string_view planner) {
  std::string out =
      fmt::format("{} fails with {} on {}, shrunk from {} to {} entries ({} shrinks, {} tries{})\n{}", planner,
                  f.verdict.kind, f.origin, gen::count_entries(f.original), gen::count_entries(f.minimized),
                  f.shrinks, f.tries, f.minimal ? "" : ", stopped by the time limit", f.verdict.explanation);
  // An explanation quoting a planner's own words need not end its line.
  if (!out.ends_with('\n')) out += '\n';
  return out;
}

Failure shrink_failure(const Planner& planner, std::string origin, Schedule failing, Verdict first,
                       Clock::duration time) {
  const std::string kind = first.kind;
  gen::Minimized m = gen::minimize(
      failing, [&](const Schedule& candidate) { return judge(planner, candidate).kind == kind; },
      gen::MinimizeLimits{.max_time = time});
  Failure f{.origin = std::move(origin), .original = std::move(failing), .first = std::move(first),
            .minimized = std::move(m.schedule), .shrinks = m.shrinks, .tries = m.tries, .minimal = m.minimal};
  f.verdict = judge(planner, f.minimized);
  if (f.verdict.kind != kind) {
    // A planner that does not answer the same schedule the same way twice
    // (a time limit near its run time, say): keep the schedule as it failed.
    f.minimized = f.original;
    f.verdict = f.first;
    f.minimal = false;
  }
  return f;
}

VerifyResult verify(const Planner& planner, const std::vector<Schedule>& files, const VerifyOptions& options,
                    const std::function<void(const Progress&)>& on_progress) {
  const Clock::time_point start = Clock::now();
  const Clock::time_point end = start + options.time;
  VerifyResult r;
  auto judged = [&](const Schedule& s) {
    r.progress.judged(s, seconds_since(start));
    if (on_progress) on_progress(r.progress);
  };

  for (const Schedule& s : files) {
    if (Clock::now() >= end) break;
    if (!allows(options.features, used_features(s))) {
      r.progress.skipped++;
      continue;
    }
    Verdict v = judge(planner, s);
    r.progress.files++;
    judged(s);
    if (v.failed()) {
      r.failure = shrink_failure(planner, s.source, s, std::move(v), options.shrink_time);
      break;
    }
  }

  for (std::uint64_t k = 0; options.generate && !r.failure && (options.max_cases == 0 || k < options.max_cases); ++k) {
    if (Clock::now() >= end) break;
    gen::SeededChoices choices(case_seed(options.seed, k));
    Schedule s = gen::generate_schedule(choices, case_options(k, options));
    s.source = "generated";
    Verdict v = judge(planner, s);
    r.progress.generated_uses(s);
    judged(s);
    if (v.failed()) {
      r.failure = shrink_failure(planner, "generated case " + std::to_string(k) + " (seed " +
                                              std::to_string(options.seed) + ")",
                                 std::move(s), std::move(v), options.shrink_time);
      break;
    }
  }
  r.progress.seconds = seconds_since(start);
  return r;
}

}  // namespace planck::harness
