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
from typing import TypeVar

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
        discarded = f"{len(stale)} stale line(s) discarded: " + "; ".join(stale[:3])
        found.append({"id": item_id, "solver": solver, "problem": discarded})
    return found
