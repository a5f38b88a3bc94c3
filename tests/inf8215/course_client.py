#!/usr/bin/env python3
"""Plays whole Avalam games between two agents served over XML-RPC, calling them as the INF8215
course's game.py does, and checks every action by pion's rules (written for pion's tests).

What game.py does, and this client too: player 1 (yellow, positive heights) moves first; each
step it sends the Board object itself, which XML-RPC turns into a dict of its attributes (`m`,
`rows`, `columns`, `max_height`), then the player (1 or -1), the step (from 1) and the agent's
time credit in seconds (None when untimed), with a socket timeout of the credit plus one second;
the time a call takes comes off the credit; a game ends when no action is left, scored by towers
and on equal towers by towers five high. Here each action is also played in a pion process
(`position startpos moves ...` under tiebreak5): any `error` is an illegal action, and pion's
`status` must name the same winner as the course's score.

    python3 tests/inf8215/course_client.py URL1 URL2 --pion target/release/pion --games 2 --time 20

Prints one JSON line per game: {"winner": 1|-1|0, "score": n, "plies": n, "moves": [...], ...}.
"""

import argparse
import json
import socket
import subprocess
import sys
import time
import xmlrpc.client

START = [[0, 0, 1, -1, 0, 0, 0, 0, 0],
         [0, 1, -1, 1, -1, 0, 0, 0, 0],
         [0, -1, 1, -1, 1, -1, 1, 0, 0],
         [0, 1, -1, 1, -1, 1, -1, 1, -1],
         [1, -1, 1, -1, 0, -1, 1, -1, 1],
         [-1, 1, -1, 1, -1, 1, -1, 1, 0],
         [0, 0, 1, -1, 1, -1, 1, -1, 0],
         [0, 0, 0, 0, -1, 1, -1, 1, 0],
         [0, 0, 0, 0, 0, -1, 1, 0, 0]]


class Board:
    """What the course's Board holds: XML-RPC marshals these four attributes as the percepts."""

    def __init__(self, m):
        self.m = [row[:] for row in m]
        self.rows = 9
        self.columns = 9
        self.max_height = 5


def any_action(m):
    for i in range(9):
        for j in range(9):
            for i2 in range(max(0, i - 1), min(9, i + 2)):
                for j2 in range(max(0, j - 1), min(9, j + 2)):
                    if (i2, j2) != (i, j) and m[i][j] and m[i2][j2] and \
                            abs(m[i][j]) + abs(m[i2][j2]) <= 5:
                        return True
    return False


def course_score(m):
    """Towers of yellow less towers of red; on a tie, the same for towers five high."""
    score = sum((h > 0) - (h < 0) for row in m for h in row)
    if score == 0:
        score = sum((h == 5) - (h == -5) for row in m for h in row)
    return score


def notation(action):
    i1, j1, i2, j2 = action
    return f"{'abcdefghi'[j1]}{9 - i1}{'abcdefghi'[j2]}{9 - i2}"


class Judge:
    """A pion process holding the game under tiebreak5."""

    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ask("setoption name Variant value tiebreak5")

    def ask(self, *lines):
        for line in lines + ("isready",):
            self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while (line := self.p.stdout.readline().strip()) != "readyok":
            out.append(line)
        return out

    def close(self):
        self.p.stdin.close()
        self.p.wait(5)


def play_game(agents, credits, judge):
    board, moves, player, step = Board(START), [], 1, 0
    times, each = [0.0, 0.0], []
    while any_action(board.m):
        step += 1
        k = 0 if player == 1 else 1
        if credits[k] is not None:
            socket.setdefaulttimeout(credits[k] + 1)
        start = time.time()
        action = agents[k].play(board, player, step, credits[k])
        took = time.time() - start
        times[k] += took
        each.append(round(took, 2))
        if credits[k] is not None:
            credits[k] -= took
            if credits[k] < -0.5:
                return {"winner": -player, "reason": "time credit expired", "moves": moves}
        if not (isinstance(action, list) and len(action) == 4):
            return {"winner": -player, "reason": f"malformed action {action!r}", "moves": moves}
        move = notation(action)
        errors = judge.ask("position startpos moves " + " ".join(moves + [move]))
        if errors:
            return {"winner": -player, "reason": f"illegal action {action}: {errors[0]}",
                    "moves": moves}
        i1, j1, i2, j2 = action
        h = abs(board.m[i1][j1]) + abs(board.m[i2][j2])
        board.m[i2][j2] = h if board.m[i1][j1] > 0 else -h
        board.m[i1][j1] = 0
        moves.append(move)
        player = -player
    score = course_score(board.m)
    winner = (score > 0) - (score < 0)
    status = judge.ask("status")[0]
    return {"winner": winner, "score": score, "plies": len(moves), "status": status,
            "times": [round(t, 3) for t in times], "each": each, "credits": credits,
            "moves": moves}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("agent1")
    parser.add_argument("agent2")
    parser.add_argument("--pion", required=True)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--time", type=float, help="time credit per agent (default: untimed)")
    parser.add_argument("--swap", action="store_true", help="swap colours every other game")
    args = parser.parse_args()
    urls = [args.agent1, args.agent2]
    judge = Judge(args.pion)
    for g in range(args.games):
        order = urls[::-1] if args.swap and g % 2 else urls
        agents = [xmlrpc.client.ServerProxy(u, allow_none=True) for u in order]
        result = play_game(agents, [args.time, args.time], judge)
        result["yellow"], result["red"] = order
        print(json.dumps(result), flush=True)
    judge.close()


if __name__ == "__main__":
    sys.exit(main())
