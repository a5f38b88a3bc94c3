#!/usr/bin/env python3
"""Finds where games were lost: replays a referee records file and marks, move by move, where
each side's result changed.

    scripts/review.py RECORDS.jsonl [--engine CMD] [--depth N | --movetime MS] [--egtb DIR]
                      [--game-index I ...] [--threshold CP] [--margin CP] [--seeds N]
                      [--all] [--json]

Every position of each game (from the end of its opening to its last move) is searched by a pion
engine through the protocol. A move's value before is the search's value of the position it was
played in, from the mover's view; its value after is the negated value of the next position (or
the final result, when the move ended the game). With `--egtb DIR` pion probes the Awale endgame
databases (`EgtbPath`): on the boards they settle, values are proven (`win`, `draw`, `loss` with
the exact margin) and the search ends at once; where play can cycle they bound the value (a bound
that proves a result reads as that result); elsewhere values are deep-search estimates in
centipoints, the mean of the last two depths' (Awale estimates swing with the parity of the
depth).

A value's class is its proven result, or for an estimate `win?` at `--margin` centipoints or more
(default 300: three seeds or towers ahead), `loss?` at minus that or less, and `even` between.
A move is flagged as a blunder when its estimated value drops by `--threshold` centipoints or
more (default 200), or when it lowers the mover's class (win > even/draw > loss) with a proven value on either
side (between two estimates a small step across a class boundary is search noise). The first losing move of a
game's loser is the move after which it stayed in the loss class to the end.

Only the Python standard library is used. A bad records file or an engine that fails ends the
script with one line on stderr and status 1.
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import DEFAULT_ENGINE, PROVEN, Engine, fail  # noqa: E402

SCRIPT = "review"

# Class ranks: a blunder lowers the mover's rank.
RANK = {"loss": 0, "loss?": 0, "draw": 1, "even": 1, "win?": 2, "win": 2}


def parse_score(words):
    """A protocol `score ...` (words after `score`) as (kind, number): kind `cp`, `win`, `draw` or
    `loss`; number the centipoints or the proven margin (negative for a loss)."""
    kind = words[0]
    if kind == "cp":
        return ("cp", int(words[1]))
    if kind == "draw":
        return ("draw", 0)
    if kind in ("win", "loss"):
        margin = int(words[1]) if len(words) > 1 and words[1].lstrip("-").isdigit() else 0
        return (kind, abs(margin) if kind == "win" else -abs(margin))
    raise ValueError(f"unknown score '{' '.join(words)}'")


def depth_of(info):
    """The `depth` of an `info` line."""
    words = info.split()
    return int(words[words.index("depth") + 1])


def negate(value):
    kind, n = value
    return ({"win": "loss", "loss": "win"}.get(kind, kind), -n)


def centipoints(value):
    """A value on one axis: proven results beyond any estimate, ordered by margin."""
    kind, n = value
    if kind == "win":
        return PROVEN + 100 * n
    if kind == "loss":
        return -PROVEN + 100 * n
    if kind == "draw":
        return 0
    return n


def klass(value, margin):
    kind, n = value
    if kind != "cp":
        return kind
    if n >= margin:
        return "win?"
    if n <= -margin:
        return "loss?"
    return "even"


def show(value):
    kind, n = value
    if kind == "cp":
        return f"cp {n}"
    if kind == "draw":
        return "draw"
    return f"{kind} {abs(n)}"


def bucket(seeds):
    """The phase of an Awale position by seeds left on the board, in bands of eight."""
    if seeds is None:
        return "?"
    lo = max(0, (seeds - 1) // 8 * 8 + 1)
    return f"{lo}-{lo + 7}" if seeds > 0 else "0"


def kind_of(rules, board, move):
    """What an Awale move does with its seeds: `kroo` (sows a pit of 12 or more, a lap),
    `feeds` (some seeds reach the opponent's row) or `home` (all stay in the mover's row)."""
    if rules != "awale" or len(move) != 1 or not move.isalpha():
        return None
    pits = [int(x) for x in board.split()[0].split("/")[0].split(",") + board.split()[0].split("/")[1].split(",")]
    pit = "ABCDEFabcdef".index(move)
    seeds, to_go = pits[pit], 5 - pit % 6
    if seeds >= 12:
        return "kroo"
    return "feeds" if seeds > to_go else "home"


def read_records(path, indices):
    """The games of a records file (those whose `game` index is in `indices`, if given)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError as e:
        fail(SCRIPT, f"cannot read the records file '{path}': {e.strerror}")
    except UnicodeDecodeError:
        fail(SCRIPT, f"{path}: not a records file (not UTF-8 text)")
    games = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError("not a JSON object")
            for key in ("game", "first", "second", "rules", "start", "moves", "result"):
                if key not in record:
                    raise ValueError(f"no '{key}'")
            if record["rules"] not in ("awale", "avalam"):
                raise ValueError(f"unknown rules '{record['rules']}'")
            moves = record.get("opening", []) + record["moves"]
            if not all(isinstance(m, str) and m and " " not in m for m in moves):
                raise ValueError("a move is not a word")
        except ValueError as e:
            fail(SCRIPT, f"{path}:{number}: not a game record of `referee --out` ({e})")
        if indices is None or record["game"] in indices:
            games.append(record)
    if not games:
        what = "no game" if indices is None else "no game of the indices given"
        fail(SCRIPT, f"{path}: {what} to review")
    return games


