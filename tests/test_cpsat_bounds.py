"""The CP-SAT objectives' greedy split and lower bounds, against true optima.

The greedy split must be a partition of the hand into legal plays (checked
by the verifier), and so never below the optimum; each lower bound must never
exceed it. Optima come from the exhaustive reference on small deals, and from
the search engine (which shares no code with these bounds) on full ones and
under the other rule sets, whose kicker rules differ.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from spring_reference import fewest
from test_cpsat import endgames

from cpsolver.io.dealgen import generate
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.cards import Deal
from cpsolver.rules.movegen import generator
from cpsolver.rules.ruleset import RuleSet, standard_rules
from cpsolver.spring import cpsat, search
from cpsolver.spring.cpsat.bounds import (
    Use,
    answerable_bound,
    capacities,
    fewest_plays_bound,
    greedy_split,
)
from cpsolver.spring.cpsat.model import Option, kicker_rooms, options_of
from cpsolver.spring.cpsat.objectives import _steps
from cpsolver.spring.cpsat.safety import Unsafe
from cpsolver.spring.result import Verdict
from cpsolver.verify.spring import check_split


def bounds_of(deal: Deal, rules: RuleSet) -> tuple[list[list[Use]], int, int, list[Option]]:
    """Both greedy splits (largest first; safe first), both lower bounds, and the options."""
    moves = generator(rules)
    options = options_of(deal.landlord, moves)
    rooms = kicker_rooms(deal.landlord, options, moves)
    unsafe = Unsafe(options, deal.peasants, moves)
    unsafe.classify_all()
    caps = capacities(options, rooms)
    largest = sorted(range(len(options)), key=lambda o: -len(options[o].representative.cards))
    safe_first = sorted(largest, key=lambda o: o in unsafe.known)
    jokers = rules.both_jokers_as_kickers
    splits = [
        greedy_split(deal.landlord, options, rooms, order, jokers)
        for order in (largest, safe_first)
    ]
    plays_low = fewest_plays_bound(deal.landlord, options, caps)
    answerable_low = answerable_bound(deal.landlord, options, caps, unsafe.known)
    return splits, plays_low, answerable_low, options


def check_against(deal: Deal, rules: RuleSet, plays_optimum: int, answerable_optimum: int) -> None:
    splits, plays_low, answerable_low, options = bounds_of(deal, rules)
    moves = generator(rules)
    unsafe = Unsafe(options, deal.peasants, moves)
    unsafe.classify_all()
    assert plays_low <= plays_optimum
    assert answerable_low <= answerable_optimum
    for split in splits:
        plan = [step.play for step in _steps(options, split, unsafe.known)]
        failure, answerable = check_split(deal, plan, rules)
        assert failure is None, (str(deal), [str(p) for p in plan])
        assert len(plan) >= plays_optimum
        assert answerable >= answerable_optimum


@settings(max_examples=200, deadline=None)
@given(endgames())
def test_greedy_splits_and_bounds_against_the_exhaustive_reference(deal: Deal) -> None:
    check_against(
        deal, standard_rules(), fewest(deal, "fewest-plays"), fewest(deal, "fewest-answerable")
    )


@pytest.mark.parametrize("profile", ["standard", "rlcard", "douzero"])
@pytest.mark.parametrize("kind", ["full", "endgame", "planted"])
def test_greedy_splits_and_bounds_against_the_search_engine(kind: str, profile: str) -> None:
    rules = load_rules(profile)
    for entry in generate(kind, 60, seed=7):
        deal = entry.deal
        plays = search.solve(deal, rules, objective="fewest-plays")
        answerable = search.solve(deal, rules, objective="fewest-answerable")
        assert plays.objective is not None and answerable.objective is not None
        check_against(deal, rules, plays.objective.value, answerable.objective.value)
        if bounds_of(deal, rules)[2] > 1:  # the bound's "no spring" is a proof
            assert plays.verdict is Verdict.NO_SPRING


@pytest.mark.parametrize("profile", ["rlcard", "douzero"])
@pytest.mark.parametrize("objective", ["fewest-plays", "fewest-answerable"])
def test_cpsat_optima_and_verdicts_under_other_rules(profile: str, objective: str) -> None:
    rules = load_rules(profile)
    for kind in ("endgame", "planted"):
        for entry in generate(kind, 40, seed=11):
            ours = cpsat.solve(entry.deal, rules, objective=objective)
            theirs = search.solve(entry.deal, rules, objective=objective)
            assert ours.objective is not None and theirs.objective is not None
            assert (ours.verdict, ours.objective.value) == (
                theirs.verdict,
                theirs.objective.value,
            ), str(entry.deal)


def test_a_bound_proof_is_recorded_and_holds() -> None:
    # One play: the lower bound is 1 and the greedy split is that play.
    deal = Deal.parse("333444 5 6", "B R", "3")
    result = cpsat.solve(deal, objective="fewest-plays")
    assert result.stats["proof"] == "bounds"
    assert result.stats["bounds"] == [1, 1]
    assert result.objective is not None and result.objective.value == 1
    assert [str(step.play) for step in result.plan] == ["33344456"]


def test_a_hand_of_two_plays_is_not_one() -> None:
    # No option holds all six cards: at least two plays.
    splits, plays_low, _, _ = bounds_of(Deal.parse("333 44 5", "6", "7"), standard_rules())
    assert plays_low == 2
    assert min(len(split) for split in splits) == 2
