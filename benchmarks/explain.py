"""Time explanations and certificates of "no spring" on full deals.

    python benchmarks/explain.py [--deals 1000] [--seed 2026] [--kind full]

For the first ``--deals`` no-spring deals of a kind (``cpsolver.dealgen``):
the time of ``explain`` (blocking cards by CP-SAT), the size of the blocking
set, the time to certify (explain, encode, refute with CaDiCaL), the size of
the certificate, and the time ``verify`` takes to check it (rebuild the CNF,
check the refutation by unit propagation). Medians, p99 and max.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from cpsolver.certify import certify
from cpsolver.cpsat.explain import explain
from cpsolver.dealgen import generate
from cpsolver.verify import check_certificate


def timed(function: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def row(label: str, values: list[float], unit: str) -> str:
    values = sorted(values)
    p99 = values[int(0.99 * (len(values) - 1))]
    return f"{label:<28}{statistics.median(values):>10.2f}{p99:>10.2f}{values[-1]:>10.2f}  {unit}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--kind", default="full", choices=["full", "planted", "endgame"])
    options = parser.parse_args()
    explain_ms, sizes, certify_ms, kilobytes, verify_ms = [], [], [], [], []
    for entry in generate(options.kind, 100 * options.deals, options.seed):
        deal = entry.deal
        explanation, seconds = timed(lambda: explain(deal))  # noqa: B023 - called at once
        if explanation.blocking is None:
            continue
        explain_ms.append(seconds * 1e3)
        sizes.append(len(explanation.blocking))
        certified, seconds = timed(lambda: certify(deal))  # noqa: B023
        certify_ms.append(seconds * 1e3)
        document = certified[0]
        kilobytes.append(len(json.dumps(document)) / 1024)
        failure, seconds = timed(lambda: check_certificate(document))  # noqa: B023
        assert failure is None, (entry.id, failure)
        verify_ms.append(seconds * 1e3)
        if len(sizes) == options.deals:
            break
    print(f"{len(sizes)} no-spring {options.kind} deals, seed {options.seed}")
    print(f"{'':<28}{'median':>10}{'p99':>10}{'max':>10}")
    print(row("explain", explain_ms, "ms"))
    print(row("blocking cards", sizes, "cards"))
    print(row("certify (explain+SAT)", certify_ms, "ms"))
    print(row("certificate size", kilobytes, "KB"))
    print(row("verify certificate", verify_ms, "ms"))


if __name__ == "__main__":
    main()
