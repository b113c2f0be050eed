"""Answer profiles: which of the landlord's option classes a peasant's hand can answer.

Who can answer a landlord play depends on the play only through its class
(kind, shape, rank: :meth:`MoveGenerator.representatives`), and on the
peasant's hand only through his strongest play of each of the landlord's
shapes, his best bomb and the rocket: he answers a class when his strongest
play of its shape ranks higher, or he holds any bomb (the highest beating a
lower bomb) or the rocket. :class:`ClassTable` computes that *profile* — a
bitmask over the landlord's classes — for a whole array of peasant rank-count
vectors at once, with the very tests :meth:`MoveGenerator.can_answer` makes
(cores, kicker room, the jokers rule), so that millions of candidate hands
cost a few array operations per class.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from cpsolver.rules.cards import BLACK_JOKER, RANK_COUNT, RED_JOKER, TWO, Hand
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Kind, Pattern, Play, kicker_limit
from cpsolver.rules.ruleset import RuleSet

Counts = npt.NDArray[np.int8]
Masks = npt.NDArray[np.uint64]
Tops = npt.NDArray[np.int8]


@dataclass(frozen=True)
class _Family:
    """One of the landlord's shapes: a pattern at one chain length, and his class ranks in it."""

    pattern: Pattern
    chain: int
    ranks: tuple[int, ...]  # the landlord's class ranks of this shape, low to high
    bits: tuple[int, ...]  # each one's bit in the profile


