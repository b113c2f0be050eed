"""The best split of a hand: exact against brute force over every way to split small hands."""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.game.handvalue import TURN, best_split, play_value
from cpsolver.rules.cards import DECK_COUNTS, Hand
from cpsolver.rules.movegen import plays
from cpsolver.rules.plays import Play


@functools.cache
def brute_value(hand: Hand, control: float) -> float:
    # Every play of the hand may come first (not only those holding the lowest card).
    if not hand:
        return 0.0
    return max(
        play_value(p, control) - TURN + brute_value(hand - p.cards, control) for p in plays(hand)
    )


small_hands = st.lists(st.integers(0, len(DECK_COUNTS) - 1), min_size=1, max_size=9).map(
    lambda ranks: Hand([min(ranks.count(r), DECK_COUNTS[r]) for r in range(len(DECK_COUNTS))])
)


@settings(max_examples=150, deadline=None)
@given(small_hands, st.sampled_from([0.0, 6.0]))
def test_best_split_is_the_brute_force_optimum(hand: Hand, control: float) -> None:
    value, split = best_split(hand, control=control)
    assert value == brute_value(hand, control)
    total = Hand.empty()
    for play in split:
        total = total + play.cards
    assert total == hand  # the split uses every card once
    assert value == sum(play_value(p, control) - TURN for p in split)


def test_values_rank_control_and_long_plays() -> None:
    assert (
        play_value(Play.parse("BR")) > play_value(Play.parse("2222")) > play_value(Play.parse("2"))
    )
    assert play_value(Play.parse("2")) > play_value(Play.parse("A")) > play_value(Play.parse("3"))
    assert play_value(Play.parse("34567")) == play_value(Play.parse("7")) + 1


def test_kickers_are_the_lowest_loose_cards() -> None:
    _, split = best_split(Hand.parse("3334569TJQKAA"))
    assert "3334" in [str(p) for p in split]
    _, split = best_split(Hand.parse("33345AA"))
    assert [str(p) for p in split] == ["3334", "5", "AA"]


def test_control_keeps_the_2s_out_of_kickers() -> None:
    assert [str(p) for p in best_split(Hand.parse("3332"))[1]] == ["3332"]
    assert [str(p) for p in best_split(Hand.parse("3332"), control=6.0)[1]] == ["333", "2"]
