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

from cpsolver.cards import DECK_COUNTS, Deal, Hand, Rank

FULL_SIZES = (20, 17, 17)


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
