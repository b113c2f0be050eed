"""Strategy proofs: the winning side's strategy as a JSON document anyone can re-check.

The document (``schemas/strategy.schema.json``) names the rules, the position
and the winning side, and lists the strategy's nodes, the position's first.
Each node is a position and either the winning side's ``move``, a ``spring``
plan that runs out from the lead, or the other side's ``replies``: every
legal one, each with the node it leads to (``next``; null where the mover is
out of cards). ``cpsolver verify`` checks it with the rules core alone.
"""

from __future__ import annotations

from typing import Any

from cpsolver.endgame.answer import EndgameResult
from cpsolver.endgame.packed import unpack
from cpsolver.endgame.strategy import Edge
from cpsolver.endgame.tree import NO_TABLE, PASS, State, Tree
from cpsolver.io.positionformat import position_as_dict
from cpsolver.rules.cards import rank_symbol
from cpsolver.rules.plays import Play
from cpsolver.rules.ruleset import RuleSet

FORMAT = "cpsolver-strategy"
VERSION = 1


def build_strategy_proof(result: EndgameResult, rules: RuleSet) -> dict[str, Any]:
    """The proof document of a solved position's strategy."""
    strategy = result.strategy
    if strategy is None or result.winner is None:
        raise ValueError("only a solved position has a strategy to prove")
    order = [strategy.root]
    ids = {strategy.root: 0}
    nodes: list[dict[str, Any]] = []
    for state in order:  # grows while it is walked: breadth first from the root
        node = strategy.nodes[state]
        for _, child in node.edges:
            if child is not None and child not in ids:
                ids[child] = len(order)
                order.append(child)
        search = strategy.search
        entry = _position(search, state)
        if node.plan:
            entry["spring"] = [_play(search.play(p)) for p in node.plan]
        elif node.winning:
            entry["move"] = _edge(search, node.edges[0], ids)
        else:
            entry["replies"] = [_edge(search, edge, ids) for edge in node.edges]
        nodes.append(entry)
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": {"name": rules.name, "digest": rules.digest},
        "position": position_as_dict(result.position, rules),
        "winner": result.winner,
        "root": 0,
        "nodes": nodes,
        "stats": result.stats,
    }


def _play(play: Play) -> dict[str, Any]:
    """A play as a proof names it: cards, kind and rank (the reading, where two exist)."""
    return {"cards": str(play), "kind": play.kind.value, "rank": rank_symbol(play.rank)}


def _edge(search: Tree, edge: Edge, ids: dict[State, int]) -> dict[str, Any]:
    move, child = edge
    found: dict[str, Any] = {"cards": "pass"} if move == PASS else _play(search.play(move))
    found["next"] = None if child is None else ids[child]
    return found


def _position(search: Tree, state: State) -> dict[str, Any]:
    hands, turn, table, by = state
    return {
        "hands": [str(unpack(h)) for h in hands],
        "turn": turn,
        "table": None if table == NO_TABLE else {**_play(search.play(table)), "by": by},
    }
