#!/usr/bin/env python3
"""The smallest complete engine for pion's referee: Awale, greedy (the move that captures most)."""
import random
import sys

PITS = "ABCDEFabcdef"  # player 1 sows A..F, player 2 a..f; sowing runs A..F then a..f


def sow(board, pit):
    """The pits after sowing `pit` (0..11), and the seeds that move captures."""
    board = board[:]
    seeds, board[pit], at = board[pit], 0, pit
    while seeds:
        at = (at + 1) % 12
        if at != pit:  # a sowing that laps the board skips the pit it started from
            board[at] += 1
            seeds -= 1
    captured = 0
    opponent = range(6, 12) if pit < 6 else range(0, 6)
    while at in opponent and board[at] in (2, 3):  # capture 2s and 3s, backwards
        captured += board[at]
        board[at] = 0
        at -= 1
    return board, captured


def legal(board, side):
    """The pits `side` may sow: a move must leave the opponent a seed, unless none can."""
    mine, theirs = (range(0, 6), range(6, 12)) if side == 1 else (range(6, 12), range(0, 6))
    moves = [p for p in mine if board[p]]
    feeding = [p for p in moves if any(sow(board, p)[0][q] for q in theirs)]
    return feeding or moves


def position(words):
    """The pits and side to move of `position startpos|<board> <side> [moves ...]`."""
    if words[1] == "startpos":
        board, side, rest = [4] * 12, 1, words[2:]
    else:
        i = 2 if words[1] == "fen" else 1
        rows = words[i].split("/")  # A..F/a..f/captures: the captures do not matter here
        board = [int(n) for n in rows[0].split(",") + rows[1].split(",")]
        side, rest = int(words[i + 1]), words[i + 2:]
    for move in rest[1:]:  # rest[0] is the word "moves"
        board, side = sow(board, PITS.index(move))[0], 3 - side
    return board, side


board, side = [4] * 12, 1
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "pion":
        print("id name minimal\ngame awale\npionok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        board, side = position(words)
    elif words[0] == "go":
        best = max(legal(board, side), key=lambda p: (sow(board, p)[1], random.random()))
        print("bestmove", PITS[best], flush=True)
    elif words[0] == "quit":
        break
