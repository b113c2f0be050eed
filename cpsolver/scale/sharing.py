"""The moves a split position gives out to its workers, the root's first and deeper ones after.

A split (:mod:`cpsolver.scale.split`) gives each worker one of the root's
moves. When every one is given out and a worker is free, the work left is in
the moves still being solved, and the hardest of them holds the run up: on a
full deal one landlord lead can take minutes while the other workers, their
moves done, wait. So a free worker takes a move *after* the unsettled one
given out longest ago: the positions its own moves lead to, each a task of
its own (and, once those are all given out, the moves after those). They go
out last first: the worker on the unsettled position tries its moves in the
search's order, so one taking them from the other end duplicates the least
and, where any one move wins, tries the moves that one search would reach
last. Each answer settles what it can, up the tree: a move after which
the side to move wins settles its position for that side; a position whose
every move (as the search tries them) leads to the other side's win is
settled for the other side. The first answer for a position, from its own
task or from those below it, is the one kept: both are exact, so they agree.

Everything here runs in the one process that gives the tasks out; the tree
holds positions and plays, never a search's table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position

# The moves tried at a position, in the search's order (None: the pass).
MovesOf = Callable[[Position], list["Play | None"]]


@dataclass(eq=False)
class Branch:
    """A position of the split: where it is in the tree, and what is known of it."""

    number: int  # its place in :attr:`Sharing.branches`
    root_move: str  # the root's move above it (its own, for a root move)
    position: Position | None  # None: the move into it emptied the mover's hand
    parent: Branch | None  # None for the root's moves: the root is settled by the caller
    winner: int | None = None  # the side that wins here, once known
    stopped: bool = False  # its task came back without an answer (a limit): not split
    given: bool = False  # its position went to a worker (a root move's, or a stolen one)
    children: list[Branch] | None = None  # once split, in the search's order
    depth: int = 0  # moves below the root's own

    def live(self) -> bool:
        """Whether its answer is still wanted: neither it nor a position above it settled."""
        branch: Branch | None = self
        while branch is not None:
            if branch.winner is not None:
                return False
            branch = branch.parent
        return True


@dataclass
class Sharing:
    """The split's tree of positions, and which to give to a free worker next."""

    moves_of: MovesOf
    most_depth: int = 8  # moves below a root move a free worker may go to: no smaller tasks
    branches: list[Branch] = field(default_factory=list)
    _given: list[Branch] = field(default_factory=list)  # in the order they were given out

    def add_root_move(self, name: str, after: Position | None, side: int) -> Branch:
        """A root move (its name, the position after it, the side of the player making it),
        settled for that side at once where it empties the mover's hand."""
        return self._add(name, after, None, side, 0)

    def _add(
        self, name: str, after: Position | None, parent: Branch | None, side: int, depth: int
    ) -> Branch:
        branch = Branch(len(self.branches), name, after, parent, depth=depth)
        self.branches.append(branch)
        if after is None:  # out of cards: the mover has won
            self.settle(branch, side)
        return branch

    def give(self, branch: Branch) -> None:
        """Note that ``branch``'s position went to a worker."""
        branch.given = True
        self._given.append(branch)

    def settle(self, branch: Branch, winner: int | None) -> None:
        """A worker's answer for ``branch`` (None: it stopped at a limit), carried up the
        tree as far as it settles positions there."""
        if winner is None:
            branch.stopped = True
            return
        node: Branch | None = branch
        while node is not None and node.winner is None:
            node.winner = winner
            parent = node.parent
            if parent is None:
                return
            assert parent.position is not None and parent.children is not None
            mover = parent.position.side_of(parent.position.turn)
            if winner != mover and any(child.winner != winner for child in parent.children):
                return  # the mover may still win by another move
            node = parent  # the mover wins by this move, or loses by every move

    def steal(self) -> Branch | None:
        """The next position for a free worker, given out; None when nothing is left to give.

        It is a move after the unsettled position given out longest ago that
        has one left, the search's last first: the root moves' before the
        moves after those.
        """
        for branch in self._given:
            if branch.position is None or branch.stopped or branch.depth >= self.most_depth:
                continue
            if not branch.live():
                continue
            if branch.children is None:
                self._split(branch)
                if not branch.live():  # a move of its own empties the mover's hand
                    continue
            for child in reversed(branch.children or ()):
                if not child.given and child.winner is None:
                    self.give(child)
                    return child
        return None

    def _split(self, branch: Branch) -> None:
        """The positions ``branch``'s moves lead to, as branches below it."""
        position = branch.position
        assert position is not None
        mover = position.side_of(position.turn)
        branch.children = []
        for play in self.moves_of(position):
            after = position.after(play)
            branch.children.append(
                self._add(branch.root_move, after, branch, mover, branch.depth + 1)
            )
