#include "planner/plain_planners.h"

namespace planck {

std::unique_ptr<Planner> plain_twin(std::string_view name) {
  if (name == "greedy") return make_greedy_plain_planner();
  if (name == "bysize") return make_bysize_plain_planner();
  return nullptr;
}

}  // namespace planck
