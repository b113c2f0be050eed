"""The search engine: the exhaustive reference, the hand-made cases, the CP-SAT engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from spring_cases import HAND_MADE
from spring_reference import checked, has_spring
from test_cpsat import endgames

from cpsolver.io.dealgen import generate
from cpsolver.rules.cards import Deal, Hand
from cpsolver.spring import cpsat, search
from cpsolver.spring.result import SpringResult, Verdict
from cpsolver.spring.search import contains, pack


def searched(deal: Deal) -> SpringResult:
    """Search, holding the result to the verifier (``spring_reference.checked``)."""
    return checked(deal, search.solve(deal))


@settings(max_examples=400, deadline=None)
@given(endgames())
def test_search_agrees_with_the_exhaustive_reference(deal: Deal) -> None:
    assert (searched(deal).verdict is Verdict.SPRING) == has_spring(deal)


@pytest.mark.parametrize(("landlord", "peasant1", "peasant2", "verdict", "reason"), HAND_MADE)
def test_hand_made_cases(
    landlord: str, peasant1: str, peasant2: str, verdict: str, reason: str
) -> None:
    deal = Deal.parse(landlord, peasant1, peasant2)
    assert searched(deal).verdict.value == verdict, reason
    assert cpsat.solve(deal).verdict.value == verdict, reason


@pytest.mark.parametrize("kind", ["full", "planted"])
def test_search_agrees_with_cpsat_on_full_deals(kind: str) -> None:
    for entry in generate(kind, 150, seed=11):
        assert searched(entry.deal).verdict is cpsat.solve(entry.deal).verdict, entry.id


def test_packed_containment_matches_multiset_inclusion() -> None:
    rng = random.Random(5)
    deck = Hand.deck()
    for _ in range(2000):
        a = Hand(rng.randint(0, c) for c in deck.counts)
        b = Hand(rng.randint(0, c) for c in deck.counts)
        assert contains(pack(a), pack(b)) == (b <= a)


def test_a_time_limit_gives_unknown() -> None:
    deal = next(generate("planted", 1, seed=2)).deal
    result = search.solve(deal, time_limit=0)
    assert result.verdict is Verdict.UNKNOWN and result.plan == []
