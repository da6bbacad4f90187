#include "model/name_index.h"

namespace planck {

// The std::function form is compiled once, here, for all its users.
template class BasicNameIndex<std::function<std::string_view(std::size_t)>>;

}  // namespace planck
