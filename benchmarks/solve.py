"""Time the spring engines side by side with a naive RLCard baseline, on three kinds of deals.

    python benchmarks/solve.py [--deals 1000] [--seed 2026] [--kinds full,endgame,planted]
                               [--json benchmarks/results/solve.json]

For each deal, in one run and in turn, every solver answers it and its CPU
time (``time.process_time``) is taken: the search engine and CP-SAT (eager
and lazy), each with the natural plan (``plan_rank``: the default) and with
``any_plan``; both objectives of both engines; and the baseline a user could
write in an afternoon, a naive DFS over RLCard's move generator
(``benchmarks/rlcard_dfs.py``; ``pip install '.[bench]'``). Prints the
median, p90, p99 and max in ms per deal, the springs, and each median against
the baseline's; for CP-SAT's objectives, how many optima its bounds proved
without a solve, and how its fewest-plays verdicts were found. Verdicts, natural plans' counts (``plan_rank``) and optima must agree across
our engines, and the baseline's verdicts with ours under the ``rlcard``
profile: the run stops on any difference. ``--json`` writes the figures for
``benchmarks/speed_section.py``, which renders the manual's Speed page (``docs/speed.md``).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cpsolver.io.dealgen import KINDS, generate
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.cards import Deal
from cpsolver.spring import cpsat, search
from cpsolver.spring.engines import DEFAULT_ENGINE
from cpsolver.spring.result import SpringResult, Verdict, plan_rank

sys.path.insert(0, str(Path(__file__).parent))
from rlcard_dfs import has_spring as rlcard_has_spring

Solver = Callable[[Deal], SpringResult]
RLCARD_RULES = load_rules("rlcard")

# Name -> solver; the first of each group is the group's reference for agreement.
SPRING: dict[str, Solver] = {
    "search": search.solve,
    "search any-plan": lambda deal: search.solve(deal, any_plan=True),
    "cpsat eager": cpsat.solve,
    "cpsat eager any-plan": lambda deal: cpsat.solve(deal, any_plan=True),
    "cpsat lazy": lambda deal: cpsat.solve(deal, strategy="lazy"),
    "cpsat lazy any-plan": lambda deal: cpsat.solve(deal, strategy="lazy", any_plan=True),
}
OBJECTIVES: dict[str, Solver] = {
    f"{engine} {objective}": (
        lambda deal, e=engine, o=objective: (search.solve if e == "search" else cpsat.solve)(
            deal, objective=o
        )
    )
    for objective in ("fewest-plays", "fewest-answerable")
    for engine in ("search", "cpsat")
}
BASELINE = "RLCard naive DFS"


def percentile(ordered: list[float], fraction: float) -> float:
    return ordered[round(fraction * (len(ordered) - 1))]


def figures(times: list[float]) -> dict[str, float]:
    """Median, p90, p99 and max, in ms."""
    ordered = sorted(times)
    return {
        "median": statistics.median(ordered) * 1e3,
        "p90": percentile(ordered, 0.9) * 1e3,
        "p99": percentile(ordered, 0.99) * 1e3,
        "max": ordered[-1] * 1e3,
    }


def timed(function: Callable[[], Any]) -> tuple[Any, float]:
    start = time.process_time()
    value = function()
    return value, time.process_time() - start


def run_kind(kind: str, deals: list[Deal]) -> dict[str, Any]:
    """Every solver on every deal, in turn; the figures per solver, agreement checked."""
    times: dict[str, list[float]] = {name: [] for name in [*SPRING, *OBJECTIVES, BASELINE]}
    springs: dict[str, int] = dict.fromkeys(times, 0)
    # CP-SAT's objectives: how many optima its bounds proved without a solve,
    # and how its fewest-plays verdicts were found.
    by_bounds: dict[str, int] = dict.fromkeys(OBJECTIVES, 0)
    verdicts_by: dict[str, int] = {}
    agree_rlcard = 0
    for number, deal in enumerate(deals):
        verdicts, lengths = set(), set()
        for name, solver in SPRING.items():
            result, seconds = timed(lambda s=solver, d=deal: s(d))  # type: ignore[misc]
            times[name].append(seconds)
            springs[name] += result.verdict is Verdict.SPRING
            verdicts.add(result.verdict)
            if "any-plan" not in name:
                lengths.add(plan_rank(result.plan))  # natural plans: equal on every count
        optima: dict[str, set[int]] = {}
        for name, solver in OBJECTIVES.items():
            result, seconds = timed(lambda s=solver, d=deal: s(d))  # type: ignore[misc]
            times[name].append(seconds)
            springs[name] += result.verdict is Verdict.SPRING
            verdicts.add(result.verdict)
            assert result.objective is not None
            optima.setdefault(name.split()[1], set()).add(result.objective.value)
            by_bounds[name] += result.stats.get("proof") == "bounds"
            if name == "cpsat fewest-plays":
                way = result.stats["verdict_by"]
                verdicts_by[way] = verdicts_by.get(way, 0) + 1
        hands = [str(hand) for hand in deal.hands]
        baseline, seconds = timed(lambda h=hands: rlcard_has_spring(*h))  # type: ignore[misc]
        times[BASELINE].append(seconds)
        springs[BASELINE] += baseline
        under_rlcard = search.solve(deal, RLCARD_RULES).verdict is Verdict.SPRING
        agree_rlcard += baseline == under_rlcard
        if len(verdicts) > 1 or len(lengths) > 1 or any(len(v) > 1 for v in optima.values()):
            raise SystemExit(
                f"{kind} deal {number}: engines disagree: {verdicts} {lengths} {optima}"
            )
    base = statistics.median(times[BASELINE])
    rows = {
        name: {
            **figures(values),
            "springs": springs[name],
            "vs_baseline": statistics.median(values) / base,
        }
        for name, values in times.items()
    }
    for name, count in by_bounds.items():
        rows[name]["by_bounds"] = count
    return {
        "deals": len(deals),
        "rows": rows,
        "baseline_agrees_with_rlcard_profile": agree_rlcard,
        "cpsat_fewest_plays_verdicts_by": verdicts_by,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    options = parser.parse_args()
    for entry in generate("full", 30, options.seed + 1):  # warm every path up on other deals
        for solver in [*SPRING.values(), *OBJECTIVES.values()]:
            solver(entry.deal)
        rlcard_has_spring(*(str(hand) for hand in entry.deal.hands))
    gc.freeze()  # what the warm-up built stays out of the collector's way
    report: dict[str, Any] = {
        "deals": options.deals,
        "seed": options.seed,
        "default_engine": DEFAULT_ENGINE,
        "kinds": {},
    }
    print(f"{options.deals} deals of each kind, seed {options.seed}; CPU ms per deal")
    header = f"{'deals':<9}{'solver':<30}{'median':>8}{'p90':>8}{'p99':>8}{'max':>8}"
    print(f"{header}{'springs':>9}{'vs RLCard':>11}")
    for kind in options.kinds.split(","):
        deals = [entry.deal for entry in generate(kind, options.deals, options.seed)]
        found = run_kind(kind, deals)
        report["kinds"][kind] = found
        for name, row in found["rows"].items():
            print(
                f"{kind:<9}{name:<30}{row['median']:8.3f}{row['p90']:8.3f}{row['p99']:8.3f}"
                f"{row['max']:8.2f}{row['springs']:9d}{row['vs_baseline']:10.2f}x"
            )
        for name in OBJECTIVES:
            if name.startswith("cpsat"):
                print(f"{kind:<9}{name}: {found['rows'][name]['by_bounds']} optima by bounds alone")
        print(f"{kind:<9}cpsat fewest-plays verdicts by: {found['cpsat_fewest_plays_verdicts_by']}")
        print(
            f"{kind:<9}the baseline agrees with cpsolver --rules rlcard on "
            f"{found['baseline_agrees_with_rlcard_profile']} of {len(deals)} deals"
        )
    if options.json:
        options.json.parent.mkdir(parents=True, exist_ok=True)
        options.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
