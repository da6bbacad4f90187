#include "model/features.h"

#include <fmt/format.h>

#include <set>
#include <string>
#include <vector>

namespace planck {
namespace {

constexpr FeatureSwitch kSwitches[] = {
    {"range-loops", "range { ... } loops", &Features::range_loops},
    {"flag-loops", "loop flag=ARG { ... } loops", &Features::flag_loops},
    {"shrink-views", "shrink(ARG, START, LENGTH) views", &Features::shrink_views},
    {"bitcast-views", "bitcast(ARG, DTYPE) views", &Features::bitcast_views},
    {"after-views", "after(ARG) views", &Features::after_views},
    {"phase", "buffers with a phase", &Features::phases},
    {"held", "held buffers", &Features::held},
    {"disk", "storage on DISK devices", &Features::disks},
    {"devices", "storage on more than one device that is not a disk", &Features::several_devices},
    {"alloc-param", "alloc and param declarations", &Features::alloc_param},
    {"zero-bytes", "storage and shrink views of 0 bytes", &Features::zero_bytes},
    {"huge", "sizes of 2^40 bytes and more, up to near 2^62", &Features::huge_sizes},
    {"copies", "copy calls", &Features::copies},
    {"unused", "declarations that no entry takes", &Features::unused_storage},
    {"align", "device lines with an align other than 256", &Features::align, 2},
    {"capacity", "device lines with a capacity", &Features::capacity, 2},
    {"inputs", "planned inputs (buffers marked input)", &Features::inputs, 2},
    {"outputs", "planned outputs (buffers marked output)", &Features::outputs, 2},
    {"state", "state (buffers marked state)", &Features::state, 2},
    {"inplace", "in-place kernels (inplace=OUT:IN)", &Features::inplace, 2},
    {"streams", "entries on several streams, ordered by record and wait", &Features::streams, 3},
    {"local", "loop-local buffers (local)", &Features::local, 3},
};

// Every feature of models up to `model` on, the later ones off.
Features up_to(int model) {
  Features f;
  for (const FeatureSwitch& sw : kSwitches) f.*sw.on = sw.model <= model;
  return f;
}

// `f` with the features of models past `model` off.
Features only_up_to(Features f, int model) {
  for (const FeatureSwitch& sw : kSwitches) {
    if (sw.model > model) f.*sw.on = false;
  }
  return f;
}

// What the arguments of `a`'s view layers use.
void views_use(const Arg& a, Features& used) {
  for (const Arg* v = &a; v->kind != Arg::Kind::Storage; v = &v->view->base) {
    used.shrink_views |= v->kind == Arg::Kind::Shrink;
    used.bitcast_views |= v->kind == Arg::Kind::Bitcast;
    used.after_views |= v->kind == Arg::Kind::After;
    used.zero_bytes |= v->kind == Arg::Kind::Shrink && v->view->length == 0;
  }
}

// What the entries of `body` use, at every depth, and which storage their
// arguments and loop flags take. Loops nest at most kMaxNesting deep, so the
// recursion is bounded.
void entries_use(const std::vector<Entry>& body, Features& used, std::vector<bool>& taken) {
  for (const Entry& e : body) {
    used.range_loops |= e.kind == Entry::Kind::Range;
    used.flag_loops |= e.kind == Entry::Kind::Loop;
    used.copies |= e.kind == Entry::Kind::Copy;
    used.inplace |= !e.inplace().empty();
    used.streams |= e.stream != 0 || e.kind == Entry::Kind::Record || e.kind == Entry::Kind::Wait;
    const auto take = [&](const Arg& a) {
      views_use(a, used);
      taken[storage_of(a)] = true;
    };
    for (const Arg& a : e.args) take(a);
    for (const Arg& a : e.flag()) take(a);
    entries_use(e.body(), used, taken);
  }
}

}  // namespace

std::span<const FeatureSwitch> feature_switches() { return kSwitches; }

Features no_features() {
  Features none;
  for (const FeatureSwitch& sw : kSwitches) none.*sw.on = false;
  return none;
}

Features& operator|=(Features& a, const Features& b) {
  for (const FeatureSwitch& sw : kSwitches) a.*sw.on = a.*sw.on || b.*sw.on;
  return a;
}

Features used_features(const Schedule& s) {
  Features used = no_features();
  std::vector<bool> taken(s.storage.size(), false);
  entries_use(s.entries, used, taken);
  std::set<std::string> devices;
  for (StorageId id = 0; id < s.storage.size(); ++id) {
    const Storage& st = s.storage[id];
    used.phases |= st.phase != 0;
    used.held |= st.held;
    used.disks |= is_disk(st.device);
    if (!is_disk(st.device)) devices.insert(st.device);
    used.alloc_param |= st.kind != StorageKind::Buffer;
    used.zero_bytes |= st.bytes == 0;
    used.huge_sizes |= st.bytes >= kHugeBytes;
    used.unused_storage |= !taken[id];
    used.inputs |= (st.io & kInput) != 0;
    used.outputs |= (st.io & kOutput) != 0;
    used.state |= (st.io & kState) != 0;
    used.local |= st.local;
  }
  for (const Device& d : s.devices) {
    used.align |= d.align != kPlaceAlign || !d.capacity;
    used.capacity |= d.capacity.has_value();
  }
  used.several_devices = devices.size() > 1;
  return used;
}

Features v1_features() { return up_to(1); }
Features v2_features() { return up_to(2); }
Features v1_only(Features f) { return only_up_to(f, 1); }
Features v2_only(Features f) { return only_up_to(f, 2); }

Result<Features> parse_features(std::string_view list) {
  Features f = no_features();
  std::size_t words = 0;
  while (true) {
    const std::size_t comma = list.find(',');
    const std::string_view word = list.substr(0, comma);
    if (word.empty()) {
      return Error{"", list.empty() && words == 0 ? std::string("an empty list of features")
                                                  : std::string("an empty name in the list of features")};
    }
    ++words;
    if (word == "none") {
    } else if (word == "v1") {
      f |= v1_features();
    } else if (word == "v2") {
      f |= v2_features();
    } else if (word == "v3") {
      f = Features{};
    } else {
      const FeatureSwitch* found = nullptr;
      for (const FeatureSwitch& sw : kSwitches) {
        if (sw.name == word) found = &sw;
      }
      if (found == nullptr) {
        std::string names = "v1, v2, v3, none";
        for (const FeatureSwitch& sw : kSwitches) names += ", " + std::string(sw.name);
        return Error{"", fmt::format("no feature is named '{}' (the features: {})", word, names)};
      }
      f.*found->on = true;
    }
    if (comma == std::string_view::npos) return f;
    list.remove_prefix(comma + 1);
  }
}

std::string features_text(const Features& f) {
  if (f == Features{}) return "v3";
  // The largest group it holds whole, then the features past it.
  int group = 0;
  for (int model : {1, 2}) {
    if (allows(f, up_to(model))) group = model;
  }
  std::string out = group > 0 ? fmt::format("v{}", group) : "";
  for (const FeatureSwitch& sw : kSwitches) {
    if (f.*sw.on && sw.model > group) out += (out.empty() ? "" : ",") + std::string(sw.name);
  }
  return out.empty() ? "none" : out;
}

bool operator==(const Features& a, const Features& b) {
  for (const FeatureSwitch& sw : kSwitches) {
    if (a.*sw.on != b.*sw.on) return false;
  }
  return true;
}

bool allows(const Features& allowed, const Features& used) {
  for (const FeatureSwitch& sw : kSwitches) {
    if (used.*sw.on && !(allowed.*sw.on)) return false;
  }
  return true;
}

}  // namespace planck
