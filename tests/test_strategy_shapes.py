"""The quick node-shape test and the lighter header schema, each against what it stands in for.

cpsolver/verify/nodeshape.py passes a node by a quick test and asks the full
shape check only about the others; validate() leaves out the strategy header's
test of each node when every node passes it. Real nodes (each kind, with and
without kinds and ranks) are changed in every place they have (hypothesis) and
at the edges of the shape, and both must answer as the previous checks did
(tests/strategy_reference.py).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategy_reference import _malformed as reference_malformed
from strategy_reference import validate as whole_schema

from cpsolver.endgame import solve
from cpsolver.endgame.proof import build_strategy_proof
from cpsolver.io.positionformat import position_from_dict
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.ruleset import standard_rules
from cpsolver.verify.documents import ProofFormatError, validate
from cpsolver.verify.nodeshape import first_malformed

POSITIONS = {
    "two players": (["KK5543", "225543"], 0, None, "standard"),
    "the peasants win": (["568JQ", "4TQKB", "37JA2"], 0, None, "standard"),
    "read two ways": (
        ["KKK7774 5", "88899910JJJ"],
        0,
        {"cards": "333444555666", "by": 1, "kind": "triplet_sequence_singles", "rank": "5"},
        "douzero",
    ),
}


@cache
def _made(name: str) -> str:
    hands, turn, table, rules_name = POSITIONS[name]
    rules = load_rules(rules_name) if rules_name != "standard" else standard_rules()
    position = position_from_dict({"hands": hands, "turn": turn, "table": table}, rules)
    return json.dumps(build_strategy_proof(solve(position, rules=rules), rules))


def _proof(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(_made(name))
    return found


_ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1, 3),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["3", "KK", "pass", "single", "5", "", "x!"]),
    st.builds(list),
    st.builds(dict),
    st.builds(lambda: ["3", "4"]),
    st.builds(lambda: {"cards": "3", "next": 1}),
)


@cache
def _real_nodes() -> list[Any]:
    """Nodes of every kind from real proofs, as written and with their kinds and ranks left out."""
    found = []
    for name in ("two players", "the peasants win", "read two ways"):
        nodes = _proof(name)["nodes"]
        for choice in ("move", "replies", "spring"):
            found += [node for node in nodes if choice in node][:4]
    bare = copy.deepcopy(found)
    for node in bare:
        for part in [node["table"], node.get("move"), *node.get("replies", [])]:
            if isinstance(part, dict):
                part.pop("kind", None)
                part.pop("rank", None)
    return found + bare


def _corrupted(data: st.DataObject) -> Any:
    """A real node with one to three things inside it changed: replaced, dropped or added."""
    top: dict[str, Any] = {"node": copy.deepcopy(data.draw(st.sampled_from(_real_nodes())))}
    for _ in range(data.draw(st.integers(1, 3))):
        _change(data, top)
    return top["node"]


def _places(holder: Any, key: Any) -> list[tuple[Any, Any]]:
    """Every place inside ``holder[key]``, itself first: where a change can be made."""
    found = [(holder, key)]
    inner = holder[key]
    if isinstance(inner, dict | list):
        for part in list(inner) if isinstance(inner, dict) else range(len(inner)):
            found += _places(inner, part)
    return found


def _change(data: st.DataObject, top: dict[str, Any]) -> None:
    holder, key = data.draw(st.sampled_from(_places(top, "node")))
    change = data.draw(st.sampled_from(["replace", "drop", "add", "rename", "shorten", "repeat"]))
    found = holder[key]
    if change == "replace" or not isinstance(found, dict | list):
        holder[key] = data.draw(_ODD)
    elif change == "drop" and holder is not top:
        del holder[key]
    elif isinstance(found, dict):
        name = data.draw(st.sampled_from(["extra", "kind", "rank", "next", "by", "move", "cards"]))
        if change == "rename" and found:
            found[name] = found.pop(data.draw(st.sampled_from(sorted(found))))
        else:
            found[name] = data.draw(_ODD)
    elif change == "shorten":
        del found[data.draw(st.integers(0, 1)) :]
    elif change == "repeat":
        found += copy.deepcopy(found)
    else:
        found.append(data.draw(_ODD))


def _reference_malformed(nodes: list[Any]) -> str | None:
    for index, node in enumerate(nodes):
        fault = reference_malformed(node)
        if fault is not None:
            return f"strategy.nodes[{index}]: {fault}"
    return None


@settings(max_examples=1500, deadline=None)
@given(st.data(), st.integers(0, 3))
def test_the_shape_pass_finds_what_the_previous_one_did(data: st.DataObject, at: int) -> None:
    nodes: list[Any] = copy.deepcopy(_real_nodes()[:4])
    nodes.insert(at, _corrupted(data))
    assert first_malformed(nodes) == _reference_malformed(nodes)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ODD, max_size=2), st.integers(0, 3), st.sampled_from(["position", "rules", None]))
def test_the_header_check_finds_what_the_whole_schema_did(
    odd: list[Any], at: int, broken: str | None
) -> None:
    document = _proof("two players")
    document["nodes"][at:at] = odd
    if broken is not None:
        document[broken] = {"hands": 3} if broken == "position" else {"name": ""}
    assert _header_failure(validate, document) == _header_failure(whole_schema, document)


def _header_failure(check: Callable[[Any, str], None], document: Any) -> str | None:
    try:
        check(document, "strategy-header")
    except ProofFormatError as error:
        return str(error)
    return None


def _choose(node: dict[str, Any], choice: str, value: Any) -> None:
    for key in ("move", "spring", "replies"):
        node.pop(key, None)
    node[choice] = value


_EDGES: list[Callable[[dict[str, Any]], Any]] = [
    lambda n: n.update(hands=n["hands"][:1]),
    lambda n: n.update(hands=n["hands"] * 2),
    lambda n: n.update(turn=True),
    lambda n: n.update(turn=1.0),
    lambda n: n.update(table={"cards": "3", "by": True}),
    lambda n: n.update(table={"cards": 3, "by": 0}),
    lambda n: n.update(table={"cards": "3", "by": 0, "kind": None}),
    lambda n: n.update(table={"cards": "3", "rank": "3", "kind": "single"}),
    lambda n: n.update(table={"cards": "3", "by": 0, "rank": "3", "next": 1}),
    lambda n: n.update(table={"cards": "3", "by": 0, "rank": "3"}),
    lambda n: _choose(n, "spring", []),
    lambda n: _choose(n, "replies", []),
    lambda n: n.update(move={"cards": "3", "next": 1.0}),
    lambda n: n.update(move={"cards": "3", "kind": "single", "rank": "3", "extra": 1}),
    lambda n: n.update(move={"cards": "3", "kind": "single", "next": None}),
    lambda n: n.update(move={"cards": None, "next": None}),
    lambda n: n.update(move={"cards": "3", "kind": "single", "extra": "3", "next": 1}),
    lambda n: n.update(table={"cards": "3", "kind": "single", "extra": "3", "by": 0}),
    lambda n: n.update(spring=[{"cards": "3", "kind": "single", "extra": "3"}]),
    lambda n: n.update(spring=[{"cards": "3", "kind": "single", "next": "3"}]),
    lambda n: n.update(spring=[{"cards": "3", "kind": "single", "rank": 3}]),
]


@pytest.mark.parametrize("change", range(len(_EDGES)))
def test_edge_shapes_get_the_previous_answer(change: int) -> None:
    for node in _real_nodes():
        nodes = [copy.deepcopy(node)]
        _EDGES[change](nodes[0])
        assert first_malformed(nodes) == _reference_malformed(nodes), nodes
