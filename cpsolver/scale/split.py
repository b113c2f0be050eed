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

A player alone (the landlord) whose lone play of a rank lost loses with the
lone play of a higher rank too where the worker's refutation carries to it
(:mod:`cpsolver.endgame.carried`), as one search's split does: the worker
that refuted the lower play says how far its answer carries, and each higher
play it carries to is settled as lost, given to no worker (one already on it
is not waited for).

All workers share one deadline. A move whose position runs out of time
leaves the verdict unknown only if no other move wins. Tasks go out one a
worker, as workers come free; once every root move is given out, a free
worker takes the moves after an unsettled one (:mod:`cpsolver.scale.sharing`).

Each worker keeps its search, and the search's table, from one move to the
next of the same run: the positions after two first moves share much of their
game (the landlord's 5 and its 6 meet again once both are played), and one
search's table is what makes it fast. A run's end frees them
(:meth:`cpsolver.scale.parallel.Runner.everywhere`).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from cpsolver.endgame.alone import AloneTree
from cpsolver.endgame.answer import EndgameResult, core_name, new_search
from cpsolver.endgame.budget import MemoryBudget, OutOfMemory
from cpsolver.endgame.solver import PASS as SEARCH_PASS
from cpsolver.endgame.solver import state_of
from cpsolver.endgame.tree import OutOfTime, Refuted, Tree
from cpsolver.io.positionformat import position_as_dict, position_from_dict
from cpsolver.io.rulefiles import rules_from_toml
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet
from cpsolver.scale.parallel import Runner
from cpsolver.scale.sharing import Branch, Sharing

PASS = "pass"


@dataclass(frozen=True)
class _Child:
    """One position's question, as a worker gets it: plain data, no solver objects."""

    position: dict[str, Any]
    rules_toml: str
    rules_source: str
    deadline: float | None  # time.time(): one clock for every process
    memory: int | None
    core: str
    run: str  # the run's own name: a worker keeps its search for the run's moves
    branch: int = 0  # its position's number in the run's tree (:mod:`cpsolver.scale.sharing`)
    carried: int = 0  # its move's cards, a lone play the run would carry a refutation of; 0: none


@dataclass
class _Kept:
    run: str
    search: Tree


_kept: _Kept | None = None  # this process's search, kept for the next move of the same run
_kept_lock = threading.Lock()  # one task at a time uses it (a Dask worker may run several)


_ended: deque[str] = deque(maxlen=64)  # runs that ended here: their late tasks keep no search


def forget_search(run: str | None = None) -> None:
    """Free the search this process kept for ``run`` (None: for any run).

    A task of ``run`` still searching with it stops at its next read of the
    clock, and a task of ``run`` that starts later keeps no search: once a
    run has its answer, the tasks it gave out and no longer needs end soon
    and hold nothing (a Dask worker cannot be made to drop a running task).
    """
    global _kept
    if run is not None:
        _ended.append(run)
    kept = _kept
    if kept is not None and (run is None or kept.run == run):
        kept.search.deadline = 0.0  # past: the search stops where it stands
        _kept = None


def _drop(search: Tree) -> None:
    """Keep ``search`` no longer (it stopped at a limit, mid-question)."""
    global _kept
    if _kept is not None and _kept.search is search:
        _kept = None


@contextmanager
def _search_for(child: _Child, players: int, rules: RuleSet) -> Iterator[Tree]:
    """The search this process keeps for the child's run (a fresh one, not kept, where
    another task holds it)."""
    global _kept

    def fresh() -> AloneTree:
        search = new_search(players, rules, None, MemoryBudget(child.memory), child.core)
        search.reads_alone = False  # a worker reads no strategy out: nothing to keep for it
        return search

    if child.run in _ended or not _kept_lock.acquire(blocking=False):
        yield fresh()
        return
    try:
        if _kept is None or _kept.run != child.run:
            _kept = None  # the last run's table goes before this one's grows
            _kept = _Kept(child.run, fresh())
        yield _kept.search
    finally:
        _kept_lock.release()


def _solve_child(child: _Child) -> tuple[int | None, int, int, int]:
    """(the side that wins the child's position or None, nodes searched, the child's branch,
    and the rank to which the refutation of the move into it carries, -1 where none)."""
    rules = rules_from_toml(child.rules_toml, child.rules_source)
    position = position_from_dict(child.position, rules)
    left = None if child.deadline is None else child.deadline - time.time()
    if left is not None and left <= 0:
        return None, 0, child.branch, -1
    with _search_for(child, position.players, rules) as search:
        search.deadline = None if left is None else time.perf_counter() + left
        before = search.nodes
        try:
            # Unsplit, as one search decides each of its first moves when it splits; the
            # peasants in one order: on two workers, full deals took half the time they
            # took with both (the speed page's #2 and #9).
            mover_wins, _ = search.decide(
                state_of(search, position), split=False, second_order=False
            )
        except (OutOfTime, OutOfMemory):
            _drop(search)
            return None, search.nodes - before, child.branch, -1
        mover = position.side_of(position.turn)
        winner = mover if mover_wins else 1 - mover
        carried = _carried_to(search, position, winner, child.carried)
    return winner, search.nodes - before, child.branch, carried


def _carried_to(search: Tree, position: Position, winner: int, cards: int) -> int:
    """Below which rank the answer that refuted the lone play of ``cards`` cards on
    ``position``'s table beats the same play of a higher rank too
    (:meth:`cpsolver.endgame.carried.Carried.carried_to`); -1 where the play won, or the
    run asks nothing (``cards`` 0)."""
    by = position.by
    if not cards or by is None or winner == position.side_of(by):
        return -1
    return search.carried_to(search.past_forced_passes(state_of(search, position)), by, cards)


def first_moves(
    position: Position, rules: RuleSet, all_moves: bool = False, core: str = "auto"
) -> list[Play | None]:
    """The first moves ``solve_split`` gives its workers (None: the pass).

    With ``all_moves``, every legal move; else those the search tries, in its order.
    """
    if all_moves:
        return list(generator(rules).moves(position.hands[position.turn], position.table))
    return _tried(new_search(len(position.hands), rules, core=core), position)


def _tried(search: Tree, position: Position) -> list[Play | None]:
    """The moves ``search`` tries at ``position``, in its order (None: the pass)."""
    return [
        None if move == SEARCH_PASS else search.play(move)
        for move in search.tried_moves(state_of(search, position))
    ]


@dataclass
class SplitResult:
    """The verdict of a position solved move by move: the winner, its winning moves, the work,
    and what was learnt of each first move."""

    position: Position
    winner: int | None
    moves: list[str]
    decided: int  # root moves whose positions were decided
    total: int  # root moves
    stats: dict[str, Any] = field(default_factory=dict)
    known: dict[str, int] = field(default_factory=dict)  # a move decided: the side that wins
    unresolved: list[str] = field(default_factory=list)  # the rest, in the search's order

    def result(self) -> EndgameResult:
        """The answer as one search gives it (no line: that needs one search): with no
        verdict, the first moves settled and those not, most promising first."""
        known, unresolved = (self.known, self.unresolved) if self.winner is None else ({}, [])
        return EndgameResult(
            self.position,
            self.winner,
            list(self.moves),
            [],
            self.stats,
            known=dict(known),
            unresolved=list(unresolved),
        )


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
    run = uuid.uuid4().hex
    orders = new_search(len(position.hands), rules, core=core)  # the moves, in its order
    tried = _tried(orders, position)
    sharing = Sharing(lambda at: _tried(orders, at))
    plays = first_moves(position, rules, True) if all_moves else tried
    roots = [sharing.add_root_move(_name(play), position.after(play), mover) for play in plays]
    carrying = _Carrying(orders, position, dict(zip(roots, plays, strict=True)))

    def done() -> bool:
        return all(root.winner is not None for root in roots) or (
            not all_moves and any(root.winner == mover for root in roots)
        )

    def task(branch: Branch) -> _Child:
        assert branch.position is not None  # settled at once where the move empties the hand
        return _Child(
            position_as_dict(branch.position, rules),
            *rules_text,
            deadline,
            memory,
            core,
            run,
            branch.number,
            carrying.cards(branch),
        )

    def tasks() -> Iterator[_Child]:
        for branch in roots:
            if branch.winner is None:
                sharing.give(branch)
                yield task(branch)
        # Every root move given out: a free worker takes a move after an unsettled one.
        while deadline is None or time.time() < deadline:
            stolen = sharing.steal()
            if stolen is None:
                return
            yield task(stolen)

    nodes = 0
    if not done():
        try:
            for winner, searched, number, carried in runner.run(
                _solve_child, tasks(), per_worker=1
            ):
                nodes += searched
                branch = sharing.branches[number]
                sharing.settle(branch, winner)
                if winner is not None and winner != mover:
                    for root in carrying.refuted(branch, carried, roots):
                        sharing.settle(root, winner)
                if done():
                    break
        finally:
            runner.everywhere(partial(forget_search, run))
    known = {root.root_move: root.winner for root in roots if root.winner is not None}
    winning = [move for move, side in known.items() if side == mover]
    decided = len(known)
    if winning:
        verdict: int | None = mover
    elif decided == len(roots):
        verdict = 1 - mover
    else:
        verdict = None  # no winning move found, and some moves undecided
    stats = {
        "core": core,
        "nodes": nodes,
        "root_moves": len(roots),
        "root_moves_decided": decided,
        "tasks": sum(branch.given for branch in sharing.branches),
        "carried": carrying.count,
        "seconds": round(time.perf_counter() - started, 6),
    }
    # The search's order first: with every legal move given out, the moves it leaves out last.
    rank = {_name(play): index for index, play in enumerate(tried)}
    unresolved = sorted(
        (root.root_move for root in roots if root.root_move not in known),
        key=lambda move: rank.get(move, len(rank)),
    )
    return SplitResult(position, verdict, winning, decided, len(roots), stats, known, unresolved)


class _Carrying:
    """Which of the root's lone plays the refutations of lower ones carry to (see the module).

    A play is a root move of a player alone taking every card of one rank (a
    single, pair or triplet: :meth:`cpsolver.endgame.packed.PackedRules.lone_group`).
    """

    def __init__(self, search: Tree, position: Position, plays: dict[Branch, Play | None]):
        self.search = search
        self.hand = state_of(search, position)[0][position.turn]
        self.count = 0  # root moves settled so
        self._lone: dict[Branch, tuple[int, int]] = {}  # a lone play's rank and cards
        self._refuted: list[Refuted] = []
        if not search.alone(position.turn):
            return
        for branch, play in plays.items():
            rank, cards = (
                (-1, 0) if play is None else search.lone_play(self.hand, search.index(play))
            )
            if rank >= 0:
                self._lone[branch] = (rank, cards)

    def cards(self, branch: Branch) -> int:
        """The cards of ``branch``'s lone play, whose refutation its worker is asked to carry
        (0: not a lone root move of a player alone)."""
        lone = self._lone.get(branch)
        return 0 if lone is None else lone[1]

    def refuted(self, branch: Branch, above: int, roots: list[Branch]) -> list[Branch]:
        """``branch`` lost, its worker's answer beating the same play below rank ``above``:
        the ``roots`` not yet settled whose lone plays lose so too (counted)."""
        lone = self._lone.get(branch)
        if lone is None or above <= lone[0] + 1:
            return []
        self._refuted.append((lone[0], lone[1], above))
        carried = [
            root
            for root in roots
            if root.winner is None
            and root in self._lone
            and self.search.carries(self.hand, self._refuted, *self._lone[root])
        ]
        self.count += len(carried)
        return carried


def _name(play: Play | None) -> str:
    """A first move as the workers' tasks and the answer name it."""
    return PASS if play is None else str(play)
