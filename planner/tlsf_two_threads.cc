// The second thread of the reference planner and the planner's side of it
// (tlsf_two_threads.h). The planner tells the thread how far it is by two counts,
// lifetimes made and places final, which the thread waits on.

#include "planner/tlsf_two_threads.h"

#include <atomic>
#include <cstdint>
#include <exception>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "planner/events_planner.h"
#include "planner/rules.h"

namespace planck {
namespace {

// From this many storage records on (and a quarter as many entries), a
// second thread takes rules 4, 5 and 7 beside rules 3 and 6.
constexpr std::size_t kAlongside = 1 << 15;

// The work of the second thread: rules 4 and 5 for the lifetimes rule 3 has
// made so far, while rule 3 walks on, then rule 5's capacity, then the plan
// (rule 7) of the buffers the TLSF run has placed so far, while the run goes
// on. kAborted in either count stops it.
class Alongside final : public RuleProgress {
 public:
  static constexpr std::uint32_t kAborted = UINT32_MAX;
  // Counts are 32-bit, which the system's futex waits on directly; a
  // lifetime count stays below kAll (takes_two_threads).
  static constexpr std::uint32_t kAll = std::uint32_t{1} << 31;  // made_: every lifetime is made

  // The sizes, devices and capacity, once every lifetime is made.
  struct Prepared {
    SizesAndDevices sizes;  // the sizes, which the run turns into the places
    Bytes capacity = 0;
  };

  explicit Alongside(const Schedule& s) : thread_([this, &s] { work(s); }) {}
  Alongside(const Alongside&) = delete;
  Alongside& operator=(const Alongside&) = delete;
  // A planner that stops early, by an error or an exception, stops it.
  ~Alongside() override {
    if (thread_.joinable()) {
      tell(made_, kAborted);
      tell(placed_, kAborted);
      thread_.join();
    }
  }

  // Lifetimes [0, k) of the array at `lives` are made. The array stays
  // where it is: it becomes the vector made_all tells of.
  void made(const Lifetime* lives, std::uint32_t k) override {
    walked_.store(lives, std::memory_order_relaxed);  // told by the store to made_
    tell(made_, k);
  }
  // Every lifetime is made: `lives`, which outlives this object.
  void made_all(const std::vector<Lifetime>& lives) {
    lives_ = &lives;
    tell(made_, kAll | static_cast<std::uint32_t>(lives.size()));
  }

  // The sizes, devices and capacity, or the error of a size or a capacity
  // that overflows; waits for them.
  Result<Prepared*> prepared() {
    prepared_.wait(0, std::memory_order_acquire);
    if (preparing_failure_) std::rethrow_exception(preparing_failure_);
    if (!preparation_.ok()) return std::move(preparation_).error();
    return &*preparation_;
  }

  // The places of lifetimes [0, k) are final.
  void placed(std::size_t k) override { tell(placed_, static_cast<std::uint32_t>(k)); }

  // The plan, once placed(every lifetime) was told.
  Result<Plan> plan() {
    thread_.join();
    if (failure_) std::rethrow_exception(failure_);
    return std::move(*plan_);
  }

 private:
  static void tell(std::atomic<std::uint32_t>& count, std::uint32_t value) {
    count.store(value, std::memory_order_release);
    count.notify_one();
  }

  void work(const Schedule& s) {
    if (prepare(s)) make(s);
  }

  // Rules 4 and 5 while rule 3 walks, then the capacity; false when the
  // planner stops or preparing fails.
  bool prepare(const Schedule& s) {
    try {
      SizesAndDevicesMaker sizes(s.storage.size());
      for (;;) {
        const std::uint32_t made = made_.load(std::memory_order_acquire);
        if (made == kAborted) return false;
        const Lifetime* const lives = (made & kAll) != 0 ? lives_->data() : walked_.load(std::memory_order_relaxed);
        sizes.add(s, lives, made & ~kAll);
        if ((made & kAll) != 0) break;
        made_.wait(made, std::memory_order_acquire);
      }
      preparation_ = prepared_from(s, *lives_, std::move(sizes).finish(s, *lives_));
    } catch (...) {
      preparing_failure_ = std::current_exception();
    }
    // Read before the planner is told: from then on it takes the preparation.
    const bool go = !preparing_failure_ && preparation_.ok() && !lives_->empty();
    tell(prepared_, 1);
    return go;
  }

