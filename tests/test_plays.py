"""Plays: reading, printing, JSON, and the algebra of beating."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.rules.cards import Hand
from cpsolver.rules.errors import InvalidPlayError
from cpsolver.rules.movegen import plays
from cpsolver.rules.plays import Kind, Play, beats, classify, readings

DECK_PLAYS = plays(Hand.deck())
any_play = st.sampled_from(DECK_PLAYS)


@settings(max_examples=500)
@given(any_play)
def test_beats_is_irreflexive(x: Play) -> None:
    assert not beats(x, x)


@settings(max_examples=2000)
@given(any_play, any_play)
def test_beats_is_antisymmetric(x: Play, y: Play) -> None:
    assert not (beats(x, y) and beats(y, x))


@settings(max_examples=2000)
@given(any_play, any_play)
def test_ordinary_beating_needs_the_same_kind_and_shape(x: Play, y: Play) -> None:
    if beats(x, y) and x.kind not in (Kind.BOMB, Kind.ROCKET):
        assert (x.kind, x.shape, x.size) == (y.kind, y.shape, y.size)
        assert x.rank > y.rank


@settings(max_examples=1000)
@given(any_play)
def test_print_and_parse_round_trip(play: Play) -> None:
    assert Play.parse(str(play)) == play
    assert eval(repr(play), {"Play": Play}) == play
    assert Hand.parse(str(play.cards)) == play.cards


def test_every_multiset_in_the_deck_has_at_most_one_reading() -> None:
    """docs/RULES.md: under these rules every multiset of cards has at most one reading."""
    cards = [play.cards for play in DECK_PLAYS]
    assert len(cards) == len(set(cards))
    assert all(len(readings(hand)) == 1 for hand in cards)


def test_every_kind_occurs_in_the_deck() -> None:
    assert {play.kind for play in DECK_PLAYS} == set(Kind)


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        (
            "777888TJ",
            {
                "cards": "777888TJ",
                "kind": "triplet_sequence_singles",
                "rank": "8",
                "shape": {"triplets": 2},
            },
        ),
        ("TJQKA", {"cards": "TJQKA", "kind": "sequence", "rank": "A", "shape": {"length": 5}}),
        (
            "334455",
            {"cards": "334455", "kind": "pair_sequence", "rank": "5", "shape": {"length": 3}},
        ),
        (
            "666689",
            {"cards": "666689", "kind": "quadplex", "rank": "6", "shape": {"kickers": "singles"}},
        ),
        (
            "99JJJJQQ",
            {"cards": "99JJJJQQ", "kind": "quadplex", "rank": "J", "shape": {"kickers": "pairs"}},
        ),
        ("BR", {"cards": "BR", "kind": "rocket", "rank": "R", "shape": {}}),
        ("B", {"cards": "B", "kind": "single", "rank": "B", "shape": {}}),
    ],
)
def test_json_form(cards: str, expected: dict[str, object]) -> None:
    assert classify(cards).as_dict() == expected


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ("", "no cards"),
        ("34", "34: two cards of different ranks (a pair is one rank; B+R is the rocket)"),
        ("777888 33", "33777888: kickers of a triplet sequence must be distinct ranks"),
        ("333444 5555", "3334445555: kickers of a triplet sequence must be distinct ranks"),
        ("777888 BR", "777888BR: kickers of a triplet sequence may not be both jokers"),
        ("6666 88", "666688: kickers of a quadplex must be distinct ranks"),
        ("6666 BR", "6666BR: kickers of a quadplex may not be both jokers"),
        ("66668", "66668: kickers of a triplet must differ from its own rank"),
        ("JQKA2", "JQKA2: a sequence stays within 3..A: no 2s or jokers"),
        ("QQKKAA22", "QQKKAA22: a pair sequence stays within 3..A: no 2s or jokers"),
        ("AAA222", "AAA222: a triplet sequence stays within 3..A: no 2s or jokers"),
        ("34568", "34568: ranks 3 4 5 6 8 are not consecutive"),
        ("3456", "3456: a sequence needs at least 5 ranks, got 4"),
        ("3344", "3344: a pair sequence needs at least 3 ranks, got 2"),
        (
            "333444 6 77",
            "333444677: a triplet takes one single or one pair per triplet, and a quad two of them",
        ),
        (
            "3334445677",
            "3334445677: kickers of a triplet sequence must be all single cards or all pairs",
        ),
        ("3579", "3579: ranks 3 5 7 9 are not consecutive"),
        ("3JQKA", "3JQKA: ranks 3 J Q K A are not consecutive"),
        ("345 2", "3452: a sequence stays within 3..A: no 2s or jokers"),
        ("3345", "3345: 4 cards that form none of the thirteen combinations"),
    ],
)
def test_no_play_says_why(cards: str, reason: str) -> None:
    with pytest.raises(InvalidPlayError) as caught:
        classify(cards)
    assert str(caught.value) == reason
