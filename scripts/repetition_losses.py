#!/usr/bin/env python3
"""Awale games lost by repetition from positions the endgame databases prove drawn or won.

    scripts/repetition_losses.py RECORDS.jsonl [--engine CMD] [--egtb DIR] [--list]

Replays each game of a referee records file through a pion engine (`status` tells how it
ended). For every game that ended by a repetition and was not drawn, each position the loser
had to move in is asked of `pion egtb probe` (the databases in DIR, by default the directory
pion looks in): a position is proven drawn or won for the loser when the databases settle it
as a draw or a win, or bound it from below by a draw or a win (what the side to move can force
by play that ends). Prints, for each engine, the games it lost by repetition and how many of
them it lost after such a position; with `--list`, each of those games with the first such
position's ply and the databases' answer.

Only the Python standard library is used. A bad records file or an engine that fails ends the
script with one line on stderr and status 1.
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import DEFAULT_ENGINE, Engine, fail  # noqa: E402
from review import read_records  # noqa: E402

SCRIPT = "repetition_losses"


class Probe:
    """`pion egtb probe` reading one position a line."""

    def __init__(self, engine, egtb, variant):
        command = [engine, "egtb", "probe", "--variant", variant]
        if egtb:
            command += ["--dir", egtb]
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        except OSError as e:
            fail(SCRIPT, f"cannot start '{' '.join(command)}': {e}")

    def ask(self, position):
        try:
            self.process.stdin.write(position + "\n")
            self.process.stdin.flush()
        except OSError:
            pass
        answer = self.process.stdout.readline().strip()
        if not answer:
            self.process.wait()
            said = self.process.stderr.read().strip().splitlines()
            fail(SCRIPT, "pion egtb probe failed: " + (said[0] if said else "it exited"))
        return answer

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def proven_not_lost(answer):
    """Whether a probe's answer proves the side to move at least a draw."""
    words = answer.split()
    return (words[0] == "settled" and words[1] in ("draw", "win")) or (
        words[0] == "bounds" and words[1] in ("draw", "win")
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records")
    parser.add_argument("--engine", default=DEFAULT_ENGINE, help="the pion binary")
    parser.add_argument("--egtb", help="the databases' directory (default: where pion looks)")
    parser.add_argument("--list", action="store_true", help="list the games")
    args = parser.parse_args()
    games = [g for g in read_records(args.records, None) if g["rules"] == "awale"]
    if not games:
        fail(SCRIPT, f"{args.records}: no Awale game")
    engine = Engine(SCRIPT, args.engine, "awale")
    probes = {}
    lost, after_proof = {}, {}
    for game in games:
        variant = game.get("variant", "standard")
        moves = game.get("opening", []) + game["moves"]
        engine.send("newgame awale")
        engine.send(f"setoption name Variant value {variant}")
        start = game["start"]
        engine.send("position startpos" if start == "startpos" else f"position {start}")
        positions = []
        for move in moves:
            engine.send("show")
            positions.append(engine.read_until("position")[-1].split(" ", 1)[1])
            engine.send(f"play {move}")
        engine.send("status")
        status = engine.read_until("status")[-1]
        if "reason repetition" not in status or game["result"] == "1/2-1/2":
            continue
        first_won = game["result"] == "1-0"
        loser = game["second"] if first_won else game["first"]
        lost[loser] = lost.get(loser, 0) + 1
        probe = probes.get(variant) or probes.setdefault(
            variant, Probe(args.engine, args.egtb, variant)
        )
        # The loser moves at the even plies when it played first.
        loser_first = loser == game["first"]
        for ply, position in enumerate(positions):
            if (ply % 2 == 0) != loser_first:
                continue
            answer = probe.ask(position)
            if answer.startswith("error"):
                fail(SCRIPT, f"game {game['game']}: {answer}")
            if proven_not_lost(answer):
                after_proof.setdefault(loser, []).append((game["game"], ply, answer, len(moves)))
                break
    for name in sorted(lost):
        proven = after_proof.get(name, [])
        print(
            f"{name}: lost {lost[name]} games by repetition, {len(proven)} of them after a "
            "position the databases prove drawn or won for it"
        )
        if args.list:
            for number, ply, answer, plies in proven:
                print(f"  game {number}: ply {ply} of {plies}: {answer}")
    if not lost:
        print("no game lost by repetition")
    for probe in probes.values():
        probe.close()
    engine.close()


if __name__ == "__main__":
    main()
