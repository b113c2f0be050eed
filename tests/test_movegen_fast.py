"""The fast move generator (lazy plays, per-shape loops) against the one it replaced.

tests/movegen_reference.py is the generator as it stood before: every play
built eagerly, kicker limits read rank by rank. The fast one must hand out the
same plays in the same order, with the same cards, kinds, families and hashes,
under every rule set, whether its tables are fresh, half filled or full.
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from movegen_reference import ReferenceGenerator
from movegen_reference import kicker_limit as reference_limit
from test_movegen import hands
from test_rules import LOOSE, STRICT

from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.cards import Hand
from cpsolver.rules.movegen import MoveGenerator
from cpsolver.rules.plays import Play, kicker_limit, patterns
from cpsolver.rules.ruleset import RuleSet

RULE_SETS = [load_rules("standard"), load_rules("rlcard"), load_rules("douzero"), LOOSE, STRICT]


def assert_same_plays(fast: list[Play], reference: list[Play]) -> None:
    """Equal lists of plays, and each lazy play completes to its eager twin."""
    assert fast == reference
    for lazy, eager in zip(fast, reference):
        assert str(lazy) == str(eager)
        assert lazy.family == eager.family
        assert hash(lazy) == hash(eager)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
@settings(max_examples=60, deadline=None)
@given(hand=hands())
def test_a_fresh_generator_gives_the_reference_plays_in_order(rules: RuleSet, hand: Hand) -> None:
    assert_same_plays(MoveGenerator(rules).plays(hand), ReferenceGenerator(rules).plays(hand))


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
@settings(max_examples=25, deadline=None)
@given(seen=st.lists(hands(8, 20), min_size=2, max_size=5), data=st.data())
def test_a_generator_in_use_gives_the_reference_answers(
    rules: RuleSet, seen: list[Hand], data: st.DataObject
) -> None:
    """Hands one after another (then the first again): fresh, half-filled and full tables."""
    fast, reference = MoveGenerator(rules), ReferenceGenerator(rules)
    for hand in [*seen, seen[0]]:
        own = reference.plays(hand)
        assert_same_plays(fast.plays(hand), own)
        assert_same_plays(fast.representatives(hand), reference.representatives(hand))
        target = data.draw(st.sampled_from(reference.plays(data.draw(st.sampled_from(seen)))))
        assert_same_plays(fast.answers(hand, target), reference.answers(hand, target))
        assert fast.can_answer(hand, target) == reference.can_answer(hand, target)
        assert fast.strongest(hand, target) == reference.strongest(hand, target)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_kicker_limits_equal_the_rank_by_rank_reading(rules: RuleSet) -> None:
    for pattern in patterns(rules):
        if not pattern.kicker_size:
            continue
        for low in range(15):
            for top in range(low, 15):
                for rank in range(15):
                    expected = reference_limit(rules, pattern, low, top, rank)
                    assert kicker_limit(rules, pattern, low, top, rank) == expected


def test_plays_stay_interned_through_every_table_state() -> None:
    moves = MoveGenerator(load_rules("douzero"))
    first, other = Hand.parse("333444 5 6 77 9 BR"), Hand.parse("333444 8 J KK 2222")
    fresh = moves.plays(first)
    moves.plays(other)  # the same cores with other kickers: the tables turn into dictionaries
    assert all(a is b for a, b in zip(fresh, moves.plays(first)))


def test_a_lazy_play_survives_pickling_and_copying() -> None:
    for play in MoveGenerator(load_rules("standard")).plays(Hand.parse("333444 5 6 77 BR")):
        again = pickle.loads(pickle.dumps(play))
        assert again == play and hash(again) == hash(play) and str(again) == str(play)
