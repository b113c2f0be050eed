"""A deliberately naive endgame solver that speaks cpsolver's line protocol.

    cpsolver crosscheck --generate position2 --count 50 --against 'python examples/external_endgame_solver.py'

It reads one JSON position per line on stdin ({"id": ..., "question":
"endgame", "hands": [...], "turn": N, "table": null | {"cards": ..., "by": N}})
and writes one JSON answer per line on stdout ({"id": ..., "winner": 0 | 1,
"moves": [cards or "pass", ...]}), flushing after each. Its method is plain
minimax over every legal move, memoised, with no ordering and no shortcuts:
exact, and slow past a dozen cards a hand; a template for wiring your own
solver to `cpsolver crosscheck`.

With --wrong it plays by a rule that some public solvers shipped by mistake:
a bomb or the rocket may lead, but never answers a play. Cross-checking it
finds the positions where that matters, shrunk to a few cards.
"""

from __future__ import annotations

import json
import sys
from functools import cache

from cpsolver.rules.cards import Hand
from cpsolver.rules.movegen import answers, plays
from cpsolver.rules.plays import Kind, Play, classify

STRONG = (Kind.BOMB, Kind.ROCKET)


def make_solver(wrong: bool):
    """The minimax of one rule set: ``wins(hands, turn, table, by)`` for the side of ``turn``."""

    def replies(hand: Hand, table: Play | None) -> list[Play]:
        if table is None:
            return plays(hand)
        found = answers(hand, table)
        return [p for p in found if p.kind not in STRONG] if wrong else found

    @cache
    def wins(hands: tuple[Hand, ...], turn: int, table: Play | None, by: int) -> bool:
        side = turn > 0
        following = (turn + 1) % len(hands)
        for play in replies(hands[turn], table):
            left = hands[turn] - play.cards
            if not left:
                return True
            after = hands[:turn] + (left,) + hands[turn + 1 :]
            if ((following > 0) == side) == wins(after, following, play, turn):
                return True
        if table is not None:  # a pass
            if following == by:
                child = (hands, following, None, -1)
            else:
                child = (hands, following, table, by)
            if ((following > 0) == side) == wins(*child):
                return True
        return False

    def winning_moves(hands: tuple[Hand, ...], turn: int, table: Play | None, by: int) -> list[str]:
        side = turn > 0
        following = (turn + 1) % len(hands)
        found = []
        for play in replies(hands[turn], table):
            left = hands[turn] - play.cards
            after = hands[:turn] + (left,) + hands[turn + 1 :]
            if not left or ((following > 0) == side) == wins(after, following, play, turn):
                found.append(str(play))
        if table is not None:
            child = (
                (hands, following, None, -1) if following == by else (hands, following, table, by)
            )
            if ((following > 0) == side) == wins(*child):
                found.append("pass")
        return found

    return wins, winning_moves


def main() -> None:
    wins, winning_moves = make_solver("--wrong" in sys.argv[1:])
    for line in sys.stdin:
        request = json.loads(line)
        hands = tuple(Hand.parse(cards) for cards in request["hands"])
        turn = request.get("turn", 0)
        table = request.get("table")
        state = (
            (hands, turn, None, -1)
            if table is None
            else (hands, turn, classify(table["cards"]), table["by"])
        )
        side = int(turn > 0)
        if wins(*state):
            answer = {"winner": side, "moves": winning_moves(*state)}
        else:
            answer = {"winner": 1 - side, "moves": []}
        print(json.dumps({"id": request.get("id"), **answer}), flush=True)


if __name__ == "__main__":
    main()
