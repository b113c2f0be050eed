"""What every spring engine returns: a verdict, a plan, and statistics.

A spring is a split of the landlord's hand into plays of which at most one
is answerable by a peasant: the safe plays go first, in any order, and the
answerable one, if any, last (once it is down the landlord has no cards).

Of all spring plans, the engines print the *natural* one: the best by
:func:`plan_rank` (the fewest plays; then the most bombs and rockets played
whole, since each doubles the stake; then no answerable play if an all-safe
plan exists). :func:`natural_weights` is the same order as integer weights,
summed play by play, which is how the engines optimise it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from cpsolver.io.dealformat import DealDocument
from cpsolver.rules.cards import BLACK_JOKER, RED_JOKER, TWO, Hand
from cpsolver.rules.patterns import Kind
from cpsolver.rules.plays import Play


class Verdict(StrEnum):
    """The answer to the spring question; ``unknown`` only when a limit was reached."""

    SPRING = "spring"
    NO_SPRING = "no_spring"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Step:
    """One play of a plan, and whether no peasant can answer it."""

    play: Play
    safe: bool

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: the play's, with ``"safe"``."""
        return {**self.play.as_dict(), "safe": self.safe}


@dataclass
class SpringResult:
    """A verdict, the plan that proves a spring (empty otherwise), and how it was found."""

    verdict: Verdict
    plan: list[Step] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    objective: Objective | None = None

    def as_dict(self) -> dict[str, Any]:
        """The JSON form printed by ``cpsolver solve --json``."""
        found: dict[str, Any] = {
            "verdict": self.verdict.value,
            "plan": [step.as_dict() for step in self.plan],
        }
        if self.objective is not None:
            found["objective"] = {"name": self.objective.name, "value": self.objective.value}
        found["stats"] = self.stats
        return found

    def answer(self, document: DealDocument | None = None) -> dict[str, Any]:
        """The whole answer of ``cpsolver solve --json`` (and ``/api/solve``).

        :meth:`as_dict`, after the ``id`` and ``expected`` verdict that a deal
        file or corpus line (``document``) carries.
        """
        labels = {} if document is None else {"id": document.id, "expected": document.expected}
        return {**{k: v for k, v in labels.items() if v is not None}, **self.as_dict()}

    def _repr_svg_(self) -> str:
        """The plan as card tiles, answerable plays marked, for Jupyter."""
        from cpsolver.pictures import svg

        plays = [step.play for step in self.plan]
        return svg.plan(None, plays, safe=[step.safe for step in self.plan])

    def _repr_html_(self) -> str:
        from cpsolver.pictures import svg

        return svg.html_fragment(self._repr_svg_(), f"verdict: {self.verdict.value}")


OBJECTIVES = ("spring", "fewest-answerable", "fewest-plays")


@dataclass(frozen=True)
class Objective:
    """A proven optimum: the fewest answerable plays, or the fewest plays, of any split.

    ``fewest-answerable`` 0 or 1 means a spring; 2 is "one interruption short".
    """

    name: str
    value: int


def order_plan(steps: list[Step]) -> list[Step]:
    """Safe plays first (in listing order), the answerable ones last.

    A spring plan has at most one answerable play, so it comes out last.
    """
    return sorted(steps, key=lambda step: (not step.safe, step.play.sort_key()))


# The plays that double the stake: a bomb or the rocket, played whole.
POINT_KINDS = frozenset({Kind.BOMB, Kind.ROCKET})


def plan_rank(plan: Sequence[Step]) -> tuple[int, int, int]:
    """How natural a plan is, the smaller the better: (plays, -bombs and rockets, answerable plays).

    Compared as tuples: the fewest plays first; among those, the most bombs
    and rockets (each doubles the stake); among those, the fewest answerable
    plays (a spring has 0 or 1, so: none if an all-safe plan exists).

    >>> from cpsolver.rules.plays import classify
    >>> rocket = Step(classify(Hand.parse("BR")), True)
    >>> jokers = [Step(classify(Hand.parse("B")), True), Step(classify(Hand.parse("R")), True)]
    >>> plan_rank([rocket]), plan_rank(jokers)
    ((1, -1, 0), (2, 0, 0))
    """
    points = sum(step.play.kind in POINT_KINDS for step in plan)
    return len(plan), -points, sum(not step.safe for step in plan)


class NaturalWeights(NamedTuple):
    """:func:`plan_rank` as a sum over plays: each play costs ``play``, less ``point`` for a
    bomb or the rocket, plus ``answerable`` if a peasant can answer it."""

    play: int
    point: int
    answerable: int

    def cost(self, kind: Kind, safe: bool) -> int:
        """What one play of ``kind`` adds to its plan's total."""
        return self.play - self.point * (kind in POINT_KINDS) + self.answerable * (not safe)


def natural_weights(hand: Hand) -> NaturalWeights:
    """Weights under which the plans of ``hand`` with the smallest total are the best by
    :func:`plan_rank`.

    A spring plan has at most one answerable play, so a bomb or rocket (2)
    outweighs it; a play outweighs all the bombs and rockets a split of
    ``hand`` can hold, and the answerable play besides. Kept as small as
    that allows, since CP-SAT's search is the tighter the smaller they are.

    >>> natural_weights(Hand.parse("BR 2222 33"))
    NaturalWeights(play=6, point=2, answerable=1)
    """
    counts = hand.counts
    most = sum(counts[r] == 4 for r in range(TWO + 1)) + bool(
        counts[BLACK_JOKER] and counts[RED_JOKER]
    )
    return NaturalWeights(2 * most + 2, 2, 1)
