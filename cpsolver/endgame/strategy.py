"""The winning side's strategy, read out of a finished search: a DAG of positions.

At each turn of the winning side it holds one move (or, on lead, a plan that
runs out); at each turn of the other side, one child for every legal reply,
pass included. Positions reached twice are one node. The proof document and
the principal line are both read from it.
"""

from __future__ import annotations

from dataclasses import dataclass

from cpsolver.endgame.tree import PASS, Move, Row, State, Tree

Edge = tuple[Move, "State | None"]  # a move and the state it leads to (None: the mover is out)


@dataclass(frozen=True)
class Node:
    """One position of the strategy: the winning side's move, its plan, or every reply."""

    state: State
    winning: bool  # whether the side to move is the winning side
    edges: tuple[Edge, ...]
    plan: tuple[Move, ...] = ()


class Strategy:
    """The strategy of the side that wins ``root``, read node by node from a search's table.

    Its nodes are built on first use (a proof needs them); its size and
    principal line come from the search itself where it can walk them
    faster (the compiled core), and from the nodes otherwise.
    """

    def __init__(self, search: Tree, root: State, limited: bool = False) -> None:
        self.search = search
        self.root = root
        self._nodes: dict[State, Node] | None = None
        self._depth: dict[State, int] = {}
        self._walked: tuple[int, list[tuple[int, Move]]] | None = None
        self._winner: int | None = None
        if not limited:
            self.unlimit()

    def unlimit(self) -> None:
        """From now on, reading out never gives up half-way: no deadline, no stop at the cap.

        A strategy made ``limited`` keeps the search's deadline and memory cap
        (OutOfTime, OutOfMemory) until this is called: on a full deal its size
        and line can cost more than the search did.
        """
        self.search.deadline = None
        self.search.memory.may_stop = False

    @property
    def nodes(self) -> dict[State, Node]:
        """Every position of the strategy, by state."""
        if self._nodes is None:
            nodes: dict[State, Node] = {}
            stack = [self.root]
            while stack:
                state = stack.pop()
                if state in nodes:
                    continue
                node = self._node(state)
                nodes[state] = node
                # Depth first, each node's children in move order, as the compiled core walks
                # them: a state the table lacks is searched where the walk meets it, and a
                # narrow question's cost depends on what was searched before it.
                stack.extend(reversed([child for _, child in node.edges if child is not None]))
            self._nodes = nodes
        return self._nodes

    def rows(self) -> list[Row]:
        """The strategy breadth first from the root, the order a proof lists it in.

        (A search that writes a proof's text itself, the compiled one, walks it there.)
        """
        order = [self.root]
        ids = {self.root: 0}
        rows: list[Row] = []
        for state in order:  # grows while it is walked
            node = self.nodes[state]
            edges: list[tuple[Move, int | None]] = []
            for move, child in node.edges:
                if child is not None and child not in ids:
                    ids[child] = len(order)
                    order.append(child)
                edges.append((move, None if child is None else ids[child]))
            rows.append((state, node.plan, tuple(edges)))
        return rows

    def size(self) -> int:
        """How many positions the strategy has."""
        walked = self._walk()
        return len(self.nodes) if walked is None else walked[0]

    def _walk(self) -> tuple[int, list[tuple[int, Move]]] | None:
        """The search's own walk of the strategy (size, line), where it has one."""
        if self._walked is None:
            self._walked = self.search.strategy_line(self.root)
        return self._walked

    @property
    def winner(self) -> int:
        """The side that wins the root."""
        if self._winner is None:
            mover = self.search.side[self.root[1]]
            self._winner = mover if self.search.entry(self.root) is not None else 1 - mover
        return self._winner

    def _node(self, state: State) -> Node:
        search = self.search
        # The losing side's states are never looked up, still less searched again: every
        # reply there is in the strategy, whatever the table holds (the C walk's walk_entry).
        losing = search.side[state[1]] != self.winner
        entry = None if losing else search.won_entry(state)  # searched first where not kept
        if entry is not None:
            if isinstance(entry, tuple):
                return Node(state, True, (), entry)
            return Node(state, True, ((entry, search.successor(state, entry)),))
        edges = tuple((move, search.successor(state, move)) for move in search.legal(state))
        return Node(state, False, edges)

    def depth(self, state: State | None) -> int:
        """Moves to the end of the game from ``state`` if the losing side resists longest."""
        if state is None:
            return 0
        found = self._depth.get(state)
        if found is None:
            node = self.nodes[state]
            if node.plan:
                found = self.search.players * (len(node.plan) - 1) + 1
            else:
                found = 1 + max(self.depth(child) for _, child in node.edges)
            self._depth[state] = found
        return found

    def line(self) -> list[tuple[int, Move]]:
        """A principal line to the end: the strategy's moves, and the longest resistance."""
        walked = self._walk()
        if walked is not None:
            return list(walked[1])
        played: list[tuple[int, Move]] = []
        state: State | None = self.root
        while state is not None:
            node = self.nodes[state]
            turn = state[1]
            if node.plan:
                for number, play in enumerate(node.plan):
                    played.append((turn, play))
                    if number < len(node.plan) - 1:
                        played.extend(
                            ((turn + k) % self.search.players, PASS)
                            for k in range(1, self.search.players)
                        )
                return played
            move, state = max(node.edges, key=lambda edge: self.depth(edge[1]))
            played.append((turn, move))
        return played
