#!/usr/bin/env python3
"""A first-fit memory planner for Planck schedules, in the standard library only.

Reads a schedule (.sched, docs/formats.md, model v2, docs/model-v2.md, and
model v3, docs/model-v3.md) on standard input and writes its plan (.plan,
docs/formats.md) on standard output:

    python3 first_fit.py < model.sched > model.plan
    planck plan model.sched --planner-cmd "python3 first_fit.py"
    planck stats corpus/schedules/*.sched --planner-cmd "python3 first_fit.py --persistent" --persistent

With --persistent it plans schedule after schedule: each schedule, and each
plan it answers with, ends with a line holding only %%
(docs/verification.md#judging-your-own-planner).

Lifetimes follow docs/planners.md: top-level entries are numbered from 0, a loop
is one entry that takes everything its body takes and then its flag, and a
buffer lives from the first entry that takes it to the last. An `input` lives
from entry 0, an `output` to the last entry, `state` over every entry. Each
buffer, in order of first use, takes the lowest multiple of its device's align
(256 unless a `device` line says otherwise) where it shares no byte with a
buffer of its device placed before it and alive at the same time; a buffer
that a top-level kernel may write over its input (`inplace=OUT:IN`, with
every condition of docs/model-v2.md) first tries its partner's place. When the
arenas of a device come out larger than its capacity, the answer is the line
`over-capacity: ...` instead of a plan.

Model v3 (`schedule v3`) runs entries on several streams, ordered by events,
and marks buffers `local` to a loop. There two buffers may share bytes unless
they conflict (docs/model-v3.md#the-conflict-rule): at the top level, unless
every use of one happens before every use of the other (the order of each
stream, and each `record E` before its `wait E`); inside a loop, for two
buffers local to it, unless their positions in its body meet. A buffer a loop
takes that is not local lives over the whole top-level loop. An in-place
output takes its input's place at the top level when every other use of the
input happens before the kernel and the kernel before every other use of the
output, and inside a loop when both are local to the kernel's loop, the
input's last position and the output's first being the kernel
(docs/model-v3.md#in-place-revisited). A header above v3, or an entry it does
not know, is an error (exit 1), never a plan.

With --lanes, as tinygrad, the buffers that a copy takes are in the copy lane
of their device, planned in an arena of their own beside the compute lane's.

--bug NAME plants one bug, to see Planck's checks catch it:
    early-free       a buffer's bytes are free at its last entry, not after it
    loops            the calls in a loop count as entries of their own, so what
                     a loop's first call uses is free while the loop runs again
    phase            a buffer's size leaves out its phase
    input-first-use  an input lives from its first use, not from entry 0
                     (ExecuTorch PR #6971)
    state-temporary  state is free after its last use, so a temporary takes
                     its bytes before the next run (ExecuTorch PR #12182)
    inplace-read     in place even when a later entry still reads the input
    inplace-view     in place even when the kernel also takes a view of either
    inplace-loop     in place inside a loop, where the next pass reads the input
    inplace-tail     an output smaller than its in-place input keeps its bytes
                     rounded down, so the input's tail is free from a
                     misaligned place (llama.cpp PR #17884)
    align256         places and sizes on 256-byte boundaries, whatever the
                     device's align
    capacity         a plan larger than the device's capacity, not a refusal
    one-arena        with lanes, each lane planned from 0 in one arena per device
    streams          buffers reused in file order, whatever stream runs them
                     (ONNX Runtime issue #19480, llama.cpp PR #2757)
    wait-all         a `wait` orders every stream, not only its own
    record-early     an event recorded after a buffer's first use on a stream
                     covers its later uses there as well (ONNX Runtime PR #32466)
    loop-positions   a buffer a loop takes that is not local lives, beside the
                     loop's local buffers, over its positions in the body only,
                     so scratch later in the body takes its bytes (PTOAS PR #913)
    inplace-streams  in place even when another stream still reads the input:
                     only the input's uses on the kernel's stream must be over
"""

import argparse
import re
import sys
from dataclasses import dataclass, field

