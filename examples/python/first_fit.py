#!/usr/bin/env python3
"""A first-fit memory planner for Planck schedules, in the standard library only.

Reads a schedule (.sched, docs/formats.md, and model v2, docs/model-v2.md) on
standard input and writes its plan (.plan, docs/formats.md) on standard output:

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
"""

import argparse
import re
import sys
from dataclasses import dataclass, field

DEFAULT_ALIGN = 256
VIEWS = ("shrink", "bitcast", "after")
BUGS = ("early-free", "loops", "phase", "input-first-use", "state-temporary", "inplace-read",
        "inplace-view", "inplace-loop", "inplace-tail", "align256", "capacity", "one-arena")


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


class Parser:
    """Reads devices, declarations and top-level entries."""

    def __init__(self, text, bug):
        self.toks = tokens(text)
        self.i = 0
        self.bug = bug
        self.devices = {}  # name -> {"align": A, "capacity": BYTES}
        self.storage = {}  # name -> Storage, in order of declaration
        self.copied = set()  # storage that some copy takes
        self.entries = []

    def peek(self, ahead=0):
        return self.toks[self.i + ahead] if self.i + ahead < len(self.toks) else None

    def take(self):
        self.i += 1
        return self.toks[self.i - 1]

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

    def run(self):
        while self.peek() is not None:
            word = self.peek()
            if word == "\n":
                self.take()
            elif word == "schedule":
                self.take(), self.take()
            elif word == "device":
                self.take()
                name = self.take()
                self.devices[name] = {k: int(v) for k, v in self.options().items()}
            elif word in ("buffer", "alloc", "param"):
                kind, name, device, _dtype, size = (self.take() for _ in range(5))
                options = self.options()
                self.storage[name] = Storage(kind, device, int(size), int(options.pop("phase", 0)), set(options))
            else:
                self.statement(self.entries)
        return self

    def arg(self, entry):
        """Adds the storage an argument names or views, through any depth of views, to entry."""
        depth = 0
        while self.peek() in VIEWS and self.peek(1) == "(":
            self.take(), self.take()
            depth += 1
        name = self.take()
        entry.taken.append(name)
        if depth:
            entry.viewed.add(name)
        while depth:
            if self.take() == ")":
                depth -= 1
        return name

    def statement(self, entries):
        word = self.take()
        entry = Entry()
        if word in ("kernel", "copy"):
            if word == "kernel":
                self.take()  # the kernel's name
            while self.peek() not in ("\n", "}", None):
                if self.peek() == "inplace" and self.peek(1) == "=":
                    self.take(), self.take()
                    entry.inplace.append(tuple(self.take().split(":")))
                elif word == "copy":
                    self.copied.add(self.arg(entry))
                else:
                    self.arg(entry)
            entries.append(entry)
            return
        flag = Entry()
        if word == "loop":
            self.take(), self.take()  # flag =
            self.arg(flag)
        self.take()  # {
        body = []
        while self.peek() != "}":
            if self.peek() == "\n":
                self.take()
            else:
                self.statement(body)
        self.take()
        body.append(flag)
        if self.bug != "inplace-loop":
            for call in body:
                call.inplace = []  # the next pass would read IN over OUT's bytes
        if self.bug == "loops":
            entries.extend(body)
            return
        for call in body:
            entry.taken += call.taken
            entry.viewed |= call.viewed
            entry.inplace += call.inplace
        entries.append(entry)


def round_up(x, align):
    return (x + align - 1) // align * align


def round_down(x, align):
    return x // align * align


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

    # In-place pairs that may share bytes (docs/model-v2.md#in-place-kernels), both ways round.
    partners = {name: [] for name in order}
    for at, entry in enumerate(s.entries):
        for out, inp in entry.inplace:
            if out not in partners or inp not in partners:
                continue
            o, i = storage[out], storage[inp]
            if (first[out] == at and (last[inp] == at or bug == "inplace-read")
                    and not ({"output", "state"} & i.words or {"input", "state"} & o.words)
                    and (bug == "inplace-view" or not {out, inp} & entry.viewed)
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
                 and first[other] <= last[name] and first[name] <= last[other]]

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


if __name__ == "__main__":
    main()
