"""Certificates of no spring: the encoder against brute force, the RUP checker, tampering."""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver
from spring_reference import coverable
from test_cpsat import endgames

from cpsolver.cli import cli
from cpsolver.io.dealformat import deal_as_dict
from cpsolver.io.dealgen import generate
from cpsolver.rules.cards import Deal, Hand
from cpsolver.spring.certify import certify, refute
from cpsolver.verify.cnf import CoverCnf, at_least, at_most, encode
from cpsolver.verify.rup import (
    _Database,
    check_refutation,
    follows_by_hints,
    parse_proof,
    trim_refutation,
)
from cpsolver.verify.spring import check_certificate

EXAMPLES = Path(__file__).parents[1] / "examples"


def satisfiable(clauses: list[list[int]], assumptions: list[int] = ()) -> bool:  # type: ignore[assignment]
    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        return bool(solver.solve(assumptions=list(assumptions)))


@pytest.mark.parametrize("k", range(5))
def test_cardinality_encodings_count_exactly(k: int) -> None:
    """Every assignment of 5 inputs (one repeated) against both counters, by brute force."""
    variables = [1, 2, 3, 4]
    inputs = [1, 2, 2, 3, 4]  # variable 2 counts twice
    for encoder, holds in ((at_most, lambda n: n <= k), (at_least, lambda n: n >= k)):
        cnf = CoverCnf()
        for variable in variables:
            cnf.new_variable(f"x{variable}")
        encoder(cnf, inputs, k)
        for values in itertools.product([False, True], repeat=len(variables)):
            assumptions = [v if value else -v for v, value in zip(variables, values)]
            count = sum(values[v - 1] for v in inputs)
            assert satisfiable(cnf.clauses, assumptions) == holds(count), (encoder.__name__, values)


@settings(max_examples=80, deadline=None)
@given(endgames(8), st.data())
def test_the_cnf_is_satisfiable_exactly_when_the_cards_can_be_covered(
    deal: Deal, data: st.DataObject
) -> None:
    cards = Hand(data.draw(st.integers(0, count)) for count in deal.landlord.counts)
    assert satisfiable(encode(deal, cards).clauses) == coverable(deal, cards)


def naive_conflicts(clauses: list[list[int]], assumed: list[int]) -> bool:
    """Unit propagation as the definition says: sweep every clause until nothing changes."""
    true = set()
    for literal in assumed:
        if -literal in true:
            return True
        true.add(literal)
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(literal in true for literal in clause):
                continue
            open_literals = [literal for literal in clause if -literal not in true]
            if not open_literals:
                return True
            if len(set(open_literals)) == 1:
                true.add(open_literals[0])
                changed = True
    return False


literal = st.integers(1, 6).flatmap(lambda v: st.sampled_from([v, -v]))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(literal, max_size=4), max_size=12), st.lists(literal, max_size=3))
def test_watched_propagation_equals_naive_propagation(
    clauses: list[list[int]], assumed: list[int]
) -> None:
    database = _Database(clauses)
    assert database.conflicts(assumed) == naive_conflicts(clauses, assumed)
    assert database.conflicts(assumed) == naive_conflicts(
        clauses, assumed
    )  # watches moved, same answer


def test_the_checker_rejects_a_refutation_of_a_satisfiable_formula() -> None:
    clauses = [[1, 2], [-1, 2], [1, -2]]  # satisfiable by 1, 2
    assert check_refutation(clauses, parse_proof(["2 0", "0"])) == (
        "lemma 2 (the empty clause) does not follow by unit propagation"
    )
    assert check_refutation(clauses, parse_proof(["-2 0", "0"])) == (
        "lemma 1 (-2) does not follow by unit propagation"
    )
    unsatisfiable = [*clauses, [-1, -2]]
    assert check_refutation(unsatisfiable, parse_proof(["-2 0", "1 0", "0"])) is None
    assert check_refutation(unsatisfiable, parse_proof(["d 1 2 0", "2 0"])) == (
        "the proof never derives the empty clause"
    )
    with pytest.raises(ValueError, match="proof line 1 does not end its clause with a single 0"):
        parse_proof(["1 2"])


@pytest.mark.parametrize("kind", ["full", "planted", "endgame"])
def test_every_certificate_over_a_corpus_verifies(kind: str) -> None:
    made = 0
    for entry in generate(kind, 40 if kind == "planted" else 60, seed=21):
        certified = certify(entry.deal)
        if certified is None:
            continue
        document, _ = certified
        assert check_certificate(json.loads(json.dumps(document))) is None, entry.id
        assert check_certificate(document, entry.deal) is None
        made += 1
    assert made >= 15


