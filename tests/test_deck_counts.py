"""How many distinct plays of each kind the whole 54-card deck holds.

The expected numbers are derived here in closed form (math.comb) from the
definitions in docs/RULES.md -- never from the move generator or classify.
Plays are counted as multisets of cards (suits play no part), so a play is
fixed by its core ranks plus the set of kicker ranks.

Notation used in the comments:
  - 13 "normal" ranks 3..2, each with 4 cards; 2 jokers B and R, one card each.
  - Chains (sequence, pair_sequence, the triplet-sequence family) use only the
    12 ranks 3..A; a chain of length L fits in 12 - L + 1 = 13 - L places.
"""

from __future__ import annotations

from collections import Counter
from math import comb

from brute_force import small_hands

from cpsolver.rules.cards import Hand
from cpsolver.rules.errors import InvalidPlayError
from cpsolver.rules.movegen import plays
from cpsolver.rules.plays import classify

CHAIN_RANKS = 12  # 3..A
NORMAL_RANKS = 13  # 3..2
JOKERS = 2  # B, R


def chain_places(length: int) -> int:
    """Places for `length` consecutive ranks within 3..A."""
    return max(CHAIN_RANKS - length + 1, 0)


def expected_counts() -> dict[str, int]:
    c: dict[str, int] = {}

    # 1 single: one card; the deck has 15 distinct ranks (13 normal + B + R).
    c["single"] = NORMAL_RANKS + JOKERS  # 15

    # 2 pair: two of one rank 3..2; two jokers are not a pair (one of each).
    c["pair"] = NORMAL_RANKS  # 13

    # 3 triplet: three of one rank 3..2.
    c["triplet"] = NORMAL_RANKS  # 13

    # 4 triplet_single: triplet rank (13) x one card of any of the 14 other
    #   ranks (12 other normal ranks + B + R): 13 * 14.
    c["triplet_single"] = NORMAL_RANKS * (NORMAL_RANKS - 1 + JOKERS)  # 182

    # 5 triplet_pair: triplet rank (13) x a pair of one of the 12 other normal
    #   ranks (2s allowed, jokers never a pair): 13 * 12.
    c["triplet_pair"] = NORMAL_RANKS * (NORMAL_RANKS - 1)  # 156

    # 6 sequence: L >= 5 consecutive ranks within 3..A, one card each:
    #   sum_{L=5..12} (13 - L) = 8 + 7 + ... + 1.
    c["sequence"] = sum(chain_places(n) for n in range(5, CHAIN_RANKS + 1))  # 36

    # 7 pair_sequence: L >= 3 consecutive pairs within 3..A:
    #   sum_{L=3..12} (13 - L) = 10 + ... + 1.
    c["pair_sequence"] = sum(chain_places(n) for n in range(3, CHAIN_RANKS + 1))  # 55

    # 8 triplet_sequence: n >= 2 consecutive triplets within 3..A:
    #   sum_{n=2..12} (13 - n) = 11 + ... + 1.
    c["triplet_sequence"] = sum(chain_places(n) for n in range(2, CHAIN_RANKS + 1))  # 66

    # 9 triplet_sequence_singles: n >= 2 consecutive triplets within 3..A
    #   (13 - n places) + n single kickers of n distinct ranks, none a triplet
    #   rank. Candidate kicker ranks: the 13 - n normal ranks off the chain plus
    #   B and R, i.e. 15 - n ranks; never both jokers, so subtract the choices
    #   holding B and R plus n - 2 normal ranks:
    #   sum_n (13 - n) * (C(15 - n, n) - C(13 - n, n - 2)).
    #   (Each kicker rank is used once and no kicker is a chain rank, so every
    #   choice fits in the deck; the sum is zero from n = 8 on.)
    c["triplet_sequence_singles"] = sum(
        chain_places(n) * (comb(NORMAL_RANKS - n + JOKERS, n) - comb(NORMAL_RANKS - n, n - 2))
        for n in range(2, CHAIN_RANKS + 1)
    )  # 7516

    # 10 triplet_sequence_pairs: n >= 2 consecutive triplets within 3..A
    #   (13 - n places) + n pairs of n distinct normal ranks off the chain
    #   (2s allowed, jokers never a pair): sum_n (13 - n) * C(13 - n, n).
    c["triplet_sequence_pairs"] = sum(
        chain_places(n) * comb(NORMAL_RANKS - n, n) for n in range(2, CHAIN_RANKS + 1)
    )  # 3436

    # 11 bomb: four of one rank 3..2.
    c["bomb"] = NORMAL_RANKS  # 13

    # 12 rocket: B + R, exactly one.
    c["rocket"] = 1

    # 13 quadplex:
    #   singles: quad rank (13) x two single cards of two distinct other ranks
    #     among 14 (12 other normal + B + R), never both jokers: C(14, 2) - 1.
    #   pairs: quad rank (13) x two pairs of two distinct other normal ranks
    #     (jokers never a pair): C(12, 2).
    quad_singles = NORMAL_RANKS * (comb(NORMAL_RANKS - 1 + JOKERS, 2) - 1)  # 13 * 90 = 1170
    quad_pairs = NORMAL_RANKS * comb(NORMAL_RANKS - 1, 2)  # 13 * 66 = 858
    c["quadplex"] = quad_singles + quad_pairs  # 2028

    return c


