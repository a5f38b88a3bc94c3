#!/usr/bin/env python3
"""A random-move engine for Avalam and Awale that speaks pion's protocol (see protocol.md).

It is an example for people writing engines in other languages: Python 3.11, standard library
only, its own rules code (written from the rules, not from pion's Rust), one command per line on
stdin, replies on stdout, flushed at once. It plays uniformly random legal moves, drawn from a
generator seeded by the `Seed` option (and re-seeded on `newgame`), so a game is reproducible.

Besides the protocol it answers `legal` (the legal moves, in pion's order) and `perft N` (the
leaf count of the game tree), so that its rules can be cross-checked against pion:

    printf 'newgame awale\\nperft 6\\n' | python3 scripts/random_engine.py
"""

import random
import sys
import time

VARIANTS = ["standard"]  # only the standard rules of each game are implemented here

# ---------------------------------------------------------------- Avalam -----------------------
# A board is a tuple of 81 cells indexed row*9+col (row 0 = row 1, col 0 = column a); a cell is
# None (empty) or (height, top) with top 'y' or 'r'. Sorting moves by (source, destination)
# index is then exactly pion's order (a1, b1, ..., i1, a2, ...).

AVALAM_START = "..yr...../.yryr..../.ryryry../.yryryryr/yryr.ryry/ryryryry./..yryryr./....ryry./.....ry.."
NEIGHBOURS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def avalam_parse(board):
    """Reads the board token (rows 9 to 1 joined by '/'); raises ValueError naming the fault."""
    rows = board.split("/")
    if len(rows) != 9:
        raise ValueError(f"bad Avalam board: {len(rows)} rows, expected 9 separated by '/'")
    cells = [None] * 81
    for i, text in enumerate(rows):
        row, col, k = 8 - i, 0, 0  # the first row of the string is row 9
        while k < len(text):
            ch = text[k]
            k += 1
            if col >= 9:
                raise ValueError(f"bad Avalam board: row {row + 1} has more than 9 cells")
            if ch in "yr":
                height = 1
                if k < len(text) and text[k].isdigit():
                    height = int(text[k])
                    k += 1
                    if not 2 <= height <= 5:
                        raise ValueError(f"bad Avalam board: row {row + 1}, column "
                                         f"{'abcdefghi'[col]}: height {height} is not 2..5")
                cells[row * 9 + col] = (height, ch)
            elif ch != ".":
                raise ValueError(f"bad Avalam board: row {row + 1}, column "
                                 f"{'abcdefghi'[col]}: unknown character {ch!r}")
            col += 1
        if col != 9:
            raise ValueError(f"bad Avalam board: row {row + 1} has {col} cells, expected 9")
    return tuple(cells)


def avalam_legal(cells):
    """Every move (source, destination): a whole stack onto an adjacent stack, at most 5 high."""
    moves = []
    for src in range(81):
        if cells[src] is None:
            continue
        row, col = divmod(src, 9)
        for dr, dc in NEIGHBOURS:
            r, c = row + dr, col + dc
            dst = r * 9 + c
            if 0 <= r < 9 and 0 <= c < 9 and cells[dst] is not None \
                    and cells[src][0] + cells[dst][0] <= 5:
                moves.append((src, dst))
    return sorted(moves)


def avalam_play(cells, move):
    """The board after a move: the moving stack's top colour becomes the tower's top."""
    src, dst = move
    new = list(cells)
    new[dst] = (cells[src][0] + cells[dst][0], cells[src][1])
    new[src] = None
    return tuple(new)


