#!/usr/bin/env python3
"""A mock engine for the referee's tests: a correct random mover for Avalam and Awale that can
be told to misbehave in one way.

Usage: mock_engine.py [--fault KIND[=N]]... [--pidfile FILE] [--state FILE] [--name NAME]

Faults (N counts `go` commands answered correctly by this process before the fault, default 0):
  crash-after=N      exit with status 3 on the (N+1)-th go
  hang-go-after=N    never answer the (N+1)-th go
  slow-after=N       answer the (N+1)-th and later go only after 2 s
  illegal-after=N    answer the (N+1)-th go with a well-formed illegal move
  malformed-after=N  answer the (N+1)-th go with a move that is not notation
  garbage-after=N    answer the (N+1)-th go with a line that is not bestmove
  hang-pion-from=K   from the K-th start (counted in --state FILE), never answer pion
  hang-isready-after=N  answer N isready, then never again
  exit-at-start      exit with status 1 before reading anything
  ignore-quit        ignore quit, stdin EOF and SIGTERM (the referee must kill the group)
  spawn-child        start a `sleep` grandchild (its pid also goes to --pidfile)
  stderr-spam        write ~200 KB to stderr on every go
  long-info          send a valid info line of ~200 KB before every bestmove
  two-bestmoves-after=N  from the (N+1)-th go on, send a second (legal) bestmove
Only the standard library is used. Seeded by the Seed option, so games are reproducible.
"""

import os
import random
import signal
import subprocess
import sys
import time

# ---- Avalam -------------------------------------------------------------------------------

AVALAM_START = "..yr...../.yryr..../.ryryry../.yryryryr/yryr.ryry/ryryryry./..yryryr./....ryry./.....ry.. 1"


def avalam_parse(board, side):
    cells = {}
    rows = board.split("/")
    for i, text in enumerate(rows):
        row = 8 - i
        col = 0
        j = 0
        while j < len(text):
            c = text[j]
            j += 1
            height = 1
            if j < len(text) and text[j].isdigit():
                height = int(text[j])
                j += 1
            if c in "yr":
                cells[(col, row)] = (height, c)
            col += 1
    return {"cells": cells, "side": int(side)}


def avalam_moves(pos):
    cells = pos["cells"]
    moves = []
    for (c, r), (h, _) in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if h >= 5:
            continue
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if dc == 0 and dr == 0:
                    continue
                t = (c + dc, r + dr)
                if t in cells and cells[t][0] + h <= 5:
                    moves.append(((c, r), t))
    return moves


def avalam_name(move):
    (c1, r1), (c2, r2) = move
    return "abcdefghi"[c1] + str(r1 + 1) + "abcdefghi"[c2] + str(r2 + 1)


def avalam_play(pos, name):
    for mv in avalam_moves(pos):
        if avalam_name(mv) == name:
            src, dst = mv
            cells = dict(pos["cells"])
            h1, top = cells.pop(src)
            cells[dst] = (h1 + cells[dst][0], top)
            return {"cells": cells, "side": 3 - pos["side"]}
    raise ValueError("illegal avalam move " + name)


def avalam_illegal(pos):
    # a1 is always empty in Avalam's start layout; a move from it is well-formed and illegal.
    return "a1a2"


# ---- Awale --------------------------------------------------------------------------------

AWALE_START = "4,4,4,4,4,4/4,4,4,4,4,4/0,0 1"


def awale_parse(board, side):
    a, b, c = board.split("/")
    pits = [int(x) for x in a.split(",")] + [int(x) for x in b.split(",")]
    return {"pits": pits, "cap": [int(x) for x in c.split(",")], "side": int(side)}


def awale_sow(pos, pit):
    pits = list(pos["pits"])
    seeds = pits[pit]
    pits[pit] = 0
    at = pit
    while seeds:
        at = (at + 1) % 12
        if at != pit:
            pits[at] += 1
            seeds -= 1
    theirs = range(6, 12) if pos["side"] == 1 else range(0, 6)
    captured = 0
    i = at
    while i in theirs and pits[i] in (2, 3):
        captured += pits[i]
        pits[i] = 0
        i -= 1
    return pits, captured


def awale_moves(pos):
    own = range(0, 6) if pos["side"] == 1 else range(6, 12)
    theirs = range(6, 12) if pos["side"] == 1 else range(0, 6)
    if max(pos["cap"]) > 24 or sum(pos["pits"][p] for p in own) == 0:
        return []
    feeding = [p for p in own if pos["pits"][p] and any(awale_sow(pos, p)[0][q] for q in theirs)]
    return feeding or [p for p in own if pos["pits"][p]]


def awale_name(pit):
    return "ABCDEF"[pit] if pit < 6 else "abcdef"[pit - 6]


def awale_play(pos, name):
    for pit in awale_moves(pos):
        if awale_name(pit) == name:
            pits, captured = awale_sow(pos, pit)
            cap = list(pos["cap"])
            cap[pos["side"] - 1] += captured
            return {"pits": pits, "cap": cap, "side": 3 - pos["side"]}
    raise ValueError("illegal awale move " + name)


def awale_illegal(pos):
    # A pit of the opponent: well-formed, never legal.
    return "a" if pos["side"] == 1 else "A"