def test_formula_counts_are_the_pinned_literals():
    """The closed forms above evaluate to these numbers (a check on the arithmetic)."""
    assert expected_counts() == {
        "single": 15,
        "pair": 13,
        "triplet": 13,
        "triplet_single": 182,
        "triplet_pair": 156,
        "sequence": 36,
        "pair_sequence": 55,
        "triplet_sequence": 66,
        "triplet_sequence_singles": 7516,
        "triplet_sequence_pairs": 3436,
        "bomb": 13,
        "rocket": 1,
        "quadplex": 2028,
    }


def test_deck_plays_per_kind_match_formulas():
    """Every kind's number of distinct plays in the whole deck matches its closed form."""
    found = Counter(p.kind.value for p in plays(Hand.deck()))
    expected = expected_counts()
    for kind, count in expected.items():
        assert found[kind] == count, kind
    assert dict(found) == expected


def test_deck_plays_total():
    """The whole deck holds 13530 distinct plays in all."""
    assert sum(expected_counts().values()) == 13530
    assert len(plays(Hand.deck())) == 13530


def test_deck_plays_are_distinct_multisets():
    """Distinct plays are distinct multisets of cards: no play is listed twice."""
    listed = [str(p.cards) for p in plays(Hand.deck())]
    assert len(listed) == len(set(listed))


def test_deck_plays_quadplex_shapes():
    """Quadplex: 13 * (C(14,2) - 1) of shape singles and 13 * C(12,2) of shape pairs."""
    shapes = Counter(p.shape["kickers"] for p in plays(Hand.deck()) if p.kind.value == "quadplex")
    assert shapes == {
        "singles": NORMAL_RANKS * (comb(14, 2) - 1),
        "pairs": NORMAL_RANKS * comb(12, 2),
    }


def test_deck_plays_triplet_sequence_singles_by_length():
    """Kind 9 with n triplets: (13 - n) * (C(15 - n, n) - C(13 - n, n - 2)) for n = 2..7."""
    by_n = Counter(
        p.shape["triplets"]
        for p in plays(Hand.deck())
        if p.kind.value == "triplet_sequence_singles"
    )
    assert by_n == {n: (13 - n) * (comb(15 - n, n) - comb(13 - n, n - 2)) for n in range(2, 8)}


def test_deck_plays_triplet_sequence_pairs_by_length():
    """Kind 10 with n triplets: (13 - n) * C(13 - n, n) for n = 2..6."""
    by_n = Counter(
        p.shape["triplets"] for p in plays(Hand.deck()) if p.kind.value == "triplet_sequence_pairs"
    )
    assert by_n == {n: (13 - n) * comb(13 - n, n) for n in range(2, 7)}


def test_classify_over_all_small_multisets_matches_formulas():
    """Every multiset of at most 6 cards read by classify: per-kind counts from the formulas.

    This also checks docs/RULES.md's "every multiset has at most one reading" on all of
    them: classify raises AmbiguousPlayError (no InvalidPlayError) on two readings.
    """
    found: Counter[str] = Counter()
    for hand in small_hands(6):
        try:
            found[classify(hand).kind.value] += 1
        except InvalidPlayError:
            pass
    expected = {
        "single": 15,
        "pair": 13,
        "triplet": 13,
        "triplet_single": 13 * 14,
        "triplet_pair": 13 * 12,
        "sequence": chain_places(5) + chain_places(6),  # lengths 5 and 6
        "pair_sequence": chain_places(3),  # 3 pairs = 6 cards
        "triplet_sequence": chain_places(2),  # 2 triplets = 6 cards
        "bomb": 13,
        "rocket": 1,
        "quadplex": 13 * (comb(14, 2) - 1),  # singles shape: 6 cards
    }
    assert dict(found) == expected
    assert sum(expected.values()) == 1599
