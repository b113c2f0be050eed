"""The move generator as it stood before plays were built lazily (commit 152045f).

Kept as a reference for tests/test_movegen_fast.py: the fast generator must
give the same plays, in the same order, with the same cards, under every rule
set. It builds every play eagerly through ``Play(...)``; only its name changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from cpsolver.rules.cards import BLACK_JOKER, RANK_COUNT, RED_JOKER, TWO, Hand, Rank
from cpsolver.rules.plays import Kind, Pattern, Play, patterns, rocket
from cpsolver.rules.ruleset import RuleSet

_RANKS = range(RANK_COUNT)


def kicker_limit(rules: RuleSet, pattern: Pattern, low: Rank, top: Rank, rank: Rank) -> int:
    """The most kickers of ``rank`` beside the core ``low..top``: plays.kicker_limit as it was."""
    if low <= rank <= top:
        return 0
    if pattern.kicker_size == 2:
        return 1 if rules.pairs_distinct else 2
    limit = rules.most_singles_of_a_rank
    extends = rank in (low - 1, top + 1) and rank <= rules.highest_chain_rank
    if pattern.width == 3 and top > low and extends:
        limit = min(limit, rules.most_singles_extending_the_chain)
    return limit


_Kickers = tuple[Rank, ...]


class _Table:
    """One pattern compiled for generation: its interned plays by (chain, top)."""

    __slots__ = (
        "core_shape",
        "cores",
        "distinct",
        "kicked",
        "kicker_size",
        "limits",
        "max_chain",
        "min_chain",
        "pattern",
        "wanted",
        "width",
    )

    def __init__(self, pattern: Pattern, rules: RuleSet) -> None:
        self.pattern = pattern
        # Whether no rank may ever give this pattern two kickers (the fast path).
        most = (
            rules.most_singles_of_a_rank if pattern.kicker_size == 1 else 2 - rules.pairs_distinct
        )
        self.distinct = most <= 1
        self.width = pattern.width
        self.kicker_size = pattern.kicker_size
        self.wanted = pattern.kickers_per_link  # kickers per core rank
        self.min_chain = pattern.min_chain
        self.max_chain = pattern.max_chain
        self.core_shape = (pattern.width, pattern.min_chain, pattern.max_chain)
        # kicker_limit for every rank, by the core's (low, top): filled on demand.
        self.limits: dict[tuple[Rank, Rank], tuple[int, ...]] = {}
        chains = range(pattern.max_chain + 1)
        self.cores: list[list[Play | None]] = [[None] * RANK_COUNT for _ in chains]
        # Filled on demand: a fresh process builds only what its first hands need.
        self.kicked: list[list[dict[_Kickers, Play] | None]] = [[None] * RANK_COUNT for _ in chains]

    def core(self, chain: int, top: Rank) -> Play:
        """The interned play of the bare core ``chain`` ranks ending at ``top``."""
        play = self.cores[chain][top]
        if play is None:
            counts = [0] * RANK_COUNT
            for r in range(top - chain + 1, top + 1):
                counts[r] = self.width
            cards = Hand.trusted(tuple(counts), chain * self.width)
            play = self.cores[chain][top] = Play(self.pattern.kind, top, chain, cards)
        return play

    def kicked_at(self, chain: int, top: Rank) -> dict[_Kickers, Play]:
        """The interned plays of the core ``chain`` ranks ending at ``top``, by kickers."""
        table = self.kicked[chain][top]
        if table is None:
            table = self.kicked[chain][top] = {}
        return table

    def with_kickers(self, chain: int, top: Rank, kickers: _Kickers) -> Play:
        """The interned play of this core with these kicker ranks."""
        table = self.kicked_at(chain, top)
        play = table.get(kickers)
        if play is None:
            core = self.core(chain, top).cards
            counts = list(core.counts)
            size = self.kicker_size
            for r in kickers:
                counts[r] += size
            # Built for every new play: unchecked, since a core and its kickers fit a hand.
            cards = Hand.trusted(tuple(counts), len(core) + size * len(kickers))
            play = table[kickers] = Play(self.pattern.kind, top, chain, cards)
        return play


class ReferenceGenerator:
    """The generator as it was before lazy plays: every play built eagerly, in full."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._tables = [_Table(p, rules) for p in patterns(rules)]
        self._by_family = {(t.pattern.kind, t.pattern.link_size): t for t in self._tables}
        self._bomb = self._by_family[(Kind.BOMB, 4)]
        self._rocket = rocket()
        self._highest = rules.highest_chain_rank
        self._both_jokers = rules.both_jokers_as_kickers

    # -- public API ---------------------------------------------------------

    def plays(self, hand: Hand) -> list[Play]:
        """Every distinct play contained in ``hand``, in kind order."""
        counts = hand.counts
        found: list[Play] = []
        # Kinds with the same core shape (triplet, with a single, with a pair) share their cores.
        cores_of: dict[tuple[int, int, int], list[tuple[int, Rank]]] = {}
        for table in self._tables:
            shape = table.core_shape
            cores = cores_of.get(shape)
            if cores is None:
                cores = cores_of[shape] = self._cores_in(counts, table, -1, 0)
            for chain, top in cores:
                self._add(found, counts, table, chain, top)
        if counts[BLACK_JOKER] and counts[RED_JOKER]:
            found.append(self._rocket)
        return found

    def answers(self, hand: Hand, play: Play) -> list[Play]:
        """Every play in ``hand`` that beats ``play``."""
        counts = hand.counts
        kind = play.kind
        if kind is Kind.ROCKET:
            return []
        found: list[Play] = []
        table = self._by_family.get((kind, play.size // play.chain))
        if table is not None and kind is not Kind.BOMB:
            for chain, top in self._cores_in(counts, table, play.rank, play.chain):
                self._add(found, counts, table, chain, top)
        lowest_bomb = play.rank + 1 if kind is Kind.BOMB else 0
        found.extend(self._bomb.core(1, r) for r in range(lowest_bomb, TWO + 1) if counts[r] == 4)
        if counts[BLACK_JOKER] and counts[RED_JOKER]:
            found.append(self._rocket)
        return found

    def can_answer(self, hand: Hand, play: Play) -> bool:
        """Whether ``hand`` holds any play that beats ``play``: :meth:`answers`, as a boolean."""
        counts = hand.counts
        kind = play.kind
        if kind is Kind.ROCKET:
            return False
        if counts[BLACK_JOKER] and counts[RED_JOKER]:
            return True
        lowest_bomb = play.rank + 1 if kind is Kind.BOMB else 0
        if 4 in counts[lowest_bomb : TWO + 1]:
            return True
        if kind is Kind.BOMB:
            return False
        if kind is Kind.SINGLE:  # the question asked most often, answered directly
            return any(counts[play.rank + 1 :])
        table = self._by_family.get((kind, play.size // play.chain))
        if table is None:  # a kind this rule set does not have
            return False
        for chain, top in self._cores_in(counts, table, play.rank, play.chain):
            if not table.kicker_size or self._kicker_room(counts, table, chain, top) >= (
                chain * table.wanted
            ):
                return True
        return False

    def pattern_of(self, play: Play) -> Pattern | None:
        """The pattern ``play`` has under these rules (None for the rocket or a kind they lack)."""
        table = self._by_family.get((play.kind, play.size // play.chain))
        return table.pattern if table is not None else None

    def representatives(self, hand: Hand) -> list[Play]:
        """One play for each kind, shape and rank that ``hand`` can make.

        Who can answer a play depends on its kind, shape and rank alone, never
        on which kickers it carries, so these are the hand's distinct classes
        of answerability; each comes with its lowest choice of kickers.
        """
        counts = hand.counts
        found = []
        for table in self._tables:
            for chain, top in self._cores_in(counts, table, -1, 0):
                play = self._lowest(counts, table, chain, top)
                if play is not None:
                    found.append(play)
        if counts[BLACK_JOKER] and counts[RED_JOKER]:
            found.append(self._rocket)
        return found

    def strongest(self, hand: Hand, play: Play) -> Play | None:
        """The highest-ranked play in ``hand`` of the kind and shape of ``play``, if any."""
        counts = hand.counts
        if play.kind is Kind.ROCKET:
            return self._rocket if counts[BLACK_JOKER] and counts[RED_JOKER] else None
        table = self._by_family.get((play.kind, play.size // play.chain))
        if table is None:
            return None
        for chain, top in reversed(self._cores_in(counts, table, -1, play.chain)):
            found = self._lowest(counts, table, chain, top)
            if found is not None:
                return found
        return None

    def _lowest(self, counts: tuple[int, ...], table: _Table, chain: int, top: Rank) -> Play | None:
        """The play of one core with its lowest kickers, or None if no kickers fit."""
        if not table.kicker_size:
            return table.core(chain, top)
        choices: list[Play] = []
        self._add(choices, counts, table, chain, top)
        return choices[0] if choices else None

    # -- cores and kickers --------------------------------------------------

    def _cores_in(
        self, counts: tuple[int, ...], table: _Table, above: Rank, chain: int
    ) -> list[tuple[int, Rank]]:
        """(chain, top) of each core of ``table`` in ``counts`` ranked above ``above``.

        ``chain`` 0 means every allowed chain length, otherwise only that one.
        """
        width = table.width
        if table.max_chain == 1:
            return [(1, r) for r in range(above + 1, RANK_COUNT) if counts[r] >= width]
        shortest = chain or table.min_chain
        cores = []
        run = 0
        # Rule "sequences stay within 3..A": runs end at the highest chain rank.
        for top in range(self._highest + 1):
            run = run + 1 if counts[top] >= width else 0
            if run >= shortest and top > above:
                if chain:
                    cores.append((chain, top))
                else:
                    cores.extend((n, top) for n in range(shortest, run + 1))
        return cores

    def _eligible(self, counts: tuple[int, ...], table: _Table, low: Rank, top: Rank) -> list[Rank]:
        """Ranks that may give a kicker beside the core ``low..top``, once per kicker they can give.

        Rule "kickers differ from the core": the core's ranks give none; the
        rule set's limits (``kicker_limit``) say how many each other rank may.
        """
        size = table.kicker_size
        if table.distinct:  # the common case, kept fast: one kicker of a rank at most
            return [r for r in _RANKS if counts[r] >= size and (r < low or r > top)]
        limits = table.limits.get((low, top))
        if limits is None:
            pattern, rules = table.pattern, self.rules
            limits = tuple(kicker_limit(rules, pattern, low, top, r) for r in _RANKS)
            table.limits[(low, top)] = limits
        return [r for r in _RANKS for _ in range(min(limits[r], counts[r] // size))]

    def _add(
        self, found: list[Play], counts: tuple[int, ...], table: _Table, chain: int, top: Rank
    ) -> None:
        """Append the plays of one core: the core alone, or with each choice of kickers."""
        size = table.kicker_size
        if not size:
            found.append(table.core(chain, top))
            return
        eligible = self._eligible(counts, table, top - chain + 1, top)
        wanted = chain * table.wanted
        choices: Iterable[_Kickers] = combinations(eligible, wanted)
        if not table.distinct:
            choices = dict.fromkeys(choices)  # equal ranks give equal choices
        # Rule "never both jokers as kickers"; jokers sort last in a choice.
        skip_rocket = (
            size == 1
            and wanted > 1
            and not self._both_jokers
            and counts[BLACK_JOKER]
            and counts[RED_JOKER]
        )
        kicked = table.kicked_at(chain, top)
        for kickers in choices:
            if skip_rocket and kickers[-2] == BLACK_JOKER:
                continue
            play = kicked.get(kickers)
            found.append(play if play is not None else table.with_kickers(chain, top, kickers))

    def _kicker_room(self, counts: tuple[int, ...], table: _Table, chain: int, top: Rank) -> int:
        """How many kickers the hand can give this core at most: can_answer's kicker test."""
        eligible = self._eligible(counts, table, top - chain + 1, top)
        room = len(eligible)
        if table.kicker_size == 1 and not self._both_jokers:
            room -= max(0, eligible.count(BLACK_JOKER) + eligible.count(RED_JOKER) - 1)
        return room
