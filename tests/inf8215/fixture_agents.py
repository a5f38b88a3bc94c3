#!/usr/bin/env python3
"""Course-style Avalam agents for the tests of scripts/inf8215_agent.py: the good ones play as a
student's first agents do, the others fail in each way an agent can (written for pion's tests,
standard library only; they need no course file).

    python3 tests/inf8215/fixture_agents.py --class GreedyAgent --port 8002   # serve one
    python3 scripts/inf8215_agent.py engine --module tests/inf8215/fixture_agents.py --class GreedyAgent
"""

import argparse
import random
import time


def matrix_of(percepts):
    """The board matrix of the percepts: a dict holding `m`, or the bare matrix."""
    return percepts["m"] if isinstance(percepts, dict) else percepts


def actions(m):
    """Every legal action (i1, j1, i2, j2): a tower onto a neighbour, at most 5 high."""
    found = []
    for i in range(9):
        for j in range(9):
            if not 0 < abs(m[i][j]) < 5:
                continue
            for i2 in range(max(0, i - 1), min(9, i + 2)):
                for j2 in range(max(0, j - 1), min(9, j + 2)):
                    if (i2, j2) != (i, j) and m[i2][j2] and abs(m[i][j]) + abs(m[i2][j2]) <= 5:
                        found.append((i, j, i2, j2))
    return found


class Agent:
    """The course's interface: play(percepts, player, step, time_left) returns an action."""

    def play(self, percepts, player, step, time_left):
        raise NotImplementedError


class RandomAgent(Agent):
    def __init__(self):
        self.rng = random.Random(1)

    def play(self, percepts, player, step, time_left):
        return self.rng.choice(actions(matrix_of(percepts)))


class GreedyAgent(Agent):
    """Covers an opponent's tower when it can, preferring tall results of its own colour."""

    def __init__(self):
        self.rng = random.Random(2)

    def play(self, percepts, player, step, time_left):
        m = matrix_of(percepts)

        def gain(a):
            i1, j1, i2, j2 = a
            mine = m[i1][j1] * player > 0
            covers = m[i2][j2] * player < 0
            return (mine and covers, mine * (abs(m[i1][j1]) + abs(m[i2][j2])), self.rng.random())
        return max(actions(m), key=gain)


class NoisyAgent(RandomAgent):
    """Prints while it thinks, as students' agents do: stdout must not reach the protocol."""

    def play(self, percepts, player, step, time_left):
        print("thinking about step", step, "with", time_left, "seconds left")
        return super().play(percepts, player, step, time_left)


class RaisingAgent(Agent):
    def play(self, percepts, player, step, time_left):
        raise ValueError("my heuristic divided by zero")


class MalformedAgent(Agent):
    def play(self, percepts, player, step, time_left):
        return "e5 onto e4"


class OffBoardAgent(Agent):
    def play(self, percepts, player, step, time_left):
        return (9, 0, 8, 0)


class IllegalAgent(Agent):
    """Moves an empty cell (row 0, column 0 is empty at the start)."""

    def play(self, percepts, player, step, time_left):
        return (0, 0, 0, 1)


class SlowAgent(RandomAgent):
    """Thinks ten times longer than it may."""

    def play(self, percepts, player, step, time_left):
        time.sleep(10 if time_left is None else time_left * 10 + 2)
        return super().play(percepts, player, step, time_left)


if __name__ == "__main__":
    from xmlrpc.server import SimpleXMLRPCServer

    parser = argparse.ArgumentParser()
    parser.add_argument("--class", dest="name", default="RandomAgent")
    parser.add_argument("-p", "--port", type=int, default=8002)
    args = parser.parse_args()
    server = SimpleXMLRPCServer(("127.0.0.1", args.port), allow_none=True, logRequests=False)
    server.register_instance(globals()[args.name]())
    print(f"{args.name} listening on 127.0.0.1:{args.port}", flush=True)
    server.serve_forever()
