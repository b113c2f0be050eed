"""Time the move generator, side by side with RLCard's and DouZero's.

    python benchmarks/movegen.py [--hands 1000] [--seed 2026]

Deals the same random 20-card and 17-card hands (fixed seed) to every
generator and prints the median and p99 time per hand of ``plays()``,
``answers()`` and ``can_answer()`` (against a play drawn from another random
hand), and of the peers' "all legal plays of a hand", with ratios. Peers are
timed when importable: ``pip install '.[bench]'`` brings RLCard, and
``pip install --no-deps douzero`` brings DouZero's move generator without torch.

Plays are interned (built once per process, then looked up), so the first
pass over the hands, which builds most of them, is reported apart.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from cpsolver.cards import DECK_COUNTS, Hand
from cpsolver.movegen import MoveGenerator
from cpsolver.rules import load_rules, standard_rules


def deal_hands(size: int, count: int, rng: random.Random) -> list[Hand]:
    deck = [rank for rank, n in enumerate(DECK_COUNTS) for _ in range(n)]
    return [Hand.from_ranks(rng.sample(deck, size)) for _ in range(count)]


def time_each(function: Callable[[Any], object], inputs: Sequence[Any]) -> list[float]:
    """Seconds per call, one call per input."""
    clock = time.perf_counter
    times = []
    for item in inputs:
        start = clock()
        function(item)
        times.append(clock() - start)
    return times


def summary(times: list[float]) -> tuple[float, float]:
    """(median, p99) in microseconds."""
    ordered = sorted(times)
    return statistics.median(ordered) * 1e6, ordered[int(0.99 * (len(ordered) - 1))] * 1e6


def peers() -> dict[str, Callable[[Hand], object]]:
    """The peers' all-legal-plays functions that can be imported here, on our hands."""
    found: dict[str, Callable[[Hand], object]] = {}
    try:
        from rlcard.games.doudizhu.judger import DoudizhuJudger

        # RLCard writes hands with our symbols, sorted low to high.
        found["RLCard"] = lambda hand: DoudizhuJudger.playable_cards_from_hand(str(hand))
    except ImportError:
        print("RLCard not importable: pip install '.[bench]' to time it")
    try:
        from douzero.env.move_generator import MovesGener

        # DouZero numbers cards 3..14 for 3..A, 17 for 2, 20 and 30 for the jokers.
        codes = list(range(3, 15)) + [17, 20, 30]
        found["DouZero"] = lambda hand: MovesGener([codes[r] for r in hand.ranks()]).gen_moves()
    except ImportError:
        print("DouZero not importable: pip install --no-deps douzero to time it")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    rules = standard_rules()
    picker = MoveGenerator(rules)
    others = peers()
    # Each peer against the profile that reproduces its rules (models/*.toml).
    profile_of = {"RLCard": "rlcard", "DouZero": "douzero"}
    print(f"{options.hands} hands per size, seed {options.seed}; times in microseconds per hand")
    print(f"{'what':<40}{'median':>10}{'p99':>10}{'vs ours':>10}")
    for size in (20, 17):
        hands = deal_hands(size, options.hands, rng)
        targets = [rng.choice(picker.plays(h)) for h in deal_hands(size, options.hands, rng)]
        pairs = list(zip(hands, targets))
        generator = MoveGenerator(rules)  # a fresh one: nothing interned yet
        first_pass = summary(time_each(generator.plays, hands))
        ours = {"standard": summary(time_each(generator.plays, hands))}
        for profile in ("rlcard", "douzero"):
            moves = MoveGenerator(load_rules(profile))
            time_each(moves.plays, hands)  # intern first, as for the standard set
            ours[profile] = summary(time_each(moves.plays, hands))
        rows = [(f"plays() first pass, {size} cards", first_pass, None)]
        rows += [
            (f"plays() {name} rules, {size} cards", figures, None) for name, figures in ours.items()
        ]
        rows += [
            (
                f"answers(), {size} cards",
                summary(time_each(lambda p, g=generator: g.answers(*p), pairs)),
                None,
            ),
            (
                f"can_answer(), {size} cards",
                summary(time_each(lambda p, g=generator: g.can_answer(*p), pairs)),
                None,
            ),
        ]
        rows += [
            (
                f"{name} all plays, {size} cards",
                summary(time_each(f, hands)),
                ours[profile_of[name]],
            )
            for name, f in others.items()
        ]
        for label, (median, p99), base in rows:
            ratio = f"{median / base[0]:.2f}x" if base else ""
            print(f"{label:<40}{median:>10.1f}{p99:>10.1f}{ratio:>10}")
        counts = [len(generator.plays(h)) for h in hands]
        print(
            f"  ({size}-card hands hold {statistics.median(counts):.0f} plays at the median, "
            f"{max(counts)} at most; each peer is compared with ours under its own rules)"
        )


if __name__ == "__main__":
    main()
