#!/usr/bin/env python3
"""A course-shaped agent (written for pion's tests): it imports the course's names with a star
import, reads a weight from a file beside it, and prints while it thinks."""
from avalam import *

with open("weights.txt") as f:  # relative to the agent's folder: the engine's dir=
    WEIGHT = int(f.read())


class MyAgent(EvolvedAgent):
    def play(self, percepts, player, step, time_left, game_id=None, pool_id=None):
        board = dict_to_board(percepts)
        print("step", step, "time left", time_left)

        def gain(action):
            after = Board(board.m).play_action(action)
            return WEIGHT * sum((h * player > 0) - (h * player < 0) for row in after.m for h in row)
        return max(board.get_actions(), key=gain)


if __name__ == "__main__":
    agent_main(MyAgent())
