"""The compiled core against the Python core: the same positions, the same nodes, CPU seconds.

    python benchmarks/cores.py [--runs 3] [--json benchmarks/results/cores.json]
        [--page docs/open-hands.md]

Both cores search the same nodes in the same order (``tests/test_compiled_core.py``
holds them to it), so the ratio of their times is the ratio of their node
rates. Each position is searched ``--runs`` times by each core, in this one
process, alternating, from a fresh search each time; the time is the CPU
seconds of the search alone (``time.process_time`` around ``wins``: no
start-up, no strategy read out), the median of the runs. The positions: the
eight published two-player puzzles, ten seeded random 12+11 two-player
positions, and ten seeded three-player endgames of 7-9 cards a hand, landlord
to lead (every one within a few seconds of the Python core).

With ``--json`` the measurements are written as JSON; with ``--page`` the
table between the page's ``cores`` markers is rewritten from them (the test
``tests/test_compiled_core.py`` checks the page against the results file).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgame_tables import PUZZLES
from machine import where_measured
from markers import page_benchmark, replaced

from cpsolver.endgame.answer import new_search
from cpsolver.endgame.solver import state_of
from cpsolver.rules.cards import Hand
from cpsolver.rules.position import Position

START = "<!-- cores: start (benchmarks/cores.py writes this table) -->"
END = "<!-- cores: end -->"
CORES = ("python", "compiled")


def positions(seed: int) -> list[tuple[str, str, Position]]:
    """(group, name, position): the puzzles, random two-player, small three-player."""
    found = [
        ("published puzzles", f"#{n} {a} v {b}", Position.parse([a, b]))
        for n, (a, b, _) in enumerate(PUZZLES, 1)
    ]
    rng = random.Random(f"cores {seed}")
    for group, sizes, count in (
        ("random 12+11", lambda: (12, 11), 10),
        ("three players, 7-9 cards", lambda: tuple(rng.randint(7, 9) for _ in range(3)), 10),
    ):
        for index in range(count):
            deck = list(Hand.deck().ranks())
            rng.shuffle(deck)
            hands, start = [], 0
            for size in sizes():
                hands.append(Hand.from_ranks(deck[start : start + size]))
                start += size
            found.append((group, f"#{index}", Position(tuple(hands), 0)))
    return found


def search_seconds(position: Position, core: str) -> tuple[float, int]:
    """CPU seconds of one fresh search of ``position`` on ``core``, and its nodes."""
    search = new_search(position.players, None, None, None, core)
    root = state_of(search, position)
    started = time.process_time()
    search.wins(*root)
    return time.process_time() - started, search.nodes


def measure(runs: int, seed: int) -> dict[str, Any]:
    """Every position on both cores, ``runs`` times each, alternating."""
    rows = []
    for group, name, position in positions(seed):
        times: dict[str, list[float]] = {core: [] for core in CORES}
        nodes: dict[str, int] = {}
        for _ in range(runs):
            for core in CORES:
                seconds, nodes[core] = search_seconds(position, core)
                times[core].append(seconds)
        if nodes["python"] != nodes["compiled"]:
            raise SystemExit(f"{group} {name}: the cores searched different nodes: {nodes}")
        row = {"group": group, "name": name, "nodes": nodes["python"]}
        row.update({core: statistics.median(times[core]) for core in CORES})
        rows.append(row)
        print(
            f"{group:<28} {name:<32} {row['nodes']:>9} nodes "
            f"{row['python']:.4f} s / {row['compiled']:.5f} s",
            file=sys.stderr,
        )
    return {
        "runs": runs,
        "seed": seed,
        **where_measured(),
        "rows": rows,
    }


def table(results: dict[str, Any]) -> str:
    """The markdown table of a run: each group's nodes, times and ratio, and the median ratio."""
    lines = [
        (
            "| positions | nodes (median) | Python core, CPU s (median) | compiled core, CPU s "
            "(median) | node rate, compiled / Python (median, range) |"
        ),
        "|---|---:|---:|---:|---:|",
    ]
    rows = results["rows"]
    ratios_of_all = []
    for group in dict.fromkeys(row["group"] for row in rows):
        mine = [row for row in rows if row["group"] == group and row["compiled"] > 0]
        ratios = [row["python"] / row["compiled"] for row in mine]
        ratios_of_all += ratios
        lines.append(
            f"| {group} ({len(mine)}) | {statistics.median(r['nodes'] for r in mine):,.0f} "
            f"| {statistics.median(r['python'] for r in mine):.4f} "
            f"| {statistics.median(r['compiled'] for r in mine):.5f} "
            f"| {statistics.median(ratios):.0f}× ({min(ratios):.0f}–{max(ratios):.0f}×) |"
        )
    lines.append(f"| all ({len(ratios_of_all)}) | | | | {statistics.median(ratios_of_all):.0f}× |")
    largest = sorted(rows, key=lambda row: row["nodes"])[-5:]
    ratios = [row["python"] / row["compiled"] for row in largest]
    load = results["load"]
    lines += [
        "",
        (
            f"On the five largest searches ({largest[0]['nodes']:,} to {largest[-1]['nodes']:,} "
            f"nodes) the compiled core is {min(ratios):.0f}–{max(ratios):.0f}× as fast."
        ),
        "",
        (
            f"Measured on {results['machine']}, load {load:.1f} at the end, "
            f"{results['runs']} runs of each search; `python benchmarks/cores.py`."
        ),
    ]
    return "\n".join(lines)


def rewritten(page: str, results: dict[str, Any]) -> str:
    """``page`` with the table between the markers made from ``results``."""
    return replaced(page, START, END, table(results))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=3)
    page_benchmark(
        parser, lambda options: measure(options.runs, options.seed), table, rewritten, argv
    )


if __name__ == "__main__":
    main()
