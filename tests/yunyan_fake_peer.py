"""A stand-in for YunyanDeng/doudizhu_endgame's binary, for the adapter's tests (no C++ in CI).

It talks as that binary does: a banner, a prompt for each hand, the two hands
read in its notation (``0`` the ten, ``Y``/``Z`` the jokers), an echo of them
high cards first, then ``play: [K K 5]`` (a winning first move of the first
hand) or ``can not win``; after a win it waits for the other side's reply,
for ever. It solves with a brute-force minimax over ``endgame_reference``'s
legal moves (standard rules, two hands, the first to lead).

``--mode`` plants what the adapter must cope with:

- ``right``: the verdict of the minimax;
- ``bomb``: the minimax of a solver in which no bomb beats another bomb (the
  C++ solver's bug): its verdicts are wrong where that matters;
- ``silent``: never answers; ``crash``: exits with code 3 before a verdict;
- ``garbage``: a play line of cards that are no cards.
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import cache

from endgame_reference import legal_moves

from cpsolver.rules.cards import Hand, rank_of, rank_symbol
from cpsolver.rules.plays import Kind, Play
from cpsolver.rules.ruleset import standard_rules

RULES = standard_rules()
NAMES = {"T": "10", "B": "'Little Joker'", "R": "'Big Joker'"}
FROM_PEER = {"0": "T", "Y": "B", "Z": "R"}


def read_hand(line: str) -> Hand:
    return Hand.from_ranks([rank_of(FROM_PEER.get(c, c)) for c in line.strip().upper()])


def shown(cards: Hand) -> str:
    """Cards as the binary prints them: high first, spaced, the ten as 10, jokers by name."""
    symbols = [rank_symbol(rank) for rank in reversed(list(cards.ranks()))]
    return " ".join(NAMES.get(symbol, symbol) for symbol in symbols)


def make_wins(bomb_bug: bool):
    def moves(hand: Hand, table: Play | None) -> list[Play | None]:
        found = legal_moves(hand, table, RULES)
        if bomb_bug and table is not None and table.kind == Kind.BOMB:
            found = [m for m in found if m is None or m.kind != Kind.BOMB]
        return found

    @cache
    def wins(mover: Hand, other: Hand, table: Play | None) -> bool:
        """Whether the player to move (holding ``mover``) wins; ``table`` is the other's play."""
        for move in moves(mover, table):
            if move is None:
                if not wins(other, mover, None):
                    return True
                continue
            left = mover - move.cards
            if not left or not wins(other, left, move):
                return True
        return False

    def first_move(mover: Hand, other: Hand) -> Play | None:
        for move in moves(mover, None):
            assert move is not None
            left = mover - move.cards
            if not left or not wins(other, left, move):
                return move
        return None

    return first_move


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="right")
    mode = parser.parse_args().mode
    print("------------------------------------------------")
    print("Usage: enter without spaces, not case sensitive.")
    print("enter lord hand (your hand):", flush=True)
    lord = read_hand(sys.stdin.readline())
    print("enter farmer hand:", flush=True)
    farmer = read_hand(sys.stdin.readline())
    print(f"lord:   [{shown(lord)}]")
    print(f"farmer: [{shown(farmer)}]", flush=True)
    if mode == "silent":
        time.sleep(3600)
    if mode == "crash":
        sys.exit(3)
    if mode == "garbage":
        print("play: [X 11]", flush=True)
    else:
        move = make_wins(mode == "bomb")(lord, farmer)
        print("can not win" if move is None else f"play: [{shown(move.cards)}]", flush=True)
    print("enter farmer play:", flush=True)
    while True:  # as the binary does: wait for the other side's replies
        time.sleep(1)


if __name__ == "__main__":
    main()
