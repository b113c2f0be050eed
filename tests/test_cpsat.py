"""The CP-SAT engine against the exhaustive reference, hand-made cases, and the verifier."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spring_reference import checked, has_spring, spring_splits

from cpsolver.rules.cards import DECK_COUNTS, TWO, Deal, Hand
from cpsolver.rules.movegen import can_answer
from cpsolver.rules.plays import Kind, Play
from cpsolver.spring.cpsat import STRATEGIES, solve
from cpsolver.spring.result import SpringResult, Verdict

DECK_CARDS = [rank for rank, count in enumerate(DECK_COUNTS) for _ in range(count)]


@st.composite
def endgames(draw: st.DrawFn, most: int = 10) -> Deal:
    """Positions dealt from one deck: landlord and peasants of 1 to ``most`` cards each."""
    order = draw(st.permutations(range(len(DECK_CARDS))))
    sizes = [draw(st.integers(1, most)) for _ in range(3)]
    cuts = [0, sizes[0], sizes[0] + sizes[1], sum(sizes)]
    hands = [Hand.from_ranks(DECK_CARDS[i] for i in order[a:b]) for a, b in pairwise(cuts)]
    return Deal(*hands)


def solved(deal: Deal, strategy: str = "eager") -> SpringResult:
    """Solve, holding the result to the verifier (``spring_reference.checked``)."""
    return checked(deal, solve(deal, strategy=strategy))  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(endgames())
def test_both_strategies_agree_with_the_exhaustive_reference(deal: Deal) -> None:
    expected = Verdict.SPRING if has_spring(deal) else Verdict.NO_SPRING
    for strategy in STRATEGIES:
        assert solved(deal, strategy).verdict is expected, strategy


@settings(max_examples=40, deadline=None)
@given(endgames(20))
def test_larger_positions_agree_between_strategies(deal: Deal) -> None:
    verdicts = {solved(deal, strategy).verdict for strategy in STRATEGIES}
    assert len(verdicts) == 1


def test_same_deal_same_options_same_plan() -> None:
    deal = Deal.parse(
        "333444555 TJQKA AAA 22 R", "666 77 888 99 TT JJ Q KK", "3 4 5 6 77 8 99 T J QQ K 22 B"
    )
    for strategy in STRATEGIES:
        plans = {tuple(str(s.play) for s in solve(deal, strategy=strategy).plan) for _ in range(3)}
        assert len(plans) == 1


def test_a_time_limit_gives_unknown_never_a_guess() -> None:
    deal = Deal.parse(
        "333444555 TJQKA AAA 22 R", "666 77 888 99 TT JJ Q KK", "3 4 5 6 77 8 99 T J QQ K 22 B"
    )
    result = solve(deal, time_limit=1e-9)
    assert result.verdict is Verdict.UNKNOWN and result.plan == []


def test_lazy_counts_rounds_and_cuts() -> None:
    deal = Deal.parse("KKK A 2 2", "QQQ 3", "AAA 3")
    lazy = solve(deal, strategy="lazy", any_plan=True).stats
    assert lazy["rounds"] > 1 and lazy["cuts"] == lazy["rounds"] - 1
    # The fewest plays take one more round once a spring is known: a minimising one.
    assert solve(deal, strategy="lazy").stats["rounds"] == lazy["rounds"] + 1
    eager = solve(deal, strategy="eager").stats
    assert (eager["rounds"], eager["cuts"]) == (1, 1)


# Hand-made cases: each a reason in one line.


def test_the_only_springs_put_a_2_or_a_joker_as_a_kicker() -> None:
    """Single 2 and single B both fall to peasant 1's R: one of them must ride on TTT."""
    deal = Deal.parse("TTT 2 B", "7 J R", "3567QA2")
    for split in spring_splits(deal):
        assert any(
            p.kind is Kind.TRIPLET_SINGLE and (p.cards[TWO] or p.cards[TWO + 1]) for p in split
        )
    plan = solved(deal).plan
    assert any(s.play.kind is Kind.TRIPLET_SINGLE and str(s.play) in ("TTT2", "TTTB") for s in plan)


