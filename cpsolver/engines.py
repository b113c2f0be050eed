"""The spring engines by name, behind one call."""

from __future__ import annotations

from cpsolver import cpsat, search
from cpsolver.cards import Deal
from cpsolver.rules import RuleSet
from cpsolver.spring import SpringResult, Verdict
from cpsolver.verify import check_plan

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
    """Solve ``deal`` with the named engine (``strategy`` is the CP-SAT engine's).

    A spring is only ever returned with a plan that the verifier accepted.
    """
    if engine == "cpsat":
        result = cpsat.solve(deal, rules, strategy, time_limit, objective=objective)
    elif engine == "search":
        result = search.solve(deal, rules, time_limit, objective)
    else:
        raise ValueError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    if result.verdict is Verdict.SPRING and objective != "fewest-plays":
        failure = check_plan(deal, [step.play for step in result.plan], rules)
        if failure is not None:  # an engine bug: never hand out an unchecked plan
            raise RuntimeError(f"{engine} found a plan the verifier rejects: {failure}")
    return result