@pytest.fixture(scope="module")
def certificate() -> dict[str, Any]:
    deal = next(
        e.deal for e in generate("full", 50, seed=8) if len(certify(e.deal)[0]["proof"]) > 10
    )  # type: ignore[index]
    document = certify(deal)[0]  # type: ignore[index]
    assert check_certificate(document) is None
    return document


def test_a_truncated_proof(certificate: dict[str, Any]) -> None:
    bad = copy.deepcopy(certificate)
    bad["proof"] = bad["proof"][:-1]
    failure = check_certificate(bad)
    assert failure is not None and failure.endswith("the proof never derives the empty clause")


def test_deleted_lemmas(certificate: dict[str, Any]) -> None:
    bad = copy.deepcopy(certificate)
    bad["proof"] = ["0"]
    failure = check_certificate(bad)
    assert failure is not None and failure.endswith(
        "lemma 1 (the empty clause) does not follow by unit propagation"
    )
    rejected = 0
    for index in range(len(certificate["proof"]) - 1):
        bad = copy.deepcopy(certificate)
        del bad["proof"][index]
        rejected += check_certificate(bad) is not None
    assert rejected > 0  # at least one lemma is needed; deleting it is caught


def test_a_changed_blocking_card(certificate: dict[str, Any]) -> None:
    deal = Deal.parse(certificate["deal"]["landlord"], *certificate["deal"]["peasants"])
    blocking = Hand.parse(certificate["blocking"])
    for rank in set(blocking.ranks()):
        bad = copy.deepcopy(certificate)
        smaller = blocking - Hand.from_ranks([rank])
        bad["blocking"] = str(smaller) or "3"
        failure = check_certificate(bad)
        if smaller and smaller <= deal.landlord:
            assert failure is not None and failure.startswith(
                f"the refutation of cover-cnf-1 for {smaller}: "
            )
    bad = copy.deepcopy(certificate)
    outside = next(r for r in range(15) if deal.landlord[r] == 0)
    bad["blocking"] = str(blocking + Hand.from_ranks([outside]))
    assert check_certificate(bad) == (
        f"the blocking cards {bad['blocking']} are not all in the landlord's hand {deal.landlord}"
    )


def test_another_deal(certificate: dict[str, Any]) -> None:
    other = next(generate("full", 1, seed=99)).deal
    failure = check_certificate(certificate, other)
    assert failure is not None and failure.startswith("the certificate is for another deal: ")
    bad = copy.deepcopy(certificate)
    bad["deal"] = deal_as_dict(other)
    assert check_certificate(bad) is not None


def test_a_schema_breaking_certificate(certificate: dict[str, Any]) -> None:
    bad = copy.deepcopy(certificate)
    bad["proof"][0] = "1 2"
    failure = check_certificate(bad)
    assert failure is not None and failure.startswith("certificate.proof[0]: '1 2' does not match")
    bad = copy.deepcopy(certificate)
    bad["encoder"] = "cover-cnf-0"
    assert check_certificate(bad) == "certificate.encoder: 'cover-cnf-1' was expected"


def test_refute_returns_none_for_a_satisfiable_formula() -> None:
    deal = Deal.parse("KK 2", "AA", "3")
    assert refute(encode(deal, deal.landlord)) is None


# The command line.


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_solve_writes_a_certificate_that_verify_accepts(tmp_path: Path) -> None:
    path = tmp_path / "certificate.json"
    assert invoke("solve", str(EXAMPLES / "no_spring.txt"), "--proof", str(path))[0] == 1
    document = json.loads(path.read_text())
    assert document["format"] == "cpsolver-certificate" and document["blocking"] == "Q2"
    code, out, _ = invoke("verify", str(EXAMPLES / "no_spring.txt"), str(path))
    assert code == 0 and out.startswith(
        "valid: no spring: the landlord's cards Q2 cannot all be played ("
    )
    code, out, _ = invoke("verify", str(path), "--json")
    assert code == 0 and json.loads(out)["blocking"] == "Q2"
    code, out, _ = invoke("verify", str(EXAMPLES / "spring.txt"), str(path))
    assert code == 1 and out.startswith("invalid: the certificate is for another deal")


def test_explain_command() -> None:
    code, out, _ = invoke("explain", str(EXAMPLES / "no_spring.txt"))
    assert code == 1
    assert out.splitlines()[0] == (
        "no spring: the landlord's Q 2 cannot all be played with at most one answerable play"
    )
    assert out.splitlines()[2].startswith("  2: 2 (peasant 1 answers with B)")
    code, out, _ = invoke("explain", str(EXAMPLES / "spring.txt"), "--json")
    assert code == 0 and json.loads(out)["verdict"] == "spring"
    code, out, _ = invoke(
        "explain", "--landlord", "KK 2", "--peasant1", "AA", "--peasant2", "B", "--json"
    )
    assert code == 1 and json.loads(out)["blocking"] == "K2"


