// The planner as a shared library with the C ABI of include/planck/planner.h (docs/c-abi.md#the-contract),
// called in-process.

#include <dlfcn.h>
#include <sys/stat.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "model/lexical.h"
#include "model/schedule_printer.h"
#include "planck/planner.h"
#include "planner/external.h"
#include "planner/external_process.h"

namespace planck {
namespace {

using AbiVersionFn = int (*)();
using PlanFn = int (*)(const char*, std::size_t, char**, std::size_t*);
using FreeFn = void (*)(char*);
using FeaturesFn = const char* (*)();

// A feature list longer than this is not one.
constexpr std::size_t kFeaturesShown = 1024;

// A library's error message is shown up to this many bytes.
constexpr std::size_t kMessageShown = 2048;

class LibraryPlanner final : public Planner {
 public:
  LibraryPlanner(std::string path, void* handle, PlanFn plan, FreeFn free, Features features)
      : path_(std::move(path)), handle_(handle), plan_(plan), free_(free), features_(std::move(features)) {}
  ~LibraryPlanner() override { dlclose(handle_); }
  LibraryPlanner(const LibraryPlanner&) = delete;
  LibraryPlanner& operator=(const LibraryPlanner&) = delete;

  std::string_view name() const override { return path_; }
  std::optional<Features> claimed_features() const override { return features_; }

  Result<Plan> plan(const Schedule& s) const override {
    const std::string text = print_schedule(s);  // its c_str() ends with the NUL the ABI promises
    int rc = 0;
    std::string answer;
    bool answered = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      char* out = nullptr;
      std::size_t out_len = 0;
      rc = plan_(text.c_str(), text.size(), &out, &out_len);
      if (out != nullptr) {
        answer = rc == 0 ? std::string(out, out_len) : std::string(out, strnlen(out, kMessageShown));
        answered = true;
        free_(out);
      }
    }
    if (rc != 0) {
      return Error{"",
                   fmt::format("{} could not plan the schedule: {}", path_,
                               answered ? external::printable(answer) : "(it gave no message)"),
                   "planner-error"};
    }
    if (!answered) {
      return Error{"", fmt::format("{} returned 0 but no plan text", path_), "planner-output"};
    }
    if (std::optional<Error> refused = external::over_capacity_answer(answer, path_)) return *refused;
    auto plan = parse_plan(answer, "planner output");
    if (plan) return plan;
    return Error{"",
                 fmt::format("{} answered with something that is not a plan file: {}", path_,
                             plan.error().message()),
                 "planner-output"};
  }

 private:
  std::string path_;
  void* handle_;
  PlanFn plan_;
  FreeFn free_;
  Features features_;  // model v1, or from version 2 on what planck_planner_features() lists
  mutable std::mutex mutex_;
};

// dlsym's answer as a function pointer; POSIX makes the conversion valid.
template <class Fn>
Fn find_function(void* handle, const char* name) {
  void* sym = dlsym(handle, name);
  Fn fn = nullptr;
  static_assert(sizeof fn == sizeof sym);
  std::memcpy(&fn, &sym, sizeof fn);
  return fn;
}

}  // namespace

Result<std::unique_ptr<Planner>> make_library_planner(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    return Error{path, fmt::format("cannot load the planner library: {}", std::strerror(errno))};
  }
  // A name without a slash would be looked for on the library path, not here.
  const std::string open_path = path.find('/') == std::string::npos ? "./" + path : path;
  void* handle = dlopen(open_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return Error{path, fmt::format("cannot load the planner library: {}", dlerror())};
  }
  const auto fail = [&](std::string what) -> Error {
    dlclose(handle);
    return Error{path, std::move(what)};
  };
  const auto missing = [&](const char* name) {
    return fail(fmt::format("not a Planck planner library: it exports no function {} (see "
                            "include/planck/planner.h)",
                            name));
  };
  auto version = find_function<AbiVersionFn>(handle, "planck_planner_abi_version");
  if (version == nullptr) return missing("planck_planner_abi_version");
  const int v = version();
  if (v < 1 || v > PLANCK_PLANNER_ABI_VERSION) {
    return fail(fmt::format("the library speaks version {} of the planner ABI; this planck speaks "
                            "versions 1 to {} (include/planck/planner.h)",
                            v, PLANCK_PLANNER_ABI_VERSION));
  }
  auto plan = find_function<PlanFn>(handle, "planck_plan");
  if (plan == nullptr) return missing("planck_plan");
  auto free = find_function<FreeFn>(handle, "planck_free");
  if (free == nullptr) return missing("planck_free");
  // Version 1 knows model v1 only; from version 2 on the library says what
  // it supports.
  Features features = v1_features();
  if (v >= 2) {
    auto claim = find_function<FeaturesFn>(handle, "planck_planner_features");
    if (claim == nullptr) return missing("planck_planner_features");
    const char* text = claim();
    if (text == nullptr) return fail("planck_planner_features() returned NULL, not a list of features");
    const std::size_t n = strnlen(text, kFeaturesShown + 1);
    if (n > kFeaturesShown) return fail(fmt::format("planck_planner_features() returned more than {} bytes", kFeaturesShown));
    const std::string_view list(text, n);
    Result<Features> said = parse_features(list);
    if (!said) return fail(fmt::format("planck_planner_features() says '{}': {}", escaped(list), said.error().message()));
    features = *said;
  }
  return std::unique_ptr<Planner>(
      std::make_unique<LibraryPlanner>(path, handle, plan, free, std::move(features)));
}

}  // namespace planck
