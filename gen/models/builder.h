#pragma once
// Builds the model-shaped schedules of gen/models.h
// (docs/commands.md#planck-generate): storage sized from tensor shapes (every
// product checked for overflow), kernels and copies appended in order, loops
// wrapped around the entries made since a mark, and a record of each forward
// operation for a backward pass.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "model/result.h"
#include "model/schedule.h"

namespace planck::gen {

// A kernel that wrote a new buffer from inputs (activations, maybe views)
// and weights: what the backward pass of a training step differentiates.
struct ForwardOp {
  std::string kernel;
  StorageId out = 0;
  Args inputs;
  std::vector<StorageId> weights;
};

class ModelBuilder {
 public:
  // Storage is declared on `device` in `dtype` until told otherwise.
  ModelBuilder(std::string source, std::string device, Dtype dtype);

  void set_device(std::string device) { device_ = std::move(device); }
  const std::string& device() const { return device_; }
  Dtype dtype() const { return dtype_; }

  // The bytes of a tensor of these dimensions in `dtype` (the current one
  // by default). On overflow past kMaxBytes the builder remembers the error,
  // which finish() returns, and this gives 0.
  Bytes bytes(std::initializer_list<std::uint64_t> dims);
  Bytes bytes(std::initializer_list<std::uint64_t> dims, Dtype dtype);

  // Declarations on the current device: a planned buffer, a held buffer (a
  // weight, an output the caller keeps), a schedule input, call-local storage.
  StorageId buffer(const std::string& name, Bytes bytes, std::optional<Dtype> dtype = {});
  StorageId held(const std::string& name, Bytes bytes, std::optional<Dtype> dtype = {});
  StorageId param(const std::string& name, Bytes bytes, std::optional<Dtype> dtype = {});
  StorageId alloc(const std::string& name, Bytes bytes);
  // A weight: held, or a param once weights_are_params(); one declaration
  // per name, so that passes sharing a layer share its weights.
  StorageId weight(const std::string& name, Bytes bytes);
  void weights_are_params() { weights_are_params_ = true; }

  const Storage& storage(StorageId id) const { return s_.storage[id]; }

  void kernel(std::string name, Args args);
  void copy(Arg destination, Arg source);

  // A kernel `name` that writes a new planned buffer `out` of `bytes` from
  // the inputs and weights (in that argument order), recorded in ops().
  StorageId op(const std::string& name, const std::string& out, Bytes bytes, Args inputs,
               std::vector<StorageId> weights = {});
  const std::vector<ForwardOp>& ops() const { return ops_; }

  // The top-level entries so far; wrap_loop turns those made since a mark
  // into the body of `loop flag=FLAG { ... }`.
  std::size_t mark() const { return s_.entries.size(); }
  void wrap_loop(std::size_t mark, Arg flag);

  // The schedule, or the first overflow, or an error when the storage adds
  // up to 2^62 bytes or more (no planner could place it).
  Result<Schedule> finish() &&;

 private:
  StorageId declare(StorageKind kind, const std::string& name, Bytes bytes, Dtype dtype, bool held);

  Schedule s_;
  std::string device_;
  Dtype dtype_;
  std::vector<ForwardOp> ops_;
  std::optional<Error> error_;
  bool weights_are_params_ = false;
};

// `arg` with the storage it views replaced by `base`, the views kept: the
// same bytes of another buffer of the same size (a gradient's, say).
Arg rebased(Arg arg, StorageId base);

}  // namespace planck::gen
