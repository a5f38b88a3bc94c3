#!/usr/bin/env python3
"""Makes a balanced opening book for the referee (`--openings file=PATH`).

Random openings are uneven: four random Avalam plies often give one side a tower or more, and
the side that gets the bad half of such a pair can rarely win it whoever plays it. This script
plays random legal plies from the start position, searches each result with pion to a fixed
depth, and keeps the openings whose score for the side to move is within --window centipoints
of the start position's own score at that depth (the start position is the yardstick, since the
evaluation gives the side to move a small edge of its own). Positions reached twice are kept
once. Everything follows from --seed, so the same command writes the same book.

    scripts/make-openings.py --game avalam --plies 4 --count 300 --depth 5 --window 50 \
        --seed 1 > openings/avalam-balanced.txt

Each line is `startpos moves ...`, the format `referee --openings file=PATH` reads.
"""

import argparse
import os
import random
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import DEFAULT_ENGINE, Engine  # noqa: E402

SCRIPT = "make-openings"


def position(moves):
    return "position startpos" + (" moves " + " ".join(moves) if moves else "")


def legal(engine, moves):
    """The legal moves after `moves` (none when the game is over)."""
    engine.send(position(moves))
    engine.send("legal")
    return engine.read_until("legal")[-1].split()[1:]


def key(engine, moves):
    """The position string after `moves`: equal positions have equal keys."""
    engine.send(position(moves))
    engine.send("show")
    return engine.read_until("position")[-1]


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument("--game", choices=["avalam", "awale"], default="avalam")
    parser.add_argument("--plies", type=int, default=4, help="random plies from the start")
    parser.add_argument("--count", type=int, default=300, help="openings to keep")
    parser.add_argument("--depth", type=int, default=5, help="search depth of the check")
    parser.add_argument("--window", type=int, default=50, help="centipoints from the start's score")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random plies")
    parser.add_argument("--jobs", type=int, default=2, help="engines searching at once")
    parser.add_argument("--engine", default=DEFAULT_ENGINE, help="engine command")
    parser.add_argument("--max-tries", type=int, default=0, help="candidates to try (0: 5 x count)")
    args = parser.parse_args()
    for name in ("plies", "count", "depth", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.window < 0:
        parser.error("--window must not be negative")
    tries = args.max_tries or 5 * args.count

    rng = random.Random(args.seed)
    engines = [Engine(SCRIPT, args.engine, args.game) for _ in range(args.jobs)]
    reference = engines[0].score(position([]), args.depth)

    def balanced(score):
        # A proven win or loss scores far outside any window.
        return abs(score - reference) <= args.window

    # Candidates in seed order, each a new position, scored `jobs` at a time, until enough are
    # kept: the book is the first --count candidates within the window. Games with few short
    # openings run out of new positions: after 1000 random openings in a row that were all seen
    # before, there are no more candidates.
    def candidate():
        for _ in range(1000):
            moves = []
            for _ in range(args.plies):
                choices = legal(engines[0], moves)
                if not choices:
                    break
                moves.append(rng.choice(choices))
            if len(moves) == args.plies and legal(engines[0], moves):
                new = key(engines[0], moves)
                if new not in seen:
                    seen.add(new)
                    return moves
        return None

    seen, candidates, scores = set(), [], []
    exhausted = False
    with ThreadPoolExecutor(args.jobs) as pool:
        while len(candidates) < tries:
            if sum(balanced(s) for s in scores) >= args.count:
                break
            batch = [candidate() for _ in range(min(args.jobs, tries - len(candidates)))]
            batch = [moves for moves in batch if moves is not None]
            if not batch:
                exhausted = True
                break
            candidates += batch
            scores += pool.map(
                lambda job: engines[job].score(position(batch[job]), args.depth), range(len(batch))
            )
    for engine in engines:
        engine.close()

    kept = [moves for moves, s in zip(candidates, scores) if balanced(s)][: args.count]
    if len(kept) < args.count:
        if exhausted:
            advice = (
                f"no other {args.plies}-ply opening turned up in 1000 tries (the game has few, or"
                " its games end sooner): ask for fewer openings, more plies, or a wider --window"
            )
        else:
            advice = "raise --max-tries or --window"
        print(
            f"{SCRIPT}: only {len(kept)} of {len(candidates)} candidates were within the"
            f" window; {advice}",
            file=sys.stderr,
        )
    print(
        f"# {args.game}: {args.plies} random plies, kept when the score at depth {args.depth} is"
        f" within {args.window} cp of the start position's ({reference:+d} cp for the side to move);"
    )
    print(
        f"# {len(kept)} of {len(candidates)} distinct candidates. scripts/make-openings.py --game"
        f" {args.game} --plies {args.plies} --count {args.count} --depth {args.depth}"
        f" --window {args.window} --seed {args.seed}"
    )
    for moves in kept:
        print("startpos moves " + " ".join(moves))
    return 0 if len(kept) == args.count else 1


if __name__ == "__main__":
    sys.exit(main())
