"""Cards, hands and deals: notation, round trips, and every input error."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cpsolver.rules.cards import DECK_COUNTS, RANK_COUNT, Deal, Hand, parse_ranks
from cpsolver.rules.errors import CardSyntaxError, CpsolverError, DealError, HandError

hand_counts = st.tuples(*(st.integers(0, limit) for limit in DECK_COUNTS))


@given(hand_counts)
def test_print_then_parse_is_the_identity(counts: tuple[int, ...]) -> None:
    hand = Hand(counts)
    assert Hand.parse(str(hand)) == hand
    assert eval(repr(hand), {"Hand": Hand}) == hand
    assert len(hand) == sum(counts)


@given(hand_counts, st.randoms())
def test_order_case_aliases_and_separators_do_not_matter(
    counts: tuple[int, ...], rng: random.Random
) -> None:
    hand = Hand(counts)
    symbols = list(str(hand))
    rng.shuffle(symbols)
    aliases = {"T": ["T", "t", "10"], "B": ["B", "b", "X", "x"], "R": ["R", "r", "D", "d"]}
    written = [rng.choice(aliases.get(s, [s, s.lower()])) for s in symbols]
    gaps = [rng.choice(["", " ", ",", "-", ", "]) for _ in written]
    for k, (symbol, following) in enumerate(itertools.pairwise(written)):
        if symbol in "BbRr" and following in "Jj":  # BJ reads two ways: refused, tested apart
            gaps[k] = " "
    text = "".join(s + gap for s, gap in zip(written, gaps))
    assert Hand.parse(text) == hand


@given(hand_counts, hand_counts)
def test_hands_add_and_subtract_as_multisets(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    x = Hand(a)
    y = Hand(tuple(min(p, q) for p, q in zip(a, b)))
    assert y <= x
    assert (x - y) + y == x


def test_aliases() -> None:
    assert parse_ranks("10xXdD") == [7, 13, 13, 14, 14]
    assert str(Hand.parse("x D")) == "BR"
    assert str(Hand.parse("3 3, 4-5")) == "3345"


def test_output_is_canonical_and_sorted() -> None:
    assert str(Hand.parse("r b 2 a k q j 10 9 8 7 6 5 4 3")) == "3456789TJQKA2BR"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("333344Z5", "unknown card symbol 'Z' at position 7"),
        ("1", "unknown card symbol '1' at position 1"),
        ("3 0", "unknown card symbol '0' at position 3"),
        ("33;4", "unknown card symbol ';' at position 3"),
    ],
)
def test_unknown_symbols_are_named_with_their_position(text: str, message: str) -> None:
    with pytest.raises(CardSyntaxError) as caught:
        Hand.parse(text)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [("99999", "five 9s in one hand"), ("BB", "two Bs in one hand"), ("RR", "two Rs in one hand")],
)
def test_a_hand_holds_at_most_four_of_a_rank_and_one_of_each_joker(text: str, message: str) -> None:
    with pytest.raises(HandError) as caught:
        Hand.parse(text)
    assert str(caught.value) == message


def test_deal_validation() -> None:
    deal = Deal.parse("33344", "4455", "B")
    assert deal.hands == (Hand.parse("33344"), Hand.parse("4455"), Hand.parse("B"))
    with pytest.raises(DealError, match="^five 9s across the deal$"):
        Deal.parse("999", "99", "3")
    with pytest.raises(DealError, match="^two Rs across the deal$"):
        Deal.parse("R", "R", "3")
    with pytest.raises(DealError, match="^peasant 2's hand is empty$"):
        Deal.parse("3", "4", "")
    with pytest.raises(DealError, match="^the landlord's hand is empty$"):
        Deal.parse(" ", "4", "5")
    with pytest.raises(CardSyntaxError, match="^peasant 1: unknown card symbol 'Z' at position 2$"):
        Deal.parse("3", "4Z", "5")


def test_a_full_deal_is_accepted() -> None:
    deck = str(Hand.deck())
    deal = Deal.parse(deck[:20], deck[20:37], deck[37:])
    assert [len(h) for h in deal.hands] == [20, 17, 17]


def test_every_error_is_a_value_error() -> None:
    for error in (CardSyntaxError, HandError, DealError):
        assert issubclass(error, CpsolverError) and issubclass(error, ValueError)


def test_hand_shape_is_checked() -> None:
    with pytest.raises(HandError):
        Hand((0,) * (RANK_COUNT - 1))
    with pytest.raises(HandError, match="cannot take"):
        Hand.parse("3") - Hand.parse("4")
