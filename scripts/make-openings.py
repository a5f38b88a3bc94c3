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
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


class Engine:
    """A pion process driven through the protocol."""

    def __init__(self, command, game):
        self.process = subprocess.Popen(
            command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.send(f"setoption name Game value {game}")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, prefix):
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit(f"make-openings: the engine exited (last lines: {lines[-3:]})")
            line = line.strip()
            if line.startswith("error"):
                sys.exit(f"make-openings: the engine answered '{line}'")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def position(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))

    def legal(self, moves):
        self.position(moves)
        self.send("legal")
        return self.read_until("legal")[-1].split()[1:]

    def key(self, moves):
        """The position string after `moves`: equal positions have equal keys."""
        self.position(moves)
        self.send("show")
        return self.read_until("position")[-1]

    def score(self, moves, depth):
        """The score of the position after `moves` for the side to move, in centipoints, or
        None when the search proved a win or a loss."""
        self.send("newgame")
        self.position(moves)
        self.send(f"go depth {depth}")
        lines = self.read_until("bestmove")
        scored = [line for line in lines if " score " in line]
        words = scored[-1].split(" score ")[1].split()
        if words[0] == "cp":
            return int(words[1])
        return 0 if words[0] == "draw" else None

    def close(self):
        self.send("quit")
        self.process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=["avalam", "awale"], default="avalam")
    parser.add_argument("--plies", type=int, default=4, help="random plies from the start")
    parser.add_argument("--count", type=int, default=300, help="openings to keep")
    parser.add_argument("--depth", type=int, default=5, help="search depth of the check")
    parser.add_argument("--window", type=int, default=50, help="centipoints from the start's score")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="engines searching at once")
    parser.add_argument("--engine", default="target/release/pion", help="engine command")
    parser.add_argument("--max-tries", type=int, default=0, help="candidates to try (default 5 x count)")
    args = parser.parse_args()
    for name in ("plies", "count", "depth", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.window < 0:
        parser.error("--window must not be negative")
    tries = args.max_tries or 5 * args.count

    rng = random.Random(args.seed)
    engines = [Engine(args.engine, args.game) for _ in range(args.jobs)]
    reference = engines[0].score([], args.depth)

    def balanced(score):
        return score is not None and abs(score - reference) <= args.window

    # Candidates in seed order, each a new position, scored `jobs` at a time, until enough are
    # kept: the book is the first --count candidates within the window. Games with few short
    # openings run out of new positions: after 1000 random openings in a row that were all seen
    # before, there are no more candidates.
    def candidate():
        for _ in range(1000):
            moves = []
            for _ in range(args.plies):
                legal = engines[0].legal(moves)
                if not legal:
                    break
                moves.append(rng.choice(legal))
            if len(moves) == args.plies and engines[0].legal(moves):
                key = engines[0].key(moves)
                if key not in seen:
                    seen.add(key)
                    return moves
        return None

    seen, candidates, scores = set(), [], []
    with ThreadPoolExecutor(args.jobs) as pool:
        while len(candidates) < tries:
            if sum(balanced(s) for s in scores) >= args.count:
                break
            batch = [candidate() for _ in range(min(args.jobs, tries - len(candidates)))]
            batch = [moves for moves in batch if moves is not None]
            if not batch:
                break
            candidates += batch
            scores += pool.map(lambda job: engines[job].score(batch[job], args.depth), range(len(batch)))
    for engine in engines:
        engine.close()

    kept = [moves for moves, s in zip(candidates, scores) if balanced(s)][: args.count]
    if len(kept) < args.count:
        print(
            f"make-openings: only {len(kept)} of {len(candidates)} candidates were within the"
            f" window; raise --max-tries or --window",
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
