"""The fast strategy checker against the previous one: the same verdict and message on every proof.

Real proofs are mutated at random, one to three changes at a time (a move
swapped, a reply dropped or listed twice, a hand changed, ``next`` pointed
elsewhere, a node's shape broken, a spelling changed that means the same), and
each checker's answer, failure and positions walked, must be the same.
tests/strategy_reference.py is the previous implementation; the quick shape
test and the lighter header schema are held to theirs in test_strategy_shapes.py.
"""

from __future__ import annotations

import json
import random

import pytest
from strategy_mutations import CASES, Document, mutation, proof
from strategy_reference import previous_check_strategy_walked

from cpsolver.io.positionformat import position_from_dict
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, standard_rules
from cpsolver.verify.strategy import check_strategy_walked


def _answers(
    document: Document, position: Position | None, rules: RuleSet
) -> tuple[tuple[str | None, int], tuple[str | None, int]]:
    text = json.dumps(document)  # each checker gets its own copy
    new = check_strategy_walked(json.loads(text), position, rules)
    old = previous_check_strategy_walked(json.loads(text), position, rules)
    return new, old


@pytest.mark.parametrize("name", list(CASES))
def test_the_proofs_pass_both(name: str) -> None:
    document, rules = proof(name)
    new, old = _answers(document, None, rules)
    assert new == old
    assert new[0] is None


@pytest.mark.parametrize("name", list(CASES))
def test_mutated_proofs_get_the_previous_answer(name: str) -> None:
    rng = random.Random(name)
    rejected = 0
    for trial in range(250):
        document, rules = proof(name)
        for _ in range(1 + (trial % 3 == 0) + (trial % 7 == 0)):
            mutation(rng, document)()
        new, old = _answers(document, None, rules)
        assert new == old, (trial, document)
        rejected += new[0] is not None
    assert rejected > 50


@pytest.mark.parametrize("name", ["two players", "the landlord wins", "read two ways"])
def test_other_positions_and_rules_get_the_previous_answer(name: str) -> None:
    document, rules = proof(name)
    for hands, turn, table in CASES.values():
        for under in (rules, standard_rules(), load_rules("douzero")):
            try:
                position = position_from_dict({"hands": hands, "turn": turn, "table": table}, under)
            except ValueError:
                continue
            new, old = _answers(document, position, under)
            assert new == old
