"""Who wins an open-hand position, the winning moves, and a line of play to the end.

>>> from cpsolver.rules.position import Position
>>> result = solve(Position.parse(["KK 3", "QQ 4"]))
>>> result.winner, [str(m) for m in result.moves]
(0, ['KK'])
>>> [f"{player}:{move}" for player, move in result.line]
['0:KK', '1:pass', '0:3']
>>> solve(Position.parse(["KK 5", "AA"])).winner
1
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from cpsolver.endgame import compiled, solver
from cpsolver.endgame.alone import AloneTree
from cpsolver.endgame.budget import DEFAULT_MEMORY, MemoryBudget, OutOfMemory
from cpsolver.endgame.solver import OutOfTime, Search, State, state_of
from cpsolver.endgame.strategy import Strategy
from cpsolver.endgame.tree import Tree
from cpsolver.io.memory import peak_memory_mb
from cpsolver.io.positioncorpus import PositionDocument
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet

PASS = "pass"
Move = Play | str  # a play, or PASS
CORES = ("auto", "compiled", "python")


class CoreError(CpsolverError):
    """The compiled core was asked for where it was not built."""


def core_name(core: str = "auto") -> str:
    """The core a search will run on: ``compiled`` where it was built, else ``python``.

    ``auto`` takes the compiled core if there is one; ``compiled`` insists
    (:class:`CoreError` without it); ``python`` takes the reference search.
    """
    if core not in CORES:
        raise CoreError(f"unknown core {core!r} (known: {', '.join(CORES)})")
    if core == "compiled" and not compiled.available():
        raise CoreError(
            "the compiled core was not built (no C compiler when cpsolver was installed); "
            "use --core python, or reinstall with a C compiler"
        )
    if core == "auto":
        return "compiled" if compiled.available() else "python"
    return core


def new_search(
    players: int,
    rules: RuleSet | None = None,
    deadline: float | None = None,
    memory: MemoryBudget | None = None,
    core: str = "auto",
) -> AloneTree:
    """A fresh open-hand search on the chosen core (see :func:`core_name`)."""
    if core_name(core) == "compiled":
        return compiled.CompiledSearch(players, rules, deadline, memory)
    return Search(players, rules, deadline, memory)


@dataclass
class EndgameResult:
    """The answer for one position: the winning side, its moves, a line, statistics.

    ``winner`` is 0 for hand 0's side (the landlord, or the first player), 1
    for the other side, None when the time limit ran out. ``moves`` are the
    winning moves of the player to move (empty when its side loses): one, or
    every one with ``all_moves``. ``line`` is a principal line of play to the
    end, as (hand number, move) pairs: the winner's strategy against the
    longest resistance.
    """

    position: Position
    winner: int | None
    moves: list[Move] = field(default_factory=list)
    line: list[tuple[int, Move]] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    strategy: Strategy | None = field(default=None, repr=False)
    # With no verdict: the first moves the search had settled before it stopped,
    # each with the side that wins after it (what was learnt, not thrown away).
    known: dict[str, int] = field(default_factory=dict)
    # With no verdict: the first moves not yet settled, most promising first (the
    # search's own order, in which it was trying them), and that first one.
    unresolved: list[str] = field(default_factory=list)

    @property
    def mover_wins(self) -> bool | None:
        """Whether the side of the player to move wins (None: unknown)."""
        if self.winner is None:
            return None
        return self.winner == self.position.side_of(self.position.turn)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form printed by ``cpsolver endgame --json``."""
        found: dict[str, Any] = {
            "winner": self.winner,
            "moves": [str(m) for m in self.moves],
            "line": [{"hand": player, "move": str(move)} for player, move in self.line],
            "stats": self.stats,
        }
        if self.winner is None:
            found["known_first_moves"] = self.known
            found["unresolved_first_moves"] = self.unresolved
            found["most_promising"] = self.promising
        return found

    @property
    def promising(self) -> str | None:
        """With no verdict: the unsettled first move the search was trying, its best hope."""
        return self.unresolved[0] if self.unresolved else None

    def answer(self, document: PositionDocument | None = None) -> dict[str, Any]:
        """The whole answer of ``cpsolver endgame --json`` (and ``/api/endgame``).

        :meth:`as_dict`, after the ``id`` and the ``expected`` winner that a
        corpus line (``document``) carries.
        """
        labels: dict[str, Any] = {}
        if document is not None and document.id is not None:
            labels["id"] = document.id
        if document is not None and document.expected is not None:
            labels["expected"] = {"winner": document.expected}
        return {**labels, **self.as_dict()}


