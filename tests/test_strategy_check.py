"""The strategy checker: every proof the solver makes passes; every tampered one fails, saying where."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import jsonschema
import pytest

from cpsolver.endgame import Position, compiled, solve
from cpsolver.endgame.proof import (
    build_strategy_proof,
    strategy_proof_text,
    write_strategy_proof,
)
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.ruleset import standard_rules
from cpsolver.verify.documents import schema
from cpsolver.verify.strategy import check_strategy

PUZZLES = [
    Position.parse(["KK5543", "225543"]),  # the first player wins
    Position.parse(["2KKTT77554", "AA8"]),  # the second player wins
    Position.parse(["KKK 2 5", "AA 7", "QQQ 3 6"]),  # three players, the landlord to lead
    Position.parse(["9 TT", "JJ 3", "44 A"], turn=1, table="8", by=0),  # mid-trick
]


def _proof(position: Position) -> dict[str, Any]:
    document = build_strategy_proof(solve(position), standard_rules())
    result: dict[str, Any] = json.loads(json.dumps(document))
    return result


@pytest.mark.parametrize("position", PUZZLES, ids=str)
def test_proofs_pass_and_fit_the_published_schema(position: Position) -> None:
    document = _proof(position)
    jsonschema.Draft202012Validator(schema("strategy")).validate(document)
    assert check_strategy(document, position) is None


@pytest.mark.parametrize("core", ["python", *(["compiled"] if compiled.available() else [])])
@pytest.mark.parametrize("position", PUZZLES, ids=str)
def test_a_proofs_file_is_its_document_a_node_a_line(position: Position, core: str) -> None:
    result = solve(position, core=core)
    text = strategy_proof_text(result, standard_rules())
    assert text.startswith('{\n  "format": "cpsolver-strategy",\n')
    _, _, nodes = text.partition('  "nodes": [\n')
    lines = nodes.splitlines()
    assert lines[-2:] == ["  ]", "}"]
    assert [json.loads(line.rstrip(",")) for line in lines[:-2]] == json.loads(text)["nodes"]
    assert check_strategy(json.loads(text), position) is None


@pytest.mark.parametrize("core", ["python", *(["compiled"] if compiled.available() else [])])
def test_a_proof_handed_on_in_pieces_is_the_whole_text(
    core: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer hands the text on as it walks (the compiled core's pieces a node long here):
    the pieces, end to end, are the text written whole."""
    result = solve(PUZZLES[2], core=core)
    whole = strategy_proof_text(result, standard_rules())
    monkeypatch.setattr(compiled, "TEXT_PIECE", 1)
    pieces: list[str] = []
    write_strategy_proof(result, standard_rules(), pieces.append)
    assert "".join(pieces) == whole
    nodes = len(json.loads(whole)["nodes"])
    assert len(pieces) == nodes + 2  # the header, each node, the end


def test_a_failed_write_stops_the_walk() -> None:
    """What the writer raises ends the proof there (a full disk, a closed pipe)."""
    result = solve(PUZZLES[2])

    def refuse(piece: str) -> None:
        if "hands" in piece:
            raise OSError("no space left on device")

    with pytest.raises(OSError, match="no space"):
        write_strategy_proof(result, standard_rules(), refuse)


def _losing_nodes(document: dict[str, Any]) -> list[int]:
    return [i for i, node in enumerate(document["nodes"]) if "replies" in node]


def _winning_nodes(document: dict[str, Any]) -> list[int]:
    return [i for i, node in enumerate(document["nodes"]) if "move" in node]


def test_a_dropped_reply_is_found() -> None:
    document = _proof(PUZZLES[0])
    index = next(i for i in _losing_nodes(document) if len(document["nodes"][i]["replies"]) > 1)
    dropped = document["nodes"][index]["replies"].pop()
    failure = check_strategy(document)
    assert failure is not None and "has no answer to it" in failure
    assert (dropped["cards"]) in failure


