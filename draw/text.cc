#include "draw/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <string_view>
#include <utility>
#include <vector>

namespace planck::draw {
namespace {

constexpr std::string_view kLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
constexpr char kManyLetter = '*';  // the buffers past the letters
constexpr char kMarked = '#';
constexpr char kLoopFree = '.';
constexpr char kFree = ' ';

char letter(std::size_t box) { return box < kLetters.size() ? kLetters[box] : kManyLetter; }

Bytes ceil_div(Bytes a, Bytes b) { return a == 0 ? 0 : (a - 1) / b + 1; }

// The horizontal axis: character columns against slots (picture.h: a
// top-level entry each, or a position of a loop's body). Either every slot
// has `per_slot` columns, or, when the slots outnumber the columns there
// are, each column stands for `slots_per` slots.
class Across {
 public:
  Across(std::size_t slots, std::size_t room) : slots_(slots) {
    room = std::max<std::size_t>(room, 1);
    if (slots <= room) {
      per_slot_ = std::clamp<std::size_t>(room / std::max<std::size_t>(slots, 1), 1, kMaxColumnsPerEntry);
      cells_ = slots * per_slot_;
    } else {
      slots_per_ = (slots + room - 1) / room;
      cells_ = (slots + slots_per_ - 1) / slots_per_;
    }
  }
  std::size_t cells() const { return cells_; }
  std::size_t per_slot() const { return per_slot_; }
  std::size_t slots_per() const { return slots_per_; }
  std::size_t first_cell(std::size_t slot) const { return per_slot_ > 0 ? slot * per_slot_ : slot / slots_per_; }
  std::size_t last_cell(std::size_t slot) const {
    return per_slot_ > 0 ? slot * per_slot_ + per_slot_ - 1 : slot / slots_per_;
  }
  // The first and last slot a column shows.
  std::size_t first_slot_of(std::size_t cell) const { return per_slot_ > 0 ? cell / per_slot_ : cell * slots_per_; }
  std::size_t last_slot_of(std::size_t cell) const {
    return per_slot_ > 0 ? cell / per_slot_ : std::min(slots_ - 1, cell * slots_per_ + slots_per_ - 1);
  }

 private:
  std::size_t slots_ = 0;
  std::size_t per_slot_ = 0;
  std::size_t slots_per_ = 0;
  std::size_t cells_ = 0;
};

// The bytes of a row: the greatest common divisor of every edge drawn, when
// that gives few enough rows, else a power of two that does.
Bytes row_bytes(const ArenaPicture& a) {
  Bytes g = a.top;
  const auto edge = [&](Bytes b) { g = std::gcd(g, b); };
  edge(a.size);
  for (const Box& b : a.boxes) {
    edge(b.begin);
    edge(b.end);
  }
  for (const Mark& m : a.marks) {
    edge(m.begin);
    edge(m.end);
  }
  if (g > 0 && a.top / g <= kMaxTextRows) return g;
  return std::bit_ceil(ceil_div(a.top, kMaxTextRows));
}

// Writes `text` into `row` at `at` when it fits before `limit`, over
// blanks only and with a blank or the row's end on each side; returns
// whether it did.
bool put(std::string& row, std::size_t at, std::string_view text, std::size_t limit) {
  if (at + text.size() > std::min(limit, row.size())) return false;
  if ((at > 0 && row[at - 1] != ' ') || (at + text.size() < row.size() && row[at + text.size()] != ' ')) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (row[at + i] != ' ') return false;
  }
  row.replace(at, text.size(), text);
  return true;
}

class ArenaDrawing {
 public:
  ArenaDrawing(const Picture& p, const ArenaPicture& a, std::size_t width, bool messages)
      : p_(p), a_(a), messages_(messages) {
    margin_ = std::max<std::size_t>(fmt::formatted_size("{}", a.top), 5) + 2;
    across_ = Across(p.slots(), width > margin_ + 1 ? width - margin_ - 1 : 1);
  }

  std::string draw() {
    std::string out = header();
    if (p_.columns.empty() || a_.top == 0) {
      out += a_.top == 0 ? "  (nothing to draw: no byte placed)\n" : "  (nothing to draw: the schedule has no entry)\n";
    } else {
      unit_ = row_bytes(a_);
      rows_ = static_cast<std::size_t>(ceil_div(a_.top, unit_));
      fill();
      out += plot();
      out += axis();
    }
    out += key();
    return out;
  }

 private:
  std::string header() const {
    const std::size_t n = a_.boxes.size();
    std::string out = fmt::format("arena {} on {}: {} bytes{}, {} buffer{}", a_.name, a_.device, a_.size,
                                  a_.plan_line > 0 ? fmt::format(" (plan line {})", a_.plan_line) : "", n,
                                  n == 1 ? "" : "s");
    if (a_.top > a_.size) out += fmt::format(", drawn to {} (past its end)", a_.top);
    out += "\n";
    return out;
  }

  std::size_t cell(std::size_t row, std::size_t col) const { return row * across_.cells() + col; }

