"""The search engine: the spring question by depth-first search, sharing only the rules core.

The landlord's plays and their safety are listed once. The search then always
covers the lowest card left, trying each play that holds it, memoised on the
cards left and on whether the one answerable play is still to come. Hands are
packed integers (four bits a rank) so that "does the hand still hold this
play?" is one subtraction and one mask.

Pruning: a card that no safe play can hold must go in the one answerable
play, so a hand with such cards and no answerable play to spare is dead, and
the answerable play, when chosen, must take every such card left. A peasant's
bomb or rocket makes most plays unsafe, and this rule then settles most deals
at the root.
"""

from __future__ import annotations

import time

from cpsolver.cards import RANK_COUNT, Deal, Hand
from cpsolver.movegen import MoveGenerator, generator
from cpsolver.rules import RuleSet
from cpsolver.spring import SpringResult, Step, Verdict, order_plan

_GUARDS = sum(8 << (4 * r) for r in range(RANK_COUNT))  # bit 3 of every 4-bit field
_CHECK_EVERY = 4096  # nodes between clock reads


def pack(hand: Hand) -> int:
    """A hand as an int, four bits a rank (counts never exceed 4)."""
    return sum(count << (4 * r) for r, count in enumerate(hand.counts))


def contains(packed_hand: int, packed_play: int) -> bool:
    """Whether the hand holds every card of the play: no field borrows past its guard bit."""
    return ((packed_hand | _GUARDS) - packed_play) & _GUARDS == _GUARDS


class _OutOfTime(Exception):
    pass


class _Search:
    def __init__(self, deal: Deal, moves: MoveGenerator, deadline: float | None) -> None:
        self.deadline = deadline
        self.nodes = 0
        plays = moves.plays(deal.landlord)
        self.plays = plays
        self.packed = [pack(p.cards) for p in plays]
        self.safe = [
            not any(moves.can_answer(peasant, p) for peasant in deal.peasants) for p in plays
        ]
        # Plays by their lowest rank: the play that covers the lowest card left
        # starts there, because every lower card is already gone. Safe ones
        # first, larger first, so that springs are met early.
        self.starting: list[list[int]] = [[] for _ in range(RANK_COUNT)]
        for i in sorted(range(len(plays)), key=lambda i: (not self.safe[i], -plays[i].size)):
            self.starting[next(plays[i].cards.ranks())].append(i)
        coverable = 0
        for i, play in enumerate(plays):
            if self.safe[i]:
                coverable |= self.packed[i]
        # Ranks that no safe play holds: their nibbles must all go in the answerable play.
        self.uncoverable = sum(
            0xF << (4 * r) for r in range(RANK_COUNT) if not (coverable >> (4 * r)) & 0xF
        )
        self.memo: dict[tuple[int, int], int | None] = {}

    def split(self, hand: int, budget: int) -> int | None:
        """The index of a play that starts a spring split of ``hand``, -1 when empty, None if none."""
        if not hand:
            return -1
        if not budget and hand & self.uncoverable:
            return None
        key = (hand, budget)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        if (
            self.deadline is not None
            and self.nodes % _CHECK_EVERY == 1
            and time.perf_counter() > self.deadline
        ):
            raise _OutOfTime
        lowest = ((hand & -hand).bit_length() - 1) // 4
        found = None
        for i in self.starting[lowest]:
            packed = self.packed[i]
            if not contains(hand, packed):
                continue
            left = hand - packed
            if self.safe[i]:
                if self.split(left, budget) is not None:
                    found = i
                    break
            elif budget and not left & self.uncoverable and self.split(left, 0) is not None:
                found = i
                break
        self.memo[key] = found
        return found

    def plan(self, hand: int) -> list[Step]:
        """The steps of the split found for ``hand`` (call after a successful ``split``)."""
        steps, budget = [], 1
        while hand:
            i = (
                self.memo[(hand, budget)]
                if (hand, budget) in self.memo
                else self.split(hand, budget)
            )
            assert i is not None and i >= 0
            steps.append(Step(self.plays[i], self.safe[i]))
            budget -= not self.safe[i]
            hand -= self.packed[i]
        return order_plan(steps)


def solve(
    deal: Deal, rules: RuleSet | None = None, time_limit: float | None = None
) -> SpringResult:
    """Decide whether the landlord of ``deal`` has a spring, by search; a plan if so.

    >>> result = solve(Deal.parse("KK 2", "AA", "3"))
    >>> result.verdict.value, [str(step.play) for step in result.plan]
    ('spring', ['2', 'KK'])
    """
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    search = _Search(deal, generator(rules), deadline)
    root = pack(deal.landlord)
    try:
        found = search.split(root, 1)
        verdict = Verdict.NO_SPRING if found is None else Verdict.SPRING
        plan = search.plan(root) if found is not None else []
    except _OutOfTime:
        verdict, plan = Verdict.UNKNOWN, []
    stats = {
        "engine": "search",
        "strategy": "dfs",
        "plays": len(search.plays),
        "safe_plays": sum(search.safe),
        "nodes": search.nodes,
        "seconds": round(time.perf_counter() - started, 6),
    }
    return SpringResult(verdict, plan, stats)
