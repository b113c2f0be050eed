"""The verifier and the proof format: real proofs pass, every mutation is caught precisely."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from cpsolver.io.dealformat import deal_as_dict
from cpsolver.rules.cards import Deal
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play
from cpsolver.rules.ruleset import standard_rules
from cpsolver.spring.cpsat import solve
from cpsolver.spring.proof import build_proof
from cpsolver.spring.result import SpringResult, Step, Verdict
from cpsolver.verify.documents import read_proof
from cpsolver.verify.spring import check_plan, check_proof

DEAL = Deal.parse(
    "333444555 TJQKA AAA 22 R", "666 77 888 99 TT JJ Q KK", "3 4 5 6 77 8 99 T J QQ K 22 B"
)


# A spring plan with one answerable step, last: the mutations below need one.
PLAN = ["R", "22", "AAA", "TJQKA", "444555", "333"]


@pytest.fixture(scope="module")
def proof() -> dict[str, Any]:
    assert solve(DEAL).verdict is Verdict.SPRING and check_plan(DEAL, PLAN) is None
    steps = [Step(Play.parse(cards), cards != "333") for cards in PLAN]
    document = build_proof(DEAL, SpringResult(Verdict.SPRING, steps), standard_rules(), generator())
    assert [step["cards"] for step in document["plan"]] == PLAN
    return document


def mutated(proof: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(proof)


def test_a_real_proof_is_valid(proof: dict[str, Any]) -> None:
    assert check_proof(proof) is None
    assert check_proof(proof, DEAL) is None
    assert check_proof(json.loads(json.dumps(proof))) is None
    assert read_proof(json.dumps(proof)) == proof


def test_evidence_is_recorded_for_each_peasant(proof: dict[str, Any]) -> None:
    triplet = proof["plan"][2]  # AAA
    assert triplet["evidence"] == [
        {"peasant": 1, "strongest": "888", "bombs": [], "rocket": False},
        {"peasant": 2, "strongest": None, "bombs": [], "rocket": False},
    ]
    last = proof["plan"][-1]  # 333, answerable
    assert last["safe"] is False and last["evidence"][0]["strongest"] == "888"


def test_a_swapped_card(proof: dict[str, Any]) -> None:
    bad = mutated(proof)
    bad["plan"][3]["cards"] = "9TJQK"
    assert check_proof(bad) == "step 4 (9TJQK): the landlord holds no more 9s"


def test_a_dropped_step(proof: dict[str, Any]) -> None:
    bad = mutated(proof)
    del bad["plan"][1]
    assert check_proof(bad) == "the plan leaves 22 in the landlord's hand"


def test_a_doubled_step(proof: dict[str, Any]) -> None:
    bad = mutated(proof)
    bad["plan"].insert(1, bad["plan"][1])
    assert check_proof(bad) == "step 3 (22): the landlord holds no more 2s"


def test_the_unsafe_step_moved_earlier(proof: dict[str, Any]) -> None:
    bad = mutated(proof)
    bad["plan"].insert(0, bad["plan"].pop())
    assert check_proof(bad) == "step 1 (333): peasant 1 answers with 666"


def test_a_plan_for_another_deal(proof: dict[str, Any]) -> None:
    other = Deal.parse(
        "333444555 TJQKA AAA 22 B", "666 77 888 99 TT JJ Q KK", "3 4 5 6 77 8 99 T J QQ K 22 R"
    )
    failure = check_proof(proof, other)
    assert failure is not None and failure.startswith("the proof is for another deal: ")
    bad = mutated(proof)
    bad["deal"] = deal_as_dict(other)
    assert check_proof(bad) == "step 1 (R): the landlord holds no more Rs"


def test_a_forged_safe_flag(proof: dict[str, Any]) -> None:
    bad = mutated(proof)
    bad["plan"][-1]["safe"] = True
    assert check_proof(bad) == "step 6 (333): marked safe, but a peasant can answer it"
    bad = mutated(proof)
    bad["plan"][0]["safe"] = False
    assert check_proof(bad) == "step 1 (R): marked unsafe, but no peasant can answer it"


def test_a_forged_kind_rank_or_shape(proof: dict[str, Any]) -> None:
    bad = mutated(proof)
    bad["plan"][4]["kind"] = "triplet_sequence_pairs"
    assert check_proof(bad) == (
        "step 5 (444555): claims kind 'triplet_sequence_pairs', but it is 'triplet_sequence'"
    )
    bad = mutated(proof)
    bad["plan"][3]["rank"] = "K"
    assert check_proof(bad) == "step 4 (TJQKA): claims rank 'K', but it is 'A'"
    bad = mutated(proof)
    bad["plan"][3]["shape"] = {"length": 6}
    assert check_proof(bad) == "step 4 (TJQKA): claims shape {'length': 6}, but it is {'length': 5}"


def test_forged_evidence(proof: dict[str, Any]) -> None:
    bad = mutated(proof)
    bad["plan"][2]["evidence"][0]["strongest"] = None
    assert check_proof(bad) == (
        "step 3 (AAA): evidence says peasant 1 has no play of this kind and shape, "
        "but it has one ranked 8"
    )
    bad = mutated(proof)
    bad["plan"][2]["evidence"][0]["strongest"] = "666"
    assert check_proof(bad) == (
        "step 3 (AAA): evidence names 666 as peasant 1's strongest, but it has one ranked 8"
    )
    bad = mutated(proof)
    bad["plan"][0]["evidence"][1]["rocket"] = True
    assert (
        check_proof(bad) == "step 1 (R): evidence says peasant 2 holds the rocket, which is false"
    )
    bad = mutated(proof)
    bad["plan"][0]["evidence"][1]["bombs"] = ["9999"]
    assert check_proof(bad) == (
        "step 1 (R): evidence lists peasant 2's bombs as ['9999'], but they are []"
    )


def test_a_not_a_play_step(proof: dict[str, Any]) -> None:
    bad = mutated(proof)
    bad["plan"][3]["cards"] = "TJQKA2"
    assert (
        check_proof(bad)
        == "step 4 (TJQKA2): no play: a sequence stays within 3..A: no 2s or jokers"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p.pop("plan"), "proof: 'plan' is a required property"),
        (lambda p: p.update(version=2), "proof.version: 1 was expected"),
        (lambda p: p.update(verdict="no_spring"), "proof.verdict: 'spring' was expected"),
        (
            lambda p: p["plan"][0].update(safe="yes"),
            "proof.plan[0].safe: 'yes' is not of type 'boolean'",
        ),
        (
            lambda p: p["plan"][1].update(cards="2 2"),
            "proof.plan[1].cards: '2 2' does not match '^[3-9TJQKA2BR]+$'",
        ),
        (
            lambda p: p["plan"][1].update(extra=1),
            "proof.plan[1]: Additional properties are not allowed ('extra' was unexpected)",
        ),
        (
            lambda p: p["rules"].update(digest="0" * 16),
            "the proof was made under the rules 'standard' (0000000000000000), not 'standard' ",
        ),
    ],
)
def test_schema_breaking_or_foreign_proofs(
    proof: dict[str, Any], change: Any, message: str
) -> None:
    bad = mutated(proof)
    change(bad)
    failure = check_proof(bad)
    assert failure is not None and failure.startswith(message)


def test_broken_json_is_named() -> None:
    with pytest.raises(ValueError, match="^proof: broken JSON: "):
        read_proof('{"format": ')


def test_check_plan_on_plain_plays() -> None:
    deal = Deal.parse("KK 2", "AA", "3")
    assert check_plan(deal, ["2", "KK"]) is None
    assert check_plan(deal, ["KK", "2"]) == "step 1 (KK): peasant 1 answers with AA"
    assert check_plan(deal, []) == "the plan is empty"
    assert (
        check_plan(deal, ["KK2"])
        == "step 1 (KK2): no play: 3 cards that form none of the thirteen combinations"
    )


def _other_documents() -> list[tuple[str, str, str]]:
    """(what, file name, text) for every kind of input that is not a proof, as cpsolver writes it."""
    from pathlib import Path

    from cpsolver.game.engine import Game

    examples = Path(__file__).parents[1] / "examples"
    game = Game.deal(7)
    return [
        ("a deal", "deal.json", json.dumps(deal_as_dict(DEAL))),
        ("a deal", "deal.txt", (examples / "spring.txt").read_text()),
        ("a position", "position.json", (examples / "position3.json").read_text()),
        ("a game record", "record.json", json.dumps(game.record())),
    ]


@pytest.mark.parametrize("what, name, text", _other_documents())
def test_a_deal_position_or_record_given_to_verify_is_bad_input(
    tmp_path: Any, what: str, name: str, text: str
) -> None:  # issue 27: it said "invalid: proof: 'format' is a required property", exit 1
    from click.testing import CliRunner

    from cpsolver.cli import cli

    path = tmp_path / name
    path.write_text(text)
    done = CliRunner().invoke(cli, ["verify", str(path)])
    assert done.exit_code == 2
    assert done.output == (f"Error: {path}: this is {what}, not a proof, certificate or strategy\n")
