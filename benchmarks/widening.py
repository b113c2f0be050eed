"""Widening against the plain search: the same positions, decided or not within a limit, CPU seconds.

    python benchmarks/widening.py [--limit 10] [--json benchmarks/results/widening.json]
        [--page docs/open-hands.md]

Each position is searched twice on the compiled core, each time by a fresh
search under the same limit: once by the plain search alone (``wins`` at the
root, what cpsolver did before widening) and once as ``solve`` decides it
(``Tree.decide``, :mod:`cpsolver.endgame.tree`: each side's narrow win first, then
the full search). The time is the CPU seconds of the search alone
(``time.process_time``: no start-up, no strategy read out). The positions are
the benchmark's own (``benchmarks/endgame.py``, same seeds): its hundred
three-player positions of 12/10/10 cards (``mid3``) and its forty random
two-player ones (``random``).

With ``--json`` the measurements are written as JSON; with ``--page`` the
table between the page's ``widening`` markers is rewritten from them (the
test ``tests/test_widening.py`` checks the page against the results file).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgame import middle_three, random_two
from endgame_tables import RANDOM_SIZES
from machine import where_measured
from markers import page_benchmark, replaced

from cpsolver.endgame.answer import new_search
from cpsolver.endgame.solver import OutOfTime, State, state_of
from cpsolver.endgame.tree import Tree
from cpsolver.rules.position import Position

START = "<!-- widening: start (benchmarks/widening.py writes this table) -->"
END = "<!-- widening: end -->"
WAYS: dict[str, Callable[[Tree, State], object]] = {
    "plain": lambda search, root: search.wins(*root),
    "widening": lambda search, root: search.decide(root),
}


def positions(seed: int) -> list[tuple[str, str, Position]]:
    """(group, name, position): the benchmark's 12/10/10 and random two-player positions."""
    found = [("three players, 12/10/10", f"#{i}", p) for i, p in enumerate(middle_three(seed, 100))]
    for sizes in RANDOM_SIZES:
        group = f"two players, {sizes[0]}+{sizes[1]}"
        found += [(group, f"#{i}", p) for i, p in enumerate(random_two(seed, sizes, 10))]
    return found


def searched(position: Position, way: str, limit: float) -> tuple[float | None, int]:
    """CPU seconds of one fresh search deciding ``position`` (None: not within ``limit``), nodes."""
    search = new_search(position.players, core="compiled")
    root = state_of(search, position)
    search.deadline = time.perf_counter() + limit
    started = time.process_time()
    try:
        WAYS[way](search, root)
    except OutOfTime:
        return None, search.nodes
    return time.process_time() - started, search.nodes


def measure(limit: float, seed: int) -> dict[str, Any]:
    """Every position, both ways."""
    rows = []
    for group, name, position in positions(seed):
        row: dict[str, Any] = {"group": group, "name": name}
        for way in WAYS:
            row[way], row[f"{way}_nodes"] = searched(position, way, limit)
        rows.append(row)
        print(f"{group:<26} {name:<4} {row['plain']} / {row['widening']}", file=sys.stderr)
    return {
        "limit": limit,
        "seed": seed,
        **where_measured(),
        "rows": rows,
    }


def _seconds(row: dict[str, Any], way: str, limit: float) -> float:
    """A search's CPU seconds, the limit where it did not decide."""
    found: float | None = row[way]
    return limit if found is None else found


def table(results: dict[str, Any]) -> str:
    """The markdown table of a run: each group's positions decided and CPU seconds, both ways."""
    limit = results["limit"]
    lines = [
        (
            f"| positions | decided within {limit:g} s, plain / widening | CPU s, all "
            "(an undecided one counts the limit), plain / widening | time, widening ÷ plain "
            "(median of those both decided) | widening slower by over 10% |"
        ),
        "|---|---:|---:|---:|---:|",
    ]
    rows = results["rows"]
    for group in dict.fromkeys(row["group"] for row in rows):
        mine = [row for row in rows if row["group"] == group]
        both = [row for row in mine if row["plain"] and row["widening"]]
        ratios = [row["widening"] / row["plain"] for row in both]
        decided = {way: sum(row[way] is not None for row in mine) for way in WAYS}
        totals = {way: sum(_seconds(row, way, limit) for row in mine) for way in WAYS}
        slower = sum(ratio > 1.1 and row["widening"] > 0.01 for ratio, row in zip(ratios, both))
        lines.append(
            f"| {group} ({len(mine)}) | {decided['plain']} / {decided['widening']} "
            f"| {totals['plain']:.1f} / {totals['widening']:.1f} "
            f"| {statistics.median(ratios):.2f} | {slower} |"
        )
    load = results["load"]
    lines.append("")
    lines.append(
        f"Measured on {results['machine']}, load {load:.1f} at the end, on the compiled core: "
        f"`python benchmarks/widening.py --limit {limit:g}`."
    )
    return "\n".join(lines)


def rewritten(page: str, results: dict[str, Any]) -> str:
    """``page`` with its widening table rendered from ``results``."""
    return replaced(page, START, END, table(results))


def main(argv: list[str] | None = None) -> None:
    """Measure (or read ``--from``), write ``--json``, rewrite ``--page``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=10.0, help="seconds a search (default 10)")
    page_benchmark(
        parser, lambda options: measure(options.limit, options.seed), table, rewritten, argv
    )


if __name__ == "__main__":
    main()
