"""Time explanations and certificates of "no spring" on full deals.

    python benchmarks/explain.py [--deals 1000] [--seed 2026] [--kind full]
                                 [--json benchmarks/results/explain.json]

For the first ``--deals`` no-spring deals of a kind (``cpsolver.io.dealgen``):
the time of ``explain`` (blocking cards by CP-SAT), the size of the blocking
set, the time to certify (explain, encode, refute with CaDiCaL), the size of
the certificate, and the time ``verify`` takes to check it (rebuild the CNF,
check the trimmed refutation along its hints). Medians, p99 and max of CPU
time, and the largest ratio of checking to making.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cpsolver.io.dealgen import generate
from cpsolver.spring.certify import certify
from cpsolver.spring.cpsat.explain import explain
from cpsolver.verify.spring import check_certificate


def timed(function: Callable[[], Any]) -> tuple[Any, float]:
    gc.collect()  # a collection left over from the last deal is not this one's cost
    start = time.process_time()
    value = function()
    return value, time.process_time() - start


def figures(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": statistics.median(ordered),
        "p99": ordered[round(0.99 * (len(ordered) - 1))],
        "max": ordered[-1],
    }


def row(label: str, values: list[float], unit: str) -> str:
    found = figures(values)
    return f"{label:<28}{found['median']:>10.2f}{found['p99']:>10.2f}{found['max']:>10.2f}  {unit}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--kind", default="full", choices=["full", "planted", "endgame"])
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    options = parser.parse_args()
    explain_ms, sizes, certify_ms, kilobytes, verify_ms = [], [], [], [], []
    lemmas_found, lemmas_kept = [], []
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
        lemmas_found.append(document["stats"]["lemmas_found"])
        lemmas_kept.append(document["stats"]["lemmas"])
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
    print(row("lemmas from CaDiCaL", lemmas_found, "lemmas"))
    print(row("lemmas kept (trimmed)", lemmas_kept, "lemmas"))
    ratios = [v / c for v, c in zip(verify_ms, certify_ms)]
    print(f"verify / certify: at most {max(ratios):.2f}, above 1 for {sum(r > 1 for r in ratios)}")
    if options.json:
        report = {
            "deals": len(sizes),
            "seed": options.seed,
            "kind": options.kind,
            "explain_ms": figures(explain_ms),
            "blocking_cards": figures(sizes),
            "certify_ms": figures(certify_ms),
            "certificate_kb": figures(kilobytes),
            "verify_ms": figures(verify_ms),
            "lemmas_found": figures(lemmas_found),
            "lemmas_kept": figures(lemmas_kept),
            "verify_over_certify_max": max(ratios),
            "verify_over_certify_above_1": sum(r > 1 for r in ratios),
        }
        options.json.parent.mkdir(parents=True, exist_ok=True)
        options.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
