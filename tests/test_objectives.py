"""Closest to a spring: both engines' optima against the exhaustive reference and each other."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from spring_reference import fewest
from test_cpsat import endgames

from cpsolver.crosscheck.spring import EngineSolver, crosscheck
from cpsolver.io.dealgen import generate
from cpsolver.rules.cards import Deal
from cpsolver.rules.ruleset import standard_rules
from cpsolver.spring.engines import ENGINES, solve_with
from cpsolver.spring.result import OBJECTIVES, Verdict
from cpsolver.verify.spring import check_split

OPTIMA = OBJECTIVES[1:]


def optimum(engine: str, deal: Deal, objective: str) -> int:
    """An engine's optimum, after checking that its split attains it."""
    result = solve_with(engine, deal, objective=objective)
    assert result.objective is not None and result.objective.name == objective
    failure, answerable = check_split(deal, [step.play for step in result.plan])
    assert failure is None
    assert result.objective.value == (
        answerable if objective == "fewest-answerable" else len(result.plan)
    )
    if objective == "fewest-answerable":
        assert (result.verdict is Verdict.SPRING) == (result.objective.value <= 1)
    return result.objective.value


@settings(max_examples=150, deadline=None)
@given(endgames())
def test_both_optima_of_both_engines_equal_the_exhaustive_reference(deal: Deal) -> None:
    for objective in OPTIMA:
        expected = fewest(deal, objective)
        for engine in ENGINES:
            assert optimum(engine, deal, objective) == expected, (engine, objective)


@pytest.mark.parametrize("kind", ["full", "endgame", "planted"])
def test_both_engines_agree_on_both_optima_over_generated_corpora(kind: str) -> None:
    rules = standard_rules()
    solvers = [EngineSolver(name, rules, None, optima=True) for name in ENGINES]
    summary = crosscheck(generate(kind, 150, seed=99), solvers, rules)  # type: ignore[arg-type]
    assert summary.agreements == summary.deals == 150


def test_one_interruption_short() -> None:
    deal = Deal.parse("KK 2", "AA", "B")  # each peasant answers one play
    assert [optimum(engine, deal, "fewest-answerable") for engine in ENGINES] == [2, 2]
    assert [optimum(engine, deal, "fewest-plays") for engine in ENGINES] == [2, 2]


def test_fewest_plays_ignores_the_peasants() -> None:
    deal = Deal.parse("333444 5 6 77", "B R", "3")
    assert [optimum(engine, deal, "fewest-plays") for engine in ENGINES] == [2, 2]
    assert [optimum(engine, deal, "fewest-answerable") for engine in ENGINES] == [2, 2]


def test_unknown_objective() -> None:
    for engine in ENGINES:
        with pytest.raises(ValueError, match="unknown objective 'most-plays'"):
            solve_with(engine, Deal.parse("3", "4", "5"), objective="most-plays")
