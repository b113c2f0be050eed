"""Random deals from a seeded generator: uniform full deals, and spring-likely ones.

Uniform full deals almost never have a spring, so benchmarks and cross-checks
also use *planted* deals, whose landlord hand is built mostly from plays that
are hard to answer: a chain of triplets and high cards.

>>> import random
>>> deal = planted_deal(random.Random(1))
>>> [len(hand) for hand in deal.hands]
[20, 17, 17]
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from cpsolver.io.dealformat import CorpusEntry
from cpsolver.rules.cards import DECK_COUNTS, Deal, Hand, Rank

FULL_SIZES = (20, 17, 17)
KINDS = ("full", "endgame", "planted")
SizeRange = tuple[int, int]
DEFAULT_ENDGAME_SIZES: tuple[SizeRange, SizeRange, SizeRange] = ((1, 10), (1, 10), (1, 10))


def _deck(rng: random.Random) -> list[Rank]:
    cards = [rank for rank, count in enumerate(DECK_COUNTS) for _ in range(count)]
    rng.shuffle(cards)
    return cards


def _split(landlord: list[Rank], rest: list[Rank], sizes: tuple[int, int]) -> Deal:
    a, b = sizes
    return Deal(
        Hand.from_ranks(landlord), Hand.from_ranks(rest[:a]), Hand.from_ranks(rest[a : a + b])
    )


def uniform_deal(rng: random.Random, sizes: tuple[int, int, int] = FULL_SIZES) -> Deal:
    """Hands of the given sizes dealt from one shuffled deck (20/17/17 by default)."""
    cards = _deck(rng)
    return _split(cards[: sizes[0]], cards[sizes[0] :], sizes[1:])


def planted_deal(rng: random.Random) -> Deal:
    """A full deal whose landlord holds a triplet chain and mostly high cards.

    Two or three consecutive triplets from a random start, then each further
    card the highest of three drawn: about a quarter of these have a spring.
    """
    cards = _deck(rng)
    start = rng.randrange(0, 9)
    landlord = [rank for rank in range(start, start + rng.choice((2, 3))) for _ in range(3)]
    for rank in landlord:
        cards.remove(rank)
    while len(landlord) < FULL_SIZES[0]:
        card = max(rng.sample(cards, 3))
        cards.remove(card)
        landlord.append(card)
    return _split(landlord, cards, FULL_SIZES[1:])


def endgame_deal(rng: random.Random, sizes: tuple[SizeRange, SizeRange, SizeRange]) -> Deal:
    """A smaller position from one deck: each hand's size drawn from its (low, high) range."""
    return uniform_deal(rng, tuple(rng.randint(low, high) for low, high in sizes))  # type: ignore[arg-type]


def parse_sizes(text: str) -> tuple[SizeRange, SizeRange, SizeRange]:
    """Hand sizes for endgames: ``"8,6,6"`` or ranges ``"1-10,1-17,1-17"``.

    >>> parse_sizes("8,1-5,2")
    ((8, 8), (1, 5), (2, 2))
    """
    landlord, peasant1, peasant2 = parse_size_ranges(text, 3, "landlord,peasant1,peasant2")
    return landlord, peasant1, peasant2


def parse_size_ranges(text: str, hands: int, order: str) -> tuple[SizeRange, ...]:
    """``hands`` comma-separated sizes (``order`` names them), each a number or a range ``low-high``.

    >>> parse_size_ranges("14,1-13", 2, "mover,other")
    ((14, 14), (1, 13))
    """
    parts = text.split(",")
    if len(parts) != hands:
        raise ValueError(
            f"sizes {text!r}: give {hands} sizes, {order}, each a number or a range like 1-8"
        )
    ranges = []
    for part in parts:
        low, _, high = part.strip().partition("-")
        try:
            bounds = (int(low), int(high or low))
        except ValueError:
            raise ValueError(
                f"sizes {text!r}: {part!r} is not a size or a range like 1-8"
            ) from None
        if not 1 <= bounds[0] <= bounds[1]:
            raise ValueError(f"sizes {text!r}: {part!r} must be at least 1, low to high")
        ranges.append(bounds)
    if sum(high for _, high in ranges) > sum(DECK_COUNTS):
        raise ValueError(f"sizes {text!r}: more cards than one deck holds")
    return tuple(ranges)


def generate(
    kind: str,
    count: int,
    seed: int,
    sizes: tuple[SizeRange, ...] = DEFAULT_ENDGAME_SIZES,
) -> Iterator[CorpusEntry]:
    """``count`` deals of one kind, each drawn from its own seeded generator.

    Deal ``i`` depends only on kind, seed and ``i`` (its id is ``kind-seed-i``),
    so a corpus of 10 is the first 10 of a corpus of 1,000.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind of deal {kind!r} (known: {', '.join(KINDS)})")
    if len(sizes) != 3:
        raise ValueError(f"an endgame deal has three hand sizes, not {len(sizes)}")
    for index in range(count):
        rng = random.Random(f"{kind}-{seed}-{index}")
        if kind == "full":
            deal = uniform_deal(rng)
        elif kind == "planted":
            deal = planted_deal(rng)
        else:
            deal = endgame_deal(rng, sizes)
        yield CorpusEntry(index + 1, f"{kind}-{seed}-{index}", deal)
