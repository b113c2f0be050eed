"""The spring engines by name, behind one call."""

from __future__ import annotations

from cpsolver.rules.cards import Deal
from cpsolver.rules.ruleset import RuleSet
from cpsolver.spring import cpsat, search
from cpsolver.spring.result import SpringResult, Verdict
from cpsolver.verify.spring import check_plan

ENGINES = ("cpsat", "search")
# Chosen by measurement (benchmarks/solve.py, docs/speed.md): the search is
# several times faster than CP-SAT at the median and in the tail.
DEFAULT_ENGINE = "search"


def solve_with(
    engine: str,
    deal: Deal,
    rules: RuleSet | None = None,
    time_limit: float | None = None,
    strategy: cpsat.Strategy = cpsat.DEFAULT_STRATEGY,
    objective: str = "spring",
    any_plan: bool = False,
) -> SpringResult:
    """Solve ``deal`` with the named engine (``strategy`` is the CP-SAT engine's).

    A spring's plan is the natural one, the best of all spring plans by
    :func:`~cpsolver.spring.result.plan_rank` (both engines give plans equal
    on it), unless ``any_plan`` accepts the first one found. A spring is only ever returned
    with a plan that the verifier accepted.
    """
    if engine == "cpsat":
        result = cpsat.solve(
            deal, rules, strategy, time_limit, objective=objective, any_plan=any_plan
        )
    elif engine == "search":
        result = search.solve(deal, rules, time_limit, objective, any_plan)
    else:
        raise ValueError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    if result.verdict is Verdict.SPRING and objective != "fewest-plays":
        failure = check_plan(deal, [step.play for step in result.plan], rules)
        if failure is not None:  # an engine bug: never hand out an unchecked plan
            raise RuntimeError(f"{engine} found a plan the verifier rejects: {failure}")
    return result