  // Each cell's buffer (the one holding most of its bytes, the first placed
  // among equals) and whether a violation is there.
  void fill() {
    const std::size_t cells = rows_ * across_.cells();
    winner_.assign(cells, kNone);
    held_.assign(cells, 0);
    marked_.assign(cells, false);
    for (std::size_t k = 0; k < a_.boxes.size(); ++k) {
      const Box& b = a_.boxes[k];
      if (b.end <= b.begin) continue;
      for (std::size_t r = b.begin / unit_; r <= (b.end - 1) / unit_ && r < rows_; ++r) {
        const Bytes lo = std::max<Bytes>(b.begin, r * unit_);
        const Bytes hi = std::min<Bytes>(b.end, r * unit_ + unit_);
        for (std::size_t c = across_.first_cell(b.from); c <= across_.last_cell(b.to); ++c) {
          if (hi - lo > held_[cell(r, c)]) {
            held_[cell(r, c)] = hi - lo;
            winner_[cell(r, c)] = k;
          }
        }
      }
    }
    for (const Mark& m : a_.marks) {
      if (m.end <= m.begin) continue;
      for (std::size_t r = m.begin / unit_; r <= (m.end - 1) / unit_ && r < rows_; ++r) {
        for (std::size_t c = across_.first_cell(m.from); c <= across_.last_cell(m.to); ++c) marked_[cell(r, c)] = true;
      }
    }
  }

  // The rows of one box's letters with its name written in, where it fits.
  void write_names(std::vector<std::string>& rows) const {
    for (std::size_t k = 0; k < a_.boxes.size(); ++k) {
      const Box& b = a_.boxes[k];
      if (b.end <= b.begin) continue;
      const std::size_t r = static_cast<std::size_t>((b.begin / unit_ + (b.end - 1) / unit_) / 2);
      if (r >= rows_) continue;
      std::string& row = rows[r];
      // The longest run of the box's own cells in its middle row.
      std::size_t best_at = 0, best_len = 0;
      for (std::size_t c = across_.first_cell(b.from); c <= across_.last_cell(b.to);) {
        std::size_t end = c;
        while (end <= across_.last_cell(b.to) && winner_[cell(r, end)] == k && !marked_[cell(r, end)]) ++end;
        if (end - c > best_len) best_len = end - c, best_at = c;
        c = end + 1;
      }
      if (best_len >= b.name.size() + 2) row.replace(best_at + (best_len - b.name.size()) / 2, b.name.size(), b.name);
    }
  }

  std::string plot() const {
    std::vector<std::string> rows(rows_, std::string(across_.cells(), kFree));
    for (std::size_t r = 0; r < rows_; ++r) {
      for (std::size_t c = 0; c < across_.cells(); ++c) {
        char& ch = rows[r][c];
        if (marked_[cell(r, c)]) {
          ch = kMarked;
        } else if (winner_[cell(r, c)] != kNone) {
          ch = letter(winner_[cell(r, c)]);
        } else if (in_loop(c)) {
          ch = kLoopFree;
        }
      }
    }
    write_names(rows);
    const std::size_t digits = margin_ - 2;
    std::string out = fmt::format("{:>{}} +{}\n", a_.top, digits, std::string(across_.cells(), '-'));
    bool past_end = a_.top > a_.size;  // rows past the arena's end are drawn above its line
    for (std::size_t r = rows_; r-- > 0;) {
      const Bytes from = static_cast<Bytes>(r) * unit_;
      if (past_end && from < a_.size) {
        out += fmt::format("{:>{}} +{} the arena's end\n", a_.size, digits, std::string(across_.cells(), '~'));
        past_end = false;
      }
      out += fmt::format("{:>{}} |{}\n", from, digits, trimmed(rows[r]));
    }
    return out;
  }

  bool in_loop(std::size_t c) const {
    for (std::size_t slot = across_.first_slot_of(c); slot <= across_.last_slot_of(c); ++slot) {
      if (p_.columns[p_.entry_of_slot[slot]].loop()) return true;
    }
    return false;
  }

