"""The open-hand search on the compiled core (``cpsolver.endgame._core``), where it was built.

The C search is :class:`cpsolver.endgame.solver.Search` step for step: the
same move generation order, move ordering, shortcuts and table keys, so it
searches the same nodes and reaches the same verdicts, only faster. The
Python search stays the reference it is tested against, and the fallback
where no C compiler built the core (``pip install`` goes on without it).

The rules reach the C code as data, the same tables the Python move
generator reads: each pattern's shape and the kicker limits of each core
(:func:`cpsolver.rules.patterns.kicker_limits`). The time limit and the
memory cap stay here: the C search calls :meth:`CompiledSearch._check_clock`
every 64 nodes, as the Python search does.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from types import ModuleType
from typing import TypeVar

from cpsolver.endgame.alone import AloneTree
from cpsolver.endgame.budget import MemoryBudget, OutOfMemory
from cpsolver.endgame.tree import ORDER_DEFAULT, Entry, Move, OutOfTime, Refuted, State, Write
from cpsolver.io.memory import resident_bytes
from cpsolver.rules.cards import RANK_COUNT
from cpsolver.rules.movegen import generator
from cpsolver.rules.patterns import Kind, pattern_tables, patterns
from cpsolver.rules.plays import Play, lazy_play, rocket
from cpsolver.rules.ruleset import RuleSet

_core: ModuleType | None
try:
    from cpsolver.endgame import _core  # type: ignore[attr-defined, no-redef]
except ImportError:  # built without a C compiler: the Python search does the work
    _core = None
if _core is not None and not hasattr(_core, "Core"):  # a folder of that name, not the extension
    _core = None

# Bytes of one slot of the C table (three words of key, one of value, a byte of tag); the table
# grows past three quarters full, fourfold below _GROW_FOURFOLD slots (tables.h's), else twofold.
_SLOT_BYTES = 33
_GROW_FOURFOLD = 1 << 16
# The characters of proof text the C writer gathers before handing them on: a full deal's
# proof is gigabytes of text, written as it is walked rather than held whole.
TEXT_PIECE = 1 << 22


def available() -> bool:
    """Whether the compiled core was built and loads."""
    return _core is not None


def table_bound(cap: int) -> int:
    """The most entries the C table holds under a memory cap of ``cap`` bytes.

    Half the cap goes to the table, the rest to the caches of hands beside
    it and to the moment a table grows (old and new both held).
    """
    slots = 1024
    while _grown(slots) * _SLOT_BYTES <= cap // 2:
        slots = _grown(slots)
    return slots * 3 // 4 - 1


def _grown(slots: int) -> int:
    """The slots of a C map that outgrew ``slots``: fourfold while small, then twofold."""
    return slots * (4 if slots < _GROW_FOURFOLD else 2)


_Answer = TypeVar("_Answer")


def _weakly(method: Callable[[], _Answer | None]) -> Callable[[], _Answer | None]:
    """``method``, called through a weak reference to its search (None once it is gone).

    The core and the memory budget hold these callbacks and the search holds
    them: strong references would make each search a cycle, freed (with its
    whole table) only when the collector next runs, not when its last user lets go.
    """
    ref = weakref.WeakMethod(method)

    def call() -> _Answer | None:
        bound = ref()
        return None if bound is None else bound()

    return call


class CompiledSearch(AloneTree):
    """:class:`cpsolver.endgame.solver.Search`'s questions, answered by the compiled core."""

    def __init__(
        self,
        players: int,
        rules: RuleSet | None = None,
        deadline: float | None = None,
        memory: MemoryBudget | None = None,
    ) -> None:
        if _core is None:
            raise RuntimeError("the compiled core was not built (no C compiler at install)")
        self.rules = generator(rules).rules
        self.players = players
        self.memory = MemoryBudget(None) if memory is None else memory
        self.side = [0] + [1] * (players - 1)
        self._clock_reads = 0
        self._patterns = patterns(self.rules)
        self._pattern_of = {(p.kind, p.link_size): i for i, p in enumerate(self._patterns)}
        self._core = _core.Core(
            players,
            pattern_tables(self.rules),
            self.rules.highest_chain_rank,
            self.rules.both_jokers_as_kickers,
            _weakly(self._check_clock),
        )
        self._built: dict[Move, Play] = {}
        if self.memory.cap is not None:
            self._core.bound(table_bound(self.memory.cap))
        if self.memory.resident is resident_bytes:
            # The cap is on this search's memory: what it holds, counted to the byte,
            # or what the process grew by since it began (the allocator's slack), if more.
            # Memory that earlier work left with the process does not count.
            self._baseline = resident_bytes() or 0
            self.memory.resident = _weakly(self.footprint)
        self.deadline = deadline

    @property
    def deadline(self) -> float | None:
        """When the search gives up (``time.perf_counter()``), or None."""
        return self._deadline

    @deadline.setter
    def deadline(self, deadline: float | None) -> None:
        # The C code reads its own clock during long work on one hand: tell it too.
        self._deadline = deadline
        self._core.clock(None if deadline is None else deadline - time.perf_counter())

    @property
    def core(self) -> str:
        """Which core searches."""
        return "compiled"

    @property
    def nodes(self) -> int:
        """Positions searched so far."""
        return int(self._core.nodes)

    @nodes.setter
    def nodes(self, value: int) -> None:
        raise AttributeError("the compiled core counts its own nodes")

    @property
    def carried(self) -> int:
        """Plays not tried, a lower play's refutation carried to them (carried.py)."""
        return int(self._core.carried)

    @carried.setter
    def carried(self, value: int) -> None:
        raise AttributeError("the compiled core counts what it carries")

    @property
    def table_size(self) -> int:
        """How many positions the table holds."""
        return int(self._core.size)

    def held_bytes(self) -> int:
        """The bytes the C search holds now: every table, cache and list it allocated."""
        held, _ = self._core.bytes
        return int(held)

    def footprint(self) -> int:
        """This search's memory as its cap reads it, with room for its next growth.

        What it holds, plus the most that one of its tables or lists could add
        by growing (the new block, the old one held until it is filled), or
        what the process grew by since the search began, if more.
        """
        held, growth = self._core.bytes
        grown = (resident_bytes() or 0) - self._baseline
        return max(int(held) + int(growth), grown)

    @property
    def evictions(self) -> tuple[int, int]:
        """(evictions, entries evicted) so far: the table's own, and the memory cap's."""
        evictions, evicted = self._core.evictions
        return int(evictions), int(evicted)

    def wins(self, hands: tuple[int, ...], turn: int, table: Move, by: int) -> bool:
        """Whether the side of ``turn`` wins from this state with best play by both sides."""
        try:
            return bool(self._core.wins(hands, turn, table, by))
        except TimeoutError:  # the C clock ran out during long work on one hand
            raise OutOfTime from None

    def settle(self, state: State) -> bool:
        """:meth:`wins`, keeping every result found, however cheap."""
        try:
            return bool(self._core.wins(*state, True))
        except TimeoutError:
            raise OutOfTime from None

    def settle_won(self, state: State) -> None:
        """Search a state whose side to move is known to win, narrowest first (in C)."""
        try:
            self._core.settle_won(*state)
        except TimeoutError:
            raise OutOfTime from None

    def proves(
        self,
        hands: tuple[int, ...],
        turn: int,
        table: Move,
        by: int,
        prover: int,
        width: int,
        resume: bool = False,
        order: int = ORDER_DEFAULT,
    ) -> int:
        """Whether side ``prover`` wins trying only its first ``width`` moves at each of its nodes."""
        try:
            return int(self._core.proves(hands, turn, table, by, prover, width, resume, order))
        except TimeoutError:
            raise OutOfTime from None

    def strategy_text(
        self, root: State, symbols: str, play_text: Callable[[Move], str], write: Write
    ) -> bool:
        """Hand ``write`` the won root's strategy as a proof's nodes, JSON a node a line,
        written in C, in pieces of about :data:`TEXT_PIECE` characters."""
        try:
            self._core.strategy_text(*root, symbols, play_text, write, TEXT_PIECE)
        except TimeoutError:
            raise OutOfTime from None
        return True

    def strategy_line(self, root: State) -> tuple[int, list[tuple[int, Move]]]:
        """The winning strategy's size in nodes and its principal line, walked in C."""
        try:
            size, line = self._core.strategy_line(*root)
        except TimeoutError:
            raise OutOfTime from None
        except MemoryError:  # the walk's memo outgrew the table's bound
            raise OutOfMemory from None
        return int(size), list(line)

    def unoutranked(
        self, moves: list[Move], hand: int, opponents: tuple[int, ...], partner: int, table: Move
    ) -> list[Move]:
        """``moves`` (no pass) less the plays of one rank's cards that the same play of a
        lower rank is worth as much as (:mod:`cpsolver.endgame.kickers`; partner 0: none)."""
        return list(self._core.unoutranked(hand, moves, opponents, partner, table))

    def lone_group(self, hand: int, move: Move) -> int:
        """A play of all the hand's cards of one rank and nothing else: its rank, else -1."""
        return int(self._core.lone_group(hand, move))

    def carries(self, hand: int, refuted: list[Refuted], rank: int, width: int) -> bool:
        """Whether a refutation in ``refuted`` carries to the lone play of ``width`` cards of
        ``rank`` from ``hand`` (in C, as the compiled search asks it)."""
        return bool(self._core.carries(hand, refuted, rank, width))

    def carried_to(self, child: State, mover: int, width: int) -> int:
        """The rank below which the answer in ``child`` beats such lone plays too (in C)."""
        return int(self._core.carried_to(*child, mover, width))

    def lookup(self, state: State) -> Entry | bool:
        """What the table holds for a state: its entry, or False where nothing is kept."""
        found: Entry | bool = self._core.lookup(*state)
        return found

    def fresh(self, players: int, memory: MemoryBudget) -> CompiledSearch:
        """A new compiled search of the same rules, with a table of its own."""
        return CompiledSearch(players, self.rules, None, memory)

    def store(self, state: State, move: Move | None, nodes: int) -> None:
        """Keep a result found outside this search."""
        self._core.store(*state, move, nodes)

    def plays(self, hand: int) -> list[Move]:
        """Every play in a packed hand."""
        return list(self._core.plays(hand))

    def answers(self, hand: int, play: Move) -> list[Move]:
        """Every play in a packed hand that beats play ``play``."""
        return list(self._core.answers(hand, play))

    def answerable(self, hand: int, play: Move) -> bool:
        """Whether a packed hand holds a play that beats play ``play``: the test the search's
        shortcuts make of every play, without listing the answers."""
        return bool(self._core.answerable(hand, play))

    def cards(self, move: Move) -> int:
        """The packed cards of a play by its number."""
        return int(self._core.cards(move))

    def play(self, move: Move) -> Play:
        """The rules core's play of a number, built once."""
        found = self._built.get(move)
        if found is None:
            found = self._built[move] = self._build(move)
        return found

    def ordered(self, hand: int, table: Move, alone: bool = False) -> list[Move]:
        """The plays (on lead) or the answers to ``table``, in the order the search tries them;
        with ``alone``, less the kickers a player without a partner never needs."""
        try:
            return list(self._core.ordered(hand, table, alone))
        except TimeoutError:
            raise OutOfTime from None

    def index(self, play: Play) -> Move:
        """The number of a play in the C table, given on first sight."""
        if play.kind is Kind.ROCKET:
            pattern = -1
        else:
            pattern = self._pattern_of[(play.kind, play.size // play.chain)]
        cards = sum(count << (4 * r) for r, count in enumerate(play.cards.counts))
        return int(self._core.intern(pattern, play.rank, play.chain, cards))

    def _build(self, move: Move) -> Play:
        """The rules core's play of a number in the C table."""
        pattern_number, top, chain, cards = self._core.play(move)
        if pattern_number < 0:
            return rocket()
        pattern = self._patterns[pattern_number]
        low = top - chain + 1
        kickers: list[int] = []
        if pattern.kicker_size:
            for rank in range(RANK_COUNT):
                count = (cards >> (4 * rank)) & 0xF
                if low <= rank <= top:
                    count -= pattern.width
                kickers += [rank] * (count // pattern.kicker_size)
        play = lazy_play(
            pattern.kind, top, chain, tuple(kickers), (pattern.width, pattern.kicker_size)
        )
        assert sum(count << (4 * r) for r, count in enumerate(play.cards.counts)) == cards
        return play

    def _check_clock(self) -> float | None:
        """Called by the C search every 64 nodes: the deadline and the memory cap.

        Returns the seconds left, which the C code reads its own clock
        against during long work on one hand.
        """
        if self._read_clock():
            self._core.evict(self.memory.keep())
        return None if self.deadline is None else self.deadline - time.perf_counter()
