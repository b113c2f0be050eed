"""Spring odds: exact counts and estimates timed, and the table of odds over seeded hands.

    python benchmarks/odds.py speed [--hands 20] [--samples 10000]
    python benchmarks/odds.py pre-auction [--workers 2] [--local-cluster 2]
    python benchmarks/odds.py table [--hands 1000] [--workers 2] [--cache FILE] [--readme README.md]

``speed`` times the exact odds of the landlord hands (20 cards) of seeded
uniform (or ``--kind planted``) deals 0..N-1 — median, slowest, and the answer profiles and decisions
each needed — and a ``--samples`` Monte Carlo estimate of the same hands.
``pre-auction`` times the exact odds of one 17-card hand (seed 0's first 17
cards), over the face-down cards too, in this process split over local
workers and on a Dask LocalCluster. ``table`` computes the exact odds of the
landlord hands of seeded deals 0..N-1 and prints the README's Markdown
tables: the distribution of the odds, and the odds against the hand features
the bots use (bombs, rocket, 2s, fewest plays); ``--cache`` keeps each hand's
result so an interrupted run resumes.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

from cpsolver.cards import BLACK_JOKER, RED_JOKER, TWO, Deal, Hand
from cpsolver.dealgen import planted_deal, uniform_deal
from cpsolver.odds import estimate_odds, exact_odds, question
from cpsolver.parallel import runner_for
from cpsolver.search import solve
from cpsolver.spring import Verdict


def landlord_hand(seed: int, size: int = 20, kind: str = "uniform") -> Hand:
    """The first ``size`` cards of the landlord's hand of seeded deal ``seed``."""
    rng = random.Random(seed)
    deal = uniform_deal(rng) if kind == "uniform" else planted_deal(rng)
    if size == 20:
        return deal.landlord
    return Hand.from_ranks(list(deal.landlord.ranks())[:size])


