"""The shape of a strategy proof's nodes, checked by hand: the schema's ``node``, without its walker.

The strategy schema's generic walker spent most of a large proof's check on
its nodes, so :mod:`cpsolver.verify.strategy` reads them here instead. Each
node first meets :func:`_fits`, a quick test that only passes a node of the
schema's shape; a node it does not pass goes to :func:`malformed`, which
says what is wrong with it (or finds nothing wrong: the quick test may refuse
an odd but well-shaped node, never pass a bad one). What the shape leaves
open, card notation, kinds, ranks and numbers in range, the rules core
checks as the nodes are walked.
"""

from __future__ import annotations

from typing import Any

from cpsolver.io.reading import is_whole

_NODE_KEYS = frozenset({"hands", "turn", "table"})
_CHOICES = frozenset({"move", "spring", "replies"})
_MOVE_KEYS = frozenset({"cards", "kind", "rank", "next"})
_TABLE_KEYS = frozenset({"cards", "kind", "rank", "by"})
_PLAY_KEYS = frozenset({"cards", "kind", "rank"})
_MISSING = object()


def first_malformed(nodes: list[Any]) -> str | None:
    """The first node not of the schema's node shape, and why, or None if all are."""
    for index, node in enumerate(nodes):
        if not _fits(node):
            fault = malformed(node)
            if fault is not None:
                return f"strategy.nodes[{index}]: {fault}"
    return None


def malformed(node: Any) -> str | None:
    """What makes a node not of the schema's node shape, or None."""
    if not isinstance(node, dict):
        return "a node is a JSON object"
    keys = set(node)
    if not _NODE_KEYS <= keys or len(keys & _CHOICES) != 1 or keys - _NODE_KEYS - _CHOICES:
        return "a node has hands, turn, table and one of move, spring, replies"
    hands, turn, table = node["hands"], node["turn"], node["table"]
    if (
        not isinstance(hands, list)
        or not 2 <= len(hands) <= 3
        or not all(isinstance(h, str) for h in hands)
    ):
        return "hands must be two or three strings of cards"
    if not is_whole(turn):
        return "turn must be a hand number"
    if table is not None and (
        not isinstance(table, dict)
        or not {"cards", "by"} <= set(table) <= {"cards", "by", "kind", "rank"}
        or not is_whole(table["by"])
        or not all(isinstance(table[k], str) for k in table if k != "by")
    ):
        return "table must be null or {cards, by (, kind, rank)}"
    if "move" in node:
        return _malformed_move(node["move"])
    steps = node.get("spring", node.get("replies"))
    if not isinstance(steps, list) or not steps:
        return "spring and replies are non-empty lists"
    for step in steps:
        fault = _malformed_move(step) if "replies" in node else _malformed_play(step)
        if fault is not None:
            return fault
    return None


def _malformed_move(move: Any) -> str | None:
    if not isinstance(move, dict) or not {"cards", "next"} <= set(move) <= {
        "cards",
        "kind",
        "rank",
        "next",
    }:
        return "a move is {cards, next (, kind, rank)}"
    if move["next"] is not None and not is_whole(move["next"]):
        return "next must be a node number or null"
    if not all(isinstance(move[k], str) for k in move if k != "next"):
        return "a move's cards, kind and rank are strings"
    return None


def _malformed_play(play: Any) -> str | None:
    if not isinstance(play, dict) or set(play) != {"cards", "kind", "rank"}:
        return "a spring step is {cards, kind, rank}"
    if not all(isinstance(v, str) for v in play.values()):
        return "a spring step's cards, kind and rank are strings"
    return None


# The quick tests compare types exactly (``type(x) is int`` refuses a bool, as
# is_whole does, and a subclass, which then goes the slow way) and count keys:
# a dict of n keys, n of them the wanted ones, has no other.


def _fits(node: Any) -> bool:
    """Whether ``node`` is plainly of the node shape (False: ask :func:`malformed`)."""
    if type(node) is not dict or len(node) != 4 or "table" not in node:
        return False
    hands = node.get("hands")
    if type(hands) is not list or not 2 <= len(hands) <= 3:
        return False
    for hand in hands:
        if type(hand) is not str:
            return False
    if type(node.get("turn")) is not int:
        return False
    table = node["table"]
    if table is not None and not _fits_table(table):
        return False
    if "move" in node:
        return _fits_move(node["move"])
    steps = node.get("replies")
    if steps is not None:
        return type(steps) is list and len(steps) > 0 and all(map(_fits_move, steps))
    steps = node.get("spring")
    return type(steps) is list and len(steps) > 0 and all(map(_fits_play, steps))


def _fits_move(move: Any) -> bool:
    if type(move) is not dict:
        return False
    following = move.get("next", _MISSING)
    if following is not None and type(following) is not int:
        return False
    # The two shapes proofs are written in; a move of kind or rank alone goes the slow way.
    if len(move) == 4:
        return _spelled(move, _MOVE_KEYS)
    return len(move) == 2 and type(move.get("cards")) is str


def _fits_table(table: Any) -> bool:
    if type(table) is not dict or type(table.get("by")) is not int:
        return False
    if len(table) == 4:
        return _spelled(table, _TABLE_KEYS)
    return len(table) == 2 and type(table.get("cards")) is str


def _fits_play(play: Any) -> bool:
    return type(play) is dict and _spelled(play, _PLAY_KEYS)


def _spelled(found: dict[str, Any], keys: Any) -> bool:
    """Whether a dict has exactly ``keys``, its play spelled in strings: cards, kind and rank."""
    return (
        found.keys() == keys
        and type(found["cards"]) is str
        and type(found["kind"]) is str
        and type(found["rank"]) is str
    )
