"""The shapes of the thirteen combinations under a rule set: kinds, patterns, kicker limits.

Every kind but the rocket is a *core* — ``width`` cards of each of ``chain``
consecutive ranks — plus, for some kinds, *kickers*: single cards or pairs
attached to the core. A :class:`Pattern` says this for one kind under one
rule set; :mod:`cpsolver.rules.plays` reads cards against the patterns, and the
move generator builds plays from them. Tables of the rules, never of a hand.

>>> from cpsolver.rules import standard_rules
>>> [p.kind.value for p in patterns(standard_rules()) if p.kicker_size == 2]
['triplet_pair', 'triplet_sequence_pairs', 'quadplex']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from cpsolver.rules.cards import RANK_COUNT, Rank
from cpsolver.rules.ruleset import RuleSet


class Kind(StrEnum):
    """The thirteen kinds of docs/RULES.md, in its order; values are the names used everywhere."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLET = "triplet"
    TRIPLET_SINGLE = "triplet_single"
    TRIPLET_PAIR = "triplet_pair"
    SEQUENCE = "sequence"
    PAIR_SEQUENCE = "pair_sequence"
    TRIPLET_SEQUENCE = "triplet_sequence"
    TRIPLET_SEQUENCE_SINGLES = "triplet_sequence_singles"
    TRIPLET_SEQUENCE_PAIRS = "triplet_sequence_pairs"
    BOMB = "bomb"
    ROCKET = "rocket"
    QUADPLEX = "quadplex"


KIND_ORDER = {kind: index for index, kind in enumerate(Kind)}

# Rule "the shape that beating compares": sequences by their length, the
# triplet family by its number of triplets, quadplexes by their kickers.
SEQUENCE_KINDS = frozenset({Kind.SEQUENCE, Kind.PAIR_SEQUENCE})
TRIPLET_CHAIN_KINDS = frozenset(
    {Kind.TRIPLET_SEQUENCE, Kind.TRIPLET_SEQUENCE_SINGLES, Kind.TRIPLET_SEQUENCE_PAIRS}
)


@dataclass(frozen=True, slots=True)
class Pattern:
    """The structure of one kind under a rule set.

    ``width`` cards of each of ``chain`` consecutive ranks, with ``chain`` in
    ``min_chain..max_chain``, plus ``kickers_per_link * chain`` kickers of
    ``kicker_size`` cards each (1: singles, 2: pairs, 0: no kickers).
    """

    kind: Kind
    width: int
    min_chain: int
    max_chain: int
    kicker_size: int = 0
    kickers_per_link: int = 0

    @property
    def link_size(self) -> int:
        """Cards per core rank, kickers included."""
        return self.width + self.kicker_size * self.kickers_per_link

    def top_ranks(self, chain: int, highest_chain_rank: Rank) -> range:
        """The ranks a core of this chain length may end on.

        Rule "sequences stay within 3..A": a chain of two or more ranks never
        reaches past the rule set's highest chain rank; a single rank may be
        any rank (the deck itself keeps jokers out of pairs and triplets).
        """
        last = highest_chain_rank if chain > 1 else RANK_COUNT - 1
        return range(chain - 1, last + 1)

    @property
    def noun(self) -> str:
        """The kind in words, for error messages."""
        if self.kind is Kind.QUADPLEX:
            return "quadplex"
        if self.kind in TRIPLET_CHAIN_KINDS:
            return "triplet sequence"
        return "triplet"


@cache
def patterns(rules: RuleSet) -> tuple[Pattern, ...]:
    """Every kind's pattern under ``rules`` (the rocket has none), in kind order."""
    chain_ranks = rules.highest_chain_rank + 1
    triplets = rules.triplet_min_length
    found = [
        Pattern(Kind.SINGLE, 1, 1, 1),
        Pattern(Kind.PAIR, 2, 1, 1),
        Pattern(Kind.TRIPLET, 3, 1, 1),
        Pattern(Kind.TRIPLET_SINGLE, 3, 1, 1, kicker_size=1, kickers_per_link=1),
        Pattern(Kind.TRIPLET_PAIR, 3, 1, 1, kicker_size=2, kickers_per_link=1),
        Pattern(Kind.SEQUENCE, 1, rules.single_min_length, chain_ranks),
        Pattern(Kind.PAIR_SEQUENCE, 2, rules.pair_min_length, chain_ranks),
        Pattern(Kind.TRIPLET_SEQUENCE, 3, triplets, chain_ranks),
        Pattern(Kind.TRIPLET_SEQUENCE_SINGLES, 3, triplets, chain_ranks, 1, 1),
        Pattern(Kind.TRIPLET_SEQUENCE_PAIRS, 3, triplets, chain_ranks, 2, 1),
        Pattern(Kind.BOMB, 4, 1, 1),
    ]
    # Rule "quadplex shapes": which of the two kicker shapes the rule set allows.
    if "singles" in rules.quadplex_shapes:
        found.append(Pattern(Kind.QUADPLEX, 4, 1, 1, kicker_size=1, kickers_per_link=2))
    if "pairs" in rules.quadplex_shapes:
        found.append(Pattern(Kind.QUADPLEX, 4, 1, 1, kicker_size=2, kickers_per_link=2))
    return tuple(found)