def timed(work: Callable[..., Any], *args: Any, **options: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    result = work(*args, **options)
    return result, time.perf_counter() - started


def speed(hands: int, samples: int, kind: str) -> None:
    exact_times, sample_times, profiles, decisions = [], [], [], []
    for seed in range(hands):
        asked = question(landlord_hand(seed, 20, kind))
        odds, seconds = timed(exact_odds, asked)
        estimate, sampled = timed(estimate_odds, asked, samples, seed)
        exact_times.append(seconds)
        sample_times.append(sampled)
        profiles.append(odds.profiles)
        decisions.append(odds.decisions)
        low, high = estimate.interval
        print(
            f"seed {seed:>3} {asked.landlord}  odds {float(odds.probability):.6f}  "
            f"exact {seconds:6.2f} s ({odds.profiles} profiles, {odds.decisions} decisions)  "
            f"{samples} samples {sampled:5.2f} s [{low:.4f}, {high:.4f}]",
            flush=True,
        )
    print(
        f"{kind} hands: exact odds of a 20-card hand: median {statistics.median(exact_times):.2f} s, "
        f"slowest {max(exact_times):.2f} s over {hands} hands; profiles median "
        f"{statistics.median(profiles):.0f} (max {max(profiles)}), decisions median "
        f"{statistics.median(decisions):.0f} (max {max(decisions)})"
    )
    print(
        f"{samples}-sample estimate: median {statistics.median(sample_times):.2f} s, "
        f"slowest {max(sample_times):.2f} s"
    )


def pre_auction(workers: int, local_cluster: int | None, samples: int) -> None:
    asked = question(landlord_hand(0, 17))
    print(f"17-card hand {asked.landlord}: {asked.splits} splits, face-down cards included")
    estimate, seconds = timed(estimate_odds, asked, samples, 0)
    low, high = estimate.interval
    print(
        f"  {samples} samples: {seconds:.2f} s, about {float(estimate.probability):.5f} "
        f"[{low:.5f}, {high:.5f}]",
        flush=True,
    )
    setups = [(f"{workers} local workers", runner_for(workers))]
    if local_cluster:
        setups.append((f"Dask LocalCluster of {local_cluster}", runner_for(1, None, local_cluster)))
    for label, runner in setups:
        try:
            odds, seconds = timed(exact_odds, asked, runner=runner)
        finally:
            runner.close()
        print(
            f"  exact on {label}: {seconds:.1f} s, odds {odds.probability} = "
            f"{float(odds.probability):.6f} ({odds.profiles} profiles, {odds.decisions} decisions)",
            flush=True,
        )


def fewest_plays(hand: Hand) -> int:
    rest = list((Hand.deck() - hand).ranks())
    deal = Deal(hand, Hand.from_ranks(rest[:1]), Hand.from_ranks(rest[1:2]))
    result = solve(deal, objective="fewest-plays")
    assert result.objective is not None
    return result.objective.value


def hand_row(seed: int) -> dict[str, Any]:
    """One hand's exact odds and features, and whether its own deal is a spring (on a worker)."""
    deal = uniform_deal(random.Random(seed))
    hand = deal.landlord
    odds, seconds = timed(exact_odds, question(hand))
    return {
        "seed": seed,
        "hand": str(hand),
        "spring": solve(deal).verdict is Verdict.SPRING,
        "probability": f"{odds.probability.numerator}/{odds.probability.denominator}",
        "seconds": round(seconds, 3),
        "bombs": sum(hand[r] == 4 for r in range(TWO + 1)),
        "rocket": bool(hand[BLACK_JOKER] and hand[RED_JOKER]),
        "twos": hand[TWO],
        "fewest_plays": fewest_plays(hand),
    }


def table(hands: int, workers: int, cache: Path | None, readme: Path | None) -> None:
    rows: dict[int, dict[str, Any]] = {}
    if cache is not None and cache.exists():
        for line in cache.read_text().splitlines():
            row = json.loads(line)
            rows[row["seed"]] = row
    todo = [seed for seed in range(hands) if seed not in rows]
    runner = runner_for(workers)
    started = time.perf_counter()
    try:
        for row in runner.run(hand_row, todo):
            rows[row["seed"]] = row
            if cache is not None:
                with cache.open("a") as file:
                    file.write(json.dumps(row) + "\n")
    finally:
        runner.close()
    chosen = [rows[seed] for seed in range(hands)]
    seconds = sorted(row["seconds"] for row in chosen)
    print(
        f"{len(todo)} hands computed in this run ({time.perf_counter() - started:.0f} s); "
        f"per hand {sum(seconds):.0f} s in all, median {statistics.median(seconds):.2f} s, "
        f"slowest {seconds[-1]:.1f} s"
    )
    text = markdown(chosen) + "\n\n" + consistency(chosen)
    print(text)
    if readme is not None:
        start, end = "<!-- odds-table:start -->\n", "<!-- odds-table:end -->"
        page = readme.read_text()
        head, rest = page.split(start, 1)
        readme.write_text(head + start + text + "\n" + end + rest.split(end, 1)[1])


def consistency(rows: list[dict[str, Any]]) -> str:
    """The springs among the hands' own deals against the sum of their exact odds.

    Given the landlord's hand, its deal's split is uniform, so each deal is a
    Bernoulli trial whose mean is the hand's exact odds: the count of springs
    has mean sum(p) and variance sum(p(1-p)).
    """
    odds = [float(Fraction(row["probability"])) for row in rows]
    springs = sum(row["spring"] for row in rows)
    mean = sum(odds)
    deviation = sum(p * (1 - p) for p in odds) ** 0.5
    return (
        f"Check: of these {len(rows)} seeded deals, {springs} are springs (`cpsolver batch`); "
        f"their landlord hands' exact odds add up to {mean:.1f} ± {deviation:.1f} expected "
        f"springs, {(springs - mean) / deviation:+.2f} standard deviations away."
    )


def _percent(value: Fraction) -> str:
    """A probability as a percentage to three significant figures (0% only when zero)."""
    return f"{float(value) * 100:.3g}%"


def _share(count: int, total: int) -> str:
    return f"{count / total:.1%}" if total else "-"


def markdown(rows: list[dict[str, Any]]) -> str:
    odds = [Fraction(row["probability"]) for row in rows]
    total = len(rows)
    bins: list[tuple[str, Callable[[Fraction], bool]]] = [
        ("0 (never a spring)", lambda p: p == 0),
        ("above 0, up to 0.1%", lambda p: 0 < p <= Fraction(1, 1000)),
        ("0.1% to 1%", lambda p: Fraction(1, 1000) < p <= Fraction(1, 100)),
        ("1% to 10%", lambda p: Fraction(1, 100) < p <= Fraction(1, 10)),
        ("10% to 50%", lambda p: Fraction(1, 10) < p <= Fraction(1, 2)),
        ("above 50%", lambda p: p > Fraction(1, 2)),
    ]
    head = (
        f"Spring odds of {total} landlord hands (20 cards, seeded uniform deals 0..{total - 1}); "
        f"mean {_percent(sum(odds) / total)}, median {_percent(statistics.median(odds))}."
    )
    lines = [
        head,
        "",
        "| spring odds | hands | share |",
        "|---|---:|---:|",
    ]
    for label, test in bins:
        count = sum(test(p) for p in odds)
        lines.append(f"| {label} | {count} | {_share(count, total)} |")
    lines += [
        "",
        "| feature | value | hands | mean odds | odds above 0 | odds above 10% |",
        "|---|---|---:|---:|---:|---:|",
    ]
    features: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("bombs", lambda r: str(min(r["bombs"], 2)) + ("+" if r["bombs"] >= 2 else "")),
        ("rocket", lambda r: "yes" if r["rocket"] else "no"),
        ("2s", lambda r: str(r["twos"])),
        ("fewest plays", lambda r: _plays_bin(r["fewest_plays"])),
    ]
    for name, key in features:
        groups: dict[str, list[Fraction]] = {}
        for row, p in zip(rows, odds):
            groups.setdefault(key(row), []).append(p)
        for value in sorted(groups, key=_order):
            group = groups[value]
            lines.append(
                f"| {name} | {value} | {len(group)} | {_percent(sum(group) / len(group))} | "
                f"{_share(sum(p > 0 for p in group), len(group))} | "
                f"{_share(sum(p > Fraction(1, 10) for p in group), len(group))} |"
            )
    return "\n".join(lines)