class Reviewer:
    """One engine process that values positions."""

    def __init__(self, args, rules, variant):
        self.args = args
        self.engine = Engine(SCRIPT, args.engine, rules)
        self.rules = rules
        if variant:
            self.command(f"setoption name Variant value {variant}")
        if args.egtb:
            self.command(f"setoption name EgtbPath value {args.egtb}")
        if args.hash:
            self.command(f"setoption name Hash value {args.hash}")
        self.engine.send("isready")
        self.expect("readyok")

    def expect(self, prefix, context=""):
        """The lines up to one starting with `prefix`; an `error` line fails with `context`."""
        lines = []
        while True:
            line = self.engine.read_line(600)
            if line.startswith("error"):
                self.engine.fail(f"answered '{line}'{context}")
            lines.append(line)
            if line.split(" ", 1)[0] == prefix:
                return lines

    def command(self, line):
        """Sends a command that answers nothing when it works; an `error` fails."""
        self.engine.send(line)
        self.engine.send("isready")
        self.expect("readyok", f" to '{line}'")

    def position(self, record, plies, where):
        """Sets the position after `plies` moves of the game (opening included): (turn, seeds on
        board or None, final margin for player 1 if the game is over, position string)."""
        moves = (record.get("opening", []) + record["moves"])[:plies]
        start = record["start"]
        command = "position startpos" if start == "startpos" else f"position {start}"
        if moves:
            command += " moves " + " ".join(moves)
        self.engine.send(command)
        self.engine.send("show")
        shown = self.expect("position", f" ({where})")
        self.engine.send("status")
        words = self.expect("status", f" ({where})")[-1].split()
        seeds = None
        if self.rules == "awale":
            board = shown[-1].split()[1].split("/")
            seeds = sum(int(x) for x in board[0].split(",") + board[1].split(","))
        board = " ".join(shown[-1].split()[1:])
        score = words[words.index("score") + 1 : words.index("score") + 3]
        if words[1] == "over":
            return None, seeds, int(score[0]) - int(score[1]), board
        return int(words[words.index("turn") + 1]), seeds, None, board

    def value(self, where):
        """The value of the current position for the side to move."""
        limit = f"depth {self.args.depth}" if self.args.movetime is None else f"movetime {self.args.movetime}"
        self.engine.send(f"go {limit}")
        scored = [line for line in self.expect("bestmove", f" ({where})") if " score " in line]
        if not scored:
            self.engine.fail(f"reported no score ({where})")
        try:
            values = [(depth_of(line), parse_score(line.split(" score ")[1].split())) for line in scored]
        except (ValueError, IndexError):
            self.engine.fail(f"sent a score that is not one: '{scored[-1]}' ({where})")
        depth, value = values[-1]
        # Awale estimates swing with the parity of the depth (whose move the horizon falls on);
        # the mean of the last two depths' estimates keeps that swing out of the drops.
        previous = [v for d, v in values if d == depth - 1]
        if value[0] == "cp" and previous and previous[-1][0] == "cp":
            return ("cp", round((value[1] + previous[-1][1]) / 2))
        return value

    def close(self):
        self.engine.close()


