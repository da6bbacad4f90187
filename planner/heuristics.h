#pragma once
// The planners of SPEC section 6 besides the reference one. Internal to
// planner/: everyone else reaches them by name through make_planner.

#include <memory>

#include "planner/planner.h"

namespace planck {

std::unique_ptr<Planner> make_greedy_planner();  // "greedy", greedy.cc
std::unique_ptr<Planner> make_bysize_planner();  // "bysize", bysize.cc
std::unique_ptr<Planner> make_naive_planner();   // "naive", naive.cc
std::unique_ptr<Planner> make_best_planner();    // "best", best.cc

}  // namespace planck
