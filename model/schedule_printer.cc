#include "model/schedule_printer.h"

#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace planck {
namespace {

void append_arg(std::string& out, const Schedule& s, const Arg& arg) {
  std::vector<const Arg*> views;
  const Arg* a = &arg;
  while (a->kind != Arg::Kind::Storage) {
    views.push_back(a);
    a = &a->view->base;
  }
  for (const Arg* v : views) {
    switch (v->kind) {
      case Arg::Kind::Shrink: out += "shrink("; break;
      case Arg::Kind::Bitcast: out += "bitcast("; break;
      case Arg::Kind::After: out += "after("; break;
      case Arg::Kind::Storage: break;
    }
  }
  out += s.storage[a->storage].name;
  for (auto it = views.rbegin(); it != views.rend(); ++it) {
    const Arg& v = **it;
    switch (v.kind) {
      case Arg::Kind::Shrink: fmt::format_to(std::back_inserter(out), ", {}, {})", v.view->start, v.view->length); break;
      case Arg::Kind::Bitcast: fmt::format_to(std::back_inserter(out), ", {})", dtype_name(v.dtype)); break;
      case Arg::Kind::After: out += ')'; break;
      case Arg::Kind::Storage: break;
    }
  }
}

void append_declaration(std::string& out, const Storage& st) {
  fmt::format_to(std::back_inserter(out), "{} {} {} {} {}", storage_kind_name(st.kind), st.name, st.device,
                 dtype_name(st.dtype), st.bytes);
  if (st.kind == StorageKind::Buffer) {
    if (st.phase != 0) fmt::format_to(std::back_inserter(out), " phase={}", st.phase);
    if (st.held) out += " held";
    if (st.io & kInput) out += " input";
    if (st.io & kOutput) out += " output";
    if (st.io & kState) out += " state";
    if (st.local) out += " local";
  }
  out += '\n';
}

void append_device(std::string& out, const Device& d) {
  fmt::format_to(std::back_inserter(out), "device {}", d.name);
  if (d.align != kPlaceAlign) fmt::format_to(std::back_inserter(out), " align={}", d.align);
  if (d.capacity) fmt::format_to(std::back_inserter(out), " capacity={}", *d.capacity);
  out += '\n';
}

// ` stream=S` for an entry on a named stream.
void append_stream(std::string& out, const Schedule& s, const Entry& e) {
  if (e.stream != 0 && e.stream < s.streams.size()) {
    out += " stream=";
    out += s.streams[e.stream];
  }
}

// Entries are walked with an explicit stack, so a model of any depth prints.
void append_entries(std::string& out, const Schedule& s) {
  struct Level {
    const std::vector<Entry>* entries;
    std::size_t next;
  };
  std::vector<Level> stack{{&s.entries, 0}};
  auto indent = [&](std::size_t depth) { out.append(2 * depth, ' '); };
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.entries->size()) {
      stack.pop_back();
      if (!stack.empty()) {
        indent(stack.size() - 1);
        out += "}\n";
      }
      continue;
    }
    const Entry& e = (*level.entries)[level.next++];
    indent(stack.size() - 1);
    switch (e.kind) {
      case Entry::Kind::Kernel:
      case Entry::Kind::Copy:
        out += e.kind == Entry::Kind::Kernel ? "kernel " + e.name : std::string("copy");
        for (const Arg& a : e.args) {
          out += ' ';
          append_arg(out, s, a);
        }
        for (const InPlace& pair : e.inplace()) {
          fmt::format_to(std::back_inserter(out), " inplace={}:{}", s.storage[pair.out].name, s.storage[pair.in].name);
        }
        append_stream(out, s, e);
        out += '\n';
        break;
      case Entry::Kind::Range:
        out += "range";
        append_stream(out, s, e);
        out += " {\n";
        stack.push_back({&e.body(), 0});
        break;
      case Entry::Kind::Loop:
        out += "loop flag=";
        append_arg(out, s, e.flag().front());
        append_stream(out, s, e);
        out += " {\n";
        stack.push_back({&e.body(), 0});
        break;
      case Entry::Kind::Record:
      case Entry::Kind::Wait:
        out += e.kind == Entry::Kind::Record ? "record " : "wait ";
        out += e.name;
        append_stream(out, s, e);
        out += '\n';
        break;
    }
  }
}

}  // namespace

std::string print_schedule(const Schedule& s) {
  std::string out = fmt::format("schedule v{}\n", s.version());
  for (const Device& d : s.devices) append_device(out, d);
  for (const Storage& st : s.storage) append_declaration(out, st);
  append_entries(out, s);
  return out;
}

std::string print_arg(const Schedule& s, const Arg& arg) {
  std::string out;
  append_arg(out, s, arg);
  return out;
}

}  // namespace planck
