"""Time the spring engines on uniform, endgame and spring-likely deals, and crosscheck.

    python benchmarks/solve.py [--deals 1000] [--seed 2026] [--defaults]

Solves the same deals (``cpsolver.dealgen.generate``) with the search engine
and with each CP-SAT strategy, and prints per deal the median, p99 and max
time, the springs found, and for CP-SAT the mean and max rounds and cuts.
``--defaults`` adds CP-SAT with its default parameters (all workers, probing
on) for comparison with the tuned ones. Last, the throughput of a crosscheck
(both engines and the verifier) in deals per second.
"""

from __future__ import annotations

import argparse
import statistics
import time

from cpsolver.cards import Deal
from cpsolver.crosscheck import EngineSolver, crosscheck
from cpsolver.dealgen import KINDS, generate
from cpsolver.engines import solve_with
from cpsolver.rules import standard_rules
from cpsolver.spring import Verdict


def run(deals: list[Deal], engine: str, strategy: str, parameters: dict[str, object] | None) -> str:
    times, rounds, cuts, springs = [], [], [], 0
    for deal in deals:
        start = time.perf_counter()
        if parameters is None:
            result = solve_with(engine, deal, strategy=strategy)  # type: ignore[arg-type]
        else:
            from cpsolver import cpsat

            result = cpsat.solve(deal, strategy=strategy, parameters=parameters)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
        rounds.append(result.stats.get("rounds", 0))
        cuts.append(result.stats.get("cuts", 0))
        springs += result.verdict is Verdict.SPRING
    times.sort()
    p99 = times[int(0.99 * (len(times) - 1))]
    line = (
        f"{statistics.median(times) * 1e3:8.2f}{p99 * 1e3:8.2f}{times[-1] * 1e3:8.2f}{springs:8d}"
    )
    if engine == "cpsat":
        line += f"{statistics.mean(rounds):8.2f}{max(rounds):6d}{statistics.mean(cuts):8.2f}{max(cuts):6d}"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--defaults", action="store_true", help="also time CP-SAT's default parameters"
    )
    options = parser.parse_args()
    print(f"{options.deals} deals of each kind, seed {options.seed}; times in ms per deal")
    print(
        f"{'deals':<9}{'engine':<22}{'median':>8}{'p99':>8}{'max':>8}{'springs':>8}"
        f"{'rounds':>8}{'max':>6}{'cuts':>8}{'max':>6}"
    )
    rules = standard_rules()
    for kind in KINDS:
        deals = [entry.deal for entry in generate(kind, options.deals, options.seed)]
        print(f"{kind:<9}{'search':<22}{run(deals, 'search', 'eager', None)}")
        for strategy in ("eager", "lazy"):
            print(f"{kind:<9}{'cpsat/' + strategy:<22}{run(deals, 'cpsat', strategy, None)}")
            if options.defaults:
                label = f"cpsat/{strategy} defaults"
                print(f"{kind:<9}{label:<22}{run(deals, 'cpsat', strategy, {'random_seed': 0})}")
        solvers = [EngineSolver("cpsat", rules, None), EngineSolver("search", rules, None)]
        start = time.perf_counter()
        summary = crosscheck(generate(kind, options.deals, options.seed), solvers, rules)
        rate = summary.deals / (time.perf_counter() - start)
        print(
            f"{kind:<9}crosscheck: {rate:.0f} deals/s, {summary.agreements} of {summary.deals} agree"
        )


if __name__ == "__main__":
    main()
