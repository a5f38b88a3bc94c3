#!/usr/bin/env python3
"""How an engine scored in a referee match, by how good its side of each opening was.

Reads the games of a match (the JSON lines of `referee --out`), searches the position after each
pair's opening with pion to a fixed depth, and prints the engine's score for each band of that
position's value from the engine's side (in points, a band per point, so -1 holds -1.99 to -1.00).
It shows how much of a result the openings decided rather than the play:

    scripts/score-by-opening.py target/level-table/avalam-max-mcts.jsonl --engine-name max
"""

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor


def score(command, game, start, moves, depth):
    """The score in centipoints for the side to move after `moves`, from a fresh engine."""
    position = f"position {'startpos' if start == 'startpos' else 'fen ' + start}"
    if moves:
        position += " moves " + " ".join(moves)
    script = f"setoption name Game value {game}\n{position}\ngo depth {depth}\n"
    out = subprocess.run(command, shell=True, input=script, capture_output=True, text=True).stdout
    errors = [line for line in out.splitlines() if line.startswith("error")]
    if errors:
        sys.exit(f"score-by-opening: the engine answered '{errors[0]}' to '{position}'")
    scored = [line for line in out.splitlines() if " score " in line]
    if not scored:
        sys.exit(f"score-by-opening: no score for '{position}'")
    words = scored[-1].split(" score ")[1].split()
    return {"cp": lambda: int(words[1]), "draw": lambda: 0}.get(
        words[0], lambda: 10000 if words[0] == "win" else -10000
    )()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", help="a referee --out file")
    parser.add_argument("--engine-name", required=True, help="the engine whose score is shown")
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--engine", default="target/release/pion", help="the engine that judges")
    args = parser.parse_args()

    games = []
    with open(args.games) as f:
        for number, line in enumerate(f, 1):
            try:
                games.append(json.loads(line))
            except json.JSONDecodeError:
                sys.exit(f"score-by-opening: {args.games}:{number} is not a JSON line")
    games = [g for g in games if args.engine_name in g["engines"]]
    if not games:
        sys.exit(f"score-by-opening: no game of {args.engine_name!r} in {args.games}")

    openings = sorted({(g["rules"], g["start"], tuple(g["opening"])) for g in games})
    with ThreadPoolExecutor(args.jobs) as pool:
        values = dict(
            zip(openings, pool.map(lambda o: score(args.engine, o[0], o[1], o[2], args.depth), openings))
        )

    bands = defaultdict(lambda: [0.0, 0])
    for g in games:
        value = values[(g["rules"], g["start"], tuple(g["opening"]))]
        # The value is for the side to move after the opening: find whose engine that is.
        side = 1 if g["start"] == "startpos" else int(g["start"].split()[-1])
        if len(g["opening"]) % 2 == 1:
            side = 3 - side
        to_move = g["first"] if side == 1 else g["second"]
        mine = value if to_move == args.engine_name else -value
        first = g["first"] == args.engine_name
        points = {"1-0": 1.0 if first else 0.0, "0-1": 0.0 if first else 1.0}.get(g["result"], 0.5)
        band = max(-3, min(3, mine // 100))
        bands[band][0] += points
        bands[band][1] += 1
    print(f"{args.engine_name}'s side of the opening (points, depth {args.depth})  games  score")
    for band in sorted(bands):
        label = {-3: "below -2", 3: "3 and more"}.get(band, f"{band:+d} to {band + 1:+d}")
        points, count = bands[band]
        print(f"{label:>44}  {count:5}  {100 * points / count:5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
