"""Proofs of springs: a JSON document anyone can check with ``cpsolver verify``.

A proof holds the rule set (name and digest), the deal, the verdict, the
ordered plan and, for every step and each peasant, the evidence that it can
or cannot answer: its strongest play of the step's kind and shape, its bombs,
and whether it holds the rocket. ``schemas/proof.schema.json`` describes it.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from cpsolver.cards import BLACK_JOKER, RED_JOKER, TWO, Deal, Hand
from cpsolver.dealformat import deal_as_dict
from cpsolver.errors import CpsolverError
from cpsolver.movegen import MoveGenerator
from cpsolver.plays import Play
from cpsolver.reading import InputError, loads_json
from cpsolver.rules import RuleSet
from cpsolver.schemacheck import first_error
from cpsolver.spring import SpringResult, Verdict

FORMAT = "cpsolver-proof"
VERSION = 1
# The schema of each document format that `cpsolver verify` reads.
_SCHEMAS = {"cpsolver-certificate": "certificate", "cpsolver-strategy": "strategy-header"}


class ProofFormatError(CpsolverError):
    """A proof document that is not JSON of the proof schema; says where it breaks."""


@cache
def schema(name: str) -> dict[str, Any]:
    """A packaged JSON Schema: ``proof``, ``certificate`` or ``strategy``.

    ``strategy-header`` is the strategy schema with its nodes left to the
    checker, which reads them by hand: a proof of ten thousand nodes would
    otherwise spend nine tenths of its checking time in the schema.
    """
    if name == "strategy-header":
        header: dict[str, Any] = json.loads(json.dumps(schema("strategy")))
        header["properties"]["nodes"]["items"] = {"type": "object"}
        return header
    folder = resources.files("cpsolver") / "schemas"
    found: dict[str, Any] = json.loads((folder / f"{name}.schema.json").read_text(encoding="utf-8"))
    return found


def validate(document: Any, name: str) -> None:
    """Raise :class:`ProofFormatError` naming the first place ``document`` breaks schema ``name``."""
    error = first_error(document, schema(name))
    if error is not None:
        path, message = error
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        raise ProofFormatError(f"{name}{where}: {message}")


def rules_mismatch(document: dict[str, Any], rules: RuleSet, what: str) -> str | None:
    """Why a ``what`` (proof, certificate, strategy) made under other rules is refused, or None."""
    claimed = document["rules"]
    if (claimed["name"], claimed["digest"]) != (rules.name, rules.digest):
        return (
            f"the {what} was made under the rules {claimed['name']!r} "
            f"({claimed['digest']}), not {rules.name!r} ({rules.digest}): "
            f"check it with --rules {claimed['name']} if those are the rules you mean"
        )
    return None


def read_proof(text: str) -> dict[str, Any]:
    """Parse a proof, certificate or strategy document and check it against its schema."""
    try:
        document = loads_json(text, "proof")
    except InputError as error:
        raise ProofFormatError(str(error)) from None
    kind = document.get("format") if isinstance(document, dict) else None
    validate(document, _SCHEMAS.get(str(kind), "proof"))
    # (A strategy's nodes are checked by hand as they are walked: see verify_strategy.)
    result: dict[str, Any] = document
    return result


def evidence(peasant: Hand, number: int, play: Play, moves: MoveGenerator) -> dict[str, Any]:
    """Why peasant ``number`` can or cannot answer ``play``, as recorded in a proof."""
    strongest = moves.strongest(peasant, play)
    return {
        "peasant": number,
        "strongest": str(strongest) if strongest is not None else None,
        "bombs": [str(Hand.from_ranks([r] * 4)) for r in range(TWO + 1) if peasant[r] == 4],
        "rocket": bool(peasant[BLACK_JOKER] and peasant[RED_JOKER]),
    }


def build_proof(
    deal: Deal, result: SpringResult, rules: RuleSet, moves: MoveGenerator
) -> dict[str, Any]:
    """The proof document of a spring result."""
    if result.verdict is not Verdict.SPRING:
        raise ValueError("only a spring has a plan to prove")
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": {"name": rules.name, "digest": rules.digest},
        "deal": deal_as_dict(deal),
        "verdict": result.verdict.value,
        "plan": [
            {
                **step.as_dict(),
                "evidence": [
                    evidence(peasant, number, step.play, moves)
                    for number, peasant in enumerate(deal.peasants, 1)
                ],
            }
            for step in result.plan
        ],
        "stats": result.stats,
    }