class ClassTable:
    """The landlord's option classes, and the profile of any peasant hand against them.

    >>> table = ClassTable(Hand.parse("33 KK"))
    >>> [str(play) for play in table.classes]
    ['3', 'K', '33', 'KK']
    >>> counts = np.array([Hand.parse("AA").counts, Hand.parse("44 Q").counts], dtype=np.int8)
    >>> [table.answered(row) for row in table.profiles(counts)]
    [['3', 'K', '33', 'KK'], ['3', '33']]
    """

    def __init__(self, landlord: Hand, rules: RuleSet | None = None) -> None:
        moves = generator(rules)
        self.rules = moves.rules
        self.classes: list[Play] = moves.representatives(landlord)
        self.words = max(1, (len(self.classes) + 63) // 64)
        by_shape: dict[tuple[Kind, int, int], list[int]] = {}
        self._patterns: dict[tuple[Kind, int, int], Pattern] = {}
        self._bombs: list[int] = []  # bits of the landlord's bomb classes
        self._ordinary: list[int] = []  # bits of every class a bomb beats
        for bit, play in enumerate(self.classes):
            if play.kind is Kind.ROCKET:
                continue  # nothing answers the rocket
            if play.kind is Kind.BOMB:
                self._bombs.append(bit)
                continue
            self._ordinary.append(bit)
            pattern = moves.pattern_of(play)
            assert pattern is not None  # the generator made it under these rules
            key = (play.kind, pattern.link_size, play.chain)
            self._patterns[key] = pattern
            by_shape.setdefault(key, []).append(bit)
        self.families = [
            _Family(
                self._patterns[key],
                key[2],
                tuple(self.classes[b].rank for b in bits),
                tuple(bits),
            )
            for key, bits in by_shape.items()
        ]

    def answered(self, profile: Masks) -> list[str]:
        """The classes a profile (one row of :meth:`profiles`) answers, as plays' cards."""
        return [
            str(play)
            for bit, play in enumerate(self.classes)
            if int(profile[bit // 64]) >> (bit % 64) & 1
        ]

    def profiles(self, counts: Counts) -> Masks:
        """The profile of each row of ``counts`` (peasant hands, one rank count per column).

        Row ``i`` of the result has bit ``b`` set when hand ``i`` can answer
        class ``b``, the bits spread over :attr:`words` unsigned 64-bit words.
        """
        rows = counts.shape[0]
        columns = np.ascontiguousarray(counts.T)  # one rank's counts contiguous: read most
        # One row of answers per class (rows written whole are cheap), packed at the end.
        answers = np.zeros((64 * self.words, rows), dtype=np.bool_)
        rocket = (columns[BLACK_JOKER] > 0) & (columns[RED_JOKER] > 0)
        best_bomb = np.full(rows, -1, dtype=np.int8)
        for rank in range(TWO + 1):
            best_bomb[columns[rank] == 4] = rank
        power = rocket | (best_bomb >= 0)
        answers[self._ordinary] = power
        for bit in self._bombs:
            answers[bit] = rocket | (best_bomb > self.classes[bit].rank)
        widths = {f.pattern.width for f in self.families if f.chain > 1}
        runs = _runs(columns, self.rules.highest_chain_rank, widths)
        for family in self.families:
            strongest = self._strongest(counts, columns, runs, family, ~power)
            for rank, bit in zip(family.ranks, family.bits):
                answers[bit] |= strongest > rank
        # Packing along contiguous rows is several times faster than down the columns.
        packed = np.packbits(np.ascontiguousarray(answers.T), axis=1, bitorder="little")
        return packed.view("<u8").astype(np.uint64, copy=False)

    def _strongest(
        self,
        counts: Counts,
        columns: Counts,
        runs: dict[int, Counts],
        family: _Family,
        wanted: npt.NDArray[np.bool_],
    ) -> Tops:
        """Each hand's highest top of a play of this shape (-1: none above the landlord's lowest).

        Only rows in ``wanted`` are examined (the others answer everything anyway);
        ``columns`` is ``counts`` transposed, ``runs`` per rank as :func:`_runs` gives them.
        """
        pattern, chain = family.pattern, family.chain
        strongest = np.full(counts.shape[0], -1, dtype=np.int8)
        open_rows = wanted.copy()
        tops = [
            top
            for top in pattern.top_ranks(chain, self.rules.highest_chain_rank)
            if top > family.ranks[0]
        ]
        for top in reversed(tops):
            if chain == 1:
                core = columns[top] >= pattern.width
            else:
                core = runs[pattern.width][top] >= chain
            found = open_rows & core
            if pattern.kicker_size:
                rows = np.flatnonzero(found)
                if rows.size:
                    room = self._kicker_room(counts[rows], pattern, top - chain + 1, top)
                    found[rows[room < chain * pattern.kickers_per_link]] = False
            strongest[found] = top
            open_rows &= ~found
            if not open_rows.any():
                break
        return strongest

    def _kicker_room(self, counts: Counts, pattern: Pattern, low: int, top: int) -> Counts:
        """How many kickers each hand can give the core ``low..top``: as ``can_answer`` counts it."""
        size = pattern.kicker_size
        limits = np.array(
            [kicker_limit(self.rules, pattern, low, top, r) for r in range(RANK_COUNT)],
            dtype=np.int8,
        )
        givable: Counts = np.minimum(counts // size, limits)
        room: Counts = givable.sum(axis=1, dtype=np.int8)
        if size == 1 and not self.rules.both_jokers_as_kickers:
            # Rule "never both jokers as kickers": the two jokers count as one kicker.
            room -= givable[:, BLACK_JOKER] & givable[:, RED_JOKER]
        return room


def _runs(columns: Counts, highest: int, widths: set[int]) -> dict[int, Counts]:
    """For each width asked: how many consecutive ranks up to each rank hold that many cards.

    ``columns`` holds one rank's counts per row; a chain may end at rank ``t``
    with ``n`` links when ``runs[width][t] >= n``. Runs stop at the rule set's
    highest chain rank.
    """
    found = {}
    for width in widths:
        run = np.zeros((highest + 1, columns.shape[1]), dtype=np.int8)
        previous = np.zeros(columns.shape[1], dtype=np.int8)
        for rank in range(highest + 1):
            previous = (previous + 1) * (columns[rank] >= width)
            run[rank] = previous
        found[width] = run
    return found
