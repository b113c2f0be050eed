"""Strength of our fair bot by DouZero's protocol, against RLCard's rule agent, itself and random.

    python benchmarks/strength.py [--games 10000] [--seed 2024] [--workers 2]
                                  [--opponents rlcard,cpsolver-heuristic,random]
                                  [--minutes M] [--page docs/bots.md] [--json FILE]
                                  [--endgame CARDS,SAMPLES]

For each opponent, ``--games`` seeded deals (landlord 20 cards, peasants 17,
no bidding), each played twice with the roles swapped, exactly as ``cpsolver
evaluate --landlord cpsolver --peasants OPPONENT --games N --seed S`` plays
them. The deals are played in order, every opponent's four games of a deal
together, so that with ``--minutes`` the run can stop at its time budget and
still cover the same first deals against every opponent; the table then says
how many of the deals asked for it covers. Prints a Markdown table of WP and
ADP (DouZero's scoring) with 95% intervals for our bot as landlord, as
peasants and overall, and the CPU time per game; with ``--page`` (the
manual's page on bots, ``docs/bots.md``; ``--readme`` is its old name) it
replaces the table between the ``strength`` markers there. The agent
measured is ``cpsolver``, the fair bot: it sees only its own seat.
``cpsolver-heuristic`` is the same bot without its exact endgame, as it was
before issue 25. ``--endgame CARDS,SAMPLES`` plays ``cpsolver`` with another
exact endgame (from CARDS cards left in all, SAMPLES sampled deals solved a
decision), to sweep those two numbers on the same deals.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import statistics
import time
from pathlib import Path
from typing import Any

from cpsolver.game.evaluate import (
    Outcome,
    run_game,
    seeded_deals,
    summarize,
    tasks,
    worker_start,
)

OPPONENTS = ("rlcard", "cpsolver-heuristic", "random")
START, END = "<!-- strength:start -->", "<!-- strength:end -->"
# Issue 25's goals: 0.90 against RLCard's rule agent, and above 0.5 against the bot as it was
# before its exact endgame (cpsolver-heuristic).
GOALS = {"rlcard": 0.90, "cpsolver-heuristic": 0.50, "random": 0.97}


def cell(figures: dict[str, Any]) -> str:
    low, high = figures["wp_ci"]
    return f"{figures['wp']:.3f} [{low:.3f}, {high:.3f}] / {figures['adp']:+.2f}"


def table(
    reports: list[dict[str, Any]], asked: int, seed: int, seconds: float, workers: int
) -> str:
    played = reports[0]["deals"]
    if played == asked:
        coverage = f"{played} seeded deals (seed {seed})"
    else:
        coverage = (
            f"the first {played} of {asked} seeded deals (seed {seed}); the run stopped at "
            f"its time budget, so the table covers only those"
        )
    lines = [
        f"Our fair bot (`cpsolver`) against each opponent: {coverage},",
        "each played twice with the roles swapped. WP [95% interval] / ADP (DouZero's scoring).",
        "",
        (
            "| opponent | as landlord | as peasants | overall | goal (WP, each role) "
            "| CPU per game (mean / median) |"
        ),
        "|---|---|---|---|---|---|",
    ]
    for report in reports:
        lines.append(
            f"| {report['b']} | {cell(report['as_landlord'])} | {cell(report['as_peasants'])} "
            f"| {cell(report['overall'])} | {GOALS.get(report['b'], 0):.2f} "
            f"| {report['cpu_mean'] * 1000:.0f} ms / {report['cpu_median'] * 1000:.0f} ms |"
        )
    budget = f" --minutes {reports[0]['minutes']:g}" if reports[0]["minutes"] else ""
    lines += [
        "",
        (
            f"Made by `python benchmarks/strength.py --games {asked} --seed {seed} "
            f"--workers {workers}{budget}` ({seconds / 60:.1f} min on this machine; "
            "CPU per game counts both sides' decisions)."
        ),
    ]
    return "\n".join(lines)


def start_worker(parent: int, endgame: tuple[int, int] | None) -> None:
    """A pool worker: evaluate's own set-up, and the bot's endgame as asked (cards, samples)."""
    worker_start(parent)
    if endgame is not None:
        import cpsolver.game.agents
        import cpsolver.game.bots

        cpsolver.game.agents.ENDGAME_CARDS, cpsolver.game.bots.ENDGAME_SAMPLES = endgame


def play(
    deals: list[Any],
    opponents: list[str],
    workers: int,
    deadline: float | None,
    endgame: tuple[int, int] | None = None,
) -> dict[str, list[Outcome]]:
    """Every opponent's games, deal by deal, until the deals or the time run out.

    Only whole deals are kept: those whose games against every opponent finished.
    """
    jobs = []
    for number, deal in enumerate(deals):
        for opponent in opponents:
            for job in tasks([deal], "cpsolver", opponent, "standard", 10.0):
                jobs.append((number, *job[1:]))
    per_deal = 2 * len(opponents)
    done: list[Outcome] = []
    pool = multiprocessing.get_context("spawn").Pool(
        workers, initializer=start_worker, initargs=(os.getpid(), endgame)
    )
    try:
        for outcome in pool.imap(run_game, jobs, chunksize=1):
            done.append(outcome)
            if len(done) % (per_deal * 50) == 0:
                print(f"{len(done) // per_deal} deals", flush=True)
            if deadline is not None and time.monotonic() > deadline:
                break  # the games still queued are dropped with the pool
        else:
            pool.close()
            pool.join()
    finally:
        pool.terminate()
    whole = len(done) // per_deal * per_deal
    by_opponent: dict[str, list[Outcome]] = {opponent: [] for opponent in opponents}
    for index, outcome in enumerate(done[:whole]):
        by_opponent[opponents[index // 2 % len(opponents)]].append(outcome)
    return by_opponent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--opponents", default=",".join(OPPONENTS))
    parser.add_argument(
        "--minutes", type=float, default=0, help="Stop after this long (0: play every deal)."
    )
    parser.add_argument(
        "--endgame",
        metavar="CARDS,SAMPLES",
        help="Play 'cpsolver' with this exact endgame: from CARDS left in all, SAMPLES deals "
        "solved a decision (default: the bot's own; 0,0 is cpsolver-heuristic). For sweeps: "
        "the table is then not written to --page.",
    )
    parser.add_argument("--page", "--readme", dest="page", type=Path)
    parser.add_argument("--json", type=Path, help="Also write the full reports here.")
    args = parser.parse_args()
    deals = seeded_deals(args.seed, args.games)
    opponents = args.opponents.split(",")
    started = time.monotonic()
    deadline = started + 60 * args.minutes if args.minutes else None
    endgame = None
    if args.endgame:
        cards, samples = (int(part) for part in args.endgame.split(","))
        endgame = (cards, samples)
        if args.page:
            raise SystemExit("--endgame is for sweeps: the page shows the bot as it plays")
    outcomes = play(deals, opponents, args.workers, deadline, endgame)
    seconds = time.monotonic() - started
    reports = []
    for opponent in opponents:
        report = summarize(outcomes[opponent], "cpsolver", opponent)
        cpu = [o.cpu_seconds for o in outcomes[opponent]]
        report.update(
            cpu_mean=statistics.fmean(cpu),
            cpu_median=statistics.median(cpu),
            minutes=args.minutes,
            seed=args.seed,
            asked=args.games,
        )
        reports.append(report)
    text = table(reports, args.games, args.seed, seconds, args.workers)
    if endgame is not None:
        text += f"\n(with --endgame {args.endgame})"
    print(text)
    if args.json:
        args.json.write_text(json.dumps(reports, indent=2) + "\n")
    if args.page:
        page = args.page.read_text()
        pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.DOTALL)
        if not pattern.search(page):
            raise SystemExit(f"{args.page} has no {START} ... {END} markers")
        args.page.write_text(pattern.sub(lambda _: f"{START}\n{text}\n{END}", page))


if __name__ == "__main__":
    main()