def review_game(reviewer, record, args):
    """Values every position of one game and marks its moves."""
    opening = len(record.get("opening", []))
    total = opening + len(record["moves"])
    names = {1: record["first"], 2: record["second"]}
    positions = {}
    # Each search starts from an empty table: a table kept from other positions of the game
    # holds values of lines that were repetitions in their history and are not in this one's,
    # which moved some middlegame values by several seeds.
    for plies in range(opening, total + 1):
        where = f"game {record['game']}, ply {plies}"
        reviewer.engine.send("newgame")
        turn, seeds, final, board = reviewer.position(record, plies, where)
        if final is not None:
            positions[plies] = (None, seeds, final, board)
        else:
            positions[plies] = (turn, seeds, reviewer.value(where), board)
    moves = []
    rules = record["rules"]
    for i, mv in enumerate(record["moves"]):
        plies = opening + i
        turn, seeds, before, board = positions[plies]
        if turn is None:
            break
        next_turn, next_seeds, next_value, _ = positions[plies + 1]
        if next_turn is None:
            margin = next_value if turn == 1 else -next_value
            after = ("win", margin) if margin > 0 else ("loss", margin) if margin < 0 else ("draw", 0)
        else:
            after = next_value if next_turn == turn else negate(next_value)
        drop = centipoints(before) - centipoints(after)
        cb, ca = klass(before, args.margin), klass(after, args.margin)
        proven = before[0] != "cp" and after[0] != "cp"
        # A proven margin given up within the same result is not a lost result: only drops
        # between estimates count.
        big = drop >= args.threshold and abs(drop) < PROVEN // 2 and not proven
        # Between two estimates a class boundary crossed by a small step is search noise (the
        # two searches' horizons differ by a ply): only a proven change, or a big drop, counts.
        thrown = RANK[ca] < RANK[cb] and (proven or big or (before[0] != "cp") != (after[0] != "cp"))
        said = None
        data = record.get("data", [])
        if i < len(data) and isinstance(data[i], dict):
            said = data[i].get("score")
        moves.append(
            {
                "ply": plies + 1,
                "mover": names[turn],
                "player": turn,
                "move": mv,
                "seeds": seeds,
                "took": None if seeds is None else seeds - next_seeds,
                "position": board,
                "kind": kind_of(rules, board, mv),
                "before": show(before),
                "after": show(after),
                "class_before": cb,
                "class_after": ca,
                "drop": drop if abs(drop) < PROVEN // 2 else None,
                "blunder": thrown or big,
                "class_change": f"{cb}->{ca}" if thrown else None,
                "said": said,
            }
        )
    for m, reply in zip(moves, moves[1:] + [None]):
        m["reply_took"] = None if reply is None else reply["took"]
    return {
        "game": record["game"],
        "first": record["first"],
        "second": record["second"],
        "result": record["result"],
        "reason": record.get("reason", "normal"),
        "moves": moves,
        "first_losing": first_losing(moves, record),
        "at_seeds": at_seeds(moves, args.seeds),
    }


def loser_of(record):
    return {"1-0": record["second"], "0-1": record["first"]}.get(record["result"])


def first_losing(moves, record):
    """The loser's last move played from a position not valued lost: from its next turn on,
    every position it played from was valued lost (None for a draw; `already_lost` when even
    its first reviewed position was; `seen_late` when the value after that move was not yet a
    loss, so that the search saw the loss only one ply later)."""
    loser = loser_of(record)
    if loser is None:
        return None
    own = [m for m in moves if m["mover"] == loser]
    if not own:
        return None
    k = len(own) - 1
    if RANK[own[k]["class_before"]] != 0:
        # Its last position was not valued lost: its last move lost the game, or none did.
        if RANK[own[k]["class_after"]] != 0:
            return None
    else:
        while k >= 0 and RANK[own[k]["class_before"]] == 0:
            k -= 1
    already = k < 0
    m = own[max(k, 0)]
    return {
        "ply": m["ply"],
        "mover": loser,
        "move": m["move"],
        "seeds": m["seeds"],
        "before": m["before"],
        "after": m["after"],
        "already_lost": already,
        "seen_late": not already and RANK[m["class_after"]] != 0,
    }