def kicker_limit(rules: RuleSet, pattern: Pattern, low: Rank, top: Rank, rank: Rank) -> int:
    """The most kickers of ``rank`` that one play with the core ``low..top`` may carry.

    >>> from cpsolver.rules import standard_rules
    >>> rules = standard_rules()
    >>> pattern = patterns(rules)[8]  # triplet_sequence_singles
    >>> kicker_limit(rules, pattern, 0, 1, 0), kicker_limit(rules, pattern, 0, 1, 5)
    (0, 1)
    """
    return kicker_limits(rules, pattern, low, top)[rank]


@cache
def kicker_limits(rules: RuleSet, pattern: Pattern, low: Rank, top: Rank) -> tuple[int, ...]:
    """:func:`kicker_limit` for every rank at once, as the move generator asks it.

    Cached: a table of the rules (a few hundred cores at most), not of any hand.

    >>> from cpsolver.rules import standard_rules
    >>> kicker_limits(standard_rules(), patterns(standard_rules())[3], 2, 2)
    (1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    """
    # Rule "distinct kickers": 333444 5555 and JJJJ 9999 are no plays; and for
    # singles 777888 33 and 6666 8 8 are none when one single of a rank is allowed.
    if pattern.kicker_size == 2:
        most = 1 if rules.pairs_distinct else 2
    else:
        most = rules.most_singles_of_a_rank
    limits = [most] * RANK_COUNT
    # Rule "kickers differ from the core": 6666 is a bomb, never 666 + 6.
    limits[low : top + 1] = [0] * (top - low + 1)
    if pattern.kicker_size == 1 and pattern.width == 3 and top > low:
        for rank in (low - 1, top + 1):
            if 0 <= rank <= rules.highest_chain_rank:
                limits[rank] = min(most, rules.most_singles_extending_the_chain)
    return tuple(limits)


# A pattern as the compiled parts read it (see pattern_tables).
PatternTable = tuple[int, int, int, int, int, int, bytes]


@cache
def pattern_tables(rules: RuleSet) -> tuple[PatternTable, ...]:
    """The rule set's patterns as the compiled parts read them: the open-hand search's core and the strategy checker.

    Each is (kind number, width, shortest chain, longest chain, kicker size,
    kickers a core rank, kicker limits): the limits are a byte for each core
    (low, top) and rank, 15 * 15 * 15, read from the same
    :func:`~cpsolver.rules.patterns.kicker_limits` as the Python generator's.
    Only the cores of a chain the pattern allows (``min_chain`` to
    ``max_chain`` ranks) are filled, the only ones the C code looks up: the
    other (low, top) pairs, about two thirds, cost every process's first solve
    ~1.2 ms.
    """
    tables = []
    for pattern in patterns(rules):
        limits = bytearray()
        if pattern.kicker_size:
            limits = bytearray(RANK_COUNT**3)
            for chain in range(pattern.min_chain, pattern.max_chain + 1):
                for low in range(RANK_COUNT - chain + 1):
                    top = low + chain - 1
                    at = (low * RANK_COUNT + top) * RANK_COUNT
                    limits[at : at + RANK_COUNT] = bytes(kicker_limits(rules, pattern, low, top))
        tables.append(
            (
                KIND_ORDER[pattern.kind],
                pattern.width,
                pattern.min_chain,
                pattern.max_chain,
                pattern.kicker_size,
                pattern.kickers_per_link,
                bytes(limits),
            )
        )
    return tuple(tables)
