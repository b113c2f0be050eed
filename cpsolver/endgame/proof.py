"""Strategy proofs: the winning side's strategy as a JSON document anyone can re-check.

The document (``schemas/strategy.schema.json``) names the rules, the position
and the winning side, and lists the strategy's nodes, the position's first.
Each node is a position and either the winning side's ``move``, a ``spring``
plan that runs out from the lead, or the other side's ``replies``: every
legal one, each with the node it leads to (``next``; null where the mover is
out of cards). ``cpsolver verify`` checks it with the rules core alone.

As a file (:func:`strategy_proof_text`) the header is indented and the nodes
come last, one a line: a strategy of a million nodes is a million lines that
the compiled core writes itself, where it ran, handed on piece by piece as it
walks them (:func:`write_strategy_proof`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from cpsolver.endgame.answer import EndgameResult
from cpsolver.endgame.packed import unpack
from cpsolver.endgame.strategy import Strategy
from cpsolver.endgame.tree import NO_TABLE, PASS, Move, State, Tree, Write
from cpsolver.io.positionformat import position_as_dict
from cpsolver.rules.cards import RANK_SYMBOLS, rank_symbol
from cpsolver.rules.ruleset import RuleSet

FORMAT = "cpsolver-strategy"
VERSION = 1


def build_strategy_proof(result: EndgameResult, rules: RuleSet) -> dict[str, Any]:
    """The proof document of a solved position's strategy: its text, read.

    Reading the text the compiled core writes is faster than building the
    nodes one by one, and leaves one definition of the document.
    """
    document: dict[str, Any] = json.loads(strategy_proof_text(result, rules))
    return document


def strategy_proof_text(result: EndgameResult, rules: RuleSet) -> str:
    """The proof document of a solved position's strategy as the text of a file."""
    pieces: list[str] = []
    write_strategy_proof(result, rules, pieces.append)
    return "".join(pieces)


def write_strategy_proof(result: EndgameResult, rules: RuleSet, write: Write) -> None:
    """Hand ``write`` the text of :func:`strategy_proof_text` piece by piece, as it is made:
    a full deal's proof is gigabytes of text, never held whole here.

    The compiled core writes the nodes itself, each hand and play spelled
    once here; the Python core's nodes are written here, line for line the same.
    """
    strategy = _strategy_of(result)
    names = _Names(strategy.search)
    head = json.dumps(_header(result, rules), indent=2)
    write(f'{head[:-2]},\n  "nodes": [\n')
    if not strategy.search.strategy_text(strategy.root, RANK_SYMBOLS, names.play_text, write):
        for number, node in enumerate(_nodes(strategy, result.winner, names)):
            line = json.dumps(node, separators=(",", ":"))
            write(f",\n    {line}" if number else f"    {line}")
    write("\n  ]\n}\n")


def _strategy_of(result: EndgameResult) -> Strategy:
    if result.strategy is None or result.winner is None:
        raise ValueError("only a solved position has a strategy to prove")
    return result.strategy


def _header(result: EndgameResult, rules: RuleSet) -> dict[str, Any]:
    """Everything in a proof document but its nodes, in the document's order."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": {"name": rules.name, "digest": rules.digest},
        "position": position_as_dict(result.position, rules),
        "winner": result.winner,
        "root": 0,
        "stats": result.stats,
    }


def _nodes(strategy: Strategy, winner: int | None, names: _Names) -> Iterator[dict[str, Any]]:
    """The strategy's nodes breadth first from the root, as the document lists them."""
    for state, plan, edges in strategy.rows():
        entry = names.position(state)
        if plan:
            entry["spring"] = [names.play(p) for p in plan]
        elif strategy.search.side[state[1]] == winner:
            entry["move"] = names.edge(edges[0])
        else:
            entry["replies"] = [names.edge(edge) for edge in edges]
        yield entry


class _Names:
    """How a proof writes a search's hands and plays, each worked out once per proof.

    A strategy meets the same few hands and plays thousands of times over;
    spelling them once is most of what writing a large proof costs.
    """

    def __init__(self, search: Tree) -> None:
        self.search = search
        self._hands: dict[int, str] = {}
        self._plays: dict[Move, dict[str, Any]] = {}

    def hand(self, packed: int) -> str:
        found = self._hands.get(packed)
        if found is None:
            found = self._hands[packed] = str(unpack(packed))
        return found

    def play(self, move: Move) -> dict[str, Any]:
        """A play as a proof names it: cards, kind and rank (the reading, where two exist)."""
        found = self._plays.get(move)
        if found is None:
            play = self.search.play(move)
            found = {"cards": str(play), "kind": play.kind.value, "rank": rank_symbol(play.rank)}
            self._plays[move] = found
        return dict(found)  # a fresh object each time: documents are edited by their readers

    def play_text(self, move: Move) -> str:
        """A play as the members of a JSON object: cards, kind and rank."""
        return json.dumps(self.play(move), separators=(",", ":"))[1:-1]

    def edge(self, edge: tuple[Move, int | None]) -> dict[str, Any]:
        move, row = edge
        found: dict[str, Any] = {"cards": "pass"} if move == PASS else self.play(move)
        found["next"] = row
        return found

    def position(self, state: State) -> dict[str, Any]:
        hands, turn, table, by = state
        return {
            "hands": [self.hand(h) for h in hands],
            "turn": turn,
            "table": None if table == NO_TABLE else {**self.play(table), "by": by},
        }
