#pragma once
// Each planner's constructor, one per file. Internal to planner/: the
// registry (registry.h) lists them, and everyone else reaches them by name
// through make_planner.

#include <memory>

#include "planner/planner.h"

namespace planck {

std::unique_ptr<Planner> make_tlsf_planner();    // "tlsf", tlsf_planner.cc
std::unique_ptr<Planner> make_greedy_planner();  // "greedy", greedy.cc
std::unique_ptr<Planner> make_bysize_planner();  // "bysize", bysize.cc
std::unique_ptr<Planner> make_naive_planner();   // "naive", naive.cc
std::unique_ptr<Planner> make_best_planner();    // "best", best.cc
std::unique_ptr<Planner> make_tinygrad_planner();  // "tinygrad", events_planner.cc

}  // namespace planck