def at_seeds(moves, n):
    """Each engine's class at the first reviewed position with at most `n` seeds on the board."""
    for m in moves:
        if m["seeds"] is not None and m["seeds"] <= n:
            other = {"win": "loss", "loss": "win", "win?": "loss?", "loss?": "win?"}
            cls = m["class_before"]
            return {"seeds": m["seeds"], "ply": m["ply"] - 1, "mover": m["mover"], "class": cls, "other": other.get(cls, cls)}
    return None


def summarise(games, args):
    engines = sorted({g["first"] for g in games} | {g["second"] for g in games})
    per = {
        e: {"moves": 0, "blunders": 0, "class_changes": {}, "by_phase": {}, "by_kind": {}, "reply_captured": 0, "lost_at_seeds": 0, "games_lost": 0, "lost_games_lost_at_seeds": 0}
        for e in engines
    }
    reached = 0
    for g in games:
        for m in g["moves"]:
            p = per[m["mover"]]
            p["moves"] += 1
            if m["blunder"]:
                p["blunders"] += 1
                phase = bucket(m["seeds"]) if m["seeds"] is not None else f"ply {(m['ply'] - 1) // 20 * 20 + 1}+"
                p["by_phase"][phase] = p["by_phase"].get(phase, 0) + 1
                if m["kind"]:
                    p["by_kind"][m["kind"]] = p["by_kind"].get(m["kind"], 0) + 1
                if m["reply_took"]:
                    p["reply_captured"] += 1
            if m["class_change"]:
                p["class_changes"][m["class_change"]] = p["class_changes"].get(m["class_change"], 0) + 1
        loser = loser_of({"result": g["result"], "first": g["first"], "second": g["second"]})
        if loser:
            per[loser]["games_lost"] += 1
        at = g["at_seeds"]
        if at:
            reached += 1
            for e in (g["first"], g["second"]):
                cls = at["class"] if e == at["mover"] else at["other"]
                if RANK[cls] == 0:
                    per[e]["lost_at_seeds"] += 1
                    if e == loser:
                        per[e]["lost_games_lost_at_seeds"] += 1
    return {"games": len(games), "seeds": args.seeds, "games_reaching_seeds": reached, "engines": per}


def print_game(g, args):
    print(f"game {g['game']}: {g['first']} (player 1) vs {g['second']} (player 2), {g['result']} {g['reason']}, {len(g['moves'])} moves reviewed")
    rows = [m for m in g["moves"] if args.all or m["blunder"]]
    if rows:
        print(f"  {'ply':>4} {'seeds':>5}  {'mover':<12} {'move':<5} {'before':<12} {'after':<12} {'drop':>6}  flag")
    for m in rows:
        seeds = "" if m["seeds"] is None else m["seeds"]
        drop = "" if m["drop"] is None else m["drop"]
        flag = m["class_change"] or ("drop" if m["blunder"] else "")
        print(f"  {m['ply']:>4} {seeds:>5}  {m['mover']:<12} {m['move']:<5} {m['before']:<12} {m['after']:<12} {drop:>6}  {flag}")
    fl = g["first_losing"]
    if fl:
        note = " (already lost at the first reviewed position)" if fl["already_lost"] else " (valued lost from the next turn on)" if fl["seen_late"] else ""
        print(f"  first losing move: ply {fl['ply']} {fl['mover']} {fl['move']} at {fl['seeds']} seeds, {fl['before']} -> {fl['after']}{note}")
    elif g["result"] != "1/2-1/2":
        how = f"the game ended by {g['reason']}" if g["reason"] != "normal" else "the loser's last position was not valued lost"
        print(f"  first losing move: none found ({how})")
    at = g["at_seeds"]
    if at:
        print(f"  at {at['seeds']} seeds (ply {at['ply']}): {at['mover']} {at['class']}, the other {at['other']}")