  // Rule 7 while the run places the buffers.
  void make(const Schedule& s) {
    try {
      const std::vector<Lifetime>& lives = *lives_;
      const Prepared& prepared = *preparation_;
      PlanMaker maker(s, lives, prepared.sizes.devices);
      while (maker.added() < lives.size()) {
        const std::uint32_t ready = placed_.load(std::memory_order_acquire);
        if (ready == kAborted) return;
        if (ready > maker.added()) {
          maker.add(prepared.sizes.sizes.data(), ready);
        } else {
          placed_.wait(ready, std::memory_order_acquire);
        }
      }
      plan_ = std::move(maker).finish();
    } catch (...) {
      failure_ = std::current_exception();
    }
  }

  static Result<Prepared> prepared_from(const Schedule& s, const std::vector<Lifetime>& lives,
                                        Result<SizesAndDevices> made) {
    PLANCK_ASSIGN(SizesAndDevices sizes, std::move(made));
    if (lives.empty()) return Prepared{std::move(sizes), 0};
    PLANCK_ASSIGN(const Bytes capacity, tlsf_capacity(s, lives, sizes.sizes));
    return Prepared{std::move(sizes), capacity};
  }

  std::atomic<std::uint32_t> made_{0};      // lifetimes made, with kAll once every one is
  std::atomic<std::uint32_t> placed_{0};    // places final
  std::atomic<std::uint32_t> prepared_{0};  // 1 once the preparation is done
  std::atomic<const Lifetime*> walked_{nullptr};  // the lifetimes while rule 3 walks
  const std::vector<Lifetime>* lives_ = nullptr;  // the lifetimes once it is done
  Result<Prepared> preparation_{Error{}};
  std::exception_ptr preparing_failure_;  // written before prepared_ is told
  std::optional<Result<Plan>> plan_;
  std::exception_ptr failure_;  // read once the thread is joined
  std::thread thread_;  // last: it starts once the members it uses are made
};

// This thread's part: rules 3 and 6, telling the second thread as they go.
Result<Plan> plan_with(const Schedule& s, Alongside& helper, std::vector<Lifetime>& lives) {
  const bool stretched = planned_lifetimes(s, lives, helper);  // rules 1 to 3
  helper.made_all(lives);
  // Opens that do not come in order of first appearance: the plan is made
  // over events sorted in full, and the second thread stops as the helper goes.
  if (stretched) return plan_by_events(s, lives, false);
  if (lives.empty()) return Plan{};
  const CloseLists closes = close_lists(lives, s.entries.size());
  PLANCK_ASSIGN(Alongside::Prepared* const prepared, helper.prepared());  // rules 4 and 5
  const Devices& devices = prepared->sizes.devices;
  PLANCK_ASSIGN(std::vector<Tlsf> allocators, make_allocators(s, prepared->capacity, devices.names));
  PLANCK_TRY(run_tlsf(s, lives, prepared->sizes.sizes, closes, devices, allocators, helper));
  return helper.plan();  // rule 7
}

}  // namespace

bool takes_two_threads(const Schedule& s) {
  return s.storage.size() >= kAlongside && s.storage.size() < Alongside::kAll - 1 &&
         s.entries.size() >= kAlongside / 4;
}

std::optional<Result<Plan>> plan_on_two_threads(const Schedule& s) {
  // Declared first, so that the second thread, which reads them, is stopped
  // before they go.
  std::vector<Lifetime> lives;
  std::optional<Alongside> helper;
  try {
    helper.emplace(s);
  } catch (const std::system_error&) {
    return std::nullopt;  // no thread to be had
  }
  return plan_with(s, *helper, lives);
}

}  // namespace planck