def solve(
    position: Position,
    rules: RuleSet | None = None,
    time_limit: float | None = None,
    all_moves: bool = False,
    memory: int | MemoryBudget | None = DEFAULT_MEMORY,
    core: str = "auto",
    strategy: bool = True,
    split: bool = True,
) -> EndgameResult:
    """Solve ``position`` exactly: who wins with best play by both sides.

    With ``all_moves``, every winning move of the player to move is found,
    each by solving the position it leads to. Same position, same answer.
    ``memory`` caps the process's resident bytes during the search (None: no
    cap; or a :class:`MemoryBudget` of one's own): at the cap the table evicts entries (the
    oldest in the Python search, those with the fewest nodes under them in the compiled
    one), which costs time, never exactness; ``stats`` counts the evictions. The verdict is None when
    ``time_limit`` runs out, or when eviction cannot keep the search under
    the cap (``stats["stopped"]`` says which). ``core`` picks the search:
    the compiled one where it was built (``auto``), or the Python reference
    (``python``); both give the same verdicts and moves, and ``stats["core"]``
    says which ran. With ``strategy`` off, the answer is the verdict and the
    winning moves alone: no line, no strategy to prove it with. Reading the
    winner's strategy out walks all of it (every reply of the losing side, to
    the end), which on a full deal can take longer than the search and more
    memory than its cap; a caller that wants only the verdict skips it. With
    it on, the reading out keeps to the same time limit and memory cap: a
    strategy too big for what is left comes back without its line and
    strategy, the verdict and moves still proven (``stats["strategy_stopped"]``
    says which limit it met). A position the narrow questions leave open is
    decided move by move (``Tree.decide``; ``stats["split"]`` counts the
    moves so decided), unless ``split`` is off.
    """
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    budget = memory if isinstance(memory, MemoryBudget) else MemoryBudget(memory)
    search = new_search(position.players, rules, deadline, budget, core)
    search.reads_alone = strategy
    root = state_of(search, position)
    mover = position.side_of(position.turn)
    try:
        mover_wins, width = search.decide(root, split)
        moves = _winning_moves(search, root, all_moves) if mover_wins else []
    except (OutOfTime, OutOfMemory) as stop:
        stats = _stats(search, started)
        stats["stopped"] = _limit_met(stop)
        known = _known_first_moves(search, root)
        unresolved = [m for m in _first_moves_in_order(search, root) if m not in known]
        return EndgameResult(position, None, stats=stats, known=known, unresolved=unresolved)
    solved, searched = time.perf_counter(), search.nodes
    winner = mover if mover_wins else 1 - mover
    read: Strategy | None = None
    walked: list[tuple[int, solver.Move]] = []
    extra: dict[str, Any] = {}
    if strategy:
        read = Strategy(search, root, limited=True)
        try:
            # The walk searches too (where a shortcut skipped): counted in the stats below.
            search.absorb_alone()
            extra["strategy_nodes"] = read.size()
            walked = read.line()
        except (OutOfTime, OutOfMemory) as stop:
            # The verdict is proven; its strategy is too big to read out in what is left.
            read, extra = None, {"strategy_stopped": _limit_met(stop)}
        else:
            read.unlimit()  # a proof read out of it later never gives up half-way
    stats = {
        **_stats(search, started),
        "search_seconds": round(solved - started, 6),
        "search_nodes": searched,  # before the strategy's walk, which may search more
        "width": width,
        "split": search.split_moves,
        **extra,
    }
    line = [(player, _move(search, move)) for player, move in walked]
    return EndgameResult(position, winner, moves, line, stats, read)


def _limit_met(stop: OutOfTime | OutOfMemory) -> str:
    """Which limit stopped a search or a reading out: ``time`` or ``memory``."""
    return "time" if isinstance(stop, OutOfTime) else "memory"


def _move(search: Tree, move: solver.Move) -> Move:
    """A search's move as the library gives it: a play, or PASS."""
    return PASS if move == solver.PASS else search.play(move)


def _winning_moves(search: Tree, root: State, all_moves: bool) -> list[Move]:
    """The winning moves at ``root`` (a won state): the one found, or all of them."""
    if not all_moves:
        entry = search.entry(root)
        assert entry is not None
        return [_move(search, entry[0] if isinstance(entry, tuple) else entry)]
    return [_move(search, move) for move in search.winning_moves(root)]


def _known_first_moves(search: Tree, root: State) -> dict[str, int]:
    """The first moves whose positions the stopped search had settled, with their winners.

    It reads the table only (legal moves, successors, keys): nothing here
    searches, so neither the passed deadline nor the memory cap comes into it.
    """
    return {str(_move(search, move)): side for move, side in search.move_winners(root).items()}


def _first_moves_in_order(search: Tree, root: State) -> list[str]:
    """The first moves in the search's own order; in the legal order if even that is out of
    time or memory (ordering a hand can search its splits, reading the clock and the gauge)."""
    search.deadline = None
    try:
        moves = search.ordered_moves(root)
    except (OutOfTime, OutOfMemory):  # a clock of the core's own that had run out; the cap
        moves = search.legal(root)
    return [str(_move(search, move)) for move in moves]


def _stats(search: AloneTree, started: float) -> dict[str, Any]:
    return {
        "core": search.core,
        "nodes": search.nodes,
        "carried": search.carried,
        "alone": search.alone_settled,
        "alone_nodes": search.alone_nodes,
        "table": search.table_size,
        "evictions": search.evictions[0],
        "evicted": search.evictions[1],
        "peak_memory_mb": peak_memory_mb(),
        "seconds": round(time.perf_counter() - started, 6),
    }


__all__ = ["CORES", "PASS", "CoreError", "EndgameResult", "core_name", "new_search", "solve"]
