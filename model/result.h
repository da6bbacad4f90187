#pragma once
// Errors are values: a Result holds either a value or an Error that says
// where the input went wrong ("FILE:LINE:COL") and what is wrong with it
// (docs/formats.md#bad-input).

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace planck {

struct Error {
  std::string where;  // "FILE:LINE:COL", "FILE", or empty
  std::string what;
  // Empty for bad input. A planner's own failure names its kind (docs/verification.md#judging-your-own-planner):
  // "planner-exit", "planner-signal", "planner-timeout",
  // "planner-output", or "planner-error" for one the planner reported itself;
  // kOverCapacity for a planner that finds no plan within a device's
  // capacity (docs/model-v2.md).
  std::string kind;

  std::string message() const { return where.empty() ? what : where + ": " + what; }
};

// The kind of a planner's refusal to plan past a device's capacity. A planner
// written elsewhere says so by answering, instead of a plan, one line
// `over-capacity: MESSAGE`.
inline constexpr const char* kOverCapacity = "over-capacity";

// The error sits on the heap, so that a Result is its value and one pointer:
// the parsers return one per token and statement, and an Error is three strings.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error error)                                                 // NOLINT(google-explicit-constructor)
      : v_(std::in_place_index<1>, std::make_unique<Error>(std::move(error))) {}
  Result(const Result& other)
      : v_(other.ok() ? Value(std::in_place_index<0>, other.value())
                      : Value(std::in_place_index<1>, std::make_unique<Error>(other.error()))) {}
  Result(Result&&) noexcept(std::is_nothrow_move_constructible_v<T>) = default;
  Result& operator=(const Result& other) {
    if (this != &other) *this = Result(other);
    return *this;
  }
  Result& operator=(Result&&) noexcept(std::is_nothrow_move_assignable_v<T>) = default;
  ~Result() = default;

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::move(std::get<0>(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const& { return *std::get<1>(v_); }
  Error&& error() && { return std::move(*std::get<1>(v_)); }

 private:
  using Value = std::variant<T, std::unique_ptr<Error>>;
  Value v_;
};

// For operations that return nothing but may fail.
struct Ok {};
using Status = Result<Ok>;

}  // namespace planck

// Propagation of errors, in a function that returns a Result or a Status:
//   PLANCK_TRY(expr);              returns expr's error if it failed
//   PLANCK_ASSIGN(lhs, expr);      the same, else lhs = expr's value, where
//                                  lhs is a declaration (`auto x`) or a name
#define PLANCK_TRY(expr)                                  \
  do {                                                    \
    if (auto planck_try_ = (expr); !planck_try_) {        \
      return std::move(planck_try_).error();              \
    }                                                     \
  } while (false)
#define PLANCK_ASSIGN(lhs, expr) PLANCK_ASSIGN_(PLANCK_CONCAT_(planck_assign_, __LINE__), lhs, expr)
#define PLANCK_CONCAT_(a, b) PLANCK_CONCAT2_(a, b)
#define PLANCK_CONCAT2_(a, b) a##b
#define PLANCK_ASSIGN_(tmp, lhs, expr)   \
  auto tmp = (expr);                     \
  if (!tmp) return std::move(tmp).error(); \
  lhs = std::move(tmp).value()
