#!/usr/bin/env python3
"""A strict mock of a UCI Oware engine (the dialect of Aualé and Aalina) for the referee's tests.

It plays Oware abapa by its own rules, as Aalina reads them: a grand slam captures nothing, a
side that cannot feed an opponent with no seed has no move (the game is over: `bestmove
0000`), a repeated position ends the game. It speaks only the dialect: unknown commands
(`pion`, `ugi`, ...) are ignored silently, `position startpos|fen <dash> [moves CbEc]` splits
the moves into letters, `go` reads `wtime btime winc binc movestogo depth movetime infinite
ponder`, and `stop` ends an infinite search.

Usage: uci_mock.py [--name NAME] [--log FILE] [--fault KIND-after=N]... [--silent]

  --log FILE               append every command received to FILE, one a line
  --silent                 never answer `uci` (no uciok)
  --fault stale-after=N    from the (N+1)-th go on, ignore `position` (answer on a stale board)
  --fault late-after=N     answer the (N+1)-th go two seconds after its time limit
  --fault zero-after=N     answer the (N+1)-th go with `bestmove 0000` whatever the position

Only the standard library is used.
"""

import sys
import time

START = [4] * 12 + [0, 0]


def own(side):
    return range(0, 6) if side == 0 else range(6, 12)


def legal_moves(board, side):
    """The pits the side may sow; none when the game is over (Aalina's hasLegalMoves)."""
    if board[12] > 24 or board[13] > 24:
        return []
    mine = [p for p in own(side) if board[p] > 0]
    theirs = own(1 - side)
    if any(board[p] for p in theirs):
        return mine
    start = theirs[0]
    return [p for p in mine if board[p] >= (start - p) % 12]


def play(board, side, pit):
    """The board after sowing `pit` and capturing, a grand slam capturing nothing."""
    board = list(board)
    seeds, board[pit], at = board[pit], 0, pit
    while seeds:
        at = (at + 1) % 12
        if at != pit:
            board[at] += 1
            seeds -= 1
    theirs = own(1 - side)
    if at in theirs:
        after = list(board)
        i = at
        while i in theirs and after[i] in (2, 3):
            after[12 + side] += after[i]
            after[i] = 0
            i -= 1
        if any(after[p] for p in theirs):
            board = after
    return board


def letter(pit):
    return "ABCDEF"[pit] if pit < 6 else "abcdef"[pit - 6]


def pit_of(text):
    if len(text) == 1 and text in "ABCDEF":
        return "ABCDEF".index(text)
    if len(text) == 1 and text in "abcdef":
        return 6 + "abcdef".index(text)
    raise ValueError(f"not a pit: {text!r}")


def parse_position(words):
    """(board, side, history) of `position ...` words, or None when they do not read."""
    try:
        if words[0] == "startpos":
            board, side, rest = list(START), 0, words[1:]
        elif words[0] == "fen":
            fields = words[1].split("-")
            board = [int(f) for f in fields[:14]]
            side = {"S": 0, "N": 1}[fields[14]]
            if len(fields) != 15 or sum(board) != 48:
                return None
            rest = words[2:]
        else:
            return None
        history = [(tuple(board), side)]
        if rest:
            if rest[0] != "moves":
                return None
            for pit in [pit_of(c) for c in "".join(rest[1:])]:
                if pit not in legal_moves(board, side):
                    return None
                board, side = play(board, side, pit), 1 - side
                history.append((tuple(board), side))
        return board, side, history
    except (IndexError, ValueError, KeyError):
        return None


def over(board, side, history):
    return not legal_moves(board, side) or (tuple(board), side) in history[:-1]


def choose(board, side):
    """The move that captures most, the leftmost of equals: deterministic, legal."""
    moves = legal_moves(board, side)
    return max(moves, key=lambda p: (play(board, side, p)[12 + side], -p))


def main():
    args = sys.argv[1:]
    name, log, silent, faults = "ucimock", None, False, {}
    while args:
        flag = args.pop(0)
        if flag == "--name":
            name = args.pop(0)
        elif flag == "--log":
            log = args.pop(0)
        elif flag == "--silent":
            silent = True
        elif flag == "--fault":
            kind, n = args.pop(0).split("-after=")
            faults[kind] = int(n)
    out = sys.stdout
    board, side, history = list(START), 0, [(tuple(START), 0)]
    gos = 0
    for line in sys.stdin:
        if log:
            with open(log, "a") as f:
                f.write(line)
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci" and not silent:
            out.write(f"id name {name} 1.0\nid author the pion tests\n")
            out.write("option name Hash type spin default 8 min 1 max 64\n")
            out.write("option name OwnBook type check default true\nuciok\n")
        elif command == "isready":
            out.write("readyok\n")
        elif command == "quit":
            return
        elif command == "position":
            stale = "stale" in faults and gos >= faults["stale"]
            parsed = parse_position(words[1:])
            if parsed is not None and not stale:
                board, side, history = parsed
        elif command == "go":
            gos += 1
            keys = dict(zip(words[1::2], words[2::2]))
            limit = int(keys.get("movetime", keys.get("wtime" if side == 0 else "btime", 100)))
            if "late" in faults and gos > faults["late"]:
                time.sleep(min(limit, 60_000) / 1000 + 2)
            if "zero" in faults and gos > faults["zero"]:
                out.write("bestmove 0000\n")
            elif over(board, side, history):
                out.write("bestmove 0000\n")
            else:
                mv = choose(board, side)
                gain = play(board, side, mv)[12 + side] - board[12 + side]
                out.write(f"info depth 1 score cp {gain * 100} nodes 6 pv {letter(mv)}\n")
                out.write(f"bestmove {letter(mv)}\n")
        # Anything else (pion, ugi, ucinewgame, setoption, stop, debug) needs no answer.
        out.flush()


if __name__ == "__main__":
    main()