def test_export_cnf(tmp_path: Path) -> None:
    cnf, drat = tmp_path / "d.cnf", tmp_path / "d.drat"
    code, _, _ = invoke(
        "export-cnf", str(EXAMPLES / "no_spring.txt"), "--cnf", str(cnf), "--drat", str(drat)
    )
    assert code == 0
    lines = cnf.read_text().splitlines()
    header = next(line for line in lines if line.startswith("p cnf "))
    clauses = [
        [int(t) for t in line.split()[:-1]] for line in lines if line and line[0] not in "cp"
    ]
    assert int(header.split()[3]) == len(clauses)
    assert not satisfiable(clauses)
    assert check_refutation(clauses, parse_proof(drat.read_text().splitlines())) is None
    code, _, err = invoke("export-cnf", str(EXAMPLES / "spring.txt"))
    assert code == 1 and err == "spring: nothing to refute\n"


def pigeonhole(holes: int) -> list[list[int]]:
    """holes + 1 pigeons in ``holes`` holes: unsatisfiable, and hard enough to need lemmas."""
    var = {(p, h): p * holes + h + 1 for p in range(holes + 1) for h in range(holes)}
    clauses = [[var[p, h] for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p, q in itertools.combinations(range(holes + 1), 2):
            clauses.append([-var[p, h], -var[q, h]])
    return clauses


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.randoms(use_true_random=False))
def test_trimmed_hinted_refutations_check_with_and_without_hints(holes: int, rng: Any) -> None:
    clauses = pigeonhole(holes)
    rng.shuffle(clauses)
    raw = parse_proof(refute(CoverCnf(["v"] * (holes + 1) * holes, clauses)))  # type: ignore[arg-type]
    assert check_refutation(clauses, raw) is None
    trimmed = trim_refutation(clauses, raw)
    assert trimmed is not None
    lemmas, hints = trimmed
    assert len(lemmas) == len(hints) and lemmas[-1] == [] and len(lemmas) <= len(raw)
    kept = iter(raw)
    assert all(any(lemma == other for other in kept) for lemma in lemmas)  # a subsequence
    assert check_refutation(clauses, lemmas, hints) is None
    assert check_refutation(clauses, lemmas) is None
    # Each hint alone shows its lemma, citing only what came before it.
    accepted = list(clauses)
    for lemma, hint in zip(lemmas, hints):
        assert follows_by_hints(accepted, lemma, hint, len(accepted) + 1)
        accepted.append(lemma)


def test_a_hint_never_makes_a_lemma_pass_or_fail() -> None:
    clauses = [[1, 2], [-1, 2], [1, -2]]  # satisfiable by 1, 2
    assert not follows_by_hints(clauses, [], [1, 2, 3], 4)
    assert check_refutation(clauses, [[]], [[1, 2, 3]]) == (
        "lemma 1 (the empty clause) does not follow by unit propagation"
    )
    assert not follows_by_hints(clauses, [-2], [2], 2)  # a clause past the limit
    unsatisfiable = [*clauses, [-1, -2]]
    lemmas = parse_proof(["-2 0", "1 0", "0"])
    assert (
        check_refutation(unsatisfiable, lemmas, [[9], [], [4, 1]]) is None
    )  # bad hints: full check
    assert trim_refutation(clauses, parse_proof(["2 0", "0"])) is None
    assert trim_refutation(unsatisfiable, parse_proof(["-2 0"])) is None  # never the empty clause


def test_a_certificate_carries_a_trimmed_hinted_proof(certificate: dict[str, Any]) -> None:
    stats = certificate["stats"]
    assert len(certificate["hints"]) == len(certificate["proof"]) == stats["lemmas"]
    assert stats["lemmas"] <= stats["lemmas_found"]
    bare = copy.deepcopy(certificate)
    del bare["hints"]
    assert check_certificate(bare) is None
    wrong = copy.deepcopy(certificate)
    wrong["hints"] = ["1"] * len(wrong["hints"])
    assert check_certificate(wrong) is None  # every lemma checked in full instead
    broken = copy.deepcopy(certificate)
    broken["hints"][0] = "1 x"
    assert check_certificate(broken) == "certificate.hints[0]: '1 x' does not match '^[0-9 ]*$'"
