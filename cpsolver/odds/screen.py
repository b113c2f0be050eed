"""Quick exact screens: hands no split of the unseen cards makes a spring, and hands every split does.

Some of the landlord's classes are answered in *every* split: a single below
the highest unseen card (every unseen card is in a peasant's hand), a pair
below a rank with three or more unseen cards (one peasant holds two of them).
Answerable plays only ever remove springs, so if the landlord has no spring
even when only those certain classes are unsafe, he has none in any split and
the odds are exactly zero — most random hands are settled here, without
enumerating a split. The check is a depth-first search over the landlord's
plays (cover the lowest card left; at most one answerable play), like the
search engine's.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from cpsolver.odds.question import OddsQuestion
from cpsolver.rules.cards import RANK_COUNT
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Kind, Play
from cpsolver.spring.search import contains, pack


def certainly_answered(question: OddsQuestion, play: Play) -> bool:
    """Whether every split of the unseen cards leaves a peasant who can answer ``play``.

    Only sure for a question without face-down cards (then every unseen card
    is in a peasant's hand).
    """
    unseen = question.unseen.counts
    above = range(play.rank + 1, RANK_COUNT)
    if play.kind is Kind.SINGLE:
        return any(unseen[r] for r in above)
    if play.kind is Kind.PAIR:
        return any(unseen[r] >= 3 for r in above)
    return False


def spring_impossible(question: OddsQuestion) -> bool:
    """True when no split of the unseen cards gives the landlord a spring (exactly).

    False means only "not ruled out here".

    >>> from cpsolver.rules.cards import Hand
    >>> from cpsolver.odds.question import question
    >>> spring_impossible(question(Hand.parse("3 5 7"), Hand.parse("8 9")))
    True
    >>> spring_impossible(question(Hand.parse("33 7"), Hand.parse("4 5")))
    False
    """
    if question.face_down:
        return False
    return not _has_split(question, lambda play: certainly_answered(question, play))


def spring_certain(question: OddsQuestion) -> bool:
    """True when every split of the unseen cards gives the landlord a spring (exactly).

    A play nothing among all the unseen cards can answer is safe in every
    split, since each peasant holds a part of them: if the hand splits into
    such plays, but for one played last, every split is a spring. Only sure
    for a question without face-down cards (they would join the hand).

    >>> from cpsolver.rules.cards import Hand
    >>> from cpsolver.odds.question import question
    >>> spring_certain(question(Hand.parse("BR 2222"))), spring_certain(question(Hand.parse("BR 3")))
    (True, True)
    >>> spring_certain(question(Hand.parse("BR 3 4")))
    False
    """
    if question.face_down:
        return False
    moves = generator(question.rules)
    return _has_split(question, lambda play: moves.can_answer(question.unseen, play))


def _has_split(question: OddsQuestion, unsafe_play: Callable[[Play], bool]) -> bool:
    """Whether the landlord's hand splits into plays of which at most one is unsafe (played last)."""
    plays = generator(question.rules).plays(question.landlord)
    packed = [pack(p.cards) for p in plays]
    unsafe = [unsafe_play(p) for p in plays]
    lowest_rank = [next(p.cards.ranks()) for p in plays]
    starting: list[list[int]] = [[] for _ in range(RANK_COUNT)]
    for i in sorted(range(len(plays)), key=lambda i: (unsafe[i], -plays[i].size)):
        starting[lowest_rank[i]].append(i)

    @cache
    def split(hand: int, budget: int) -> bool:
        if not hand:
            return True
        lowest = ((hand & -hand).bit_length() - 1) // 4
        for i in starting[lowest]:
            if not contains(hand, packed[i]) or (unsafe[i] and not budget):
                continue
            if split(hand - packed[i], budget - unsafe[i]):
                return True
        return False

    return split(pack(question.landlord), 1)
