"""The endgame benchmark's ``deals3w`` part: full deals one core left undecided, on several.

Each deal the ``deals3`` part left undecided is solved again as a user would
on a machine of their own: ``cpsolver endgame DEAL --workers N --timeout S``,
a process of its own on every core (the benchmark pins itself to one; the
child is let go of that), S seconds of wall time. Recorded: the verdict, the
wall seconds, and the CPU seconds of the process and its workers.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from timed import timed_run

from cpsolver.io.positionformat import position_as_dict
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet

Record = dict[str, Any]


def _every_core() -> None:
    """In the child, before it runs: every core again (affinity is inherited)."""
    os.sched_setaffinity(0, range(os.cpu_count() or 1))


def workers_record(position: Position, rules: RuleSet, workers: int, seconds: float) -> Record:
    """One deal solved by ``cpsolver endgame --workers``: verdict, wall and CPU seconds."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deal.json"
        path.write_text(json.dumps(position_as_dict(position, rules)))
        argv = [sys.executable, "-m", "cpsolver", "endgame", str(path), "--json"]
        argv += ["--workers", str(workers), "--timeout", f"{seconds:g}"]
        wall, cpu, done = timed_run(argv, _every_core)
    try:
        winner = json.loads(done.stdout)["winner"]
    except (ValueError, KeyError):
        winner = None
    return {
        "winner": winner,
        "seconds": round(wall, 3) if winner is not None else None,
        "wall": round(wall, 3),
        "cpu": round(cpu, 3),
        "limit": seconds,
        "workers": workers,
        "exit": done.returncode,
    }


def undecided_deals(records: dict[tuple[str, str, str], Record]) -> set[str]:
    """The keys (``#index``) of the deals the one-core part left undecided."""
    return _deals(records, decided=False)


def decided_deals(records: dict[tuple[str, str, str], Record]) -> set[str]:
    """The keys (``#index``) of the deals the one-core part decided."""
    return _deals(records, decided=True)


def _deals(records: dict[tuple[str, str, str], Record], decided: bool) -> set[str]:
    return {
        key
        for (part, key, solver), record in records.items()
        if part == "deals3" and solver == "ours" and (record["winner"] is not None) == decided
    }


def workers_table(records: dict[tuple[str, str, str], Record]) -> list[str]:
    """How many of the deals one core left undecided several decide, and in what time."""
    found = [r for (part, _, s), r in records.items() if part == "deals3w" and s == "ours"]
    if not found:
        return []
    decided = [r for r in found if r["winner"] is not None]
    walls = sorted(r["wall"] for r in decided)
    workers = "/".join(sorted({str(r["workers"]) for r in found}))
    limits = "/".join(sorted({f"{r['limit']:g}" for r in found}))
    return [
        (
            "| workers | wall limit s | deals | decided | landlord wins | median wall s (decided) "
            "| max wall s (decided) | CPU s, all processes (median) |"
        ),
        "|---|---|---|---|---|---|---|---|",
        (
            f"| {workers} | {limits} | {len(found)} | {len(decided)}/{len(found)} "
            f"| {sum(r['winner'] == 0 for r in decided)} "
            f"| {f'{statistics.median(walls):.1f}' if walls else '–'} "
            f"| {f'{walls[-1]:.1f}' if walls else '–'} "
            f"| {statistics.median(r['cpu'] for r in found):.1f} |"
        ),
        *_coverage(records, found),
    ]


def _coverage(records: dict[tuple[str, str, str], Record], found: list[Record]) -> list[str]:
    """A line saying so where the deals measured are not the ones one core leaves undecided now."""
    measured = {key for (part, key, s) in records if part == "deals3w" and s == "ours"}
    undecided = undecided_deals(records)
    if measured == undecided:
        return []
    commits = ", ".join(sorted({str(r.get("commit", "?")) for r in found}))
    return [
        "",
        (
            f"Measured at commit {commits} on {len(measured)} deals; one core now leaves "
            f"{len(undecided)} undecided, {len(measured & undecided)} of them among those measured."
        ),
    ]
