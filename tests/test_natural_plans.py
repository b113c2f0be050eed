"""Natural plans: a spring's plan has the fewest plays of any spring plan, in every engine."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from spring_reference import checked
from test_cpsat import endgames

from cpsolver.io.dealgen import generate
from cpsolver.rules.cards import Deal, Hand
from cpsolver.rules.movegen import answers, plays
from cpsolver.spring import cpsat, search
from cpsolver.spring.engines import solve_with
from cpsolver.spring.result import SpringResult, Verdict

_NONE = 1 << 30


def fewest_spring_plays(deal: Deal) -> int | None:
    """The fewest plays of a spring split, by brute force over ``plays()``; None for no spring."""

    @cache
    def best(hand: Hand, budget: int) -> int:
        if not hand:
            return 0
        lowest = next(hand.ranks())
        found = _NONE
        for play in plays(hand):
            if play.cards[lowest]:
                answerable = any(answers(peasant, play) for peasant in deal.peasants)
                if budget >= answerable:
                    found = min(found, 1 + best(hand - play.cards, budget - answerable))
        return found

    value = best(deal.landlord, 1)
    return None if value == _NONE else value


def every_engine(deal: Deal, any_plan: bool = False) -> list[SpringResult]:
    """The spring answer of the search and of both CP-SAT strategies, each plan verified."""
    return [
        checked(deal, search.solve(deal, any_plan=any_plan)),
        checked(deal, cpsat.solve(deal, strategy="eager", any_plan=any_plan)),
        checked(deal, cpsat.solve(deal, strategy="lazy", any_plan=any_plan)),
    ]


@settings(max_examples=150, deadline=None)
@given(endgames(most=8))
def test_every_engine_plan_has_the_fewest_plays_of_the_exhaustive_reference(deal: Deal) -> None:
    expected = fewest_spring_plays(deal)
    for result in every_engine(deal):
        assert (result.verdict is Verdict.SPRING) == (expected is not None)
        if expected is not None:
            assert len(result.plan) == expected, result.stats


@pytest.mark.parametrize("kind", ["full", "endgame", "planted"])
def test_the_engines_agree_on_the_count_over_generated_corpora(kind: str) -> None:
    for entry in generate(kind, 200, seed=13):
        natural = [len(result.plan) for result in every_engine(entry.deal)]
        quick = every_engine(entry.deal, any_plan=True)
        assert len(set(natural)) == 1, (entry.id, natural)
        assert all(r.verdict is quick[0].verdict for r in quick), entry.id
        assert all(len(r.plan) >= natural[0] for r in quick), entry.id


def test_the_rocket_goes_out_as_one_play() -> None:
    deal = Deal.parse("KK BR", "3", "4")
    for result in every_engine(deal):
        assert [str(step.play) for step in result.plan] == ["KK", "BR"]


def test_a_triplet_chain_takes_its_kickers_in_one_play() -> None:
    deal = Deal.parse("333444 5 7", "4", "5")
    for result in every_engine(deal):
        assert [str(step.play) for step in result.plan] == ["33344457"]


def test_any_plan_may_be_longer() -> None:
    deal = Deal.parse(
        "333444555 TJQKA AAA 22 R", "666 77 888 99 TT JJ Q KK", "3 4 5 6 77 8 99 T J QQ K 22 B"
    )
    assert len(solve_with("cpsat", deal, any_plan=True).plan) == 6
    assert {len(result.plan) for result in every_engine(deal)} == {3}


@pytest.mark.parametrize("kind", ["full", "planted"])
def test_fewest_plays_decides_the_spring_in_the_same_solve(kind: str) -> None:
    for entry in generate(kind, 150, seed=5):
        verdict = solve_with("search", entry.deal).verdict
        assert cpsat.solve(entry.deal, objective="fewest-plays").verdict is verdict, entry.id
