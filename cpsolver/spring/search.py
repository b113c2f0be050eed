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

Safety is asked once per class of play (kind, shape and rank), since kickers
never change who can answer, and each play's packed cards are computed once
per process. Once a spring is known, a second memoised pass finds the natural
spring split (``any_plan`` skips it): the best by
:func:`cpsolver.spring.result.plan_rank` — the fewest plays, then the most bombs
and rockets, then no answerable play if it can be helped — as the least sum of
:func:`cpsolver.spring.result.natural_weights` over its plays.
"""

from __future__ import annotations

import time

from cpsolver.rules.cards import RANK_COUNT, Deal, Hand
from cpsolver.rules.movegen import MoveGenerator, generator
from cpsolver.rules.plays import Play
from cpsolver.rules.ruleset import RuleSet
from cpsolver.spring.result import (
    OBJECTIVES,
    Objective,
    SpringResult,
    Step,
    Verdict,
    natural_weights,
    order_plan,
)

_GUARDS = sum(8 << (4 * r) for r in range(RANK_COUNT))  # bit 3 of every 4-bit field
_CHECK_EVERY = 256  # nodes between clock reads
_NONE = 1 << 30  # more than any split costs: no split at all


def pack(hand: Hand) -> int:
    """A hand as an int, four bits a rank (counts never exceed 4)."""
    return sum(count << (4 * r) for r, count in enumerate(hand.counts))


def contains(packed_hand: int, packed_play: int) -> bool:
    """Whether the hand holds every card of the play: no field borrows past its guard bit."""
    return ((packed_hand | _GUARDS) - packed_play) & _GUARDS == _GUARDS


class _OutOfTime(Exception):
    pass


# Each play's packed cards, lowest rank and size: plays are interned by the
# move generator, so this is computed once per play per process.
_LAYOUT: dict[Play, tuple[int, int, int]] = {}


def _layout(play: Play) -> tuple[int, int, int]:
    counts = play.cards.counts
    packed = 0
    lowest = -1
    for r in range(RANK_COUNT - 1, -1, -1):
        if counts[r]:
            packed |= counts[r] << (4 * r)
            lowest = r
    found = _LAYOUT[play] = (packed, lowest, len(play.cards))
    return found


class _Search:
    def __init__(self, deal: Deal, moves: MoveGenerator, deadline: float | None) -> None:
        self.deadline = deadline
        self.nodes = 0
        plays = moves.plays(deal.landlord)
        self.plays = plays
        layout = [_LAYOUT.get(p) or _layout(p) for p in plays]
        self.packed = [packed for packed, _, _ in layout]
        # Who can answer a play depends on its kind, shape and rank, never on
        # its kickers: one safety question per class, shared by its plays.
        peasants = deal.peasants
        class_safe: dict[tuple[object, int], bool] = {}
        safe = []
        for play in plays:
            key = (play.family, play.rank)
            known = class_safe.get(key)
            if known is None:
                known = class_safe[key] = not any(moves.can_answer(p, play) for p in peasants)
            safe.append(known)
        self.safe = safe
        # Plays by their lowest rank: the play that covers the lowest card left
        # starts there, because every lower card is already gone. Safe ones
        # first, larger first, so that springs are met early.
        self.starting: list[list[int]] = [[] for _ in range(RANK_COUNT)]
        order = sorted(range(len(plays)), key=lambda i: (not safe[i], -layout[i][2]))
        for i in order:
            self.starting[layout[i][1]].append(i)
        coverable = 0
        for i, packed in enumerate(self.packed):
            if safe[i]:
                coverable |= packed
        # Ranks that no safe play holds: their nibbles must all go in the answerable play.
        self.uncoverable = sum(
            0xF << (4 * r) for r in range(RANK_COUNT) if not (coverable >> (4 * r)) & 0xF
        )
        # Each play's share of its split's cost under the natural order, so that
        # the least total is the best plan by plan_rank.
        weights = natural_weights(deal.landlord)
        self.cost = [weights.cost(play.kind, known) for play, known in zip(plays, safe)]
        self.memo: dict[tuple[int, int], int | None] = {}
        self.best: dict[int, tuple[int, int]] = {}
        self.natural_memo: dict[tuple[int, int], tuple[int, int]] = {}

    def split(self, hand: int, budget: int) -> int | None:
        """The index of a play that starts a spring split of ``hand``, -1 when empty, None if none."""
        if not hand:
            return -1
        if not budget and hand & self.uncoverable:
            return None
        key = (hand, budget)
        if key in self.memo:
            return self.memo[key]
        self._tick()
        lowest = ((hand & -hand).bit_length() - 1) // 4
        found = None
        guarded = hand | _GUARDS
        packed_plays, safe = self.packed, self.safe
        for i in self.starting[lowest]:
            packed = packed_plays[i]
            if (guarded - packed) & _GUARDS != _GUARDS:  # contains(hand, packed), inlined
                continue
            left = hand - packed
            if safe[i]:
                if self.split(left, budget) is not None:
                    found = i
                    break
            elif budget and not left & self.uncoverable and self.split(left, 0) is not None:
                found = i
                break
        self.memo[key] = found
        return found

    def natural(self, hand: int, budget: int) -> int:
        """The least cost of a spring split of ``hand`` (at most ``budget`` answerable plays).

        The cost is the sum of :attr:`cost` over the split's plays, so the
        least is the most natural split (:func:`~cpsolver.spring.result.plan_rank`).
        Memoised with the play that attains it; ``_NONE`` when there is none.
        Called only once :meth:`split` found a spring, so no-spring deals never pay for it.
        """
        if not hand:
            return 0
        if not budget and hand & self.uncoverable:
            return _NONE
        key = (hand, budget)
        found = self.natural_memo.get(key)
        if found is not None:
            return found[0]
        self._tick()
        lowest = ((hand & -hand).bit_length() - 1) // 4
        best, best_play = _NONE, -1
        guarded = hand | _GUARDS
        packed_plays, safe, cost = self.packed, self.safe, self.cost
        for i in self.starting[lowest]:
            packed = packed_plays[i]
            if (guarded - packed) & _GUARDS != _GUARDS:  # contains(hand, packed), inlined
                continue
            left = hand - packed
            if not left and (safe[i] or budget):
                # The whole hand as one play: the only one-play split, and one
                # play outweighs any points and answerable play of a longer one.
                best, best_play = cost[i], i
                break
            if safe[i]:
                total = cost[i] + self.natural(left, budget)
            elif budget and not left & self.uncoverable:
                total = cost[i] + self.natural(left, 0)
            else:
                continue
            if total < best:
                best, best_play = total, i
        self.natural_memo[key] = (best, best_play)
        return best

    def natural_plan(self, hand: int) -> list[Step]:
        """The split that :meth:`natural` found for ``hand``."""
        steps, budget = [], 1
        while hand:
            i = self.natural_memo[(hand, budget)][1]
            steps.append(Step(self.plays[i], self.safe[i]))
            budget -= not self.safe[i]
            hand -= self.packed[i]
        return order_plan(steps)

    def fewest(self, hand: int, count_unsafe: bool) -> int:
        """The fewest plays (or answerable plays) of any split of ``hand``; memoised with the play."""
        if not hand:
            return 0
        found = self.best.get(hand)
        if found is not None:
            return found[0]
        self._tick()
        lowest = ((hand & -hand).bit_length() - 1) // 4
        best, best_play = 1 << 30, -1
        for i in self.starting[lowest]:
            packed = self.packed[i]
            if not contains(hand, packed):
                continue
            cost = (not self.safe[i]) if count_unsafe else 1
            if cost >= best:
                continue
            total = cost + self.fewest(hand - packed, count_unsafe)
            if total < best:
                best, best_play = total, i
                if count_unsafe and not best:
                    break  # nothing beats a split with no answerable play
        self.best[hand] = (best, best_play)
        return best

    def fewest_plan(self, hand: int) -> list[Step]:
        """The split that :meth:`fewest` found for ``hand``."""
        steps = []
        while hand:
            i = self.best[hand][1]
            steps.append(Step(self.plays[i], self.safe[i]))
            hand -= self.packed[i]
        return order_plan(steps)

    def _tick(self) -> None:
        """Count a node; now and then, give up if past the deadline."""
        self.nodes += 1
        if (
            self.deadline is not None
            and self.nodes % _CHECK_EVERY == 1
            and time.perf_counter() > self.deadline
        ):
            raise _OutOfTime

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
    deal: Deal,
    rules: RuleSet | None = None,
    time_limit: float | None = None,
    objective: str = "spring",
    any_plan: bool = False,
) -> SpringResult:
    """Decide whether the landlord of ``deal`` has a spring, by search; a plan if so.

    The plan of a spring is the natural one (:func:`~cpsolver.spring.result.plan_rank`):
    the fewest plays of any spring plan (the rocket as one play, not two
    singles), then the most bombs and rockets, then no answerable play if it
    can be helped; unless ``any_plan`` asks for the first one found, which is cheaper. ``objective`` ``fewest-answerable`` or
    ``fewest-plays`` also finds the split with the fewest answerable plays, or
    the fewest plays, as the plan.

    >>> result = solve(Deal.parse("KK 2", "AA", "3"))
    >>> result.verdict.value, [str(step.play) for step in result.plan]
    ('spring', ['2', 'KK'])
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r} (known: {', '.join(OBJECTIVES)})")
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    search = _Search(deal, generator(rules), deadline)
    root = pack(deal.landlord)
    found: Objective | None = None
    try:
        spring = search.split(root, 1) is not None
        verdict = Verdict.SPRING if spring else Verdict.NO_SPRING
        if objective == "spring":
            if not spring:
                plan = []
            elif any_plan:
                plan = search.plan(root)
            else:
                search.natural(root, 1)
                plan = search.natural_plan(root)
        else:
            value = search.fewest(root, objective == "fewest-answerable")
            plan = search.fewest_plan(root)
            found = Objective(objective, value)
    except _OutOfTime:
        verdict, plan, found = Verdict.UNKNOWN, [], None
    stats = {
        "engine": "search",
        "strategy": "dfs",
        "plan": "any" if any_plan else "fewest",
        "plays": len(search.plays),
        "safe_plays": sum(search.safe),
        "nodes": search.nodes,
        "seconds": round(time.perf_counter() - started, 6),
    }
    return SpringResult(verdict, plan, stats, found)