DEFAULT_ALIGN = 256
VIEWS = ("shrink", "bitcast", "after")
BUGS = ("early-free", "loops", "phase", "input-first-use", "state-temporary", "inplace-read",
        "inplace-view", "inplace-loop", "inplace-tail", "align256", "capacity", "one-arena",
        "streams", "wait-all", "record-early", "loop-positions", "inplace-streams")
VERSIONS = (1, 2, 3)  # the schedule headers it reads


class Unsupported(Exception):
    """A schedule that this planner does not read."""


def tokens(text):
    """The words, punctuation and line ends of a .sched text, comments left out."""
    out = []
    for line in text.split("\n"):
        out += re.findall(r"[(){},=]|[^\s(){},=#]+", line.split("#", 1)[0])
        out.append("\n")
    return out


@dataclass
class Storage:
    kind: str  # buffer, alloc or param
    device: str
    size: int
    phase: int = 0
    words: set = field(default_factory=set)  # held, input, output, state


@dataclass
class Entry:
    taken: list = field(default_factory=list)  # storage names, in the order taken
    viewed: set = field(default_factory=set)  # storage it takes through a view
    inplace: list = field(default_factory=list)  # (OUT, IN) pairs it declares
    kind: str = "call"  # call, loop, record or wait
    stream: str = ""  # the stream it runs on, "" for the default one
    event: str = ""  # what a record or wait names


@dataclass
class Call:
    """A kernel that declares in-place pairs, wherever it is."""
    where: tuple  # its top-level entry, then its position in each loop body around it
    inplace: list
    viewed: set


class Parser:
    """Reads devices, declarations and top-level entries."""

    def __init__(self, text, bug):
        self.toks = tokens(text)
        self.i = 0
        self.bug = bug
        self.version = 1
        self.devices = {}  # name -> {"align": A, "capacity": BYTES}
        self.storage = {}  # name -> Storage, in order of declaration
        self.copied = set()  # storage that some copy takes
        self.entries = []
        self.top = []  # the top-level entries, loops as one each, whatever the bug
        self.uses = {}  # storage name -> where each entry that takes it is (a flag: its loop)
        self.calls = []  # each Call with in-place pairs

    def peek(self, ahead=0):
        return self.toks[self.i + ahead] if self.i + ahead < len(self.toks) else None

    def take(self):
        self.i += 1
        return self.toks[self.i - 1]

    def line(self):
        return self.toks[:self.i].count("\n") + 1

    def options(self):
        """The words to the end of the line, WORD=VALUE as a pair."""
        out = {}
        while self.peek() not in ("\n", None):
            word = self.take()
            if self.peek() == "=":
                self.take()
                out[word] = self.take()
            else:
                out[word] = True
        return out

    def stream(self, entry):
        """Reads `stream=S` if it comes next, the stream of entry."""
        if self.peek() == "stream" and self.peek(1) == "=":
            self.take(), self.take()
            entry.stream = self.take()

    def run(self):
        while self.peek() is not None:
            word = self.peek()
            if word == "\n":
                self.take()
            elif word == "schedule":
                self.take()
                header = self.take()
                if not re.fullmatch(r"v[0-9]+", header or "") or int(header[1:]) not in VERSIONS:
                    raise Unsupported(f"line {self.line()}: schedule {header}: this planner reads schedule "
                                      f"v{VERSIONS[0]} to v{VERSIONS[-1]}")
                self.version = int(header[1:])
            elif word == "device":
                self.take()
                name = self.take()
                self.devices[name] = {k: int(v) for k, v in self.options().items()}
            elif word in ("buffer", "alloc", "param"):
                kind, name, device, _dtype, size = (self.take() for _ in range(5))
                options = self.options()
                self.storage[name] = Storage(kind, device, int(size), int(options.pop("phase", 0)), set(options))
            else:
                self.top.append(self.statement(self.entries, (len(self.top),)))
        return self

    def arg(self, entry, where):
        """Adds the storage an argument names or views, through any depth of views, to entry."""
        depth = 0
        while self.peek() in VIEWS and self.peek(1) == "(":
            self.take(), self.take()
            depth += 1
        name = self.take()
        entry.taken.append(name)
        self.uses.setdefault(name, []).append(where)
        if depth:
            entry.viewed.add(name)
        while depth:
            if self.take() == ")":
                depth -= 1
        return name

    def statement(self, entries, where):
        """Reads one entry into entries and returns it, a loop as one entry. where: its
        top-level entry, then its position in each loop body around it."""
        word = self.take()
        entry = Entry()
        if word in ("record", "wait"):
            entry.kind, entry.event = word, self.take()
            self.stream(entry)
            entries.append(entry)
            return entry
        if word in ("kernel", "copy"):
            if word == "kernel":
                self.take()  # the kernel's name
            while self.peek() not in ("\n", "}", None):
                if self.peek() == "inplace" and self.peek(1) == "=":
                    self.take(), self.take()
                    entry.inplace.append(tuple(self.take().split(":")))
                elif self.peek() == "stream" and self.peek(1) == "=":
                    self.stream(entry)
                elif word == "copy":
                    self.copied.add(self.arg(entry, where))
                else:
                    self.arg(entry, where)
            if entry.inplace:
                self.calls.append(Call(where, list(entry.inplace), set(entry.viewed)))
            entries.append(entry)
            return entry
        if word not in ("range", "loop"):
            raise Unsupported(f"line {self.line()}: {word}: not an entry this planner reads")
        entry.kind = "loop"
        flag = Entry()
        if word == "loop":
            self.take(), self.take()  # flag =
            self.arg(flag, where)
        self.stream(entry)
        self.take()  # {
        body = []
        count = 0  # the entries of the body, a loop as one
        while self.peek() != "}":
            if self.peek() is None:
                raise Unsupported("a loop without its closing brace")
            if self.peek() == "\n":
                self.take()
            else:
                self.statement(body, where + (count,))
                count += 1
        self.take()
        body.append(flag)
        if self.bug != "inplace-loop":
            for call in body:
                call.inplace = []  # the next pass would read IN over OUT's bytes
        for call in body:
            entry.taken += call.taken
            entry.viewed |= call.viewed
            entry.inplace += call.inplace
        if self.bug == "loops":
            entries.extend(body)
        else:
            entries.append(entry)
        return entry


