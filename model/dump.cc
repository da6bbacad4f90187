#include "model/dump.h"

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace planck {
namespace {

std::string_view arg_kind_name(Arg::Kind k) {
  switch (k) {
    case Arg::Kind::Storage: return "storage";
    case Arg::Kind::Shrink: return "shrink";
    case Arg::Kind::Bitcast: return "bitcast";
    case Arg::Kind::After: return "after";
  }
  return "?";
}

std::string_view entry_kind_name(Entry::Kind k) {
  switch (k) {
    case Entry::Kind::Kernel: return "kernel";
    case Entry::Kind::Copy: return "copy";
    case Entry::Kind::Range: return "range";
    case Entry::Kind::Loop: return "loop";
    case Entry::Kind::Record: return "record";
    case Entry::Kind::Wait: return "wait";
  }
  return "?";
}

void dump_arg(std::string& out, const Arg& arg, const std::string& path) {
  fmt::format_to(std::back_inserter(out), "arg {} {} {} storage={}", path, arg_kind_name(arg.kind),
                 dtype_name(arg.dtype), arg.storage);
  if (arg.view) {
    fmt::format_to(std::back_inserter(out), " start={} length={}\n", arg.view->start, arg.view->length);
    dump_arg(out, arg.view->base, path + ".base");
    return;
  }
  out += '\n';
}

void dump_entries(std::string& out, const std::vector<Entry>& entries, const std::string& prefix) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    const std::string path = prefix.empty() ? fmt::format("{}", i) : fmt::format("{}.{}", prefix, i);
    fmt::format_to(std::back_inserter(out), "entry {} {} {} args={} stream={} at {}:{}\n", path,
                   entry_kind_name(e.kind), e.name, e.args.size(), e.stream, e.pos.line, e.pos.col);
    for (std::size_t a = 0; a < e.args.size(); ++a) dump_arg(out, e.args[a], fmt::format("{}.{}", path, a));
    for (const Arg& flag : e.flag()) dump_arg(out, flag, path + ".flag");
    for (const InPlace& pair : e.inplace()) {
      fmt::format_to(std::back_inserter(out), "inplace {} out={} in={}\n", path, pair.out, pair.in);
    }
    dump_entries(out, e.body(), path);
  }
}

}  // namespace

std::string dump_schedule(const Schedule& s) {
  std::string out = fmt::format("source {}\n", s.source);
  for (const Device& d : s.devices) {
    fmt::format_to(std::back_inserter(out), "device {} align={} capacity={} at {}:{}\n", d.name, d.align,
                   d.capacity ? fmt::format("{}", *d.capacity) : std::string("none"), d.pos.line, d.pos.col);
  }
  for (std::size_t i = 0; i < s.storage.size(); ++i) {
    const Storage& st = s.storage[i];
    fmt::format_to(std::back_inserter(out), "storage {} {} {} {} {} {} phase={} held={} io={} local={} at {}:{}\n",
                   i, storage_kind_name(st.kind), st.name, st.device, dtype_name(st.dtype), st.bytes, st.phase,
                   st.held ? 1 : 0, st.io, st.local ? 1 : 0, st.pos.line, st.pos.col);
  }
  for (std::size_t i = 1; i < s.streams.size(); ++i) fmt::format_to(std::back_inserter(out), "stream {} {}\n", i, s.streams[i]);
  dump_entries(out, s.entries, "");
  return out;
}

std::optional<std::string> parse_results_differ(const Result<Schedule>& a, const Result<Schedule>& b) {
  if (bool(a) != bool(b)) {
    return fmt::format("only the {} reading parses; the other fails: {}", a ? "first" : "second",
                       a ? b.error().message() : a.error().message());
  }
  if (!a) {
    if (a.error().message() == b.error().message()) return std::nullopt;
    return fmt::format("different errors:\n{}\n{}", a.error().message(), b.error().message());
  }
  const std::string first = dump_schedule(*a);
  const std::string second = dump_schedule(*b);
  if (first == second) return std::nullopt;
  return fmt::format("different records:\n{}\n{}", first, second);
}

}  // namespace planck
