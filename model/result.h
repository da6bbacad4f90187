#pragma once
// Errors are values: a Result holds either a value or an Error that says
// where the input went wrong ("FILE:LINE:COL") and what is wrong with it.

#include <string>
#include <utility>
#include <variant>

namespace planck {

struct Error {
  std::string where;  // "FILE:LINE:COL", "FILE", or empty
  std::string what;

  std::string message() const { return where.empty() ? what : where + ": " + what; }
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}    // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// For operations that return nothing but may fail.
struct Ok {};
using Status = Result<Ok>;

}  // namespace planck