def round_up(x, align):
    return (x + align - 1) // align * align


def round_down(x, align):
    return x // align * align


def common_prefix(paths):
    """The longest tuple that each of paths starts with."""
    k = 0
    while k < min(len(p) for p in paths) and all(p[k] == paths[0][k] for p in paths):
        k += 1
    return paths[0][:k]


def loop_around(paths):
    """The innermost loop that holds every one of paths (entries inside loops), as the path of
    the loop's entry; () for the top level."""
    return common_prefix(paths)[:min(len(p) for p in paths) - 1]


class Conflicts:
    """Which planned buffers of a schedule of model v3 may not share bytes (docs/model-v3.md#the-conflict-rule)."""

    def __init__(self, s, order, bug):
        self.s, self.bug = s, bug
        # hb[i]: the top-level entries that happen before entry i, as a set of bits; a stream's
        # entries run in file order, and a `record E` happens before each `wait E`.
        self.hb, self.stream = [], []
        last_on, recorded, everywhere = {}, {}, 0
        for i, e in enumerate(s.top):
            stream = "" if bug == "streams" else e.stream
            before = everywhere
            if stream in last_on:
                j = last_on[stream]
                before |= self.hb[j] | 1 << j
            if e.kind == "wait" and e.event in recorded:
                r = recorded[e.event]
                before |= self.hb[r] | 1 << r
                if bug == "wait-all":
                    everywhere |= self.hb[r] | 1 << r
            if e.kind == "record":
                recorded[e.event] = i
            self.hb.append(before)
            self.stream.append(stream)
            last_on[stream] = i

        self.scope = {}  # name -> the loop it is local to, () when it is not local
        self.tops = {}  # name -> the top-level entries that take it
        self.mask = {}  # name -> the same, as a set of bits
        self.common = {}  # name -> the entries that happen before each of its top-level entries
        self.caller_before, self.caller_after = set(), set()  # the caller writes them, reads them
        for name in order:
            words = s.storage[name].words
            paths = s.uses[name]
            self.scope[name] = loop_around(paths) if "local" in words else ()
            self.tops[name] = sorted({p[0] for p in paths})
            self.mask[name] = sum(1 << e for e in self.tops[name])
            common = -1
            for e in self.tops[name]:
                common &= self.hb[e]
            self.common[name] = common
            if ("input" in words and bug != "input-first-use") or "state" in words:
                self.caller_before.add(name)
            if "output" in words or ("state" in words and bug != "state-temporary"):
                self.caller_after.add(name)

    def ordered(self, b, c):
        """Whether every use of b happens before every use of c."""
        if b in self.caller_after or c in self.caller_before:
            return False
        if self.bug != "record-early":
            return self.mask[b] & ~self.common[c] == 0
        # Of b's uses before c's use on a stream other than c's, the first alone must happen before it.
        first, on = {}, {}
        for e in self.tops[b]:
            first.setdefault(self.stream[e], 1 << e)
            on[self.stream[e]] = on.get(self.stream[e], 0) | 1 << e
        firsts = sum(first.values())
        for e in self.tops[c]:
            stream = self.stream[e]
            if self.mask[b] >> e or (on.get(stream, 0) | firsts & ~first.get(stream, 0)) & ~self.hb[e]:
                return False
        return True

    def positions(self, name, loop):
        """The uses of name, and the innermost loop they are local to; with the bug loop-positions,
        a buffer that is not local but that the top-level loop of loop takes gives its uses there."""
        paths, scope = self.s.uses[name], self.scope[name]
        if self.bug == "loop-positions" and not scope and loop:
            inside = [p for p in paths if p[0] == loop[0] and len(p) > 1]
            if inside:
                return inside, loop_around(inside)
        return paths, scope

    def conflict(self, b, c):
        """Whether b and c may not share bytes."""
        ub, sb = self.positions(b, self.scope[c])
        uc, sc = self.positions(c, self.scope[b])
        loop = common_prefix([sb, sc])
        if loop:
            # Both are local to loops inside this one: their positions in its body decide.
            k = len(loop)
            pb, pc = [p[k] for p in ub], [p[k] for p in uc]
            return min(pb) <= max(pc) and min(pc) <= max(pb)
        return not self.ordered(b, c) and not self.ordered(c, b)

    def inplace(self, where, out, inp):
        """Whether the kernel at where lets out take inp's bytes, as far as streams and loops say."""
        if len(where) == 1:
            e = where[0]
            others = self.mask[inp] & ~(1 << e)
            if self.bug == "inplace-streams":
                # The input's other uses on the kernel's stream alone come before it.
                inp_done = all(u < e for u in self.tops[inp] if u != e and self.stream[u] == self.stream[e])
            else:
                inp_done = others & ~self.hb[e] == 0
            return ((inp_done or self.bug == "inplace-read")
                    and all(v == e or self.hb[v] >> e & 1 for v in self.tops[out]))
        loop, k = where[:-1], len(where) - 1
        return (self.scope[inp] == loop == self.scope[out]
                and max(p[k] for p in self.s.uses[inp]) == where[-1] == min(p[k] for p in self.s.uses[out]))


