"""What every cross-check reports, whatever its question: shrunk failures, solver times, problems.

The spring cross-check (``crosscheck``) and the endgame one
(``endgame_crosscheck``) ask different questions of different solvers, but
shrink a failure, time the solvers and record what went wrong with an answer
the same way; this is that way, once.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from cpsolver.crosscheck.external import ExternalCommand
from cpsolver.io.words import counted

Item = TypeVar("Item")


def shrink(
    item: Item,
    smaller: Callable[[Item], Iterable[Item]],
    fails: Callable[[Item], bool],
    budget: float | None = None,
) -> tuple[Item, bool]:
    """Step to the first ``smaller`` item that still ``fails`` until none does or ``budget`` s pass.

    Returns the smallest failing item found and whether the budget cut the
    search short (None is no budget).
    """
    deadline = None if budget is None else time.monotonic() + budget
    shrinking = True
    while shrinking:
        shrinking = False
        for candidate in smaller(item):
            if deadline is not None and time.monotonic() > deadline:
                return item, True
            if fails(candidate):
                item, shrinking = candidate, True
                break
    return item, False


def timings(seconds: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """Each solver's total seconds and median milliseconds, as the JSON summaries give them."""
    return {
        name: {
            "total_s": round(sum(times), 3),
            "median_ms": round(statistics.median(times) * 1e3, 3),
        }
        for name, times in seconds.items()
        if times
    }


def answer_problems(
    item_id: str, solver: str, problem: str | None, stale: Iterable[str]
) -> list[dict[str, str]]:
    """The problems one answer shows: its own, and the stale lines discarded before it."""
    found = [] if problem is None else [{"id": item_id, "solver": solver, "problem": problem}]
    stale = list(stale)
    if stale:
        discarded = f"{counted(len(stale), 'stale line')} discarded: " + "; ".join(stale[:3])
        found.append({"id": item_id, "solver": solver, "problem": discarded})
    return found


@dataclass
class Finding:
    """An item on which the solvers failed: its id, the kind of failure and why, and its reproducer."""

    id: str
    kind: str
    reason: str

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of a reproducer."""
        return {"id": self.id, "kind": self.kind, "reason": self.reason, **self.reproducer()}

    def reproducer(self) -> dict[str, Any]:
        """The failing item, shrunk and as it was, and what each solver said of it."""
        raise NotImplementedError


Found = TypeVar("Found", bound=Finding)


@dataclass
class Tally(Generic[Found]):
    """What every cross-check counts, whatever its question, and every finding."""

    solvers: list[str]
    agreements: int = 0
    disagreements: int = 0
    invalid_proofs: int = 0
    unknowns: int = 0
    shrinks_cut_short: int = 0  # findings whose shrinking ran out of the budget
    interrupted: bool = False  # Ctrl-C: the counts cover the items checked so far
    protocols: dict[str, int | None] = field(default_factory=dict)  # external solvers' versions
    bad_lines: list[str] = field(default_factory=list)
    problems: list[dict[str, str]] = field(default_factory=list)
    seconds: dict[str, list[float]] = field(default_factory=dict)
    findings: list[Found] = field(default_factory=list)

    def run(self, check: Callable[[], None], solvers: Iterable[object]) -> None:
        """Fill the tally with ``check``; Ctrl-C ends it early (``interrupted``), with what it had.

        Then the external ``solvers``' protocol versions (known once they have
        answered) are noted, and the findings put in id order.
        """
        self.seconds = {name: [] for name in self.solvers}
        try:
            check()
        except KeyboardInterrupt:
            self.interrupted = True
        self.protocols = {
            solver.name: solver.protocol
            for solver in solvers
            if isinstance(solver, ExternalCommand)
        }
        self.findings.sort(key=lambda finding: finding.id)

    def as_dict(self) -> dict[str, Any]:
        """The JSON summary: the question's own counts first, then what every cross-check reports."""
        return {
            **self.counts(),
            "bad_lines": self.bad_lines,
            "solver_problems": self.problems,
            "time": timings(self.seconds),
            "reproducers": [finding.as_dict() for finding in self.findings],
            "protocols": self.protocols,
            "shrinks_cut_short": self.shrinks_cut_short,
            "interrupted": self.interrupted,
        }

    def counts(self) -> dict[str, Any]:
        """The counts that lead the JSON summary, in the question's own order."""
        raise NotImplementedError
