"""One open-hand position over every core: each move of the player to move solved apart.

The side to move wins exactly when one of its moves leads to a position its
side wins, so the root's moves are independent questions: each goes to a
worker (a local process pool or a Dask cluster, :mod:`cpsolver.scale.parallel`),
which solves the position after it with the exact solver. Without
``all_moves`` the run stops at the first winning move found; with it, every
move is decided and the winning ones are listed, as ``endgame --all`` does.

Without ``all_moves`` the moves are those the search itself tries, in its
order (:meth:`cpsolver.endgame.tree.Tree.tried_moves`): the winning move is
usually among the first, and the plays left out (a needless kicker, a play a
lower one is worth as much as) are each worth no more than one kept, so when
every move kept loses, so does every move.

All workers share one deadline. A move whose position runs out of time
leaves the verdict unknown only if no other move wins.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from cpsolver.endgame import solve
from cpsolver.endgame.answer import core_name, new_search
from cpsolver.endgame.solver import PASS as SEARCH_PASS
from cpsolver.endgame.solver import state_of
from cpsolver.io.positionformat import position_as_dict, position_from_dict
from cpsolver.io.rulefiles import rules_from_toml
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet
from cpsolver.scale.parallel import Runner

PASS = "pass"


@dataclass(frozen=True)
class _Child:
    """One root move's question, as a worker gets it: plain data, no solver objects."""

    move: str
    position: dict[str, Any] | None  # None: the move empties the hand, a win at once
    rules_toml: str
    rules_source: str
    deadline: float | None  # time.time(): one clock for every process
    memory: int | None
    core: str


def _solve_child(child: _Child) -> tuple[str, int | None, int]:
    """(move, the side that wins after it or None, nodes searched)."""
    if child.position is None:
        return child.move, -1, 0  # the mover is out: its side has won
    rules = rules_from_toml(child.rules_toml, child.rules_source)
    position = position_from_dict(child.position, rules)
    left = None if child.deadline is None else child.deadline - time.time()
    if left is not None and left <= 0:
        return child.move, None, 0
    # Unsplit, as one search decides each of its first moves when it splits (Tree.decide).
    result = solve(
        position, rules, left, memory=child.memory, core=child.core, strategy=False, split=False
    )
    return child.move, result.winner, int(result.stats["nodes"])


def first_moves(
    position: Position, rules: RuleSet, all_moves: bool = False, core: str = "auto"
) -> list[Play | None]:
    """The first moves ``solve_split`` gives its workers (None: the pass).

    With ``all_moves``, every legal move; else those the search tries, in its order.
    """
    if all_moves:
        return list(generator(rules).moves(position.hands[position.turn], position.table))
    search = new_search(len(position.hands), rules, core=core)
    return [
        None if move == SEARCH_PASS else search.play(move)
        for move in search.tried_moves(state_of(search, position))
    ]


@dataclass
class SplitResult:
    """The verdict of a position solved move by move: the winner, its winning moves, the work."""

    position: Position
    winner: int | None
    moves: list[str]
    decided: int  # root moves whose positions were decided
    total: int  # root moves
    stats: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The JSON of ``cpsolver endgame --workers N --json``."""
        return {"winner": self.winner, "moves": self.moves, "line": [], "stats": self.stats}


def solve_split(
    position: Position,
    rules: RuleSet,
    rules_text: tuple[str, str],
    runner: Runner,
    time_limit: float | None = None,
    all_moves: bool = False,
    memory: int | None = None,
    core: str = "auto",
) -> SplitResult:
    """Solve ``position`` one root move a task on ``runner``; ``rules_text`` is (TOML, source).

    ``core`` is the open-hand core each worker searches on (see
    :func:`cpsolver.endgame.answer.core_name`), chosen here so that a
    missing compiled core is said once, before any worker starts.
    """
    started = time.perf_counter()
    core = core_name(core)
    deadline = None if time_limit is None else time.time() + time_limit
    mover = position.side_of(position.turn)
    children = []
    for play in first_moves(position, rules, all_moves, core):
        after = position.after(play)
        children.append(
            _Child(
                PASS if play is None else str(play),
                None if after is None else position_as_dict(after, rules),
                *rules_text,
                deadline,
                memory,
                core,
            )
        )
    winning: list[str] = []
    decided = nodes = 0
    for move, winner, searched in runner.run(_solve_child, children):
        nodes += searched
        if winner is None:
            continue
        decided += 1
        if winner in (-1, mover):
            winning.append(move)
            if not all_moves:
                break
    order = {child.move: index for index, child in enumerate(children)}
    winning.sort(key=order.__getitem__)
    if winning:
        verdict: int | None = mover
    elif decided == len(children):
        verdict = 1 - mover
    else:
        verdict = None  # no winning move found, and some moves undecided
    stats = {
        "core": core,
        "nodes": nodes,
        "root_moves": len(children),
        "root_moves_decided": decided,
        "seconds": round(time.perf_counter() - started, 6),
    }
    return SplitResult(position, verdict, winning, decided, len(children), stats)