def _plays_bin(plays: int) -> str:
    return "5 or fewer" if plays <= 5 else "9 or more" if plays >= 9 else str(plays)


def _order(value: str) -> tuple[int, str]:
    digits = "".join(c for c in value if c.isdigit())
    return (int(digits) if digits else 0, value)


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    speed_parser = sub.add_parser("speed")
    speed_parser.add_argument("--hands", type=int, default=20)
    speed_parser.add_argument("--samples", type=int, default=10_000)
    speed_parser.add_argument(
        "--kind",
        choices=("uniform", "planted"),
        default="uniform",
        help="uniform deals' landlord hands (most settled by the screen), or planted ones "
        "(spring-likely: every split enumerated)",
    )
    pre = sub.add_parser("pre-auction")
    pre.add_argument("--workers", type=int, default=2)
    pre.add_argument("--local-cluster", type=int, default=2)
    pre.add_argument("--samples", type=int, default=10_000)
    table_parser = sub.add_parser("table")
    table_parser.add_argument("--hands", type=int, default=1000)
    table_parser.add_argument("--workers", type=int, default=2)
    table_parser.add_argument("--cache", type=Path)
    table_parser.add_argument(
        "--readme", type=Path, help="Also write the tables into this README, between its markers."
    )
    args = parser.parse_args(None if argv is None else list(argv))
    if args.what == "speed":
        speed(args.hands, args.samples, args.kind)
    elif args.what == "pre-auction":
        pre_auction(args.workers, args.local_cluster or None, args.samples)
    else:
        table(args.hands, args.workers, args.cache, args.readme)


if __name__ == "__main__":
    main()
