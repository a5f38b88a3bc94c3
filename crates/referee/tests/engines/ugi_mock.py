#!/usr/bin/env python3
"""A UGI-only mock engine for the referee's tests: a correct random mover for Avalam and Awale
(the rules of scripts/random_engine.py, through mock_engine.py) that speaks UGI and knows nothing of pion's own commands.

Usage: ugi_mock.py [--name NAME] [--on-pion error|silent] [--score SCORE]... [--log FILE]
                   [--fault crash-after=N] [--fault illegal-after=N]

  --on-pion error   answer `pion` with an unknown-command line (default), as many engines do
  --on-pion silent  ignore `pion` altogether
  --score SCORE     the score of every info line ("cp 30", "win 2", ...); several --score
                    values are used in turn, one per go, the last one repeating
  --log FILE        append every command received to FILE, one a line
  --fault crash-after=N    exit with status 3 on the (N+1)-th go
  --fault illegal-after=N  answer the (N+1)-th go with a well-formed illegal move

The game is chosen with `setoption name Game value <avalam|awale>`, as UGI tools do; `go`
must carry `p1time` and `p2time` (or another limit), and `query p1turn|gameover|result` is
answered from the mock's own view of the position. Only the standard library is used.
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mock_engine  # noqa: E402  (the rules, shared with the pion-speaking mock)


def result_of(game, pos):
    """`p1win`, `p2win`, `draw` or `none` (game not over) for the mock's position."""
    _, _, moves_of, _, _, _ = mock_engine.GAMES[game]
    if moves_of(pos):
        return "none"
    board, _ = pos
    if game == "avalam":
        tops = [cell[1] for cell in board if cell]
        points = [tops.count("y"), tops.count("r")]
    else:
        pits, captured = board
        points = [captured[0] + sum(pits[0:6]), captured[1] + sum(pits[6:12])]
    if points[0] == points[1]:
        return "draw"
    return "p1win" if points[0] > points[1] else "p2win"


def main():
    args = sys.argv[1:]
    name, on_pion, scores, log, faults = "ugimock", "error", [], None, {}
    while args:
        flag = args.pop(0)
        if flag == "--name":
            name = args.pop(0)
        elif flag == "--on-pion":
            on_pion = args.pop(0)
        elif flag == "--score":
            scores.append(args.pop(0))
        elif flag == "--log":
            log = args.pop(0)
        elif flag == "--fault":
            kind, _, n = args.pop(0).partition("=")
            faults[kind] = int(n) if n else 0

    def out(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    game = "avalam"
    rng = random.Random(0)
    pos = None
    gos = 0

    def start(g):
        return mock_engine.GAMES[g][0]()

    while True:
        line = sys.stdin.readline()
        if not line:
            return
        if log:
            with open(log, "a") as f:
                f.write(line)
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "ugi":
            out("id name " + name)
            out("id author pion tests")
            out("option name Game type combo default avalam var avalam var awale")
            out("option name Seed type spin default 0 min 0 max 2147483647")
            out("ugiok")
        elif cmd == "pion":
            if on_pion == "error":
                out("Unknown command: pion")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "setoption":
            if len(words) >= 5 and words[2] == "Game":
                game = words[4]
                pos = start(game)
            elif len(words) >= 5 and words[2] == "Seed":
                rng = random.Random(int(words[4]))
        elif cmd == "uginewgame":
            pos = start(game)
        elif cmd == "position":
            _, parse, _, _, play, _ = mock_engine.GAMES[game]
            if words[1] == "startpos":
                pos, rest = start(game), words[2:]
            else:
                at = 2 if words[1] == "fen" else 1
                pos, rest = parse(words[at], words[at + 1]), words[at + 2:]
            if rest and rest[0] == "moves":
                for mv in rest[1:]:
                    pos = play(pos, mv)
        elif cmd == "go":
            _, _, moves_of, name_of, _, illegal = mock_engine.GAMES[game]
            done = gos
            gos += 1
            if "crash-after" in faults and done >= faults["crash-after"]:
                os._exit(3)
            score = scores[min(done, len(scores) - 1)] if scores else "cp 0"
            out("info depth 3 score %s nodes %d time 1" % (score, 100 + done))
            if "illegal-after" in faults and done >= faults["illegal-after"]:
                out("bestmove " + illegal(pos))
                continue
            legal = moves_of(pos)
            out("bestmove " + (name_of(rng.choice(legal)) if legal else "0000"))
        elif cmd == "query":
            what = words[1] if len(words) > 1 else ""
            if what == "p1turn":
                out("response " + ("true" if pos[1] == 1 else "false"))
            elif what == "gameover":
                out("response " + ("false" if result_of(game, pos) == "none" else "true"))
            elif what == "result":
                out("response " + result_of(game, pos))
        elif cmd == "quit":
            return
        # Unknown commands are ignored, as UGI asks.


if __name__ == "__main__":
    main()
