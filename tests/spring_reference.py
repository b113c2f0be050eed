"""The exhaustive reference for the spring question: every split, by brute force.

Shares nothing with the engines: it enumerates the splits of the landlord's
hand with ``plays()`` (always covering the lowest card left, so each split is
met once per order of equal plays) and asks ``answers()`` about each play.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from cpsolver.rules.cards import Deal, Hand
from cpsolver.rules.movegen import answers, can_answer, plays
from cpsolver.rules.plays import Play
from cpsolver.spring.result import SpringResult, Verdict
from cpsolver.verify.spring import check_plan


def splits(hand: Hand) -> Iterator[list[Play]]:
    """Every split of ``hand`` into plays (some more than once, in another order)."""
    if not hand:
        yield []
        return
    lowest = next(hand.ranks())
    for play in plays(hand):
        if play.cards[lowest]:
            for rest in splits(hand - play.cards):
                yield [play, *rest]


def has_spring(deal: Deal) -> bool:
    """Whether some split has at most one play that a peasant can answer."""
    return fewest(deal, "fewest-answerable") <= 1


def spring_splits(deal: Deal) -> set[tuple[Play, ...]]:
    """Every split that is a spring (at most one answerable play), plays in listing order."""
    return {
        tuple(sorted(split, key=Play.sort_key))
        for split in splits(deal.landlord)
        if sum(any(answers(p, play) for p in deal.peasants) for play in split) <= 1
    }


def fewest(deal: Deal, objective: str) -> int:
    """The fewest answerable plays (``fewest-answerable``) or plays (``fewest-plays``) of any split."""

    @cache
    def best(hand: Hand) -> int:
        if not hand:
            return 0
        lowest = next(hand.ranks())
        return min(
            cost(play) + best(hand - play.cards) for play in plays(hand) if play.cards[lowest]
        )

    @cache
    def cost(play: Play) -> int:
        if objective == "fewest-plays":
            return 1
        return int(any(answers(peasant, play) for peasant in deal.peasants))

    return best(deal.landlord)


def coverable(deal: Deal, cards: Hand) -> bool:
    """Whether disjoint plays from the landlord's hand, at most one answerable, cover ``cards``."""

    @cache
    def cover(hand: Hand, need: Hand, budget: int) -> bool:
        if not need:
            return True
        lowest = next(need.ranks())
        for play in plays(hand):
            if not play.cards[lowest]:
                continue
            answerable = any(answers(peasant, play) for peasant in deal.peasants)
            if answerable and not budget:
                continue
            rest = Hand(max(0, n - c) for n, c in zip(need.counts, play.cards.counts))
            if cover(hand - play.cards, rest, budget - answerable):
                return True
        return False

    return cover(deal.landlord, cards, 1)


def checked(deal: Deal, result: SpringResult) -> SpringResult:
    """Hold an engine's result to the verifier: a spring plan passes, its safe flags are true."""
    if result.verdict is Verdict.SPRING:
        assert check_plan(deal, [step.play for step in result.plan]) is None
        for step in result.plan:
            assert step.safe == (not any(can_answer(p, step.play) for p in deal.peasants))
        assert all(step.safe for step in result.plan[:-1])
    else:
        assert result.plan == []
    return result