def print_summary(s, args, seconds):
    print(f"summary: {s['games']} games, {s['games_reaching_seeds']} reached {s['seeds']} seeds or fewer ({seconds:.0f} s)")
    for e, p in s["engines"].items():
        changes = ", ".join(f"{k} {v}" for k, v in sorted(p["class_changes"].items())) or "none"
        phases = ", ".join(f"{k}: {v}" for k, v in sorted(p["by_phase"].items(), key=lambda kv: -int(kv[0].split("-")[0].split()[-1].rstrip("+")) if kv[0][0].isdigit() else 0)) or "none"
        print(f"  {e}: {p['moves']} moves, {p['blunders']} blunders; results thrown away: {changes}")
        print(f"    blunders by seeds on board: {phases}")
        if p["by_kind"]:
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(p["by_kind"].items()))
            print(f"    blunders by kind: {kinds}; the reply captured after {p['reply_captured']} of them")
        print(
            f"    lost {p['games_lost']} games; lost at {s['seeds']} seeds in {p['lost_at_seeds']} games"
            f" ({p['lost_games_lost_at_seeds']} of its {p['games_lost']} lost games)"
        )


def main():
    parser = argparse.ArgumentParser(prog="review.py", description="Marks where the games of a referee records file were lost.")
    parser.add_argument("records", help="a records file written by `referee --out` (JSON lines)")
    parser.add_argument("--engine", default=DEFAULT_ENGINE, help="the pion command that values positions (default: this checkout's release build)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=int, default=None, help="search every position to this depth (default 12)")
    limit.add_argument("--movetime", type=int, default=None, help="search every position this many milliseconds")
    parser.add_argument("--egtb", default=None, help="Awale endgame databases directory (EgtbPath): exact values where they reach")
    parser.add_argument("--hash", type=int, default=None, help="the engine's Hash in MiB")
    parser.add_argument("--game-index", type=int, nargs="+", default=None, help="review only these games (their `game` field)")
    parser.add_argument("--threshold", type=int, default=200, help="a drop of this many centipoints is a blunder (default 200)")
    parser.add_argument("--margin", type=int, default=300, help="an estimate this far from 0 counts as win?/loss? (default 300)")
    parser.add_argument("--seeds", type=int, default=20, help="count games lost when the board first came down to this many seeds (default 20)")
    parser.add_argument("--all", action="store_true", help="list every move, not only the flagged ones")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument("--save", default=None, help="also write the JSON object to this file")
    args = parser.parse_args()
    if args.depth is None and args.movetime is None:
        args.depth = 12
    if (args.depth is not None and not 1 <= args.depth <= 64) or (args.movetime is not None and args.movetime < 1):
        fail(SCRIPT, "--depth must be from 1 to 64 and --movetime at least 1")
    if args.egtb and not os.path.isdir(args.egtb):
        fail(SCRIPT, f"--egtb: '{args.egtb}' is not a directory")
    records = read_records(args.records, None if args.game_index is None else set(args.game_index))
    started = time.time()
    reviewers = {}
    games = []
    for record in records:
        key = (record["rules"], record.get("variant"))
        if key not in reviewers:
            reviewers[key] = Reviewer(args, *key)
        games.append(review_game(reviewers[key], record, args))
        if not args.json:
            print_game(games[-1], args)
            sys.stdout.flush()
    for r in reviewers.values():
        r.close()
    summary = summarise(games, args)
    seconds = time.time() - started
    limit = {"depth": args.depth} if args.movetime is None else {"movetime": args.movetime}
    settings = {"engine": args.engine, "egtb": args.egtb, "threshold": args.threshold, "margin": args.margin, **limit}
    report = json.dumps({"settings": settings, "games": games, "summary": summary, "seconds": round(seconds, 1)})
    if args.save:
        try:
            with open(args.save, "w", encoding="utf-8") as f:
                f.write(report + "\n")
        except OSError as e:
            fail(SCRIPT, f"cannot write '{args.save}': {e.strerror}")
    if args.json:
        print(report)
    else:
        print_summary(summary, args, seconds)


if __name__ == "__main__":
    main()
