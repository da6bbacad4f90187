#!/usr/bin/env python3
"""A first-fit memory planner for Planck schedules, in the standard library only.

Reads a schedule (.sched, SPEC section 2) on standard input and writes its plan
(.plan, SPEC section 5) on standard output:

    python3 first_fit.py < model.sched > model.plan
    planck plan model.sched --planner-cmd "python3 first_fit.py"
    planck stats corpus/schedules/*.sched --planner-cmd "python3 first_fit.py --persistent" --persistent

With --persistent it plans schedule after schedule: each schedule, and each
plan it answers with, ends with a line holding only %% (SPEC section 9).

Lifetimes follow SPEC section 3: top-level entries are numbered from 0, a loop
is one entry that takes everything its body takes and then its flag, and a
buffer lives from the first entry that takes it to the last. Each buffer, in
order of first use, takes the lowest 256-byte boundary where it shares no
byte with a buffer of its device placed before it and alive at the same time.

--bug NAME plants one bug, to see Planck's checks catch it:
    early-free  a buffer's bytes are free at its last entry, not after it
    loops       the calls in a loop count as entries of their own, so what a
                loop's first call uses is free while the loop runs again
    phase       a buffer's size leaves out its phase
"""

import argparse
import re
import sys

ALIGN = 256
VIEWS = ("shrink", "bitcast", "after")
BUGS = ("early-free", "loops", "phase")


def tokens(text):
    """The words, punctuation and line ends of a .sched text, comments left out."""
    out = []
    for line in text.split("\n"):
        out += re.findall(r"[(){},=]|[^\s(){},=#]+", line.split("#", 1)[0])
        out.append("\n")
    return out


class Parser:
    """Reads declarations and entries; each entry is the list of storage names it takes."""

    def __init__(self, text, bug):
        self.toks = tokens(text)
        self.i = 0
        self.bug = bug
        self.storage = {}  # name -> (kind, device, bytes, phase, held), in order of declaration
        self.entries = []

    def peek(self, ahead=0):
        return self.toks[self.i + ahead] if self.i + ahead < len(self.toks) else None

    def take(self):
        self.i += 1
        return self.toks[self.i - 1]

    def run(self):
        while self.peek() is not None:
            word = self.peek()
            if word == "\n":
                self.take()
            elif word == "schedule":
                self.take(), self.take()
            elif word in ("buffer", "alloc", "param"):
                self.declaration()
            else:
                self.statement(self.entries)
        return self

    def declaration(self):
        kind, name, device, _dtype, size = (self.take() for _ in range(5))
        phase, held = 0, False
        while self.peek() not in ("\n", None):
            option = self.take()
            if option == "phase":
                self.take()  # =
                phase = int(self.take())
            elif option == "held":
                held = True
        self.storage[name] = (kind, device, int(size), phase, held)

    def arg(self):
        """The storage an argument names or views, through any depth of views."""
        depth = 0
        while self.peek() in VIEWS and self.peek(1) == "(":
            self.take(), self.take()
            depth += 1
        name = self.take()
        while depth:
            if self.take() == ")":
                depth -= 1
        return name

    def statement(self, entries):
        word = self.take()
        if word in ("kernel", "copy"):
            if word == "kernel":
                self.take()  # the kernel's name
            taken = []
            while self.peek() not in ("\n", "}", None):
                taken.append(self.arg())
            entries.append(taken)
            return
        flag = None
        if word == "loop":
            self.take(), self.take()  # flag =
            flag = self.arg()
        self.take()  # {
        body = []
        while self.peek() != "}":
            if self.peek() == "\n":
                self.take()
            else:
                self.statement(body)
        self.take()
        if flag is not None:
            body.append([flag])
        if self.bug == "loops":
            entries.extend(body)
        else:
            entries.append([name for taken in body for name in taken])


def round_up(x, align):
    return (x + align - 1) // align * align


def plan(text, bug=None):
    s = Parser(text, bug).run()

    def planned(name):
        kind, device, _size, _phase, held = s.storage[name]
        return kind == "buffer" and not held and not device.startswith("DISK")

    first, last, order = {}, {}, []
    for i, taken in enumerate(s.entries):
        for name in taken:
            if planned(name):
                if name not in first:
                    first[name] = i
                    order.append(name)
                last[name] = i
    if bug == "early-free":
        last = {name: max(first[name], at - 1) for name, at in last.items()}

    placed = {}  # name -> (place, rounded size)
    for name in order:
        _kind, device, size, phase, _held = s.storage[name]
        rounded = round_up(size if bug == "phase" else phase + size, ALIGN)
        busy = sorted(
            placed[other]
            for other in placed
            if s.storage[other][1] == device and placed[other][1] > 0
            and first[other] <= last[name] and first[name] <= last[other]
        )
        at = 0
        for lo, other_size in busy:
            if at + rounded <= lo:
                break
            at = max(at, lo + other_size)
        placed[name] = (at, rounded)

    devices = []
    for name in order:
        if s.storage[name][1] not in devices:
            devices.append(s.storage[name][1])
    names = (f"arena{k}" for k in range(len(s.storage) + len(devices) + 1) if f"arena{k}" not in s.storage)
    arena = {device: next(names) for device in devices}
    lines = ["plan v1"]
    for device in devices:
        size = max((p + r for n, (p, r) in placed.items() if s.storage[n][1] == device), default=0)
        lines.append(f"arena {arena[device]} {device} {size}")
    lines += [f"place {name} {arena[s.storage[name][1]]} {placed[name][0]}" for name in order]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description="A first-fit memory planner for Planck schedules.")
    parser.add_argument("--persistent", action="store_true", help="plan schedules ended by a line %%%%")
    parser.add_argument("--bug", choices=BUGS, help="plant one bug")
    args = parser.parse_args()
    if not args.persistent:
        sys.stdout.write(plan(sys.stdin.read(), args.bug))
        return
    lines = []
    for line in iter(sys.stdin.readline, ""):
        if line.rstrip("\n") != "%%":
            lines.append(line)
            continue
        sys.stdout.write(plan("".join(lines), args.bug) + "%%\n")
        sys.stdout.flush()
        lines = []


if __name__ == "__main__":
    main()
