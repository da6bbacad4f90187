#pragma once
// Pieces of schedules built and edited in code, shared by the generators,
// the shrinker and the tests that build schedules on top of them.

#include <cstddef>
#include <string>
#include <vector>

#include "model/schedule.h"

namespace planck::gen {

// An argument that names storage, a kernel call, a buffer declaration (not
// held, phase 0).
Arg storage_arg(StorageId id);
Entry kernel_call(std::string name, Args args = {});
Storage buffer_decl(std::string name, std::string device, Dtype dtype, Bytes bytes);

// Views of an argument (docs/formats.md#schedules-sched): shrink(base, start, length),
// bitcast(base, dtype), after(base).
Arg shrink_view(Arg base, Bytes start, Bytes length);
Arg bitcast_view(Arg base, Dtype dtype);
Arg after_view(Arg base);

// Entries at every depth: calls and loops.
std::size_t count_entries(const Schedule& s);

// The view layers around the storage an argument names (0 for storage).
std::size_t view_layers(const Arg& a);

// Calls f on every argument of every entry at every depth, loop flags
// included. Loops nest at most kMaxNesting deep, so the recursion is bounded.
template <class Entries, class F>
void for_each_arg(Entries&& entries, F&& f) {
  for (auto& e : entries) {
    for (auto& a : e.args) f(a);
    if (!e.parts) continue;
    for (auto& a : e.parts->flag) f(a);
    for_each_arg(e.parts->body, f);
  }
}

// Calls f on every entry at every depth, loops before their bodies.
template <class Entries, class F>
void for_each_entry(Entries&& entries, F&& f) {
  for (auto& e : entries) {
    f(e);
    if (e.parts) for_each_entry(e.parts->body, f);
  }
}

// Removes every declaration that no entry takes.
void drop_unused_storage(Schedule& s);

// Gives every reference to storage, in arguments and `inplace=` pairs, the
// number renumbered[old number].
void renumber_storage(Schedule& s, const std::vector<StorageId>& renumbered);

// Drops every `inplace=OUT:IN` that the kernel's arguments no longer allow
// (docs/model-v2.md): OUT or IN not among its plain arguments, or the same.
void repair_inplace(Schedule& s);

// Clamps every shrink view to its base and turns every bitcast that no
// longer divides its base into int8, so that a schedule whose storage got
// smaller is valid again.
void repair_views(Schedule& s);

// Model v3 kept valid after an edit: a `wait` of an event not recorded
// before it goes, and so does a second `record` of one event; a buffer
// marked `local` that is no longer taken inside one top-level loop alone
// (its flag aside), or is held or an input, output or state, loses the word.
void repair_v3(Schedule& s);

}  // namespace planck::gen
