"""Random open-hand positions from a seeded generator: two- and three-player, some mid-trick.

The hands are dealt from one shuffled deck with sizes drawn from chosen
ranges; the player to move is drawn too. With probability ``mid_trick`` the
position is in the middle of a trick: a few more cards are drawn from what
is left of the deck, one of their plays (a kind drawn first, so that pairs,
sequences and triplets with kickers show up beside singles) goes on the
table, made by a player other than the one to move.

Position ``i`` depends only on kind, seed, ``i`` and the options (its id is
``kind-seed-i``, as for deals), so the first 10 of 1,000 are a corpus of 10.

>>> entry = next(generate("position2", 1, seed=1, sizes=((3, 3), (2, 2))))
>>> entry.id, [len(hand) for hand in entry.position.hands]
('position2-1-0', [3, 2])
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from cpsolver.io.dealgen import SizeRange, parse_size_ranges
from cpsolver.io.positioncorpus import PositionEntry
from cpsolver.rules.cards import DECK_COUNTS, Hand, Rank
from cpsolver.rules.errors import PositionError
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet

POSITION_KINDS = ("position2", "position3")
DEFAULT_SIZES: dict[str, tuple[SizeRange, ...]] = {
    "position2": ((1, 10), (1, 10)),
    "position3": ((1, 8), (1, 8), (1, 8)),
}
DEFAULT_MID_TRICK = 0.5
_TABLE_DRAW = 8  # cards drawn for the table play to be chosen from


def players_of(kind: str) -> int:
    """How many hands a kind of position has."""
    if kind not in POSITION_KINDS:
        raise ValueError(f"unknown kind of position {kind!r} (known: {', '.join(POSITION_KINDS)})")
    return 2 if kind == "position2" else 3


def parse_position_sizes(text: str, players: int) -> tuple[SizeRange, ...]:
    """Hand sizes, one a hand: each a number or a range, ``"14,13"`` or ``"1-8,1-8,1-8"``.

    >>> parse_position_sizes("14,1-13", 2)
    ((14, 14), (1, 13))
    """
    return parse_size_ranges(text, players, "one a hand")


def random_position(
    rng: random.Random,
    sizes: tuple[SizeRange, ...],
    mid_trick: float = DEFAULT_MID_TRICK,
    rules: RuleSet | None = None,
) -> Position:
    """One position: hands of the drawn sizes, a random player to move, maybe a table play.

    The hands and the player to move do not depend on ``mid_trick``: the
    same seed with ``mid_trick`` 0 gives the same hands, on lead.
    """
    deck: list[Rank] = [rank for rank, count in enumerate(DECK_COUNTS) for _ in range(count)]
    rng.shuffle(deck)
    hands = []
    start = 0
    for low, high in sizes:
        size = rng.randint(low, high)
        hands.append(Hand.from_ranks(deck[start : start + size]))
        start += size
    turn = rng.randrange(len(sizes))
    coin = rng.random()
    rest = deck[start:]
    if coin >= mid_trick or not rest:
        return Position(tuple(hands), turn)
    by = rng.choice([player for player in range(len(sizes)) if player != turn])
    drawn = Hand.from_ranks(rest[: rng.randint(1, min(_TABLE_DRAW, len(rest)))])
    return Position(tuple(hands), turn, _random_play(rng, drawn, rules), by)


def _random_play(rng: random.Random, cards: Hand, rules: RuleSet | None) -> Play:
    """A play of ``cards``: a kind drawn uniformly among those present, then one of its plays."""
    by_kind: dict[str, list[Play]] = {}
    for play in generator(rules).plays(cards):
        by_kind.setdefault(play.kind.value, []).append(play)
    kind = rng.choice(sorted(by_kind))
    return rng.choice(sorted(by_kind[kind], key=lambda play: (play.rank, str(play))))


def generate(
    kind: str,
    count: int,
    seed: int,
    sizes: tuple[SizeRange, ...] | None = None,
    mid_trick: float = DEFAULT_MID_TRICK,
    rules: RuleSet | None = None,
) -> Iterator[PositionEntry]:
    """``count`` positions of one kind, each from its own generator seeded with its id."""
    players = players_of(kind)
    sizes = sizes or DEFAULT_SIZES[kind]
    if len(sizes) != players:
        raise PositionError(f"a {kind} needs {players} hand sizes, not {len(sizes)}")
    if not 0.0 <= mid_trick <= 1.0:  # nan too: no comparison holds for it
        raise PositionError(f"the mid-trick fraction must be between 0 and 1, not {mid_trick:g}")
    for index in range(count):
        name = f"{kind}-{seed}-{index}"
        yield PositionEntry(
            index + 1, name, random_position(random.Random(name), sizes, mid_trick, rules)
        )
