#!/usr/bin/env python3
"""Nodes and time to a fixed depth over Awale positions, for comparing search trees.

usage: scripts/nodes_to_depth.py PION DEPTH [GAMES_FILE] [STEP]

Each game of GAMES_FILE (default examples/positions/awale_games.txt: one game a line, moves
separated by spaces, '#' comments) gives its positions every STEP plies (default 6) from ply
STEP up to ply 90; each is searched with `go depth DEPTH` after a `newgame` (an empty table).
Prints the number of positions, the sum of nodes and the sum of the engines' reported times.
Node counts are deterministic; times are only comparable within one run.
"""
import os
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[2])
    pion, depth = sys.argv[1], int(sys.argv[2])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    games_file = sys.argv[3] if len(sys.argv) > 3 else os.path.join(
        root, "examples", "positions", "awale_games.txt")
    step = int(sys.argv[4]) if len(sys.argv) > 4 else 6
    games = [line.split() for line in open(games_file) if line.strip() and not line.startswith("#")]
    engine = subprocess.Popen([pion], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    positions = nodes = time_ms = 0
    for game in games:
        for ply in range(step, min(len(game), 90), step):
            send("newgame awale")
            send("position startpos moves " + " ".join(game[:ply]))
            send(f"go depth {depth}")
            last = None
            while True:
                line = engine.stdout.readline()
                if not line:
                    sys.exit("pion closed its output")
                if line.startswith("info") and " nodes " in line:
                    last = line.split()
                if line.startswith("bestmove"):
                    break
            nodes += int(last[last.index("nodes") + 1])
            time_ms += int(last[last.index("time") + 1])
            positions += 1
    send("quit")
    engine.wait()
    print(f"positions {positions} nodes {nodes} time_ms {time_ms}")


if __name__ == "__main__":
    main()
