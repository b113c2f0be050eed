"""The move generator: the plays in a hand, the answers to a play.

Generation works on rank counts: it finds each pattern's cores (runs of ranks
holding enough cards), then the kicker combinations left beside each core.
Plays are interned: each distinct play is built once per generator and handed
out again by lookup. A play is built lazily (:func:`~cpsolver.rules.plays.lazy_play`):
its kind, rank and chain at once, its cards on first use, so that a hand seen
for the first time costs little more than one seen before.

>>> [str(p) for p in answers(Hand.parse("3 5 99 KKKK"), Play.parse("8"))]
['9', 'K', 'KKKK']
>>> can_answer(Hand.parse("34567 TTT"), Play.parse("45678"))
False
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import cache
from itertools import combinations

from cpsolver.rules.cards import BLACK_JOKER, RANK_COUNT, RED_JOKER, TWO, Hand, Rank
from cpsolver.rules.movetables import Core, Kickers, PlayTable, shared_limits
from cpsolver.rules.plays import Kind, Pattern, Play, patterns, rocket
from cpsolver.rules.ruleset import RuleSet, standard_rules

_RANKS = range(RANK_COUNT)
# _ENDING_AT[top][n - 1] is the core (n, top): made once, sliced per hand.
_ENDING_AT = tuple(tuple((n, top) for n in range(1, top + 2)) for top in _RANKS)


class MoveGenerator:
    """Plays and answers under one rule set; get the shared one with :func:`generator`."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        limits = shared_limits(rules)
        self._tables = [PlayTable(p, rules, limits) for p in patterns(rules)]
        self._by_family = {(t.pattern.kind, t.pattern.link_size): t for t in self._tables}
        self._bomb = self._by_family[(Kind.BOMB, 4)]
        self._rocket = rocket()
        self._highest = rules.highest_chain_rank
        self._both_jokers = rules.both_jokers_as_kickers

    # -- public API ---------------------------------------------------------

    def plays(self, hand: Hand) -> list[Play]:
        """Every distinct play contained in ``hand``, in kind order."""
        counts = hand.counts
        # held[w]: the ranks holding at least w cards, low to high, in one pass.
        ones: list[Rank] = []
        twos: list[Rank] = []
        threes: list[Rank] = []
        fours: list[Rank] = []
        for rank, count in enumerate(counts):
            if count:
                ones.append(rank)
                if count > 1:
                    twos.append(rank)
                    if count > 2:
                        threes.append(rank)
                        if count > 3:
                            fours.append(rank)
        held: tuple[list[Rank], ...] = ([], ones, twos, threes, fours)
        found: list[Play] = []
        # Kinds with the same core shape (triplet chains, with singles, with pairs) share cores.
        runs: dict[tuple[int, int], list[Core]] = {}
        for table in self._tables:
            ranks = held[table.width]
            if not ranks:
                continue
            if table.max_chain == 1:
                if not table.kicker_size:
                    found += table.rank_plays(ranks)
                    continue
                cores = [_ENDING_AT[top][0] for top in ranks]
            else:
                key = (table.width, table.min_chain)
                if key not in runs:
                    runs[key] = self._runs(ranks, table.min_chain)
                cores = runs[key]
                if not cores:
                    continue
                if not table.kicker_size:
                    found += table.chain_plays(cores)
                    continue
            kicker_ranks = held[table.kicker_size]
            for core in cores:
                choices = self._choices(counts, kicker_ranks, table, core)
                if choices:
                    found += table.kicked_plays(core, choices)
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
            cores = self._cores_in(counts, table, play.rank, play.chain)
            if not table.kicker_size:
                found += self._bare(table, cores)
            elif cores:
                ranks = [r for r in _RANKS if counts[r] >= table.kicker_size]
                for core in cores:
                    choices = self._choices(counts, ranks, table, core)
                    if choices:
                        found += table.kicked_plays(core, choices)
        lowest_bomb = play.rank + 1 if kind is Kind.BOMB else 0
        found.extend(self._bomb.core(1, r) for r in range(lowest_bomb, TWO + 1) if counts[r] == 4)
        if counts[BLACK_JOKER] and counts[RED_JOKER]:
            found.append(self._rocket)
        return found

    def moves(self, hand: Hand, table: Play | None) -> list[Play | None]:
        """Every legal move of ``hand``: any play on lead (``table`` None), else an answer or a pass (None)."""
        if table is None:
            return list(self.plays(hand))
        return [*self.answers(hand, table), None]

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

        >>> [str(p) for p in generator().representatives(Hand.parse("333 45"))]
        ['3', '4', '5', '33', '333', '3334']
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
        """The highest-ranked play in ``hand`` of the kind and shape of ``play``, if any.

        >>> generator().strongest(Hand.parse("3 99 KKK A"), Play.parse("77"))
        Play.parse('KK')
        """
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

    def _lowest(
        self, counts: tuple[int, ...], table: PlayTable, chain: int, top: Rank
    ) -> Play | None:
        """The play of one core with its lowest kickers, or None if no kickers fit."""
        if not table.kicker_size:
            return table.core(chain, top)
        ranks = [r for r in _RANKS if counts[r] >= table.kicker_size]
        choices = self._choices(counts, ranks, table, (chain, top))
        return table.kicked_plays((chain, top), choices[:1])[0] if choices else None

    @staticmethod
    def _bare(table: PlayTable, cores: list[Core]) -> list[Play]:
        """The interned plays of bare cores of a table without kickers."""
        if not cores:
            return []
        if table.max_chain == 1:
            return table.rank_plays([top for _, top in cores])
        return table.chain_plays(cores)

    # -- cores and kickers --------------------------------------------------

    def _cores_in(
        self, counts: tuple[int, ...], table: PlayTable, above: Rank, chain: int
    ) -> list[Core]:
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
            if counts[top] >= width:
                run += 1
                if run >= shortest and top > above:
                    if chain:
                        cores.append((chain, top))
                    else:
                        cores += [(n, top) for n in range(shortest, run + 1)]
            else:
                run = 0
        return cores

    def _runs(self, ranks: list[Rank], shortest: int) -> list[Core]:
        """(chain, top) of every chain of at least ``shortest`` ranks among ``ranks`` (sorted)."""
        highest = self._highest
        cores: list[Core] = []
        run = 0
        previous = -2
        for top in ranks:
            # Rule "sequences stay within 3..A": runs end at the highest chain rank.
            if top > highest:
                break
            run = run + 1 if top == previous + 1 else 1
            previous = top
            if run >= shortest:
                cores += _ENDING_AT[top][shortest - 1 : run]
        return cores

    def _choices(
        self, counts: tuple[int, ...], ranks: list[Rank], table: PlayTable, core: Core
    ) -> list[Kickers]:
        """Every choice of kickers for the core ``(chain, top)``, low to high.

        ``ranks`` are the hand's ranks holding a kicker's worth of cards. Rule
        "kickers differ from the core": the core's ranks give none; the rule
        set's limits (``kicker_limits``) say how many each other rank may.
        """
        chain, top = core
        low = top - chain + 1
        wanted = chain * table.wanted
        if table.distinct:  # the common case, kept fast: one kicker of a rank at most
            # ranks is sorted and the core is a run: cut the run out.
            eligible = ranks[: bisect_left(ranks, low)] + ranks[bisect_right(ranks, top) :]
            choices = list(combinations(eligible, wanted))
        else:
            repeats = table.multiplicities(self.rules, counts, low, top)
            if wanted == 1:
                choices = [(r,) for r, n in enumerate(repeats) if n]
            elif wanted == 2:  # two kickers, the usual case: pairs of ranks, a rank with itself
                once = [r for r, n in enumerate(repeats) if n]
                choices = [
                    (r, s)
                    for i, r in enumerate(once)
                    for s in once[i + (repeats[r] < 2) :]  # (r, r) only where r may repeat
                ]
            else:
                eligible = [r for r in _RANKS for _ in range(repeats[r])]
                # Equal ranks give equal choices: keep the first of each, in order.
                choices = list(dict.fromkeys(combinations(eligible, wanted)))
        # Rule "never both jokers as kickers"; jokers sort last in a choice.
        if (
            table.kicker_size == 1
            and wanted > 1
            and not self._both_jokers
            and counts[BLACK_JOKER]
            and counts[RED_JOKER]
        ):
            choices = [kickers for kickers in choices if kickers[-2] != BLACK_JOKER]
        return choices

    def _kicker_room(self, counts: tuple[int, ...], table: PlayTable, chain: int, top: Rank) -> int:
        """How many kickers the hand can give this core at most: can_answer's kicker test."""
        low = top - chain + 1
        size = table.kicker_size
        if table.distinct:
            room = sum(1 for r in _RANKS if counts[r] >= size and (r < low or r > top))
            jokers = (counts[BLACK_JOKER] >= size) + (counts[RED_JOKER] >= size)
        else:
            repeats = table.multiplicities(self.rules, counts, low, top)
            room = sum(repeats)
            jokers = repeats[BLACK_JOKER] + repeats[RED_JOKER]
        if size == 1 and not self._both_jokers:
            room -= max(0, jokers - 1)
        return room


@cache
def generator(rules: RuleSet | None = None) -> MoveGenerator:
    """The (shared, interning) move generator of a rule set; standard by default."""
    return MoveGenerator(rules or standard_rules())


def plays(hand: Hand, rules: RuleSet | None = None) -> list[Play]:
    """Every distinct play contained in ``hand``.

    >>> [str(p) for p in plays(Hand.parse("3BR"))]
    ['3', 'B', 'R', 'BR']
    """
    return generator(rules).plays(hand)


def answers(hand: Hand, play: Play, rules: RuleSet | None = None) -> list[Play]:
    """Every play in ``hand`` that beats ``play``."""
    return generator(rules).answers(hand, play)


def can_answer(hand: Hand, play: Play, rules: RuleSet | None = None) -> bool:
    """Whether ``hand`` holds a play that beats ``play``: fast, for the solvers."""
    return generator(rules).can_answer(hand, play)
