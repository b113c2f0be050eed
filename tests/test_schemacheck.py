"""cpsolver's own schema checker agrees with jsonschema on every document it is shown.

``cpsolver.verify.schema`` replaced jsonschema in ``verify`` for start-up time;
jsonschema stays the reference here. Documents are real proofs, certificates
and strategies, then tampered with at random: a key dropped or added, a value
swapped for another JSON value (booleans for numbers, ``1.0`` for ``1``,
strings, lists, nulls) anywhere in the tree.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsolver.endgame import Position, solve
from cpsolver.endgame.proof import build_strategy_proof
from cpsolver.io.dealgen import generate
from cpsolver.rules.cards import Deal
from cpsolver.rules.movegen import MoveGenerator
from cpsolver.rules.ruleset import standard_rules
from cpsolver.spring.certify import certify
from cpsolver.spring.engines import DEFAULT_ENGINE, solve_with
from cpsolver.spring.proof import build_proof
from cpsolver.verify.documents import ProofFormatError, read_proof, schema
from cpsolver.verify.schema import UnsupportedSchema, check_schema, first_error

NAMES = ["proof", "certificate", "strategy", "strategy-header"]


def _plain(document: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(json.dumps(document))
    return found


@cache
def documents() -> dict[str, dict[str, Any]]:
    """One valid document per schema, made by the solvers."""
    rules = standard_rules()
    deal = Deal.parse(
        "333444555 TJQKA AAA 22 R", "666 77 888 99 TT JJ Q KK", "3456 77 8 99 TJ QQ K 22 B"
    )
    spring = solve_with(DEFAULT_ENGINE, deal)
    refutable = next(e.deal for e in generate("full", 40, seed=8) if certify(e.deal) is not None)
    certificate = certify(refutable)
    assert certificate is not None
    strategy = build_strategy_proof(solve(Position.parse(["KK5543", "225543"])), rules)
    return {
        "proof": _plain(build_proof(deal, spring, rules, MoveGenerator(rules))),
        "certificate": _plain(certificate[0]),
        "strategy": _plain(strategy),
        "strategy-header": _plain(strategy),
    }


def _jsonschema_verdict(document: Any, name: str) -> tuple[tuple[Any, ...], str] | None:
    validator = jsonschema.Draft202012Validator(schema(name))
    error = jsonschema.exceptions.best_match(validator.iter_errors(document))
    return None if error is None else (tuple(error.absolute_path), error.message)


@pytest.mark.parametrize("name", NAMES)
def test_every_packaged_schema_uses_only_checked_keywords_and_its_documents_pass(
    name: str,
) -> None:
    check_schema(schema(name))
    assert first_error(documents()[name], schema(name)) is None
    assert _jsonschema_verdict(documents()[name], name) is None


def test_a_keyword_the_checker_does_not_know_is_refused() -> None:
    with pytest.raises(UnsupportedSchema, match="uniqueItems"):
        check_schema({"properties": {"a": {"type": "array", "uniqueItems": True}}})


def _places(document: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``document``, the root included."""
    found = [path]
    if isinstance(document, dict):
        for key, value in document.items():
            found += _places(value, (*path, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += _places(value, (*path, index))
    return found


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([1.0, 0.5, -1.0, 2.0])
    | st.sampled_from(["", "3", "33", "2 2", "spring", "pass", "single", "0123456789abcdef"])
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=2)
    ),
    max_leaves=4,
)


@st.composite
def tampered(draw: st.DrawFn) -> tuple[str, Any]:
    name = draw(st.sampled_from(NAMES))
    document = copy.deepcopy(documents()[name])
    for _ in range(draw(st.integers(1, 3))):
        places = _places(document)
        path = draw(st.sampled_from(places))
        value = draw(JSON_VALUES)
        if not path:
            document = value
            continue
        *parents, last = path
        holder = document
        for step in parents:
            holder = holder[step]
        action = draw(st.sampled_from(["replace", "drop", "add"]))
        if action == "replace" or (action == "add" and not isinstance(holder, dict)):
            holder[last] = value
        elif action == "drop":
            del holder[last]
        else:
            holder[draw(st.text(max_size=6))] = value
    return name, document


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tampered())
def test_the_checker_agrees_with_jsonschema_on_tampered_documents(case: tuple[str, Any]) -> None:
    name, document = case
    ours = first_error(document, schema(name))
    theirs = _jsonschema_verdict(document, name)
    assert (ours is None) == (theirs is None)
    if ours is not None:
        # The error reported is one jsonschema reports too, at the shallowest depth
        # of any (where several share it, the two may pick different ones).
        everything = [
            (tuple(error.absolute_path), error.message)
            for error in jsonschema.Draft202012Validator(schema(name)).iter_errors(document)
        ]
        assert ours in everything
        assert len(ours[0]) == min(len(path) for path, _ in everything)


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda d: d.pop("plan"), "proof: 'plan' is a required property"),
        (lambda d: d.update(version=True), "proof.version: 1 was expected"),
        (
            lambda d: d.update(extra=1),
            "Additional properties are not allowed ('extra' was unexpected)",
        ),
        (
            lambda d: d["plan"][0].update(kind="kicker"),
            "proof.plan[0].kind: 'kicker' is not one of",
        ),
        (lambda d: d["deal"]["peasants"].pop(), "proof.deal.peasants: ['666"),
        (lambda d: d["plan"][0].update(safe=1), "proof.plan[0].safe: 1 is not of type 'boolean'"),
    ],
)
def test_a_broken_proof_is_refused_saying_where_and_why(tamper: Any, message: str) -> None:
    document = copy.deepcopy(documents()["proof"])
    tamper(document)
    with pytest.raises(ProofFormatError) as refused:
        read_proof(json.dumps(document))
    assert message in str(refused.value)
