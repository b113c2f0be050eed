"""A brute-force minimax for open-hand positions, sharing no code with the solver.

Every legal move is found by reading every sub-multiset of the hand with
``readings`` and keeping what ``beats`` the table: no move generator, no
shortcuts, no move ordering. Only small positions are within its reach.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from cpsolver.rules.cards import Hand
from cpsolver.rules.plays import Play, beats, readings
from cpsolver.rules.ruleset import RuleSet, standard_rules


@cache
def _every_play(hand: Hand, rules: RuleSet) -> tuple[Play, ...]:
    found: list[Play] = []
    for counts in product(*(range(c + 1) for c in hand.counts)):
        if any(counts):
            found.extend(readings(Hand(counts), rules))
    return tuple(found)


def legal_moves(hand: Hand, table: Play | None, rules: RuleSet) -> list[Play | None]:
    """Every play the hand may make (None is a pass, allowed only when not leading)."""
    if table is None:
        return list(_every_play(hand, rules))
    return [p for p in _every_play(hand, rules) if beats(p, table)] + [None]


def winner(
    hands: tuple[Hand, ...],
    turn: int,
    table: Play | None,
    by: int | None,
    rules: RuleSet | None = None,
) -> int:
    """The side (0: hand 0's, 1: the other) that wins with best play."""
    return _winner(hands, turn, table, by, rules or standard_rules())


@cache
def _winner(
    hands: tuple[Hand, ...], turn: int, table: Play | None, by: int | None, rules: RuleSet
) -> int:
    mine = 0 if turn == 0 else 1
    following = (turn + 1) % len(hands)
    for move in legal_moves(hands[turn], table, rules):
        if move is None:
            if following == by:
                result = _winner(hands, following, None, None, rules)
            else:
                result = _winner(hands, following, table, by, rules)
        else:
            left = hands[turn] - move.cards
            if not left:
                return mine
            after = hands[:turn] + (left,) + hands[turn + 1 :]
            result = _winner(after, following, move, turn, rules)
        if result == mine:
            return mine
    return 1 - mine


def winning_moves(
    hands: tuple[Hand, ...],
    turn: int,
    table: Play | None,
    by: int | None,
    rules: RuleSet | None = None,
) -> list[Play | None]:
    """Every move of the player to move after which its side wins."""
    rules = rules or standard_rules()
    mine = 0 if turn == 0 else 1
    following = (turn + 1) % len(hands)
    found: list[Play | None] = []
    for move in legal_moves(hands[turn], table, rules):
        if move is None:
            nxt = (
                (hands, following, None, None) if following == by else (hands, following, table, by)
            )
            if _winner(*nxt, rules) == mine:
                found.append(move)
            continue
        left = hands[turn] - move.cards
        after = hands[:turn] + (left,) + hands[turn + 1 :]
        if not left or _winner(after, following, move, turn, rules) == mine:
            found.append(move)
    return found
