"""The spring engines by name, behind one call."""

from __future__ import annotations

from cpsolver import cpsat, search
from cpsolver.cards import Deal
from cpsolver.rules import RuleSet
from cpsolver.spring import SpringResult

ENGINES = ("cpsat", "search")
DEFAULT_ENGINE = "cpsat"


def solve_with(
    engine: str,
    deal: Deal,
    rules: RuleSet | None = None,
    time_limit: float | None = None,
    strategy: cpsat.solver.Strategy = cpsat.DEFAULT_STRATEGY,
    objective: str = "spring",
) -> SpringResult:
    """Solve ``deal`` with the named engine (``strategy`` is the CP-SAT engine's)."""
    if engine == "cpsat":
        return cpsat.solve(deal, rules, strategy, time_limit, objective=objective)
    if engine == "search":
        return search.solve(deal, rules, time_limit, objective)
    raise ValueError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
