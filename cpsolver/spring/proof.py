"""Proofs of springs: a JSON document anyone can check with ``cpsolver verify``.

A proof holds the rule set (name and digest), the deal, the verdict, the
ordered plan and, for every step and each peasant, the evidence that it can
or cannot answer: its strongest play of the step's kind and shape, its bombs,
and whether it holds the rocket. ``cpsolver/verify/schemas/proof.schema.json`` describes it.
"""

from __future__ import annotations

from typing import Any

from cpsolver.io.dealformat import deal_as_dict
from cpsolver.rules.cards import BLACK_JOKER, RED_JOKER, TWO, Deal, Hand
from cpsolver.rules.movegen import MoveGenerator
from cpsolver.rules.plays import Play
from cpsolver.rules.ruleset import RuleSet
from cpsolver.spring.result import SpringResult, Verdict

FORMAT = "cpsolver-proof"
VERSION = 1


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
