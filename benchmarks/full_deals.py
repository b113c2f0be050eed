"""How often the landlord wins a full deal with every hand open: a batch of seeded uniform deals.

    python benchmarks/full_deals.py [--count 1000] [--seed 2026] [--timeout 5]
        [--local-cluster 2] [--work DIR] [--json benchmarks/results/full_deals.json]
        [--page README.md --page docs/open-hands.md]
    python benchmarks/full_deals.py --from benchmarks/results/full_deals.json --page README.md

Runs what a user would, as a user would run it:

    cpsolver deal --kind full --count N --seed S -o DIR/deals.jsonl
    cpsolver batch DIR/deals.jsonl --question endgame --local-cluster K --timeout T -o DIR/results.jsonl

(the batch resumes: rerun with the same ``--work`` to go on after a stop),
then counts the deals the landlord wins with best play by all three, those
the peasants win, and those left undecided within ``--timeout`` seconds each.
Two figures come out of it. The landlord's share among the decided deals,
with its Wilson 95% interval, is biased: a deal decided fast is not a
typical deal (a landlord who can play out alone is decided at once). The
bounds over all deals are not: at least the deals won, at most those won and
those undecided. ``--page`` rewrites the block between this script's markers
on each page; ``--from`` renders an earlier run's results without solving.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from machine import where_measured
from markers import replaced
from timed import children_end_with_us

from cpsolver.endgame.answer import core_name
from cpsolver.odds.sampling import wilson_interval

START = "<!-- full-deals: start (python benchmarks/full_deals.py --page writes this) -->"
END = "<!-- full-deals: end -->"


def commands(options: argparse.Namespace, work: Path) -> list[list[str]]:
    """The two commands of a run, as a user types them (``cpsolver`` is this interpreter's)."""
    cpsolver = [sys.executable, "-m", "cpsolver"]
    deals, results = work / "deals.jsonl", work / "results.jsonl"
    return [
        [*cpsolver, "deal", "--kind", "full", "--count", str(options.count)]
        + ["--seed", str(options.seed), "-o", str(deals)],
        [*cpsolver, "batch", str(deals), "--question", "endgame"]
        + ["--local-cluster", str(options.local_cluster), "--timeout", str(options.timeout)]
        + ["-o", str(results), "--quiet"],
    ]


def summary(records: list[dict[str, Any]], options: dict[str, Any]) -> dict[str, Any]:
    """The figures of a run's result records: wins by side, undecided, the share and its bounds."""
    landlord = sum(1 for r in records if r.get("winner") == 0)
    peasants = sum(1 for r in records if r.get("winner") == 1)
    undecided = sum(1 for r in records if r.get("winner") is None)
    count = len(records)
    decided = landlord + peasants
    low, high = wilson_interval(landlord, decided) if decided else (0.0, 1.0)
    solved_seconds = [r["cpu_seconds"] for r in records if r.get("winner") is not None]
    return {
        **options,
        "deals": count,
        "landlord": landlord,
        "peasants": peasants,
        "undecided": undecided,
        "share_of_decided": landlord / decided if decided else None,
        "interval_of_decided": [low, high],
        "bounds_of_all": [landlord / count, (landlord + undecided) / count] if count else None,
        "decided_within": [
            [limit, sum(1 for s in solved_seconds if s <= limit)]
            for limit in sorted({0.1, 1.0, float(options["timeout"])})
        ],
        "median_decided_cpu_seconds": statistics.median(solved_seconds) if solved_seconds else None,
        "core": core_name(),
        **where_measured(),
    }


def block(results: dict[str, Any]) -> str:
    """The markdown that goes between the markers: the command, the counts, the figures."""
    n, timeout = results["deals"], results["timeout"]
    decided = results["landlord"] + results["peasants"]
    share, (low, high) = results["share_of_decided"], results["interval_of_decided"]
    least, most = results["bounds_of_all"]
    within = results["decided_within"]
    lines = [
        "```sh",
        f"cpsolver deal --kind full --count {n} --seed {results['seed']} -o deals.jsonl",
        (
            f"cpsolver batch deals.jsonl --question endgame --local-cluster {results['local_cluster']} "
            f"--timeout {timeout:g} -o results.jsonl"
        ),
        "```",
        "",
        "| full deals, every hand open | deals |",
        "|---|---:|",
        f"| the landlord wins | {results['landlord']:,} |",
        f"| the peasants win | {results['peasants']:,} |",
        f"| undecided within {timeout:g} s (wall clock) | {results['undecided']:,} |",
        (
            f"| decided within {' / '.join(f'{limit:g}' for limit, _ in within)} CPU s "
            f"| {' / '.join(f'{n:,}' for _, n in within)} |"
        ),
        "",
    ]
    if decided:
        lines.append(
            f"With best play by all three, the landlord wins **at least {least:.1%} and at most "
            f"{most:.1%}** of uniform deals (the deals won, and those won or undecided, of {n:,}). "
            f"Of the {decided:,} decided, the landlord wins {share:.1%} (Wilson 95% interval "
            f"{low:.1%}–{high:.1%}); that share is biased toward the deals decided fast, such as "
            "a landlord who plays out alone."
        )
    load = results["load"]
    lines += [
        "",
        (
            f"Measured on {results['machine']}, load {load:.1f} at the end, on the {results['core']} "
            f"core: `python benchmarks/full_deals.py --count {n} --seed {results['seed']} "
            f"--timeout {timeout:g}`."
        ),
    ]
    return "\n".join(lines)


def rewritten(page: str, results: dict[str, Any]) -> str:
    """``page`` with the block between the markers made from ``results``."""
    return replaced(page, START, END, block(results))


def measure(options: argparse.Namespace) -> dict[str, Any]:
    """Deal, solve as a batch (resuming what an earlier run of the same work folder did), sum up."""
    work: Path = options.work
    work.mkdir(parents=True, exist_ok=True)
    deal, solve = commands(options, work)
    if not (work / "deals.jsonl").exists():
        subprocess.run(deal, check=True)
    started = time.perf_counter()
    finished = subprocess.run(solve, check=False)
    if finished.returncode not in (0, 3):  # 3: some deals undecided, as expected
        raise SystemExit(f"the batch failed with exit {finished.returncode}")
    lines = (work / "results.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    settings = {
        "count": options.count,
        "seed": options.seed,
        "timeout": options.timeout,
        "local_cluster": options.local_cluster,
        "wall_seconds_this_run": round(time.perf_counter() - started, 1),
    }
    return summary(records, settings)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--count", type=int, default=1000, help="full deals")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds a deal")
    parser.add_argument("--local-cluster", type=int, default=2, help="Dask LocalCluster workers")
    parser.add_argument(
        "--work", type=Path, default=Path("full-deals"), help="the corpus and results"
    )
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--from", dest="source", type=Path, help="render this results file")
    parser.add_argument(
        "--page", type=Path, action="append", default=[], help="rewrite this page's block"
    )
    options = parser.parse_args(argv)
    children_end_with_us()
    if options.source is not None:
        results = json.loads(options.source.read_text())
    else:
        results = measure(options)
    if options.json is not None:
        options.json.write_text(json.dumps(results, indent=1) + "\n")
    for page in options.page:
        page.write_text(rewritten(page.read_text(), results))
    print(block(results))


if __name__ == "__main__":
    main()
