#include "draw/svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

namespace planck::draw {
namespace {

// The layout, in pixels.
constexpr int kLeft = 110;   // the address labels
constexpr int kRight = 24;
constexpr int kPlotWidth = kSvgWidth - kLeft - kRight;
constexpr int kPlotHeight = 300;
constexpr int kHeader = 44;       // the picture's title and note
constexpr int kNote = 16;         // the note on outlines
constexpr int kArenaTitle = 30;   // an arena's title, above its plot
constexpr int kAxis = 54;         // the entries under a plot
constexpr int kLine = 15;         // a line of text under it
constexpr int kGap = 18;
constexpr int kLegend = 80;
constexpr std::size_t kViolationLines = 8;  // lines of violations under a plot, at most
constexpr std::size_t kWrap = 150;          // characters of such a line, at most
constexpr double kCharWidth = 6.4;          // of the 11-pixel font, about
constexpr double kLabelSpacing = 44;        // between entry labels, at least

constexpr std::array<std::string_view, 10> kFills = {"#8dd3c7", "#bebada", "#80b1d3", "#fdb462", "#b3de69",
                                                      "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};
constexpr std::string_view kViolating = "#e41a1c";
constexpr std::string_view kViolatingStroke = "#67000d";
constexpr std::string_view kLoopShade = "#ececec";
constexpr std::string_view kFont = "font-family=\"DejaVu Sans, Verdana, sans-serif\"";

bool outlines(const Picture& p) { return p.box_count() > kOutlineAbove; }

// A long message cut into lines of at most kWrap characters, at blanks.
std::vector<std::string> wrapped(const std::string& text) {
  std::vector<std::string> out;
  std::string_view rest = text;
  while (rest.size() > kWrap) {
    std::size_t cut = rest.rfind(' ', kWrap);
    if (cut == std::string_view::npos || cut == 0) cut = kWrap;
    out.emplace_back(rest.substr(0, cut));
    rest.remove_prefix(std::min(rest.size(), cut + (rest[cut] == ' ' ? 1 : 0)));
  }
  out.emplace_back(rest);
  return out;
}

// The lines of violations under an arena's plot.
std::vector<std::string> violation_lines(const ArenaPicture& a) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < a.violations.size(); ++i) {
    const std::vector<std::string> lines = wrapped(a.violations[i]);
    if (out.size() + lines.size() > kViolationLines) {
      out.push_back(fmt::format("and {} more violation{} (see the rectangles' titles, or planck check)",
                                a.violations.size() - i, a.violations.size() - i == 1 ? "" : "s"));
      break;
    }
    out.insert(out.end(), lines.begin(), lines.end());
  }
  return out;
}

std::vector<std::string> other_lines(const Picture& p) {
  std::vector<std::string> out;
  for (const std::string& v : p.other_violations) {
    for (std::string& l : wrapped(v)) out.push_back(std::move(l));
  }
  if (p.unlisted_overlaps > 0) {
    out.push_back(fmt::format("and {} more overlap{} past those listed, not marked", p.unlisted_overlaps,
                              p.unlisted_overlaps == 1 ? "" : "s"));
  }
  return out;
}

// The bands of streams (v3): a title, then a lane per stream.
constexpr int kLane = 16;
constexpr std::size_t kMaxLanes = 32;
// The streams some entry runs on, in order: a lane each.
std::vector<StreamId> used_streams(const Picture& p) {
  std::vector<bool> used(p.streams.size(), false);
  for (const Column& c : p.columns) used[c.stream] = true;
  std::vector<StreamId> out;
  for (std::size_t st = 0; st < used.size(); ++st) {
    if (used[st]) out.push_back(static_cast<StreamId>(st));
  }
  return out;
}
std::size_t lanes(const Picture& p) { return p.has_streams() ? std::min(used_streams(p).size(), kMaxLanes) : 0; }
int streams_height(const Picture& p) {
  return lanes(p) == 0 ? 0 : 24 + static_cast<int>(lanes(p)) * kLane + (used_streams(p).size() > kMaxLanes ? kLine : 0) + 8;
}

int header_height(const Picture& p) { return kHeader + (outlines(p) ? kNote : 0) + streams_height(p); }

int arena_height(const ArenaPicture& a) {
  return kArenaTitle + kPlotHeight + kAxis + static_cast<int>(violation_lines(a).size()) * kLine + kGap;
}

class Svg {
 public:
  explicit Svg(const Picture& p) : p_(p), outline_(outlines(p)) {}

