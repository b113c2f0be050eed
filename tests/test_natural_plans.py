"""Natural plans: a spring's plan is the best of all spring plans by ``plan_rank``, in every engine.

The order: the fewest plays; then the most bombs and rockets played whole
(each doubles the stake); then no answerable play if an all-safe plan exists.
The reference below computes the best triple by brute force, sharing nothing
with the engines or with ``plan_rank``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spring_reference import checked
from test_cpsat import DECK_CARDS, endgames

from cpsolver.io.dealgen import generate
from cpsolver.rules.cards import BLACK_JOKER, DECK_COUNTS, RED_JOKER, THREE, TWO, Deal, Hand
from cpsolver.rules.movegen import answers, plays
from cpsolver.rules.plays import Kind, Play
from cpsolver.spring import cpsat, search
from cpsolver.spring.engines import solve_with
from cpsolver.spring.result import SpringResult, Verdict, natural_weights, plan_rank

Rank3 = tuple[int, int, int]


def answerable(deal: Deal, play: Play) -> int:
    """1 if either peasant, on its own, can beat ``play``; else 0."""
    return int(any(answers(peasant, play) for peasant in deal.peasants))


def triple(deal: Deal, plan: Sequence[Play]) -> Rank3:
    """(plays, -bombs and rockets, answerable plays) of a plan, counted here from the rules."""
    points = sum(play.kind in (Kind.BOMB, Kind.ROCKET) for play in plan)
    return len(plan), -points, sum(answerable(deal, play) for play in plan)


def best_spring_triple(deal: Deal) -> Rank3 | None:
    """The least triple of any spring split, by brute force over ``plays()``; None for no spring."""

    @cache
    def best(hand: Hand, budget: int) -> Rank3 | None:
        if not hand:
            return (0, 0, 0)
        lowest = next(hand.ranks())
        found: Rank3 | None = None
        for play in plays(hand):
            if not play.cards[lowest]:
                continue
            cost = answerable(deal, play)
            if cost > budget:
                continue
            rest = best(hand - play.cards, budget - cost)
            if rest is None:
                continue
            point = play.kind in (Kind.BOMB, Kind.ROCKET)
            total = (1 + rest[0], rest[1] - point, rest[2] + cost)
            if found is None or total < found:
                found = total
        return found

    return best(deal.landlord, 1)


def fewest_spring_plays(deal: Deal) -> int | None:
    """The fewest plays of a spring split; None for no spring."""
    found = best_spring_triple(deal)
    return None if found is None else found[0]


def result_triple(deal: Deal, result: SpringResult) -> Rank3:
    """An engine's plan's triple, counted here and by ``plan_rank``, which must agree."""
    counted = triple(deal, [step.play for step in result.plan])
    assert plan_rank(result.plan) == counted, result.plan
    return counted


def every_engine(deal: Deal, any_plan: bool = False) -> list[SpringResult]:
    """The spring answer of the search and of both CP-SAT strategies, each plan verified."""
    return [
        checked(deal, search.solve(deal, any_plan=any_plan)),
        checked(deal, cpsat.solve(deal, strategy="eager", any_plan=any_plan)),
        checked(deal, cpsat.solve(deal, strategy="lazy", any_plan=any_plan)),
    ]


@st.composite
def bomb_endgames(draw: st.DrawFn, most: int = 4) -> Deal:
    """Small positions whose landlord holds a bomb or the rocket (or both) among a few cards."""
    whole = draw(st.lists(st.integers(THREE, RED_JOKER), min_size=1, max_size=2, unique=True))
    # A joker drawn stands for the rocket: both jokers go to the landlord.
    taken = {BLACK_JOKER, RED_JOKER} if any(r > TWO for r in whole) else set()
    taken |= {r for r in whole if r <= TWO}
    landlord = [0] * len(DECK_COUNTS)
    for r in taken:
        landlord[r] = DECK_COUNTS[r]
    order = draw(st.permutations([r for r in DECK_CARDS if r not in taken]))
    sizes = [draw(st.integers(0, most)), draw(st.integers(1, most)), draw(st.integers(1, most))]
    for r in order[: sizes[0]]:
        landlord[r] += 1
    cuts = [sizes[0], sizes[0] + sizes[1], sum(sizes)]
    peasants = [Hand.from_ranks(order[a:b]) for a, b in pairwise(cuts)]
    return Deal(Hand(landlord), *peasants)


def assert_natural(deal: Deal) -> None:
    """Every engine's plan attains exactly the reference's best triple."""
    expected = best_spring_triple(deal)
    for result in every_engine(deal):
        assert (result.verdict is Verdict.SPRING) == (expected is not None), result.stats
        if expected is not None:
            assert result_triple(deal, result) == expected, (result.plan, result.stats)


@settings(max_examples=150, deadline=None)
@given(endgames(most=8))
def test_every_engine_plan_is_the_most_natural_of_the_exhaustive_reference(deal: Deal) -> None:
    assert_natural(deal)


@settings(max_examples=150, deadline=None)
@given(bomb_endgames())
def test_every_engine_keeps_the_most_bombs_and_rockets_whole(deal: Deal) -> None:
    assert_natural(deal)


@settings(max_examples=60, deadline=None)
@given(endgames(most=17))
def test_larger_positions_give_equal_triples_in_every_engine(deal: Deal) -> None:
    natural = {result_triple(deal, result) for result in every_engine(deal)}
    assert len(natural) == 1, natural


@pytest.mark.parametrize("kind", ["full", "endgame", "planted"])
def test_the_engines_agree_on_the_triple_over_generated_corpora(kind: str) -> None:
    for entry in generate(kind, 200, seed=13):
        natural = [result_triple(entry.deal, result) for result in every_engine(entry.deal)]
        quick = every_engine(entry.deal, any_plan=True)
        assert len(set(natural)) == 1, (entry.id, natural)
        assert all(r.verdict is quick[0].verdict for r in quick), entry.id
        if quick[0].verdict is Verdict.SPRING:
            assert all(result_triple(entry.deal, r) >= natural[0] for r in quick), entry.id


@pytest.mark.parametrize("kind", ["full", "planted"])
def test_the_engines_agree_on_the_triple_over_another_seed(kind: str) -> None:
    for entry in generate(kind, 200, seed=1):
        natural = {result_triple(entry.deal, result) for result in every_engine(entry.deal)}
        assert len(natural) == 1, (entry.id, natural)


def cards(result: SpringResult) -> list[str]:
    return [str(step.play) for step in result.plan]


def test_a_bomb_and_the_rocket_go_out_whole_and_nothing_answerable() -> None:
    # Issue 27: the search planned R, 32222B, 3 (the last one answerable).
    deal = Deal.parse("BR 2222 33", "4", "5")
    for result in every_engine(deal):
        assert cards(result) == ["33", "2222", "BR"]
        assert all(step.safe for step in result.plan)


def test_the_fewest_plays_come_first_then_the_rocket_whole() -> None:
    # Issue 27: R, A222, KKKAAA2B split the rocket and both bombs. Three plays
    # are the fewest, and no three-play spring keeps a bomb whole; the best of
    # them keeps the rocket (keeping BR, 2222 and AAAA all whole takes four).
    deal = Deal.parse("BR 2222 AAAA KKK", "4", "5")
    assert best_spring_triple(deal) == (3, -1, 0)
    for result in every_engine(deal):
        assert result_triple(deal, result) == (3, -1, 0)
        assert "BR" in cards(result)


def test_a_bomb_is_not_spent_as_a_quadplex() -> None:
    # generate("planted", seed=3) deal 16: CP-SAT planned the bomb as JJJJQK.
    deal = Deal.parse("888999TJJJJQKAAA222R", "345566677TTQQKKK2", "3334445567789TQAB")
    for result in every_engine(deal):
        assert result_triple(deal, result) == (4, -1, 0)
        assert "JJJJ" in cards(result)


def test_no_answerable_play_when_an_all_safe_plan_is_as_short() -> None:
    # generate("planted", seed=3) deal 0: the search ended on B, which the red joker beats.
    deal = Deal.parse("579TJJJJQQQKKKAA222B", "34455667788999AAR", "33344566788TTTQK2")
    for result in every_engine(deal):
        assert len(result.plan) == 4
        assert all(step.safe for step in result.plan), cards(result)


def test_the_weights_order_plans_as_plan_rank_does() -> None:
    # One play outweighs every bomb and rocket the hand can hold and the answerable play.
    weights = natural_weights(Hand.parse("BR 2222 AAAA KKKK 3"))
    most_points = 4
    assert weights.play > weights.point * most_points + weights.answerable
    assert weights.point > weights.answerable


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
