"""Deciding a position by widening: each side's win sought among its first few moves, then all.

The plain search (:meth:`~cpsolver.endgame.tree.Tree.wins`) asks of every
node "does the side to move win?" and, when its first move fails, proves
that failure in full: the other side's whole winning strategy against it,
every reply of this side included. On three-player positions that is most
of the work: the move orderer's first choice is right about nine times in
ten, and each wrong one costs a proof of its own.

Widening asks a narrower question first. ``proves(state, prover, width)``
looks for a win of one side that tries only its first ``width`` moves at
each of its nodes, while answering every move of the other side: a win found
so is a real win (exact, and kept in the table), and a node where none of
those few moves wins is left open, cheaply, rather than refuted. Each side is
asked in turn at widths 1, 2, 3, 4 and 6; what both leave open, the full
search decides, reading every exact result the narrow ones stored.
"""

from __future__ import annotations

from cpsolver.endgame.tree import OPEN, PROVEN, State, Tree

# Chosen on the benchmark's 12/10/10 positions (``benchmarks/endgame.py --only mid3``).
WIDTHS = (1, 2, 3, 4, 6)


def decide(search: Tree, root: State) -> tuple[bool, int | None]:
    """Whether the side to move at ``root`` wins, and the width that decided it (None: the full search).

    Raises what the search raises at its limits (out of time, out of memory).
    """
    mover = search.side[root[1]]
    for width in WIDTHS:
        for prover in (mover, 1 - mover):
            found = search.proves(*root, prover, width)
            if found != OPEN:
                return (found == PROVEN) == (prover == mover), width
    return search.wins(*root), None
