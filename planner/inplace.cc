#include "planner/inplace.h"

#include "model/inplace_views.h"

namespace planck {
namespace {

constexpr std::size_t kUnplanned = static_cast<std::size_t>(-1);

}  // namespace

std::vector<InPlaceLives> inplace_pairs(const Schedule& s, const std::vector<Lifetime>& lives) {
  std::vector<InPlaceLives> out;
  std::vector<std::size_t> life_of;  // by storage, made at the first declaration
  for (std::size_t entry = 0; entry < s.entries.size(); ++entry) {
    const Entry& e = s.entries[entry];
    if (e.kind != Entry::Kind::Kernel || e.inplace().empty()) continue;
    if (life_of.empty()) {
      life_of.assign(s.storage.size(), kUnplanned);
      for (std::size_t i = 0; i < lives.size(); ++i) life_of[lives[i].buffer] = i;
    }
    for (const InPlace& pair : e.inplace()) {
      const std::size_t o = life_of[pair.out];
      const std::size_t i = life_of[pair.in];
      if (o == kUnplanned || i == kUnplanned) continue;
      const Storage& os = s.storage[pair.out];
      const Storage& is = s.storage[pair.in];
      const bool ends_here = lives[i].last == entry && lives[o].first == entry;
      const bool roles = !lives_to_end(is) && !lives_from_start(os);
      const bool plain = !takes_through_view(e, pair.out) && !takes_through_view(e, pair.in);
      const bool fits = os.device == is.device && os.phase == is.phase && os.bytes <= is.bytes;
      if (ends_here && roles && plain && fits) out.push_back({o, i});
    }
  }
  return out;
}

}  // namespace planck