  // The entries under the plot: a tick where each starts, its number, its
  // source line and what it calls.
  std::string axis() const {
    const std::size_t n = across_.cells();
    std::string ticks(n, '-'), numbers(n, ' '), lines(n, ' '), calls(n, ' ');
    for (std::size_t e = 0; e < p_.columns.size(); ++e) {
      const std::size_t at = across_.first_cell(p_.first_slot(e));
      if (across_.per_slot() == 0 && at * across_.slots_per() != p_.first_slot(e)) continue;  // not the first of its column
      if (across_.per_slot() > 1 && e > 0) ticks[at] = '+';
      const Column& col = p_.columns[e];
      const std::size_t limit = across_.per_slot() > 0 ? across_.last_cell(p_.last_slot(e)) + 1 : n;
      put(numbers, at, fmt::format("{}", e), n);
      if (col.line > 0) {
        put(lines, at,
            col.last_line > col.line ? fmt::format("{}-{}", col.line, col.last_line) : fmt::format("{}", col.line),
            across_.per_slot() > 1 ? limit : n);
      }
      std::string label = col.loop() ? fmt::format("{}({})", col.label, col.calls) : col.label;
      if (across_.per_slot() > 1 && label.size() > limit - at - 1) label.resize(limit - at - 1);
      if (across_.per_slot() > 1) put(calls, at, label, limit);
    }
    const std::size_t digits = margin_ - 2;
    std::string out = fmt::format("{:>{}} +{}\n", "", digits, ticks);
    out += fmt::format("{:>{}}  {}\n", "entry", digits, trimmed(numbers));
    if (lines.find_first_not_of(' ') != std::string::npos) out += fmt::format("{:>{}}  {}\n", "line", digits, trimmed(lines));
    if (calls.find_first_not_of(' ') != std::string::npos) out += fmt::format("{:>{}}  {}\n", "call", digits, trimmed(calls));
    if (p_.has_streams()) out += streams(digits);
    if (across_.slots_per() > 1) {
      out += fmt::format("{:>{}}  each column {} {}\n", "", digits, across_.slots_per(),
                         p_.slots() == p_.columns.size() ? "entries" : "entries or positions of loops");
    }
    out += fmt::format("{:>{}}  each row {} bytes{}\n", "", digits, unit_,
                       a_.marks.empty() ? "" : fmt::format("; {} where a violation is", kMarked));
    return out;
  }

  // A row per stream (v3): `=` under each entry it runs, `R` where it
  // records an event, `W` where it waits for one; then each event.
  std::string streams(std::size_t digits) const {
    std::string out;
    for (std::size_t st = 0; st < p_.streams.size(); ++st) {
      std::string row(across_.cells(), ' ');
      bool used = false;
      for (std::size_t e = 0; e < p_.columns.size(); ++e) {
        const Column& c = p_.columns[e];
        if (c.stream != st) continue;
        used = true;
        const char mark = c.kind == Entry::Kind::Record ? 'R' : c.kind == Entry::Kind::Wait ? 'W' : '=';
        for (std::size_t cell = across_.first_cell(p_.first_slot(e)); cell <= across_.last_cell(p_.last_slot(e)); ++cell) {
          if (row[cell] == ' ' || mark != '=') row[cell] = mark;
        }
      }
      if (!used) continue;
      std::string name = p_.streams[st].empty() ? "(default)" : p_.streams[st];
      if (name.size() > digits) name.resize(digits);
      out += fmt::format("{:>{}} |{}\n", name, digits, trimmed(row));
    }
    for (const Event& ev : p_.events) {
      out += fmt::format("{:>{}}  event {}: recorded at entry {}, waited for at entry {}\n", "", digits, ev.name,
                         ev.record, ev.wait);
    }
    return out;
  }

  static std::string_view trimmed(const std::string& s) {
    const std::size_t end = s.find_last_not_of(' ');
    return std::string_view(s).substr(0, end == std::string::npos ? 0 : end + 1);
  }

  std::string key() const {
    std::string out;
    std::size_t left_out = 0;
    for (std::size_t k = 0; k < a_.boxes.size(); ++k) {
      const Box& b = a_.boxes[k];
      if (k >= kKeyBuffers && !b.violating) {
        ++left_out;
        continue;
      }
      out += fmt::format("{} {} {}\n", b.violating ? '!' : ' ', letter(k), box_text(p_, a_, b));
    }
    if (left_out > 0) {
      out += fmt::format("  {} {} more buffer{}, not violating\n", kManyLetter, left_out, left_out == 1 ? "" : "s");
    }
    if (messages_) {
      for (const std::string& v : a_.violations) out += "! " + v + "\n";
    }
    return out;
  }

  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const Picture& p_;
  const ArenaPicture& a_;
  const bool messages_;
  std::size_t margin_ = 0;
  Across across_{0, 1};
  Bytes unit_ = 1;
  std::size_t rows_ = 0;
  std::vector<std::size_t> winner_;
  std::vector<Bytes> held_;
  std::vector<bool> marked_;
};

}  // namespace

std::string text_picture(const Picture& p, const TextOptions& options) {
  const std::size_t width = std::max(options.width, kMinTextWidth);
  std::string out = fmt::format("{}: the plan of {}, {} arena{}, {} buffer{} placed\n", p.plan, p.schedule,
                                p.arenas.size(), p.arenas.size() == 1 ? "" : "s", p.box_count(),
                                p.box_count() == 1 ? "" : "s");
  for (const ArenaPicture& a : p.arenas) {
    if (options.violating_only && !p.has_violation(a)) continue;
    out += "\n" + ArenaDrawing(p, a, width, options.messages).draw();
  }
  if (!options.messages) return out;
  if (!p.other_violations.empty()) out += "\n";
  for (const std::string& v : p.other_violations) out += "! " + v + "\n";
  if (p.unlisted_overlaps > 0) {
    out += fmt::format("! and {} more overlap{} past those listed, not marked\n", p.unlisted_overlaps,
                       p.unlisted_overlaps == 1 ? "" : "s");
  }
  return out;
}

}  // namespace planck::draw
