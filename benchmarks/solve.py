"""Time the CP-SAT spring engine on uniform and spring-likely full deals.

    python benchmarks/solve.py [--deals 1000] [--seed 2026] [--defaults]

Solves the same deals with each strategy and prints, per deal, the median,
p99 and max time, the springs found, and the mean and max rounds and cuts.
``--defaults`` adds a run with CP-SAT's default parameters (all workers,
probing on) for comparison with the tuned ones the engine uses.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from cpsolver.cards import Deal
from cpsolver.cpsat import STRATEGIES, solve
from cpsolver.dealgen import planted_deal, uniform_deal
from cpsolver.spring import Verdict


def run(deals: list[Deal], strategy: str, parameters: dict[str, object] | None) -> str:
    times, rounds, cuts, springs = [], [], [], 0
    for deal in deals:
        start = time.perf_counter()
        result = solve(deal, strategy=strategy, parameters=parameters)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
        rounds.append(result.stats["rounds"])
        cuts.append(result.stats["cuts"])
        springs += result.verdict is Verdict.SPRING
    times.sort()
    p99 = times[int(0.99 * (len(times) - 1))]
    return (
        f"{statistics.median(times) * 1e3:8.2f}{p99 * 1e3:8.2f}{times[-1] * 1e3:8.2f}"
        f"{springs:8d}{statistics.mean(rounds):8.2f}{max(rounds):6d}"
        f"{statistics.mean(cuts):8.2f}{max(cuts):6d}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--defaults", action="store_true", help="also time CP-SAT's default parameters"
    )
    options = parser.parse_args()
    corpora = {
        "uniform": [
            uniform_deal(random.Random(f"{options.seed}-u{i}")) for i in range(options.deals)
        ],
        "planted": [
            planted_deal(random.Random(f"{options.seed}-p{i}")) for i in range(options.deals)
        ],
    }
    print(f"{options.deals} deals each, seed {options.seed}; times in ms per deal")
    print(
        f"{'deals':<9}{'strategy':<16}{'median':>8}{'p99':>8}{'max':>8}{'springs':>8}"
        f"{'rounds':>8}{'max':>6}{'cuts':>8}{'max':>6}"
    )
    for name, deals in corpora.items():
        for strategy in STRATEGIES:
            print(f"{name:<9}{strategy:<16}{run(deals, strategy, None)}")
            if options.defaults:
                defaults: dict[str, object] = {"random_seed": 0}
                print(f"{name:<9}{strategy + ' defaults':<16}{run(deals, strategy, defaults)}")


if __name__ == "__main__":
    main()
