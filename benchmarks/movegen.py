"""Time the move generator cold and warm, side by side with RLCard's and DouZero's.

    python benchmarks/movegen.py [--hands 1000] [--seed 2026] [--fresh 15]
                                 [--json benchmarks/results/movegen.json]

Deals the same random 20-card and 17-card hands (fixed seed) to every
generator, each peer against ours under the profile that reproduces its rules
(``models/rlcard.toml``, ``models/douzero.toml``), and takes CPU time
(``time.process_time``) per hand:

- *first call*: the first ``plays()`` in a fresh Python process, the import
  done (``--fresh`` processes, each on another hand); the same for the peers;
- *cold*: a hand no generator has seen, a fresh ``MoveGenerator`` per hand,
  so that every play is built (ours interns plays; the peers keep nothing).
  Ours builds a play's kind, rank and chain at once and its cards on first
  use (``cpsolver.rules.plays.lazy_play``), so *cold, cards read* also reads every
  play's cards: the whole cost when a caller looks into every play;
- *warm*: the same hands again, every play already interned;

and ``answers()`` and ``can_answer()`` warm. RLCard comes with ``pip install
'.[bench]'``, DouZero's generator with ``pip install --no-deps douzero``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.cards import DECK_COUNTS, Hand
from cpsolver.rules.movegen import MoveGenerator

PROFILE_OF = {"RLCard": "rlcard", "DouZero": "douzero"}

# The first call in a fresh process: the import is done first, then one call is timed.
FIRST_CALL = {
    "cpsolver": (
        "from cpsolver.rules.cards import Hand; from cpsolver.rules.movegen import plays\n"
        "hand = Hand.parse({hand!r})\n"
        "start = time.process_time(); plays(hand)\n"
    ),
    "RLCard": (
        "from rlcard.games.doudizhu.judger import DoudizhuJudger as J\n"
        "start = time.process_time(); J.playable_cards_from_hand({hand!r})\n"
    ),
    "DouZero": (
        "from douzero.env.move_generator import MovesGener\n"
        "codes = dict(zip('3456789TJQKA2BR', [*range(3, 15), 17, 20, 30]))\n"
        "cards = [codes[c] for c in {hand!r}]\n"
        "start = time.process_time(); MovesGener(cards).gen_moves()\n"
    ),
}


def deal_hands(size: int, count: int, rng: random.Random) -> list[Hand]:
    deck = [rank for rank, n in enumerate(DECK_COUNTS) for _ in range(n)]
    return [Hand.from_ranks(rng.sample(deck, size)) for _ in range(count)]


def time_each(function: Callable[[Any], object], inputs: Sequence[Any]) -> list[float]:
    """CPU seconds per call, one call per input."""
    clock = time.process_time
    times = []
    for item in inputs:
        start = clock()
        function(item)
        times.append(clock() - start)
    return times


def cards_read(moves: MoveGenerator) -> Callable[[Hand], object]:
    """``plays()`` with every play's cards read, as a caller that looks into each play does."""
    return lambda hand: [play.cards for play in moves.plays(hand)]


def summary(times: list[float]) -> dict[str, float]:
    """Median and p99 in microseconds."""
    ordered = sorted(times)
    return {
        "median": statistics.median(ordered) * 1e6,
        "p99": ordered[round(0.99 * (len(ordered) - 1))] * 1e6,
    }


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
        codes = [*range(3, 15), 17, 20, 30]
        found["DouZero"] = lambda hand: MovesGener([codes[r] for r in hand.ranks()]).gen_moves()
    except ImportError:
        print("DouZero not importable: pip install --no-deps douzero to time it")
    return found


def first_call(who: str, hands: list[Hand]) -> dict[str, float]:
    """The first call in a fresh process, once per hand: median and p99 in microseconds."""
    times = []
    for hand in hands:
        code = "import time\n" + FIRST_CALL[who].format(hand=str(hand))
        code += "print(time.process_time() - start)\n"
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        times.append(float(out.stdout))
    return summary(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--fresh", type=int, default=15, help="fresh processes for first calls")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    others = peers()
    report: dict[str, Any] = {"hands": options.hands, "seed": options.seed, "sizes": {}}
    print(f"{options.hands} hands per size, seed {options.seed}; CPU microseconds per hand")
    print(f"{'what':<46}{'median':>10}{'p99':>10}{'vs ours':>10}")
    for size in (20, 17):
        hands = deal_hands(size, options.hands, rng)
        rows: dict[str, dict[str, float]] = {}
        fresh = hands[: options.fresh]
        rows["first call in a fresh process: cpsolver"] = first_call("cpsolver", fresh)
        for name in others:
            rows[f"first call in a fresh process: {name}"] = first_call(name, fresh)
        for profile in ("standard", "rlcard", "douzero"):
            rules = load_rules(profile)
            cold = [t[0] for t in (time_each(MoveGenerator(rules).plays, [hand]) for hand in hands)]
            read = [time_each(cards_read(MoveGenerator(rules)), [hand])[0] for hand in hands]
            moves = MoveGenerator(rules)
            first_pass = time_each(moves.plays, hands)
            rows[f"cold, {profile} rules: cpsolver"] = summary(cold)
            rows[f"cold, cards read, {profile} rules: cpsolver"] = summary(read)
            rows[f"first pass, {profile} rules: cpsolver"] = summary(first_pass)
            rows[f"warm, {profile} rules: cpsolver"] = summary(time_each(moves.plays, hands))
        for name, function in others.items():
            rows[f"every call: {name}"] = summary(time_each(function, hands))
        moves = MoveGenerator(load_rules("standard"))
        targets = [rng.choice(moves.plays(h)) for h in deal_hands(size, options.hands, rng)]
        pairs = list(zip(hands, targets))
        rows["answers(), warm"] = summary(time_each(lambda p, m=moves: m.answers(*p), pairs))
        rows["can_answer(), warm"] = summary(time_each(lambda p, m=moves: m.can_answer(*p), pairs))
        for label, row in rows.items():
            peer = label.rsplit(": ", 1)[-1]
            base = None
            if label.startswith("every call") and peer in PROFILE_OF:
                base = rows[f"cold, {PROFILE_OF[peer]} rules: cpsolver"]["median"]
            elif label.startswith("first call") and peer != "cpsolver":
                base = rows["first call in a fresh process: cpsolver"]["median"]
            ratio = f"{row['median'] / base:.2f}x" if base else ""
            print(
                f"{label} ({size})"[:46].ljust(46)
                + f"{row['median']:>10.1f}{row['p99']:>10.1f}{ratio:>10}"
            )
        counts = [len(moves.plays(h)) for h in hands]
        report["sizes"][str(size)] = {"rows": rows, "plays_median": statistics.median(counts)}
        print(
            f"  ({size}-card hands hold {statistics.median(counts):.0f} plays at the median, "
            f"{max(counts)} at most; a peer's ratio is its time over ours, cold, under its rules)"
        )
    if options.json:
        options.json.parent.mkdir(parents=True, exist_ok=True)
        options.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