GAMES = {
    "avalam": (AVALAM_START, avalam_parse, avalam_moves, avalam_name, avalam_play, avalam_illegal),
    "awale": (AWALE_START, awale_parse, awale_moves, awale_name, awale_play, awale_illegal),
}

# ---- The protocol loop --------------------------------------------------------------------


def main():
    args = sys.argv[1:]
    faults, pidfile, state, name = {}, None, None, "mock"
    while args:
        flag = args.pop(0)
        if flag == "--fault":
            kind, _, n = args.pop(0).partition("=")
            faults[kind] = int(n) if n else 0
        elif flag == "--pidfile":
            pidfile = args.pop(0)
        elif flag == "--state":
            state = args.pop(0)
        elif flag == "--name":
            name = args.pop(0)
    if pidfile:
        with open(pidfile, "a") as f:
            f.write("%d\n" % os.getpid())
    starts = 1
    if state:
        try:
            with open(state) as f:
                starts = int(f.read().strip() or 0) + 1
        except FileNotFoundError:
            starts = 1
        with open(state, "w") as f:
            f.write(str(starts))

    def has(kind):
        return kind in faults

    def after(kind, done):
        return kind in faults and done >= faults[kind]

    if has("exit-at-start"):
        sys.exit(1)
    if has("ignore-quit"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if has("detach-after"):
        # The started process forks: the parent only waits, and the child plays. After its
        # n-th bestmove the child ends the parent and plays on, as a launcher script that
        # exits and leaves the real engine on the same pipes would.
        if os.fork() != 0:
            hang()
    if has("spawn-child"):
        child = subprocess.Popen(["sleep", "600"])
        if pidfile:
            with open(pidfile, "a") as f:
                f.write("%d\n" % child.pid)

    game = "avalam"
    rng = random.Random(0)
    pos = None
    gos = 0
    readies = 0

    def out(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def hang():
        while True:
            time.sleep(60)

    while True:
        line = sys.stdin.readline()
        if not line:
            if has("ignore-quit"):
                hang()
            return
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "pion":
            if after("hang-pion-from", starts):
                hang()
            out("id name " + name)
            out("id version 1")
            out("id author pion tests")
            out("game avalam")
            out("game awale")
            out("option name Seed type spin default 0 min 0 max 2147483647")
            out("option name Variant type combo default standard var standard")
            out("pionok")
        elif cmd == "isready":
            if after("hang-isready-after", readies):
                hang()
            readies += 1
            out("readyok")
        elif cmd == "setoption":
            # setoption name N value V
            if len(words) >= 5 and words[2] == "Seed":
                rng = random.Random(int(words[4]))
            elif len(words) >= 5 and words[2] == "Variant" and words[4] != "standard":
                out("error unsupported variant " + words[4])
            elif len(words) >= 5 and words[2] not in ("Seed", "Variant", "Level", "Hash"):
                out("error no option " + words[2])
        elif cmd == "newgame":
            if len(words) > 1:
                game = words[1]
            start, parse = GAMES[game][0], GAMES[game][1]
            board, side = start.split()
            pos = parse(board, side)
        elif cmd == "position":
            start, parse, _, _, play, _ = GAMES[game]
            if words[1] == "startpos":
                board, side = start.split()
                rest = words[2:]
            else:
                board, side = words[1], words[2]
                rest = words[3:]
            pos = parse(board, side)
            if rest and rest[0] == "moves":
                for mv in rest[1:]:
                    pos = play(pos, mv)
        elif cmd == "go":
            _, _, moves_of, name_of, _, illegal = GAMES[game]
            if has("stderr-spam"):
                sys.stderr.write(("noise " * 20 + "\n") * 1700)
                sys.stderr.flush()
            done = gos
            gos += 1
            if after("crash-after", done):
                os._exit(3)
            if after("hang-go-after", done):
                hang()
            if after("slow-after", done):
                time.sleep(2)
            if after("detach-after", done):
                if done == faults["detach-after"]:
                    os.kill(os.getppid(), signal.SIGKILL)
                # Quick answers, under the referee's 25 ms poll, but spread past its 100 ms
                # grace for lines written before an exit.
                time.sleep(0.01)
            out("info depth 1 nodes 1")
            if has("deepening"):
                for depth in range(2, 6):
                    out("info depth %d nodes %d" % (depth, 10 ** depth))
            if has("long-info"):
                out("info depth 1 nodes 1 pv" + " a" * 100_000)
            if after("illegal-after", done):
                out("bestmove " + illegal(pos))
                continue
            if after("malformed-after", done):
                out("bestmove zz99")
                continue
            if after("garbage-after", done):
                out("hello, I am not a bestmove")
                continue
            legal = moves_of(pos)
            if not legal:
                out("bestmove none")
            else:
                line = "bestmove " + name_of(rng.choice(legal))
                if has("ponder"):
                    line += " ponder " + name_of(legal[0])
                if after("extra-token-after", done):
                    line += " " + name_of(legal[0])
                if after("two-bestmoves-after", done):
                    # One write, so that the second line is there before the referee's next
                    # go (one that comes after it cannot be told from the answer).
                    line += "\nbestmove " + name_of(legal[0])
                out(line)
        elif cmd == "quit":
            if has("ignore-quit"):
                continue
            return
        else:
            out("error unknown command " + cmd)


if __name__ == "__main__":
    main()
