"""Verify time against certificate size: genuine certificates, and forged ones made long.

    python benchmarks/certificates.py [--sizes 10000,40000,160000]

For one no-spring certificate of a seeded full deal, prints the CPU seconds
`check_certificate` takes (median of 3) when its proof is padded with N
copies of one valid lemma and no hints (the attack of issue 28: before the
fix, checking grew faster than the square of N), and how soon a forged
proof of N distinct lemmas that subsume each other is refused by the step
bound. The ratio per size shows whether checking stays linear.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time
from typing import Any

from cpsolver.io.dealgen import generate
from cpsolver.rules.errors import CpsolverError
from cpsolver.spring.certify import certify
from cpsolver.verify.spring import check_certificate


def cpu_seconds(document: dict[str, Any], runs: int = 3) -> tuple[float, str]:
    """The median CPU seconds of checking ``document``, and what the check said."""
    times, said = [], ""
    for _ in range(runs):
        started = time.process_time()
        try:
            failure = check_certificate(document)
            said = "valid" if failure is None else f"invalid: {failure}"
        except CpsolverError as error:
            said = f"refused: {str(error)[:60]}..."
        times.append(time.process_time() - started)
    return statistics.median(times), said


def padded(document: dict[str, Any], lines: list[str]) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["proof"] = lines + document["proof"]
    del changed["hints"]
    return changed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,40000,160000")
    sizes = [int(size) for size in parser.parse_args().sizes.split(",")]
    deal = next(e.deal for e in generate("full", 50, seed=8) if certify(e.deal) is not None)
    found = certify(deal)
    assert found is not None
    document = found[0]
    lemma = next(line for line in document["proof"] if line != "0")
    base, said = cpu_seconds(document)
    print(f"genuine certificate, {len(document['proof'])} lemmas with hints: {base:.3f} s ({said})")
    print("| N | repeated lemma: CPU s | per 1,000 lemmas | subsuming lemmas: CPU s | said |")
    print("|---|---|---|---|---|")
    for size in sizes:
        repeated, _ = cpu_seconds(padded(document, [lemma] * size), runs=1 if size > 50_000 else 3)
        stem = lemma.removesuffix(" 0")
        forged = [f"{stem} {100_000 + k} 0" for k in range(size)]
        subsuming, outcome = cpu_seconds(padded(document, forged), runs=1)
        print(
            f"| {size:,} | {repeated:.2f} | {1000 * repeated / size:.3f} | {subsuming:.2f} | {outcome} |"
        )


if __name__ == "__main__":
    main()