def avalam_name(move):
    return "".join("abcdefghi"[sq % 9] + str(sq // 9 + 1) for sq in move)


# ---------------------------------------------------------------- Awale ------------------------
# A board is (pits, captured): 12 seed counts, 0..5 = player 1's A..F, 6..11 = player 2's a..f,
# sown in increasing order and wrapping; captured = seeds taken by players 1 and 2.

def own_pits(player):
    return range(0, 6) if player == 1 else range(6, 12)


def awale_parse(board):
    parts = board.split("/")
    if len(parts) != 3:
        raise ValueError("bad Awale position: expected A,B,C,D,E,F/a,b,c,d,e,f/cap1,cap2")
    numbers = []
    for part, what, count in zip(parts, ("player 1's pits", "player 2's pits", "captures"), (6, 6, 2)):
        fields = part.split(",")
        if len(fields) != count or not all(f.isdigit() and int(f) <= 48 for f in fields):
            raise ValueError(f"bad Awale position: {what} must be {count} seed counts 0..48")
        numbers += [int(f) for f in fields]
    if sum(numbers) != 48:
        raise ValueError(f"bad Awale position: {sum(numbers)} seeds in all, expected 48")
    return tuple(numbers[:12]), tuple(numbers[12:])


def awale_sow(pits, pit, player):
    """Sows from `pit` and captures; returns (new pits, seeds captured)."""
    pits = list(pits)
    seeds, pits[pit], last = pits[pit], 0, pit
    while seeds:
        last = (last + 1) % 12
        if last != pit:  # a lap of 12 or more skips the pit the seeds came from
            pits[last] += 1
            seeds -= 1
    taken = 0
    while last in own_pits(3 - player) and pits[last] in (2, 3):
        taken += pits[last]
        pits[last] = 0
        last -= 1  # back along the opponent's row, stopping where the row starts
    return pits, taken


def awale_over(board, player):
    pits, captured = board
    return max(captured) > 24 or not any(pits[p] for p in own_pits(player))


def awale_legal(board, player):
    """Moves that leave the opponent a seed (captures included); all moves if none does."""
    pits, _ = board
    if awale_over(board, player):
        return []
    moves = [p for p in own_pits(player) if pits[p]]
    opponent = own_pits(3 - player)
    feeding = [p for p in moves if any(awale_sow(pits, p, player)[0][q] for q in opponent)]
    return feeding or moves


def awale_play(board, pit, player):
    pits, captured = board
    new_pits, taken = awale_sow(pits, pit, player)
    captured = list(captured)
    captured[player - 1] += taken
    return tuple(new_pits), tuple(captured)


def awale_name(pit):
    return "ABCDEFabcdef"[pit]


# ---------------------------------------------------------------- one interface ----------------
# Both games behind the same five functions, so the protocol code below never asks which it is.
# A position is (board, side to move).

GAMES = {
    "avalam": dict(
        start=lambda: (avalam_parse(AVALAM_START), 1),
        parse=avalam_parse,
        legal=lambda pos: avalam_legal(pos[0]),
        play=lambda pos, mv: (avalam_play(pos[0], mv), 3 - pos[1]),
        name=avalam_name,
        repetition_ends_game=False,
    ),
    "awale": dict(
        start=lambda: (((4,) * 12, (0, 0)), 1),
        parse=awale_parse,
        legal=lambda pos: awale_legal(pos[0], pos[1]),
        play=lambda pos, mv: (awale_play(pos[0], mv, pos[1]), 3 - pos[1]),
        name=awale_name,
        repetition_ends_game=True,  # same pits and side again: the game ends
    ),
}


def perft(game, pos, depth):
    """Leaves of the game tree `depth` plies deep (a finished game is a leaf), as pion counts."""
    if depth == 0:
        return 1
    moves = game["legal"](pos)
    if depth == 1 or not moves:
        return max(len(moves), 1)
    return sum(perft(game, game["play"](pos, mv), depth - 1) for mv in moves)


class Engine:
    """The protocol state: the game, the position with its history, the options, the generator."""

    def __init__(self):
        self.seed = 0
        self.pending = None  # the bestmove of a `go infinite`, sent on `stop`
        self.set_game("avalam")

    def set_game(self, name):
        self.game_name, self.game = name, GAMES[name]
        self.history = [self.game["start"]()]  # every position of the game so far, root first
        self.rng = random.Random(self.seed)

    def legal(self):
        """Legal moves of the current position, none if the game ended (repetition included)."""
        pos = self.history[-1]
        if self.game["repetition_ends_game"] and pos in self.history[:-1]:
            return []
        return self.game["legal"](pos)

    def reply(self, line):
        print(line, flush=True)

    def handle(self, line):
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        handler = getattr(self, "cmd_" + command, None)
        if handler is None:
            self.reply(f"error unknown command {command[:40]}")
            return True
        try:
            return handler(args) is not False
        except ValueError as problem:
            self.reply(f"error {problem}")
            return True

    def cmd_pion(self, args):
        for line in ("id name random_engine.py", "id version 1.0", "id author the pion project",
                     "game avalam", "game awale",
                     "option name Seed type spin default 0 min 0 max 4294967295",
                     "option name Variant type combo default standard var standard", "pionok"):
            self.reply(line)

    def cmd_isready(self, args):
        self.reply("readyok")

    def cmd_newgame(self, args):
        if len(args) > 1 or (args and args[0] not in GAMES):
            raise ValueError("newgame takes avalam or awale")
        self.set_game(args[0] if args else self.game_name)

    def cmd_setoption(self, args):
        if len(args) < 4 or args[0] != "name" or "value" not in args:
            raise ValueError("expected setoption name <Name> value <v>")
        split = args.index("value")
        name, value = " ".join(args[1:split]), " ".join(args[split + 1:])
        if name.lower() == "seed":
            if not value.isdigit() or int(value) > 4294967295:
                raise ValueError(f"Seed must be an integer 0..4294967295, not {value[:40]}")
            self.seed = int(value)
            self.rng = random.Random(self.seed)
        elif name.lower() == "variant":
            if value not in VARIANTS:
                raise ValueError(f"unsupported variant {value[:40]}: this engine plays standard only")
        else:
            raise ValueError(f"unknown option {name[:40]}: the options are Seed and Variant")

    def cmd_position(self, args):
        if not args:
            raise ValueError("expected position startpos|<board> <side> [moves ...]")
        if args[0] == "startpos":
            root, rest = self.game["start"](), args[1:]
        else:
            if len(args) < 2 or args[1] not in ("1", "2"):
                raise ValueError("expected position <board> <side 1|2> [moves ...]")
            root, rest = (self.game["parse"](args[0]), int(args[1])), args[2:]
        if rest and rest[0] != "moves":
            raise ValueError(f"expected 'moves' after the position, not {rest[0][:40]}")
        old, self.history = self.history, [root]
        try:
            for text in rest[1:]:
                by_name = {self.game["name"](mv): mv for mv in self.legal()}
                if text not in by_name:
                    raise ValueError(f"illegal move {text[:40]} in this position")
                self.history.append(self.game["play"](self.history[-1], by_name[text]))
        except ValueError:
            self.history = old  # a bad position command changes nothing
            raise

    def cmd_go(self, args):
        valued = {"depth", "nodes", "movetime", "p1time", "p2time", "p1inc", "p2inc", "movestogo"}
        k, infinite = 0, False
        while k < len(args):  # limits are checked, then ignored: a random move takes no time
            if args[k] == "infinite":
                infinite = True
                k += 1
            elif args[k] in valued and k + 1 < len(args) and args[k + 1].isdigit():
                k += 2
            else:
                raise ValueError(f"bad go argument {args[k][:40]}: expected depth|nodes|movetime|"
                                 "p1time|p2time|p1inc|p2inc|movestogo N, or infinite")
        moves = self.legal()
        best = "bestmove " + (self.game["name"](self.rng.choice(moves)) if moves else "none")
        if infinite:
            self.pending = best  # `go infinite` answers only when told to stop
        else:
            self.reply(best)

    def cmd_stop(self, args):
        if self.pending:
            self.reply(self.pending)
            self.pending = None

    def answer_pending(self):
        """End input or quit during `go infinite`: the bestmove is still owed."""
        self.cmd_stop([])

    def cmd_quit(self, args):
        self.answer_pending()
        return False

    def cmd_legal(self, args):
        self.reply(" ".join(["legal"] + [self.game["name"](mv) for mv in self.legal()]))

    def cmd_perft(self, args):
        if len(args) != 1 or not args[0].isdigit():
            raise ValueError("expected perft <depth>")
        depth, start = int(args[0]), time.monotonic()
        nodes = perft(self.game, self.history[-1], depth)
        ms = int((time.monotonic() - start) * 1000)
        self.reply(f"perft depth {depth} nodes {nodes} time {ms} nps {nodes * 1000 // max(ms, 1)}")


def main():
    engine = Engine()
    for line in sys.stdin:  # EOF ends the loop, like quit
        if not engine.handle(line):
            break
    engine.answer_pending()


if __name__ == "__main__":
    main()