def test_the_only_spring_is_one_quadplex_with_a_joker_kicker() -> None:
    """Peasant 1's rocket answers everything: only a one-play spring, AAAA 5 B, remains."""
    deal = Deal.parse("5 AAAA B", "922R", "4TQKK")
    assert [str(s.play) for s in solved(deal).plan] == ["5AAAAB"]


def test_the_only_spring_ends_with_its_one_answerable_play() -> None:
    """Every split has an answerable play; the spring plays 3 last, after 56789TJ."""
    deal = Deal.parse("3 56789TJ", "8JQ2", "2B")
    plan = solved(deal).plan
    assert [(str(s.play), s.safe) for s in plan] == [("56789TJ", True), ("3", False)]


def test_a_bomb_beats_any_quadplex_and_decides_the_deal() -> None:
    """Peasant 1's 5555 answers both of the landlord's quadplexes, so no split has one unsafe play."""
    deal = Deal.parse("AAAA 3 4 KKKK 6 7", "5555 8", "9")
    assert can_answer(deal.peasant1, Play.parse("AAAA 3 4"))
    assert solved(deal).verdict is Verdict.NO_SPRING
    # Without the bomb nobody answers a quadplex, and it is a spring.
    assert solved(Deal.parse("AAAA 3 4 KKKK 6 7", "555 8", "9")).verdict is Verdict.SPRING


def test_a_peasant_bomb_turns_every_non_bomb_play_unsafe() -> None:
    """334455 and KK are safe against single cards, and both unsafe against peasant 1's 2222."""
    assert solved(Deal.parse("334455 KK", "3 9", "4")).verdict is Verdict.SPRING
    assert solved(Deal.parse("334455 KK", "2222", "4")).verdict is Verdict.NO_SPRING
    # ... but a higher bomb of the landlord's stays safe: it can go first.
    assert solved(Deal.parse("334455 AAAA", "KKKK", "4")).verdict is Verdict.SPRING
    assert solved(Deal.parse("334455 QQQQ", "KKKK", "4")).verdict is Verdict.NO_SPRING


def test_a_peasant_rocket_leaves_only_a_one_play_spring() -> None:
    """Nothing is safe against the rocket: the landlord needs his whole hand in one play."""
    assert solved(Deal.parse("333444 5 6", "B R", "7")).verdict is Verdict.SPRING
    assert solved(Deal.parse("333444 5 6 8", "B R", "7")).verdict is Verdict.NO_SPRING
    assert solved(Deal.parse("2222 3", "B R", "7")).verdict is Verdict.NO_SPRING


def test_an_8_card_play_is_safe_against_other_8_card_kinds() -> None:
    """333444 + 2 kickers is safe: the peasants' 8-card plays are a pair sequence and a sequence.

    Peasant 1's 999 answers every lone triplet and the peasants answer every
    single, so the one spring is the 8-card play and then a single.
    """
    deal = Deal.parse("333444 5 6 7", "999 JJQQKKAA", "789TJQKA")
    assert not any(can_answer(p, Play.parse("333444 5 6")) for p in deal.peasants)
    plan = solved(deal).plan
    assert [(s.play.kind, s.safe) for s in plan] == [
        (Kind.TRIPLET_SEQUENCE_SINGLES, True),
        (Kind.SINGLE, False),
    ]


def test_the_peasants_answer_separately_and_are_never_pooled() -> None:
    """Each peasant holds one A: pooled they would have AA, apart neither answers KK."""
    assert solved(Deal.parse("KK 3", "A", "A")).verdict is Verdict.SPRING
    # Two steps answerable, each by a different peasant: no spring.
    assert solved(Deal.parse("KK 2", "AA", "B")).verdict is Verdict.NO_SPRING
    # Same landlord cards with only one of those peasants: a spring, the answerable play last.
    assert solved(Deal.parse("KK 2", "AA", "3")).verdict is Verdict.SPRING


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_full_deal_with_a_spring_gives_a_verified_plan(strategy: str) -> None:
    deal = Deal.parse(
        "333444555 TJQKA AAA 22 R", "666 77 888 99 TT JJ Q KK", "3 4 5 6 77 8 99 T J QQ K 22 B"
    )
    assert solved(deal, strategy).verdict is Verdict.SPRING


def test_unknown_strategy_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown strategy 'fast'"):
        solve(Deal.parse("3", "4", "5"), strategy="fast")  # type: ignore[arg-type]
