#include "model/name.h"

#include <ostream>

namespace planck {

std::ostream& operator<<(std::ostream& out, const Name& name) { return out << name.view(); }

}  // namespace planck
