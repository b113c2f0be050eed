"""Perfect-information Monte Carlo for the last cards: deal the unseen cards, solve each deal open-handed.

Near the end of a hand the open-hand solver (:mod:`cpsolver.endgame`) is
exact and fast. A fair player cannot use it directly, since it needs every
hand; instead it deals the cards it cannot see out again several times,
consistently with the table (:func:`~cpsolver.game.view.sample_hands`),
solves each of those deals, and counts for each of its options the deals in
which that option wins. The option that wins most often is chosen; a tie with
the caller's own preference keeps the preference.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from cpsolver.endgame import PASS
from cpsolver.endgame import solve as solve_open
from cpsolver.game.view import View, sample_hands
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position


def _key(option: Play | None) -> str:
    return PASS if option is None else str(option)


def pimc_choice(
    view: View,
    options: Sequence[Play | None],
    preferred: Play | None,
    samples: int,
    seed: int,
    time_limit: float,
) -> Play | None:
    """The option (a play, or None to pass) that wins the most sampled deals; ``preferred`` on a tie."""
    assert view.landlord is not None
    landlord = view.landlord
    rng = random.Random(seed)
    wins: Counter[str] = Counter()
    last = view.last
    for _ in range(samples):
        hands = sample_hands(view, rng)
        order = tuple(hands[(landlord + i) % 3] for i in range(3))
        position = Position(
            order,
            turn=(view.seat - landlord) % 3,
            table=last[1] if last else None,
            by=(last[0] - landlord) % 3 if last else None,
        )
        result = solve_open(position, view.rules, time_limit=time_limit, all_moves=True)
        if result.winner is None:
            continue
        for move in result.moves:
            wins[str(move)] += 1
    best = max((wins[_key(option)] for option in options), default=0)
    if best == 0 or wins[_key(preferred)] == best:
        return preferred
    return next(option for option in options if wins[_key(option)] == best)
