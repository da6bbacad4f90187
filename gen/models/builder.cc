#include "gen/models/builder.h"

#include <algorithm>
#include <utility>

#include "gen/schedule_parts.h"

namespace planck::gen {

ModelBuilder::ModelBuilder(std::string source, std::string device, Dtype dtype)
    : device_(std::move(device)), dtype_(dtype) {
  s_.source = std::move(source);
}

Bytes ModelBuilder::bytes(std::initializer_list<std::uint64_t> dims) { return bytes(dims, dtype_); }

Bytes ModelBuilder::bytes(std::initializer_list<std::uint64_t> dims, Dtype dtype) {
  std::optional<Bytes> total = dtype_size(dtype);
  for (std::uint64_t d : dims) {
    if (total) total = checked_mul(*total, d);
  }
  if (total && *total < kMaxBytes) return *total;
  if (!error_) {
    error_ = Error{s_.source, "a tensor of the model is 2^62 bytes or more: choose a smaller batch or sequence"};
  }
  return 0;
}

StorageId ModelBuilder::declare(StorageKind kind, const std::string& name, Bytes bytes, Dtype dtype, bool held) {
  Storage st = buffer_decl(name, device_, dtype, bytes);
  st.kind = kind;
  st.held = held;
  s_.storage.push_back(std::move(st));
  return static_cast<StorageId>(s_.storage.size() - 1);
}

StorageId ModelBuilder::buffer(const std::string& name, Bytes bytes, std::optional<Dtype> dtype) {
  return declare(StorageKind::Buffer, name, bytes, dtype.value_or(dtype_), false);
}

StorageId ModelBuilder::held(const std::string& name, Bytes bytes, std::optional<Dtype> dtype) {
  return declare(StorageKind::Buffer, name, bytes, dtype.value_or(dtype_), true);
}

StorageId ModelBuilder::param(const std::string& name, Bytes bytes, std::optional<Dtype> dtype) {
  return declare(StorageKind::Param, name, bytes, dtype.value_or(dtype_), false);
}

StorageId ModelBuilder::alloc(const std::string& name, Bytes bytes) {
  return declare(StorageKind::Alloc, name, bytes, Dtype::Int8, false);
}

StorageId ModelBuilder::weight(const std::string& name, Bytes bytes) {
  if (std::optional<StorageId> id = s_.find(name)) return *id;
  return weights_are_params_ ? param(name, bytes) : held(name, bytes);
}

void ModelBuilder::kernel(std::string name, Args args) {
  s_.entries.push_back(kernel_call(std::move(name), std::move(args)));
}

void ModelBuilder::copy(Arg destination, Arg source) {
  Entry e;
  e.kind = Entry::Kind::Copy;
  e.args = {std::move(destination), std::move(source)};
  s_.entries.push_back(std::move(e));
}

StorageId ModelBuilder::op(const std::string& name, const std::string& out, Bytes bytes, Args inputs,
                           std::vector<StorageId> weights) {
  const StorageId id = buffer(out, bytes);
  Args args{storage_arg(id)};
  args.insert(args.end(), inputs.begin(), inputs.end());
  for (StorageId w : weights) args.push_back(storage_arg(w));
  kernel(name, std::move(args));
  ops_.push_back(ForwardOp{name, id, std::move(inputs), std::move(weights)});
  return id;
}

void ModelBuilder::wrap_loop(std::size_t mark, Arg flag) {
  Entry loop;
  loop.kind = Entry::Kind::Loop;
  loop.mutable_body().assign(std::make_move_iterator(s_.entries.begin() + static_cast<std::ptrdiff_t>(mark)),
                   std::make_move_iterator(s_.entries.end()));
  s_.entries.resize(mark);
  loop.mutable_flag().push_back(std::move(flag));
  s_.entries.push_back(std::move(loop));
}

Result<Schedule> ModelBuilder::finish() && {
  if (error_) return *error_;
  // Every planner places at most the sum of max(256, rounded size); below
  // 2^62 it fits, and so does any arena written back as a declaration.
  Bytes total = 0;
  for (const Storage& st : s_.storage) {
    PLANCK_ASSIGN(const Bytes rounded, rounded_size(st));
    const std::optional<Bytes> sum = checked_add(total, std::max(kPlaceAlign, rounded));
    if (!sum || *sum >= kMaxBytes) {
      return Error{s_.source, "the model's storage adds up to 2^62 bytes or more: choose a smaller batch or sequence"};
    }
    total = *sum;
  }
  return std::move(s_);
}

Arg rebased(Arg arg, StorageId base) {
  Arg* a = &arg;
  while (a->kind != Arg::Kind::Storage) a = &a->view->base;
  a->storage = base;
  return arg;
}

}  // namespace planck::gen
