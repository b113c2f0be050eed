"""Blocking cards: exhaustively checked to block, and to be irreducible."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from spring_reference import coverable, has_spring
from test_cpsat import endgames

from cpsolver.io.dealgen import generate
from cpsolver.rules.cards import Deal, Hand
from cpsolver.spring.cpsat.explain import explain


def check_blocking(deal: Deal) -> None:
    """S cannot be covered, and S minus any one card can; a spring has nothing to explain."""
    explanation = explain(deal)
    if explanation.blocking is None:
        assert has_spring(deal)
        return
    blocking = explanation.blocking
    assert blocking <= deal.landlord
    assert not coverable(deal, blocking)
    for r in set(blocking.ranks()):
        assert coverable(deal, blocking - Hand.from_ranks([r])), r
    assert set(explanation.carriers) == set(blocking.ranks())
    for r, carriers in explanation.carriers.items():
        assert carriers and all(c.play.cards[r] for c in carriers)


@settings(max_examples=120, deadline=None)
@given(endgames())
def test_blocking_cards_on_endgames(deal: Deal) -> None:
    check_blocking(deal)


@pytest.mark.parametrize("kind", ["full", "planted"])
def test_blocking_cards_on_generated_full_deals(kind: str) -> None:
    checked = 0
    for entry in generate(kind, 40, seed=13):
        explanation = explain(entry.deal)
        if explanation.blocking is not None and len(explanation.blocking) <= 6:
            check_blocking(entry.deal)
            checked += 1
    assert checked >= 10


def test_the_explanation_names_the_answers() -> None:
    explanation = explain(Deal.parse("KK 2", "AA", "B"))
    assert str(explanation.blocking) == "K2"
    assert [str(c) for c in explanation.carriers[10]] == [
        "K (peasant 1 answers with A)",
        "KK (peasant 1 answers with AA)",
    ]
    assert [str(c) for c in explanation.carriers[12]] == ["2 (peasant 2 answers with B)"]
    assert explanation.as_dict()["blocking"] == "K2"


def test_a_spring_has_nothing_to_explain() -> None:
    explanation = explain(Deal.parse("KK 2", "AA", "3"))
    assert explanation.blocking is None and explanation.as_dict()["verdict"] == "spring"
