"""The move generator against brute force, pinned perft counts, and its invariants."""

from __future__ import annotations

from collections import Counter

import pytest
from brute_force import brute_answers, brute_plays
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.rules.cards import DECK_COUNTS, Hand
from cpsolver.rules.movegen import answers, can_answer, generator, plays
from cpsolver.rules.plays import Kind, Play, beats, classify

DECK_CARDS = [rank for rank, count in enumerate(DECK_COUNTS) for _ in range(count)]
DECK_PLAYS = sorted(plays(Hand.deck()), key=Play.sort_key)


def hands(min_size: int = 1, max_size: int = 20) -> st.SearchStrategy[Hand]:
    """Hands dealt from one deck: distinct card positions, read as ranks."""
    return st.lists(
        st.integers(0, len(DECK_CARDS) - 1), unique=True, min_size=min_size, max_size=max_size
    ).map(lambda cards: Hand.from_ranks(DECK_CARDS[i] for i in cards))


any_play = st.sampled_from(DECK_PLAYS)


@settings(max_examples=150, deadline=None)
@given(hands())
def test_plays_equal_brute_force(hand: Hand) -> None:
    generated = plays(hand)
    assert len(generated) == len(set(generated)), "a play was generated twice"
    assert set(generated) == brute_plays(hand)


@settings(max_examples=40, deadline=None)
@given(hands(15, 20))
def test_plays_of_large_hands_equal_brute_force(hand: Hand) -> None:
    assert sorted(plays(hand), key=Play.sort_key) == sorted(brute_plays(hand), key=Play.sort_key)


@settings(max_examples=150, deadline=None)
@given(hands(), any_play)
def test_answers_equal_brute_force(hand: Hand, target: Play) -> None:
    found = answers(hand, target)
    assert len(found) == len(set(found))
    assert set(found) == brute_answers(hand, target)
    assert can_answer(hand, target) == bool(found)


@settings(max_examples=300, deadline=None)
@given(hands(), st.data())
def test_answers_to_plays_of_the_same_shape(hand: Hand, data: st.DataObject) -> None:
    """Targets drawn from near the hand's own plays, so that answers exist often."""
    own = plays(hand)
    target = data.draw(st.sampled_from(own))
    found = answers(hand, target)
    assert set(found) == {play for play in own if beats(play, target)}
    assert can_answer(hand, target) == bool(found)


@settings(max_examples=300, deadline=None)
@given(hands(), any_play)
def test_can_answer_agrees_with_answers(hand: Hand, target: Play) -> None:
    assert can_answer(hand, target) == bool(answers(hand, target))


@settings(max_examples=100, deadline=None)
@given(hands())
def test_every_play_classifies_back_to_itself(hand: Hand) -> None:
    for play in plays(hand):
        assert classify(play.cards) == play
        assert play.cards <= hand


@settings(max_examples=200, deadline=None)
@given(hands(), any_play)
def test_an_answer_has_the_shape_it_beats_unless_bomb_or_rocket(hand: Hand, target: Play) -> None:
    for answer in answers(hand, target):
        if answer.kind not in (Kind.BOMB, Kind.ROCKET):
            assert answer.kind is target.kind
            assert answer.shape == target.shape and answer.size == target.size
            assert answer.rank > target.rank


# Perft: distinct plays per kind, computed once by brute_force.brute_plays and
# pinned here, so that a change in either the generator or the reading of the
# rules shows up as a count that moved.
PERFT = {
    "333444555666777 89TJQ": {
        "single": 10,
        "pair": 5,
        "triplet": 5,
        "triplet_single": 45,
        "triplet_pair": 20,
        "sequence": 21,
        "pair_sequence": 6,
        "triplet_sequence": 10,
        "triplet_sequence_singles": 248,
        "triplet_sequence_pairs": 12,
    },
    "3333 4444 555 666 77 88 BR": {
        "single": 8,
        "pair": 6,
        "triplet": 4,
        "triplet_single": 28,
        "triplet_pair": 20,
        "sequence": 3,
        "pair_sequence": 10,
        "triplet_sequence": 6,
        "triplet_sequence_singles": 56,
        "triplet_sequence_pairs": 20,
        "bomb": 2,
        "rocket": 1,
        "quadplex": 60,
    },
    "44 55 66 777 88 99 TT JJJ A 2": {
        "single": 10,
        "pair": 8,
        "triplet": 2,
        "triplet_single": 18,
        "triplet_pair": 14,
        "sequence": 10,
        "pair_sequence": 21,
    },
    "34 5 6 77 8 9 TT J QQ K AA 22 2 B": {
        "single": 14,
        "pair": 5,
        "triplet": 1,
        "triplet_single": 13,
        "triplet_pair": 4,
        "sequence": 36,
    },
}


@pytest.mark.parametrize("text", PERFT)
def test_perft_counts_per_kind(text: str) -> None:
    hand = Hand.parse(text)
    assert len(hand) == 20
    assert dict(Counter(play.kind.value for play in plays(hand))) == PERFT[text]


@pytest.mark.parametrize("text", PERFT)
def test_perft_counts_come_from_brute_force(text: str) -> None:
    brute = Counter(play.kind.value for play in brute_plays(Hand.parse(text)))
    assert dict(brute) == PERFT[text]


def test_interned_plays_are_shared_between_calls() -> None:
    hand = Hand.parse("333444 5 6 77")
    assert all(a is b for a, b in zip(plays(hand), plays(hand)))


def test_nothing_answers_the_rocket() -> None:
    assert answers(Hand.deck(), Play.parse("BR")) == []
    assert not can_answer(Hand.deck(), Play.parse("BR"))


def test_only_a_higher_bomb_or_the_rocket_answers_a_bomb() -> None:
    hand = Hand.parse("3333 KKKK AAA 22 B")
    assert [str(p) for p in answers(hand, Play.parse("QQQQ"))] == ["KKKK"]
    assert not can_answer(hand, Play.parse("KKKK"))
    assert can_answer(hand + Hand.parse("R"), Play.parse("2222"))


def test_a_bomb_answers_any_quadplex() -> None:
    hand = Hand.parse("3333 5")
    assert answers(hand, Play.parse("AAAA 2 B")) == [Play.parse("3333")]
    assert answers(hand, Play.parse("AAAA KK QQ")) == [Play.parse("3333")]


def test_single_kickers_never_both_jokers_in_generated_plays() -> None:
    for play in plays(Hand.parse("777888 9 BR")):
        assert not (play.kind is Kind.TRIPLET_SEQUENCE_SINGLES and str(play).endswith("BR"))
    assert Play.parse("777888 9R") in plays(Hand.parse("777888 9 BR"))


@settings(max_examples=150, deadline=None)
@given(hands(), any_play)
def test_representatives_and_strongest_agree_with_all_plays(hand: Hand, target: Play) -> None:
    moves = generator()
    every = plays(hand)
    classes = {(p.family, p.rank) for p in every}
    representatives = moves.representatives(hand)
    assert len(representatives) == len(classes)
    assert {(p.family, p.rank) for p in representatives} == classes
    same_shape = [p for p in every if p.family == target.family]
    strongest = moves.strongest(hand, target)
    if same_shape:
        assert strongest is not None and strongest in same_shape
        assert strongest.rank == max(p.rank for p in same_shape)
    else:
        assert strongest is None