  std::string draw() {
    const int height = svg_height(p_);
    out_ = fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" {2} "
        "font-size=\"11\">\n",
        kSvgWidth, height, kFont);
    out_ += fmt::format("<title>{}</title>\n", xml_escaped(title()));
    out_ +=
        "<defs>\n"
        "<pattern id=\"shared\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\">\n"
        "<rect width=\"8\" height=\"8\" fill=\"#ffe600\"/><rect width=\"3.5\" height=\"8\" fill=\"#000000\"/>\n"
        "</pattern>\n"
        "<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
        "orient=\"auto\"><path d=\"M0 0 L10 5 L0 10 z\" fill=\"#08519c\"/></marker>\n"
        "</defs>\n";
    out_ += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", kSvgWidth, height);
    out_ += fmt::format("<text x=\"12\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
                        xml_escaped(title()));
    out_ += fmt::format("<text x=\"12\" y=\"37\" fill=\"{}\">{}</text>\n", p_.valid() ? "#1a7f37" : kViolating,
                        xml_escaped(verdict()));
    int y = kHeader;
    if (outline_) {
      out_ += fmt::format(
          "<text x=\"12\" y=\"{}\">{} buffers, more than {}: the buffers no violation names are drawn as outlines, "
          "without names or titles</text>\n",
          y + 10, p_.box_count(), kOutlineAbove);
      y += kNote;
    }
    if (lanes(p_) > 0) {
      streams(y);
      y += streams_height(p_);
    }
    for (const ArenaPicture& a : p_.arenas) {
      arena(a, y);
      y += arena_height(a);
    }
    for (const std::string& line : other_lines(p_)) {
      out_ += fmt::format("<text x=\"12\" y=\"{}\" fill=\"{}\">{}</text>\n", y + 11, kViolatingStroke,
                          xml_escaped(line));
      y += kLine;
    }
    legend(y);
    out_ += "</svg>\n";
    return std::move(out_);
  }

 private:
  std::string title() const { return fmt::format("{}: the plan of {}", p_.plan, p_.schedule); }

  std::string verdict() const {
    if (p_.valid()) {
      return fmt::format("valid: {} buffer{} in {} arena{}", p_.box_count(), p_.box_count() == 1 ? "" : "s",
                         p_.arenas.size(), p_.arenas.size() == 1 ? "" : "s");
    }
    const std::uint64_t n = p_.violation_count + p_.unlisted_overlaps;
    return fmt::format("invalid: {} violation{}; the buffers they name in red, the bytes and entries of each hatched",
                       n, n == 1 ? "" : "s");
  }

  // Pixel positions of entries and bytes in the arena drawn.
  double x_of(std::size_t slot) const {
    const std::size_t n = std::max<std::size_t>(p_.slots(), 1);
    return kLeft + static_cast<double>(kPlotWidth) * static_cast<double>(slot) / static_cast<double>(n);
  }
  // The left and right edges of an entry's slots.
  double left_of(std::size_t entry) const { return x_of(p_.first_slot(entry)); }
  double right_of(std::size_t entry) const { return x_of(p_.last_slot(entry) + 1); }
  double y_of(Bytes b) const {
    const long double top = top_ == 0 ? 1.0L : static_cast<long double>(top_);
    return static_cast<double>(plot_top_ + kPlotHeight -
                               static_cast<long double>(kPlotHeight) * static_cast<long double>(b) / top);
  }

