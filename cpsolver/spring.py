"""What every spring engine returns: a verdict, a plan, and statistics.

A spring is a split of the landlord's hand into plays of which at most one
is answerable by a peasant: the safe plays go first, in any order, and the
answerable one, if any, last (once it is down the landlord has no cards).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from cpsolver.plays import Play


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

    def as_dict(self) -> dict[str, Any]:
        """The JSON form printed by ``cpsolver solve --json``."""
        return {
            "verdict": self.verdict.value,
            "plan": [step.as_dict() for step in self.plan],
            "stats": self.stats,
        }


def order_plan(steps: list[Step]) -> list[Step]:
    """Safe plays first (in listing order), the one answerable play, if any, last."""
    ordered = sorted(steps, key=lambda step: (not step.safe, step.play.sort_key()))
    if sum(not step.safe for step in ordered) > 1:
        raise ValueError("a spring plan has at most one answerable play")
    return ordered
