"""A stand-in for the course's avalam.py, written for pion's tests: the names a course agent
imports with `from avalam import *` (the Agent classes, a Board with get_actions and
play_action, dict_to_board, agent_main), so that a course-shaped agent file loads as it would in
the course's folder. Not the course's code: only its interface."""

PLAYER1 = 1
PLAYER2 = -1


class Board:
    def __init__(self, m):
        self.m = [list(row) for row in m]

    def get_actions(self):
        for i in range(9):
            for j in range(9):
                h = abs(self.m[i][j])
                if not 0 < h < 5:
                    continue
                for i2 in range(max(0, i - 1), min(9, i + 2)):
                    for j2 in range(max(0, j - 1), min(9, j + 2)):
                        h2 = abs(self.m[i2][j2])
                        if (i2, j2) != (i, j) and h2 and h + h2 <= 5:
                            yield (i, j, i2, j2)

    def play_action(self, action):
        i1, j1, i2, j2 = action
        h = abs(self.m[i1][j1]) + abs(self.m[i2][j2])
        self.m[i2][j2] = h if self.m[i1][j1] > 0 else -h
        self.m[i1][j1] = 0
        return self


def dict_to_board(percepts):
    return Board(percepts["m"])


class Agent:
    def play(self, percepts, player, step, time_left):
        pass


class EvolvedAgent(Agent):
    def play(self, percepts, player, step, time_left, game_id=None, pool_id=None):
        pass


def agent_main(agent):
    raise SystemExit("agent_main is not run when the agent is loaded as a module")
