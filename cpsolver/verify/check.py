"""Any document cpsolver writes as a proof, checked: one entry for ``verify`` and ``show``."""

from __future__ import annotations

from typing import Any

from cpsolver.io.dealformat import parse_deal
from cpsolver.io.positionformat import parse_position
from cpsolver.rules.ruleset import RuleSet
from cpsolver.verify.spring import check_certificate, check_proof
from cpsolver.verify.strategy import check_strategy_walked


def check_document(
    document: dict[str, Any], subject: str | None, rules: RuleSet
) -> tuple[str | None, int]:
    """Check a proof, certificate or strategy; ``subject`` is the deal or position text it must be for.

    Gives the first failure (None: valid) and how many positions a
    strategy's check walked (0 for the others).
    """
    kind = document.get("format")
    if kind == "cpsolver-strategy":
        position = parse_position(subject, rules) if subject is not None else None
        return check_strategy_walked(document, position, rules)
    deal = parse_deal(subject) if subject is not None else None
    check = check_certificate if kind == "cpsolver-certificate" else check_proof
    return check(document, deal, rules), 0