def plan(text, bug=None, lanes=False):
    s = Parser(text, bug).run()
    storage = s.storage
    lanes = lanes or bug == "one-arena"

    def planned(name):
        b = storage[name]
        return b.kind == "buffer" and "held" not in b.words and not b.device.startswith("DISK")

    first, last, order = {}, {}, []
    for i, entry in enumerate(s.entries):
        for name in entry.taken:
            if planned(name):
                if name not in first:
                    first[name] = i
                    order.append(name)
                last[name] = i
    if bug == "early-free":
        last = {name: max(first[name], at - 1) for name, at in last.items()}
    for name in order:
        words = storage[name].words
        if ("input" in words and bug != "input-first-use") or "state" in words:
            first[name] = 0
        if "output" in words or ("state" in words and bug != "state-temporary"):
            last[name] = len(s.entries) - 1

    # Where each buffer is planned: its device, and its lane there.
    lane = {name: (storage[name].device, "copy" if lanes and name in s.copied else "compute") for name in order}

    # Which buffers may not share bytes: with model v3, by the conflict rule; else those alive at once.
    if s.version >= 3:
        rules = Conflicts(s, order, bug)
        conflict = rules.conflict
    else:
        def conflict(b, c):
            return first[b] <= last[c] and first[c] <= last[b]

    # In-place pairs that may share bytes (docs/model-v2.md#in-place-kernels and
    # docs/model-v3.md#in-place-revisited), both ways round.
    partners = {name: [] for name in order}
    if s.version >= 3:
        declared = [(call.where, call.inplace, call.viewed) for call in s.calls]
    else:
        declared = [((at,), entry.inplace, entry.viewed) for at, entry in enumerate(s.entries)]
    for where, pairs, viewed in declared:
        for out, inp in pairs:
            if out not in partners or inp not in partners:
                continue
            o, i = storage[out], storage[inp]
            if s.version >= 3:
                allowed = rules.inplace(where, out, inp)
            else:
                allowed = first[out] == where[0] and (last[inp] == where[0] or bug == "inplace-read")
            if (allowed and not ({"output", "state"} & i.words or {"input", "state"} & o.words)
                    and (bug == "inplace-view" or not {out, inp} & viewed)
                    and lane[out] == lane[inp] and o.phase == i.phase and o.size <= i.size):
                partners[out].append(inp)
                partners[inp].append(out)

    def align(device):
        return DEFAULT_ALIGN if bug == "align256" else s.devices.get(device, {}).get("align", DEFAULT_ALIGN)

    placed = {}  # name -> (place, rounded size)
    for name in order:
        b = storage[name]
        a = align(b.device)
        rounded = round_up(b.size if bug == "phase" else b.phase + b.size, a)
        alive = [other for other in placed if lane[other] == lane[name] and placed[other][1] > 0
                 and conflict(other, name)]

        def free(at, but):
            return all(placed[o][0] + placed[o][1] <= at or at + rounded <= placed[o][0] for o in alive if o != but)

        shared = [p for p in partners[name] if p in placed and free(placed[p][0], p)]
        if shared:
            at = placed[shared[0]][0]
            if bug == "inplace-tail" and b.size < storage[shared[0]].size:
                rounded = round_down(b.phase + b.size, a)
        else:
            at = 0
            for lo, other_size in sorted(placed[o] for o in alive):
                if at + rounded <= lo:
                    break
                at = max(at, lo + other_size)
        placed[name] = (at, rounded)

    def home(name):
        """The arena a buffer is written into: its lane's, or with one-arena its device's."""
        return (storage[name].device, "") if bug == "one-arena" else lane[name]

    homes = []  # in order of first use
    for name in order:
        if home(name) not in homes:
            homes.append(home(name))
    names = (f"arena{k}" for k in range(len(storage) + len(homes) + 1) if f"arena{k}" not in storage)
    arena = {key: next(names) for key in homes}
    size = {key: max(p + r for n, (p, r) in placed.items() if home(n) == key) for key in homes}
    for device, limits in s.devices.items():
        total = sum(size[key] for key in homes if key[0] == device)
        if total > limits.get("capacity", total) and bug != "capacity":
            return f"over-capacity: the arenas of {device} need {total} bytes, its capacity is {limits['capacity']}\n"
    lines = ["plan v1"]
    lines += [f"arena {arena[key]} {key[0]} {size[key]}" for key in homes]
    lines += [f"place {name} {arena[home(name)]} {placed[name][0]}" for name in order]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description="A first-fit memory planner for Planck schedules.")
    parser.add_argument("--persistent", action="store_true", help="plan schedules ended by a line %%%%")
    parser.add_argument("--lanes", action="store_true", help="plan what copies take in arenas of their own")
    parser.add_argument("--bug", choices=BUGS, help="plant one bug")
    args = parser.parse_args()
    try:
        if not args.persistent:
            sys.stdout.write(plan(sys.stdin.read(), args.bug, args.lanes))
            return
        lines = []
        for line in iter(sys.stdin.readline, ""):
            if line.rstrip("\n") != "%%":
                lines.append(line)
                continue
            sys.stdout.write(plan("".join(lines), args.bug, args.lanes) + "%%\n")
            sys.stdout.flush()
            lines = []
    except Unsupported as e:
        sys.exit(f"first_fit.py: {e}")


if __name__ == "__main__":
    main()