def test_a_reply_listed_twice_is_found() -> None:
    document = _proof(PUZZLES[0])
    index = _losing_nodes(document)[0]
    replies = document["nodes"][index]["replies"]
    replies.append(dict(replies[0]))
    assert "is listed twice" in (check_strategy(document) or "")


def test_an_illegal_move_is_found() -> None:
    document = _proof(PUZZLES[0])
    index = _winning_nodes(document)[0]
    document["nodes"][index]["move"].update(cards="RR", kind="pair", rank="R")
    failure = check_strategy(document) or ""
    assert f"node {index}" in failure


def test_a_move_to_the_wrong_node_is_found() -> None:
    document = _proof(PUZZLES[0])
    index = next(i for i in _winning_nodes(document) if document["nodes"][i]["move"]["next"])
    document["nodes"][index]["move"]["next"] = index
    assert "holds another position" in (check_strategy(document) or "")


def test_a_dangling_node_number_is_found() -> None:
    document = _proof(PUZZLES[0])
    index = next(i for i in _winning_nodes(document) if document["nodes"][i]["move"]["next"])
    document["nodes"][index]["move"]["next"] = 10**6
    assert "there is no node 1000000" in (check_strategy(document) or "")


def test_the_losing_side_cannot_claim_a_move() -> None:
    document = _proof(PUZZLES[0])
    index = _losing_nodes(document)[0]
    node = document["nodes"][index]
    node["move"] = node.pop("replies")[0]
    assert "losing side" in (check_strategy(document) or "")


def test_the_wrong_winner_is_refused() -> None:
    document = _proof(PUZZLES[1])
    document["winner"] = 1 - document["winner"]
    assert check_strategy(document) is not None


def test_a_tampered_spring_is_found() -> None:
    document = _proof(PUZZLES[2])
    springs = [i for i, node in enumerate(document["nodes"]) if "spring" in node]
    if not springs:
        pytest.skip("no spring node in this strategy")
    steps = document["nodes"][springs[0]]["spring"]
    steps.reverse()  # the answerable play, if any, now comes first
    document["nodes"][springs[0]]["spring"] = steps[1:] if len(steps) > 1 else steps
    failure = check_strategy(document)
    if len(steps) > 1:
        assert failure is not None and f"node {springs[0]}" in failure


def test_another_position_or_rules_are_refused() -> None:
    document = _proof(PUZZLES[0])
    assert "another position" in (check_strategy(document, PUZZLES[1]) or "")
    assert "made under the rules" in (check_strategy(document, None, load_rules("douzero")) or "")


@pytest.mark.parametrize(
    "break_it",
    [
        lambda d: d["nodes"].__setitem__(0, 7),
        lambda d: d["nodes"][0].__setitem__("turn", True),
        lambda d: d["nodes"][0].pop("table"),
        lambda d: d["nodes"][0].__setitem__("hands", ["3"]),
        lambda d: d["nodes"][0].__setitem__("hands", ["3", "X!"]),
        lambda d: d["nodes"][-1].__setitem__("extra", 1),
        lambda d: d.__setitem__("winner", 2),
        lambda d: d.__setitem__("format", "cpsolver-proof"),
    ],
)
def test_malformed_documents_are_failures_not_crashes(break_it: Any) -> None:
    document = _proof(PUZZLES[0])
    break_it(document)
    assert check_strategy(document) is not None


def test_random_tampering_never_passes() -> None:
    """Change one move or reply of a real proof at random: the checker must notice."""
    rng = random.Random(7)
    original = _proof(PUZZLES[0])
    cards = ["3", "4", "5", "8", "99", "TT", "A", "2", "B", "KKK", "pass"]
    caught = 0
    for _ in range(100):
        document = copy.deepcopy(original)
        node = rng.choice(document["nodes"])
        moves = node.get("replies") or [node.get("move")]
        move = rng.choice([m for m in moves if m is not None] or [None])
        if move is None:
            continue
        new = rng.choice(cards)
        if new == move["cards"]:
            continue
        move["cards"] = new
        move.pop("kind", None)
        move.pop("rank", None)
        assert check_strategy(document) is not None, (new, node)
        caught += 1
    assert caught > 50