  void arena(const ArenaPicture& a, int y) {
    top_ = a.top;
    plot_top_ = y + kArenaTitle;
    const int bottom = plot_top_ + kPlotHeight;
    out_ += fmt::format("<g id=\"arena-{}\">\n", xml_escaped(a.name));
    out_ += fmt::format(
        "<text x=\"12\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">arena {} on {}: {} bytes, {} buffer{}{}</text>\n",
        y + 18, xml_escaped(a.name), xml_escaped(a.device), a.size, a.boxes.size(), a.boxes.size() == 1 ? "" : "s",
        a.violations.empty() ? "" : fmt::format(", {} violation{}", a.violations.size(),
                                                  a.violations.size() == 1 ? "" : "s"));
    out_ += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fafafa\" stroke=\"#999999\"/>\n",
                        kLeft, plot_top_, kPlotWidth, kPlotHeight);
    loops();
    y_axis(a);
    x_axis(bottom);
    for (std::size_t k = 0; k < a.boxes.size(); ++k) box(a, k);
    for (const InPlacePair& ip : a.inplace) inplace(a, ip);
    for (const Mark& m : a.marks) mark(m, bottom);
    // The names last, over the marks.
    for (const Box& b : a.boxes) label(a, b);
    int line_y = bottom + kAxis;
    for (const std::string& line : violation_lines(a)) {
      out_ += fmt::format("<text x=\"12\" y=\"{}\" fill=\"{}\">{}</text>\n", line_y + 11, kViolatingStroke,
                          xml_escaped(line));
      line_y += kLine;
    }
    out_ += "</g>\n";
  }

  // A lane per stream, each entry a bar in its stream's lane at its slots,
  // each event an arrow from its record to its wait.
  void streams(int y) {
    const int top = y + 24;
    out_ += fmt::format("<g id=\"streams\">\n<text x=\"12\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">streams: "
                        "the entries each runs, and events from record to wait</text>\n",
                        y + 16);
    const std::vector<StreamId> used = used_streams(p_);
    std::vector<std::size_t> lane(p_.streams.size(), kMaxLanes);  // by stream; kMaxLanes: none
    for (std::size_t k = 0; k < lanes(p_); ++k) lane[used[k]] = k;
    const auto lane_y = [&](StreamId st) { return top + static_cast<int>(lane[st]) * kLane; };
    for (std::size_t k = 0; k < lanes(p_); ++k) {
      const StreamId st = used[k];
      out_ += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>"
                          "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#dddddd\"/>\n",
                          kLeft - 7, lane_y(st) + 11, xml_escaped(p_.streams[st].empty() ? "(default)" : p_.streams[st]),
                          kLeft, lane_y(st) + 7, kLeft + kPlotWidth, lane_y(st) + 7);
    }
    for (std::size_t e = 0; e < p_.columns.size(); ++e) {
      const Column& c = p_.columns[e];
      if (lane[c.stream] == kMaxLanes) continue;
      const bool event = c.kind == Entry::Kind::Record || c.kind == Entry::Kind::Wait;
      out_ += fmt::format("<rect x=\"{:.2f}\" y=\"{}\" width=\"{:.2f}\" height=\"10\" fill=\"{}\" stroke=\"#ffffff\" "
                          "stroke-width=\"0.5\"><title>{}</title></rect>\n",
                          left_of(e), lane_y(c.stream) + 2, right_of(e) - left_of(e), event ? "#08519c" : "#9ecae1",
                          xml_escaped(fmt::format("entry {}: {}, line {}, stream {}", e, c.label, c.line,
                                                  p_.streams[c.stream].empty() ? "(default)" : p_.streams[c.stream])));
    }
    for (const Event& ev : p_.events) {
      const StreamId from = p_.columns[ev.record].stream, to = p_.columns[ev.wait].stream;
      if (lane[from] == kMaxLanes || lane[to] == kMaxLanes) continue;
      out_ += fmt::format("<line x1=\"{:.2f}\" y1=\"{}\" x2=\"{:.2f}\" y2=\"{}\" stroke=\"#08519c\" stroke-width=\"1.5\" "
                          "marker-end=\"url(#arrow)\"><title>{}</title></line>\n",
                          (left_of(ev.record) + right_of(ev.record)) / 2, lane_y(from) + 7,
                          (left_of(ev.wait) + right_of(ev.wait)) / 2, lane_y(to) + 7,
                          xml_escaped(fmt::format("event {}: recorded at entry {}, waited for at entry {}", ev.name,
                                                  ev.record, ev.wait)));
    }
    if (used.size() > kMaxLanes) {
      out_ += fmt::format("<text x=\"12\" y=\"{}\">and {} more streams, not drawn</text>\n",
                          top + static_cast<int>(kMaxLanes) * kLane + 11, used.size() - kMaxLanes);
    }
    out_ += "</g>\n";
  }

  void loops() {
    for (std::size_t e = 0; e < p_.columns.size(); ++e) {
      const Column& c = p_.columns[e];
      if (!c.loop()) continue;
      out_ += fmt::format(
          "<rect x=\"{:.2f}\" y=\"{}\" width=\"{:.2f}\" height=\"{}\" fill=\"{}\"><title>entry {}: {}, lines {}-{}, "
          "{} call{} in its body</title></rect>\n",
          left_of(e), plot_top_, right_of(e) - left_of(e), kPlotHeight, kLoopShade, e, c.label, c.line, c.last_line,
          c.calls, c.calls == 1 ? "" : "s");
      // A loop drawn over the positions of its body: a line between each two.
      for (std::size_t k = 1; k < c.positions; ++k) {
        const double x = x_of(p_.first_slot(e) + k);
        out_ += fmt::format("<line x1=\"{0:.2f}\" y1=\"{1}\" x2=\"{0:.2f}\" y2=\"{2}\" stroke=\"#bbbbbb\" "
                            "stroke-dasharray=\"2 3\"/>\n",
                            x, plot_top_, plot_top_ + kPlotHeight);
      }
    }
  }

  void y_axis(const ArenaPicture& a) {
    std::vector<Bytes> ticks;
    for (unsigned i = 0; i <= 4; ++i) {
      ticks.push_back(a.top / 4 * i + a.top % 4 * i / 4);  // a.top * i / 4, which would pass 2^64
    }
    for (Bytes t : ticks) {
      const double y = y_of(t);
      out_ += fmt::format(
          "<line x1=\"{}\" y1=\"{:.2f}\" x2=\"{}\" y2=\"{:.2f}\" stroke=\"#999999\"/>"
          "<text x=\"{}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n",
          kLeft - 4, y, kLeft, y, kLeft - 7, y + 4, t);
    }
    out_ += fmt::format("<text x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\" text-anchor=\"middle\" "
                        "fill=\"#555555\">bytes of the arena</text>\n",
                        plot_top_ + kPlotHeight / 2, plot_top_ + kPlotHeight / 2);
    if (a.top > a.size) {
      const double y = y_of(a.size);
      out_ += fmt::format(
          "<line x1=\"{}\" y1=\"{:.2f}\" x2=\"{}\" y2=\"{:.2f}\" stroke=\"#000000\" stroke-dasharray=\"6 3\"/>"
          "<text x=\"{}\" y=\"{:.2f}\" text-anchor=\"end\" font-weight=\"bold\">{} (end)</text>\n",
          kLeft, y, kLeft + kPlotWidth, y, kLeft - 7, y - 3, a.size);
    }
  }

  void x_axis(int bottom) {
    const std::size_t n = p_.columns.size();
    const double width = p_.slots() == 0 ? kPlotWidth : static_cast<double>(kPlotWidth) / static_cast<double>(p_.slots());
    // Labels far enough apart for the widest, `line N`.
    int last_line = 0;
    for (const Column& c : p_.columns) last_line = std::max(last_line, c.line);
    const double spacing = std::max(kLabelSpacing, static_cast<double>(fmt::formatted_size("line {}", last_line)) * kCharWidth + 10);
    const std::size_t step = std::max<std::size_t>(1, static_cast<std::size_t>(spacing / width + 0.999));
    for (std::size_t e = 0; e < n; e += step) {
      const Column& c = p_.columns[e];
      const double x = left_of(e);
      const double mid = step == 1 ? (x + right_of(e)) / 2 : x;
      out_ += fmt::format("<line x1=\"{:.2f}\" y1=\"{}\" x2=\"{:.2f}\" y2=\"{}\" stroke=\"#999999\"/>", x, bottom, x,
                          bottom + 4);
      out_ += fmt::format("<text x=\"{:.2f}\" y=\"{}\" text-anchor=\"middle\">{}</text>", mid, bottom + 15, e);
      if (c.line > 0) {
        out_ += fmt::format("<text x=\"{:.2f}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555555\">line {}</text>",
                            mid, bottom + 28, c.line);
      }
      // The call, when there is room for it.
      const std::string label = c.loop() ? fmt::format("{} ({})", c.label, c.calls) : c.label;
      if (step == 1 && static_cast<double>(label.size()) * kCharWidth < right_of(e) - x - 2) {
        out_ += fmt::format("<text x=\"{:.2f}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555555\">{}</text>", mid,
                            bottom + 41, xml_escaped(label));
      }
      out_ += "\n";
    }
    out_ += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555555\">entry</text>\n", kLeft - 7,
                        bottom + 15);
  }

  // A rectangle's corners for bytes [begin, end) over the slots from..to:
  // at least a pixel high, so that small buffers in large arenas show.
  struct Rect {
    double x, y, w, h;
  };
  Rect rect(Bytes begin, Bytes end, std::size_t from, std::size_t to) const {
    const double x0 = x_of(from), x1 = x_of(to + 1);
    double y0 = y_of(end), y1 = y_of(begin);
    if (y1 - y0 < 1) y0 = y1 - 1;
    return {x0, y0, x1 - x0, y1 - y0};
  }

  void box(const ArenaPicture& a, std::size_t k) {
    const Box& b = a.boxes[k];
    const Rect r = rect(b.begin, b.end, b.from, b.to);
    const std::string at = fmt::format("x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\"", r.x, r.y, r.w, r.h);
    if (outline_ && !b.violating) {
      out_ += fmt::format("<rect {} fill=\"none\" stroke=\"#4a6fa5\" stroke-width=\"0.5\"/>\n", at);
      return;
    }
    const std::string_view fill = b.violating ? kViolating : kFills[k % kFills.size()];
    out_ += fmt::format("<rect class=\"buffer{}\" {} fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"><title>{}</title></rect>\n",
                        b.violating ? " violating" : "", at, fill, b.violating ? kViolatingStroke : "#333333",
                        b.violating ? 2 : 0.6, xml_escaped(box_text(p_, a, b)));
    io_markers(b, r);
  }

  // The longest run of a box's slots that no mark over its bytes covers,
  // where its name is best seen; all of them when marks cover every one.
  static std::pair<std::size_t, std::size_t> unmarked_entries(const ArenaPicture& a, const Box& b) {
    std::vector<std::pair<std::size_t, std::size_t>> covered;
    for (const Mark& m : a.marks) {
      if (m.begin < b.end && b.begin < m.end && m.from <= b.to && b.from <= m.to) {
        covered.emplace_back(std::max(m.from, b.from), std::min(m.to, b.to));
      }
    }
    if (covered.empty()) return {b.from, b.to};
    std::sort(covered.begin(), covered.end());
    std::pair<std::size_t, std::size_t> best{b.from, b.to};
    std::size_t best_len = 0, next = b.from;  // the first slot not yet covered
    const auto gap = [&](std::size_t from, std::size_t to) {  // entries [from, to)
      if (to > from && to - from > best_len) best_len = to - from, best = {from, to - 1};
    };
    for (const auto& [lo, hi] : covered) {
      gap(next, lo);
      next = std::max(next, hi + 1);
    }
    gap(next, b.to + 1);
    return best;
  }

  // A buffer's name in the middle of its box, where it fits, on a white
  // halo that keeps it readable over a mark.
  void label(const ArenaPicture& a, const Box& b) {
    if (outline_ && !b.violating) return;
    const auto [first, last] = unmarked_entries(a, b);
    const Rect r = rect(b.begin, b.end, first, last);
    if (static_cast<double>(b.name.size()) * kCharWidth + 4 > r.w || r.h < 13) return;
    out_ += fmt::format(
        "<text x=\"{:.2f}\" y=\"{:.2f}\" text-anchor=\"middle\" fill=\"#000000\" stroke=\"#ffffff\" "
        "stroke-width=\"3\" paint-order=\"stroke\"{}>{}</text>\n",
        r.x + r.w / 2, r.y + r.h / 2 + 4, b.violating ? " font-weight=\"bold\"" : "", xml_escaped(b.name));
  }

  // An input's box has a notch at its left (the caller writes it before
  // entry 0), an output's at its right (the caller reads it after the last).
  void io_markers(const Box& b, const Rect& r) {
    const double mid = r.y + r.h / 2;
    const double size = std::min(5.0, r.h / 2);
    if (size < 1.5) return;
    if (b.io & (kInput | kState)) {
      out_ += fmt::format("<path d=\"M{:.2f} {:.2f} l{:.2f} {:.2f} l{:.2f} {:.2f} z\" fill=\"#000000\"/>\n", r.x,
                          mid - size, size, size, -size, size);
    }
    if (b.io & (kOutput | kState)) {
      const double x = r.x + r.w;
      out_ += fmt::format("<path d=\"M{:.2f} {:.2f} l{:.2f} {:.2f} l{:.2f} {:.2f} z\" fill=\"#000000\"/>\n", x - size,
                          mid - size, size, size, -size, size);
    }
  }

  // The kernel that writes OUT over IN's bytes: a dashed line across the
  // column where one ends and the other starts.
  void inplace(const ArenaPicture& a, const InPlacePair& ip) {
    const Box& out = a.boxes[ip.out];
    const Box& in = a.boxes[ip.in];
    const double x = (left_of(ip.entry) + right_of(ip.entry)) / 2;
    const double y0 = y_of(std::max(out.end, in.end)), y1 = y_of(std::min(out.begin, in.begin));
    out_ += fmt::format(
        "<line x1=\"{0:.2f}\" y1=\"{1:.2f}\" x2=\"{0:.2f}\" y2=\"{2:.2f}\" stroke=\"#000000\" stroke-width=\"2\" "
        "stroke-dasharray=\"4 2\"><title>{3}</title></line>\n",
        x, y0, y1, xml_escaped(fmt::format("in place: entry {} writes {} over {}", ip.entry, out.name, in.name)));
  }

  void mark(const Mark& m, int bottom) {
    const Rect r = rect(m.begin, m.end, m.from, m.to);
    out_ += fmt::format(
        "<rect class=\"shared\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"url(#shared)\" "
        "fill-opacity=\"0.85\" stroke=\"#000000\" stroke-width=\"1.5\"><title>{}</title></rect>\n",
        r.x, r.y, r.w, r.h, xml_escaped(m.message));
    // The bytes on the address axis, the entries on the entry axis, and
    // both written in the mark where they fit.
    out_ += fmt::format("<line x1=\"{0}\" y1=\"{1:.2f}\" x2=\"{0}\" y2=\"{2:.2f}\" stroke=\"{3}\" stroke-width=\"4\"/>\n",
                        kLeft - 2, r.y, r.y + r.h, kViolating);
    const std::string where = fmt::format("[{}, {}) during {}", m.begin, m.end,
                                          m.first == m.last ? fmt::format("entry {}", m.first)
                                                            : fmt::format("entries {}..{}", m.first, m.last));
    if (static_cast<double>(where.size()) * kCharWidth + 8 <= r.w && r.h >= 16) {
      out_ += fmt::format(
          "<text x=\"{:.2f}\" y=\"{:.2f}\" fill=\"#000000\" stroke=\"#ffffff\" stroke-width=\"4\" "
          "paint-order=\"stroke\" font-weight=\"bold\">{}</text>\n",
          r.x + 4, r.y + 13, xml_escaped(where));
    }
    out_ += fmt::format("<line x1=\"{:.2f}\" y1=\"{}\" x2=\"{:.2f}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"4\"/>\n",
                        r.x, bottom + 2, r.x + r.w, bottom + 2, kViolating);
  }

  void legend(int y) {
    out_ += fmt::format("<g id=\"legend\" transform=\"translate(12 {})\">\n", y + 6);
    out_ += "<text x=\"0\" y=\"10\" font-weight=\"bold\">legend</text>\n";
    struct Item {
      std::string swatch;
      std::string_view text;
    };
    const Item items[] = {
        {fmt::format("<rect width=\"22\" height=\"12\" fill=\"{}\" stroke=\"#333333\" stroke-width=\"0.6\"/>", kFills[0]),
         "a buffer: its rounded block, over the entries it lives"},
        {fmt::format("<rect width=\"22\" height=\"12\" fill=\"{}\" stroke=\"{}\" stroke-width=\"2\"/>", kViolating,
                     kViolatingStroke),
         "a buffer a violation names"},
        {"<rect width=\"22\" height=\"12\" fill=\"url(#shared)\" stroke=\"#000000\" stroke-width=\"1.5\"/>",
         "a violation: bytes two live buffers share, or past the arena's end"},
        {fmt::format("<rect width=\"22\" height=\"12\" fill=\"{}\"/>", kLoopShade), "a loop: one entry"},
        {"<path d=\"M0 1 l5 5 l-5 5 z\" fill=\"#000000\"/><path d=\"M17 1 l5 5 l-5 5 z\" fill=\"#000000\"/>",
         "input or state (left), output or state (right)"},
        {"<line x1=\"11\" y1=\"0\" x2=\"11\" y2=\"12\" stroke=\"#000000\" stroke-width=\"2\" stroke-dasharray=\"4 2\"/>",
         "a kernel writing its output over its input, in place"},
    };
    for (std::size_t i = 0; i < std::size(items); ++i) {
      const int x = static_cast<int>(i % 2) * 480;
      const int row = 18 + static_cast<int>(i / 2) * 18;
      out_ += fmt::format("<g transform=\"translate({} {})\">{}<text x=\"28\" y=\"10\">{}</text></g>\n", x, row,
                          items[i].swatch, xml_escaped(items[i].text));
    }
    out_ += "</g>\n";
  }

  const Picture& p_;
  const bool outline_;
  std::string out_;
  Bytes top_ = 0;
  int plot_top_ = 0;
};

// The length of the UTF-8 sequence at text[i], or 0 when it is not one.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  const std::size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 && c >= 0xC2 ? 2 : (c & 0xF0) == 0xE0 ? 3
                      : (c & 0xF8) == 0xF0 && c <= 0xF4 ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return n;
}

}  // namespace

std::string xml_escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // Bytes that are no UTF-8 are written as `?`, as the document says it is UTF-8.
    if (static_cast<unsigned char>(c) >= 0x80) {
      const std::size_t n = utf8_length(text, i);
      if (n == 0) {
        out += '?';
      } else {
        out.append(text.substr(i, n));
        i += n - 1;
      }
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 has no place for the other control characters.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

int svg_height(const Picture& p) {
  int h = header_height(p);
  for (const ArenaPicture& a : p.arenas) h += arena_height(a);
  return h + static_cast<int>(other_lines(p).size()) * kLine + kLegend;
}

std::string svg_picture(const Picture& p) { return Svg(p).draw(); }

}  // namespace planck::draw
