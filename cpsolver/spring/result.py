"""What every spring engine returns: a verdict, a plan, and statistics.

A spring is a split of the landlord's hand into plays of which at most one
is answerable by a peasant: the safe plays go first, in any order, and the
answerable one, if any, last (once it is down the landlord has no cards).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

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
