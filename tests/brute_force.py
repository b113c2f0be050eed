"""The reference the move generator is checked against: brute force.

Every sub-multiset of a hand's count vector is read with ``readings`` (the
definitions of docs/RULES.md, applied directly); nothing here shares code with
the generator.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from cpsolver.rules.cards import DECK_COUNTS, RANK_COUNT, Hand
from cpsolver.rules.plays import Play, beats, readings
from cpsolver.rules.ruleset import RuleSet


def sub_hands(hand: Hand) -> list[Hand]:
    """Every non-empty sub-multiset of ``hand``."""
    return [Hand(counts) for counts in product(*(range(c + 1) for c in hand.counts)) if any(counts)]


def small_hands(max_cards: int) -> Iterator[Hand]:
    """Every non-empty hand of at most ``max_cards`` cards from one deck."""

    def extend(counts: tuple[int, ...], left: int) -> Iterator[tuple[int, ...]]:
        if len(counts) == RANK_COUNT:
            yield counts
            return
        for count in range(min(DECK_COUNTS[len(counts)], left) + 1):
            yield from extend((*counts, count), left - count)

    return (Hand(counts) for counts in extend((), max_cards) if any(counts))


def brute_plays(hand: Hand, rules: RuleSet | None = None) -> set[Play]:
    """Every play contained in ``hand``, by classifying every sub-multiset."""
    return {play for sub in sub_hands(hand) for play in readings(sub, rules)}


def brute_answers(hand: Hand, target: Play, rules: RuleSet | None = None) -> set[Play]:
    """Every play contained in ``hand`` that beats ``target``."""
    return {play for play in brute_plays(hand, rules) if beats(play, target)}
