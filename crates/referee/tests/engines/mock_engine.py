#!/usr/bin/env python3
"""A mock engine for the referee's tests: a correct random mover for Avalam and Awale (with the
rules of scripts/random_engine.py) that can be told to misbehave in one way.

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

# ---- The rules: scripts/random_engine.py's, so that they are written once -----------------

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), *[".."] * 4, "scripts"))
from random_engine import GAMES as RULES  # noqa: E402


def rules_of(game):
    """The mock's view of one game's rules: (start, parse, moves, name, play, illegal)."""
    rules = RULES[game]

    def start():
        return rules["start"]()

    def parse(board, side):
        return rules["parse"](board), int(side)

    def play(pos, name):
        for mv in rules["legal"](pos):
            if rules["name"](mv) == name:
                return rules["play"](pos, mv)
        raise ValueError("illegal %s move %s" % (game, name))

    def illegal(pos):
        if game == "avalam":
            # a1 is always empty in Avalam's start layout: a move from it is well-formed and
            # illegal.
            return "a1a2"
        # A pit of the opponent: well-formed, never legal.
        return "a" if pos[1] == 1 else "A"

    return start, parse, rules["legal"], rules["name"], play, illegal


GAMES = {game: rules_of(game) for game in RULES}

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
            pos = GAMES[game][0]()
        elif cmd == "position":
            start, parse, _, _, play, _ = GAMES[game]
            if words[1] == "startpos":
                pos = start()
                rest = words[2:]
            else:
                pos = parse(words[1], words[2])
                rest = words[3:]
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
            if after("close-stdout-after", done):
                # Alive, but silent for good: its output is closed.
                sys.stdout.close()
                os.close(1)
                hang()
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
