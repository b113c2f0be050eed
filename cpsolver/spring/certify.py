"""Certificates of "no spring": blocking cards, and a SAT refutation anyone can check.

The certificate names a blocking set S (found by :mod:`cpsolver.spring.cpsat.explain`),
the encoder that turns "S can be covered" into CNF (:mod:`cpsolver.verify.cnf`), and
a DRUP refutation of that CNF from CaDiCaL (through python-sat), trimmed to
the lemmas it needs and hinted (:func:`cpsolver.verify.rup.trim_refutation`).
``cpsolver verify`` rebuilds the CNF and checks the refutation with
:mod:`cpsolver.verify.rup`, without CP-SAT and without a SAT solver.
"""

from __future__ import annotations

import time
from typing import Any

from pysat.solvers import Solver

from cpsolver.io.dealformat import deal_as_dict
from cpsolver.rules.cards import Deal
from cpsolver.rules.ruleset import RuleSet, standard_rules
from cpsolver.spring.cpsat.explain import blocking_cards
from cpsolver.verify.cnf import ENCODER, CoverCnf, encode
from cpsolver.verify.rup import parse_proof, trim_refutation

FORMAT = "cpsolver-certificate"
VERSION = 1


def refute(cnf: CoverCnf) -> list[str] | None:
    """A DRUP refutation of the formula, as proof lines; None if it is satisfiable."""
    with Solver(name="cadical153", bootstrap_with=cnf.clauses, with_proof=True) as solver:
        if solver.solve():
            return None
        proof: list[str] = solver.get_proof()
        return proof


def certify(deal: Deal, rules: RuleSet | None = None) -> tuple[dict[str, Any], CoverCnf] | None:
    """The certificate that ``deal`` has no spring, with its CNF; None if it has a spring."""
    rules = rules or standard_rules()
    started = time.perf_counter()
    blocking, _ = blocking_cards(deal, rules)
    if blocking is None:
        return None
    cnf = encode(deal, blocking, rules)
    found = refute(cnf)
    if found is None:  # explain and the encoder disagree: a bug, never a certificate
        raise RuntimeError(f"the blocking set {blocking} is coverable by {ENCODER}")
    # Keep only the lemmas the refutation needs, each with its hint: checking
    # then follows the hints instead of propagating every clause for every lemma.
    trimmed = trim_refutation(cnf.clauses, parse_proof(found))
    if trimmed is None:  # CaDiCaL's proof does not check: a bug, never a certificate
        raise RuntimeError(f"the refutation of {ENCODER} for {blocking} does not check")
    lemmas, hints = trimmed
    proof = [" ".join(map(str, [*lemma, 0])) for lemma in lemmas]
    document = {
        "format": FORMAT,
        "version": VERSION,
        "verdict": "no_spring",
        "rules": {"name": rules.name, "digest": rules.digest},
        "deal": deal_as_dict(deal),
        "blocking": str(blocking),
        "encoder": ENCODER,
        "proof": proof,
        "hints": [" ".join(map(str, hint)) for hint in hints],
        "stats": {
            "variables": cnf.variables,
            "clauses": len(cnf.clauses),
            "lemmas": len(proof),
            "lemmas_found": sum(not line.startswith("d") for line in found),
            "seconds": round(time.perf_counter() - started, 6),
        },
    }
    return document, cnf
