#!/usr/bin/env python3
"""Measures the referee's own overhead per move: the time from an engine's `bestmove` to the
next `go` the referee sends (to the other engine of that game).

Each engine runs behind a probe, a transparent pipe that stamps the `bestmove` lines it passes
up and the `go` lines it passes down with the system-wide monotonic clock (so the stamps of
two probes compare):

    referee ... --engine name=a cmd="python3 scripts/referee-overhead.py probe /tmp/ovh a -- target/release/pion" \\
                --engine name=b cmd="python3 scripts/referee-overhead.py probe /tmp/ovh b -- target/release/pion" ...
    python3 scripts/referee-overhead.py report /tmp/ovh

The interval measured is: the probe writes `bestmove` into the referee's pipe, the referee reads
it, checks the move, updates the game and clocks, writes `position` and `go` to the other
engine's pipe, and that probe reads them. It includes two pipe hops and the probes' own reading
(tens of microseconds), so it is an upper bound of what the referee itself takes. A `go` is
matched to the `bestmove` whose position and move lead to its position (`position ... moves`
text), so concurrent games do not mix. `report` prints the count, median, 90th and 99th
percentiles and the worst, in milliseconds.
"""

import os
import statistics
import subprocess
import sys
import threading
import time


def probe(directory, tag, command):
    os.makedirs(directory, exist_ok=True)
    log = open(os.path.join(directory, "%s.%d.txt" % (tag, os.getpid())), "w", buffering=1)
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1)
    position = [""]

    def upward():
        for line in child.stdout:
            if line.startswith("bestmove"):
                now = time.monotonic_ns()
                sys.stdout.write(line)
                sys.stdout.flush()
                words = line.split()
                move = words[1] if len(words) > 1 else ""
                log.write("best %d %s\n" % (now, moves_key(position[0], move)))
            else:
                sys.stdout.write(line)
                sys.stdout.flush()
        sys.stdout.close()

    reader = threading.Thread(target=upward, daemon=True)
    reader.start()
    for line in sys.stdin:
        now = time.monotonic_ns()
        if line.startswith("position"):
            position[0] = line
        elif line.startswith("go"):
            log.write("go %d %s\n" % (now, moves_key(position[0], None)))
        child.stdin.write(line)
        child.stdin.flush()
    child.stdin.close()
    child.wait()
    reader.join(timeout=1)


def moves_key(position_line, extra):
    """The position's start and moves as one key, with `extra` appended when given."""
    words = position_line.split()
    if "moves" not in words:
        words.append("moves")
    if extra is not None:
        words.append(extra)
    return "_".join(words[1:])


def report(directory):
    best, gos = {}, []
    for name in os.listdir(directory):
        with open(os.path.join(directory, name)) as f:
            for line in f:
                kind, stamp, key = line.split(" ", 2)
                if kind == "best":
                    best.setdefault(key.strip(), []).append(int(stamp))
                else:
                    gos.append((int(stamp), key.strip()))
    gaps = []
    for stamp, key in gos:
        before = [b for b in best.get(key, []) if b <= stamp]
        if before:
            gaps.append((stamp - max(before)) / 1e6)
    if not gaps:
        sys.exit("no bestmove followed by a go found in " + directory)
    gaps.sort()
    pick = lambda q: gaps[min(len(gaps) - 1, int(q * len(gaps)))]
    print("moves %d  median %.3f ms  p90 %.3f ms  p99 %.3f ms  worst %.3f ms"
          % (len(gaps), statistics.median(gaps), pick(0.9), pick(0.99), gaps[-1]))


def main():
    args = sys.argv[1:]
    if len(args) >= 4 and args[0] == "probe" and "--" in args:
        split = args.index("--")
        probe(args[1], args[2], args[split + 1:])
    elif len(args) == 2 and args[0] == "report":
        report(args[1])
    else:
        sys.exit("usage: referee-overhead.py probe DIR TAG -- COMMAND... | report DIR")


if __name__ == "__main__":
    main()
