"""Strength of our fair bot by DouZero's protocol, against RLCard's rule agent and against random.

    python benchmarks/strength.py [--games 10000] [--seed 2024] [--workers 2] [--readme README.md]

For each opponent, ``--games`` seeded deals (landlord 20 cards, peasants 17,
no bidding), each played twice with the roles swapped, exactly as ``cpsolver
evaluate --landlord cpsolver --peasants OPPONENT --games N --seed S`` plays
them. Prints a Markdown table of WP and ADP (DouZero's scoring) with 95%
intervals for our bot as landlord, as peasants and overall; with
``--readme`` it replaces the table between the ``strength`` markers there.
The agent measured is ``cpsolver``, the fair bot: it sees only its own seat.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path
from typing import Any

from cpsolver.game.evaluate import evaluate, seeded_deals, summarize

OPPONENTS = ("rlcard", "random")
START, END = "<!-- strength:start -->", "<!-- strength:end -->"
GOALS = {"rlcard": 0.80, "random": 0.97}


def cell(figures: dict[str, Any]) -> str:
    low, high = figures["wp_ci"]
    return f"{figures['wp']:.3f} [{low:.3f}, {high:.3f}] / {figures['adp']:+.2f}"


def table(reports: list[dict[str, Any]], games: int, seed: int, seconds: float) -> str:
    lines = [
        f"Our fair bot (`cpsolver`) against each opponent: {games} seeded deals (seed {seed}),",
        "each played twice with the roles swapped. WP [95% interval] / ADP (DouZero's scoring).",
        "",
        "| opponent | as landlord | as peasants | overall | goal (WP, each role) |",
        "|---|---|---|---|---|",
    ]
    for report in reports:
        lines.append(
            f"| {report['b']} | {cell(report['as_landlord'])} | {cell(report['as_peasants'])} "
            f"| {cell(report['overall'])} | {GOALS[report['b']]:.2f} |"
        )
    lines += [
        "",
        f"Made by `python benchmarks/strength.py --games {games} --seed {seed}` "
        f"({seconds / 60:.0f} min on this machine).",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--opponents", default=",".join(OPPONENTS))
    parser.add_argument("--readme", type=Path)
    parser.add_argument("--json", type=Path, help="Also write the full reports here.")
    args = parser.parse_args()
    deals = seeded_deals(args.seed, args.games)
    reports = []
    started = time.perf_counter()
    for opponent in args.opponents.split(","):
        began = time.perf_counter()
        outcomes = evaluate(deals, "cpsolver", opponent, workers=args.workers)
        report = summarize(outcomes, "cpsolver", opponent)
        report["seconds"] = round(time.perf_counter() - began, 1)
        reports.append(report)
        print(f"{opponent}: {report['seconds']} s", flush=True)
    text = table(reports, args.games, args.seed, time.perf_counter() - started)
    print(text)
    if args.json:
        args.json.write_text(json.dumps(reports, indent=2) + "\n")
    if args.readme:
        readme = args.readme.read_text()
        pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
        if not pattern.search(readme):
            raise SystemExit(f"{args.readme} has no {START} ... {END} markers")
        args.readme.write_text(pattern.sub(lambda _: f"{START}\n{text}\n{END}", readme))


if __name__ == "__main__":
    main()
