#!/usr/bin/env python3
"""How an engine scored in a referee match, by how good its side of each opening was.

Reads the games of a match (the JSON lines of `referee --out`), searches the position after each
pair's opening with pion to a fixed depth, and prints the engine's score in bands of one point
of that position's value from the engine's side: the band "-1 to +0" holds -1.00 to -0.01, and
"+0 to +1" holds 0.00 to 0.99. It shows how much of a result the openings decided rather than
the play:

    scripts/score-by-opening.py target/level-table/avalam-max-mcts.jsonl --engine-name max
"""

import argparse
import json
import os
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import DEFAULT_ENGINE, Engine, fail  # noqa: E402

SCRIPT = "score-by-opening"

# The fields of a game record this script reads.
FIELDS = ("rules", "start", "opening", "engines", "first", "second", "result")


def read_games(path):
    """The game records of a referee --out file; any other file is a one-line error."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        fail(SCRIPT, f"cannot read {path}: {e.strerror}")
    games = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            game = json.loads(line)
        except json.JSONDecodeError:
            fail(SCRIPT, f"{path}:{number} is not a JSON line")
        if not isinstance(game, dict) or any(field not in game for field in FIELDS):
            hint = " (a match summary? pass the .jsonl file of --out)" if isinstance(game, dict) else ""
            fail(SCRIPT, f"{path}:{number} is not a game record of referee --out{hint}")
        games.append(game)
    return games


def position_command(start, moves):
    command = "position startpos" if start == "startpos" else f"position {start}"
    return command + (" moves " + " ".join(moves) if moves else "")


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument("games", help="a referee --out file (JSON lines)")
    parser.add_argument("--engine-name", required=True, help="the engine whose score is shown")
    parser.add_argument("--depth", type=int, default=5, help="search depth for the openings' values")
    parser.add_argument("--jobs", type=int, default=2, help="engines searching at once")
    parser.add_argument("--engine", default=DEFAULT_ENGINE, help="the engine that judges the openings")
    args = parser.parse_args()
    for name in ("depth", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")

    games = [g for g in read_games(args.games) if args.engine_name in g["engines"]]
    if not games:
        fail(SCRIPT, f"no game of {args.engine_name!r} in {args.games}")
    rules = sorted({g["rules"] for g in games})
    if len(rules) > 1:
        fail(SCRIPT, f"{args.games} mixes games of {' and '.join(rules)}")

    openings = sorted({(g["start"], tuple(g["opening"])) for g in games})
    engines = [Engine(SCRIPT, args.engine, rules[0]) for _ in range(min(args.jobs, len(openings)))]

    def value_all(job):
        engine = engines[job]
        return [
            (o, engine.score(position_command(*o), args.depth))
            for o in openings[job :: len(engines)]
        ]

    with ThreadPoolExecutor(len(engines)) as pool:
        values = dict(pair for part in pool.map(value_all, range(len(engines))) for pair in part)
    for engine in engines:
        engine.close()

    bands = defaultdict(lambda: [0.0, 0])
    for g in games:
        value = values[(g["start"], tuple(g["opening"]))]
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
