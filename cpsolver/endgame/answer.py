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

from cpsolver.endgame import solver
from cpsolver.endgame.budget import DEFAULT_MEMORY, MemoryBudget, OutOfMemory
from cpsolver.endgame.solver import OutOfTime, Search, State, state_of
from cpsolver.endgame.strategy import Strategy
from cpsolver.io.memory import peak_memory_mb
from cpsolver.io.positioncorpus import PositionDocument
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet

PASS = "pass"
Move = Play | str  # a play, or PASS


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
        return found

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
) -> EndgameResult:
    """Solve ``position`` exactly: who wins with best play by both sides.

    With ``all_moves``, every winning move of the player to move is found,
    each by solving the position it leads to. Same position, same answer.
    ``memory`` caps the process's resident bytes during the search (None: no
    cap; or a :class:`MemoryBudget` of one's own): at the cap the table evicts its oldest entries, which costs time,
    never exactness; ``stats`` counts the evictions. The verdict is None when
    ``time_limit`` runs out, or when eviction cannot keep the search under
    the cap (``stats["stopped"]`` says which).
    """
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    budget = memory if isinstance(memory, MemoryBudget) else MemoryBudget(memory)
    search = Search(position.players, rules, deadline, budget)
    root = state_of(search, position)
    mover = position.side_of(position.turn)
    try:
        mover_wins = search.wins(*root)
        moves = _winning_moves(search, root, all_moves) if mover_wins else []
    except (OutOfTime, OutOfMemory) as stop:
        stats = _stats(search, started)
        stats["stopped"] = "time" if isinstance(stop, OutOfTime) else "memory"
        return EndgameResult(position, None, stats=stats, known=_known_first_moves(search, root))
    solved = time.perf_counter()
    strategy = Strategy(search, root)
    stats = _stats(search, started)
    stats["search_seconds"] = round(solved - started, 6)
    stats["strategy_nodes"] = len(strategy.nodes)
    winner = mover if mover_wins else 1 - mover
    line = [(player, _move(search, move)) for player, move in strategy.line()]
    return EndgameResult(position, winner, moves, line, stats, strategy)


def _move(search: Search, move: solver.Move) -> Move:
    """A search's move as the library gives it: a play, or PASS."""
    return PASS if move == solver.PASS else search.play_of[move]


def _winning_moves(search: Search, root: State, all_moves: bool) -> list[Move]:
    """The winning moves at ``root`` (a won state): the one found, or all of them."""
    if not all_moves:
        entry = search.entry(root)
        assert entry is not None
        return [_move(search, entry[0] if isinstance(entry, tuple) else entry)]
    return [_move(search, move) for move in search.winning_moves(root)]


def _known_first_moves(search: Search, root: State) -> dict[str, int]:
    """The first moves whose positions the stopped search had settled, with their winners.

    It reads the table only (legal moves, successors, keys): nothing here
    searches, so neither the passed deadline nor the memory cap comes into it.
    """
    known: dict[str, int] = {}
    for move in search.legal(root):
        child = search.successor(root, move)
        if child is None:  # the move empties the hand: the mover's side has won
            known[str(_move(search, move))] = search.side[root[1]]
            continue
        entry = search.table.get(search.key(child), False)
        if entry is not False:
            mover = search.side[child[1]]
            known[str(_move(search, move))] = mover if entry is not None else 1 - mover
    return known


def _stats(search: Search, started: float) -> dict[str, Any]:
    return {
        "nodes": search.nodes,
        "table": len(search.table),
        "evictions": search.memory.evictions,
        "evicted": search.memory.evicted,
        "peak_memory_mb": peak_memory_mb(),
        "seconds": round(time.perf_counter() - started, 6),
    }


__all__ = ["PASS", "EndgameResult", "solve"]
