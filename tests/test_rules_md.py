"""Hand-picked tests of the rules core, one per decision in docs/RULES.md.

Every expectation here is read from docs/RULES.md (and the primary English rule
text it cites), never from the implementation. Each test's docstring, or each
parametrized case's id, quotes the rule it checks.
"""

from __future__ import annotations

import pytest

from cpsolver.rules.cards import RANK_SYMBOLS, Deal, Hand
from cpsolver.rules.errors import (
    CardSyntaxError,
    CpsolverError,
    DealError,
    HandError,
    InvalidPlayError,
)
from cpsolver.rules.movegen import plays
from cpsolver.rules.plays import Kind, Play, beats, classify


def rank(symbol: str) -> int:
    """The rank index of a canonical symbol (docs/RULES.md order 3..A 2 B R)."""
    return RANK_SYMBOLS.index(symbol)


def P(text: str) -> Play:
    return Play.parse(text)


# --------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------


def test_rank_order_low_to_high():
    """Order, low to high: `3 4 5 6 7 8 9 T J Q K A 2 B R`."""
    assert RANK_SYMBOLS == "3456789TJQKA2BR"


def test_deck_is_54_cards_four_of_each_rank_one_of_each_joker():
    """54 cards: four each of 3 4 5 6 7 8 9 T J Q K A 2, plus one B and one R."""
    deck = Hand.deck()
    assert len(deck) == 54
    for symbol in "3456789TJQKA2":
        assert deck[rank(symbol)] == 4, symbol
    assert deck[rank("B")] == 1
    assert deck[rank("R")] == 1
    assert str(deck) == "".join(s * 4 for s in "3456789TJQKA2") + "BR"


def test_hand_counts_and_length():
    """A hand is a multiset: `hand[rank]` counts cards of that rank, len counts all."""
    hand = Hand.parse("10 j q K a, x D")
    assert len(hand) == 7
    assert hand[rank("A")] == 1
    assert hand[rank("3")] == 0
    assert hand[rank("B")] == 1 and hand[rank("R")] == 1


NOTATION_CASES = [
    pytest.param("tjqka", "TJQKA", id="symbols are case-insensitive"),
    pytest.param("b r", "BR", id="case-insensitive jokers b r"),
    pytest.param("10", "T", id="`10` is accepted for `T`"),
    pytest.param("10 10 9", "9TT", id="`10` is accepted for `T` (repeated, next to others)"),
    pytest.param("X", "B", id="`X` black joker alias"),
    pytest.param("x", "B", id="`x` black joker alias"),
    pytest.param("D", "R", id="`D` red joker alias"),
    pytest.param("d", "R", id="`d` red joker alias"),
    pytest.param("3 3,4-5", "3345", id="spaces, commas and dashes between cards are ignored"),
    pytest.param("3-3-3, 4 - 4", "33344", id="dashes as in the rule text 3-3-3"),
    pytest.param("R2A3B", "3A2BR", id="output uses canonical symbols sorted low to high"),
    pytest.param("5 4 3 3", "3345", id="`33 4 5...` rendered as `3345...`"),
    pytest.param("d x 2 10 j", "TJ2BR", id="aliases render as canonical symbols"),
    pytest.param("bj rj", "BR", id="`bj`/`rj` as words of their own are the jokers"),
    pytest.param("3 BJ,RJ", "3BR", id="`BJ`/`RJ` any case, between separators"),
    pytest.param("小王 大王", "BR", id="`小王` black and `大王` red"),
    pytest.param("3大王小王", "3BR", id="`小王` and `大王` anywhere"),
]


@pytest.mark.parametrize("text, canonical", NOTATION_CASES)
def test_card_notation(text, canonical):
    assert str(Hand.parse(text)) == canonical


def test_notation_aliases_equal_canonical_hands():
    """Input notation: aliases denote the same cards as the canonical symbols."""
    assert Hand.parse("10 j q k a x d") == Hand.parse("TJQKABR")


UNKNOWN_SYMBOL_CASES = [
    pytest.param("33 44 Z", "unknown card symbol 'Z' at position 7", id="'Z' at position 7"),
    pytest.param("Z", "unknown card symbol 'Z' at position 1", id="position is 1-based"),
    pytest.param(
        "3-4,5 ?",
        "unknown card symbol '?' at position 7",
        id="separators count toward the position",
    ),
    pytest.param("10 1", "unknown card symbol '1' at position 4", id="a lone 1 is not `10`"),
    pytest.param("3456 0", "unknown card symbol '0' at position 6", id="a lone 0 is unknown"),
    pytest.param(
        "QKABJ",
        "'BJ' at position 4 reads two ways: the black joker, or B and J; "
        "write B alone for the joker, or a space between for both",
        id="BJ inside a word: refused",
    ),
    pytest.param(
        "3 rj4",
        "'rj' at position 3 reads two ways: the red joker, or R and J; "
        "write R alone for the joker, or a space between for both",
        id="rj inside a word: refused",
    ),
    pytest.param(
        "33 joker",
        "'joker' at position 4: say which joker, B (black, 小王) or R (red, 大王)",
        id="joker: which one?",
    ),
]


@pytest.mark.parametrize("text, message", UNKNOWN_SYMBOL_CASES)
def test_unknown_card_symbol(text, message):
    """Unknown symbols raise CardSyntaxError `unknown card symbol 'Z' at position 7`."""
    with pytest.raises(CardSyntaxError) as info:
        Hand.parse(text)
    assert str(info.value) == message


def test_more_than_four_of_a_rank_in_one_hand_is_refused():
    """54 cards, four of each rank: no hand holds five 9s."""
    with pytest.raises(HandError):
        Hand.parse("99999")


def test_two_black_jokers_in_one_hand_is_refused():
    """One black joker B in the deck: `BB` (or `Bx`) is no hand."""
    with pytest.raises(HandError):
        Hand.parse("B x")


@pytest.mark.parametrize(
    "error", [CpsolverError, CardSyntaxError, DealError, InvalidPlayError, HandError]
)
def test_errors_are_value_errors(error):
    """All errors are ValueError subclasses."""
    assert issubclass(error, ValueError)


# --------------------------------------------------------------------------
# The thirteen combinations: one valid example (or more) of each kind
# --------------------------------------------------------------------------

KIND_CASES = [
    # 1 single
    pytest.param("3", "single", "3", {}, id="single: any one card (3)"),
    pytest.param("2", "single", "2", {}, id="single: any one card (2)"),
    pytest.param("B", "single", "B", {}, id="single: a joker alone is a single (B)"),
    pytest.param("R", "single", "R", {}, id="single: a joker alone is a single (R)"),
    # 2 pair
    pytest.param("33", "pair", "3", {}, id="pair: two of one rank, 3..2 (33)"),
    pytest.param("AA", "pair", "A", {}, id="pair: A-A"),
    pytest.param("22", "pair", "2", {}, id="pair: two of one rank, 3..2 (22)"),
    # 3 triplet
    pytest.param("999", "triplet", "9", {}, id="triplet: three of one rank, 9-9-9"),
    pytest.param("222", "triplet", "2", {}, id="triplet: three 2s are a triplet"),
    pytest.param(
        "333", "triplet", "3", {}, id="triplet: 333 alone is a triplet, not a triplet_sequence"
    ),
    # 4 triplet_single
    pytest.param("6668", "triplet_single", "6", {}, id="triplet_single: 6-6-6-8"),
    pytest.param("333 2", "triplet_single", "3", {}, id="triplet_single: 333 2 (a 2 kicker)"),
    pytest.param(
        "333 B", "triplet_single", "3", {}, id="triplet_single: 333 B (a joker may be it)"
    ),
    pytest.param(
        "333 R", "triplet_single", "3", {}, id="triplet_single: 333 R (a joker may be it)"
    ),
    pytest.param("222 3", "triplet_single", "2", {}, id="triplet_single: triplet of 2s + 3"),
    pytest.param(
        "999 3",
        "triplet_single",
        "9",
        {},
        id="triplet_single: ranked by the triplet (999 3 is rank 9)",
    ),
    # 5 triplet_pair
    pytest.param("QQQ66", "triplet_pair", "Q", {}, id="triplet_pair: Q-Q-Q-6-6"),
    pytest.param("333 22", "triplet_pair", "3", {}, id="triplet_pair: 333 22 (2s allowed)"),
    pytest.param("AAA 33", "triplet_pair", "A", {}, id="triplet_pair: ranked by the triplet"),
    # 6 sequence
    pytest.param("89TJQ", "sequence", "Q", {"length": 5}, id="sequence: 8-9-10-J-Q"),
    pytest.param("34567", "sequence", "7", {"length": 5}, id="sequence: lowest 34567"),
    pytest.param(
        "TJQKA",
        "sequence",
        "A",
        {"length": 5},
        id="sequence: TJQKA is the highest five-card sequence, rank A",
    ),
    pytest.param(
        "3456789TJQKA", "sequence", "A", {"length": 12}, id="sequence: all twelve ranks 3..A"
    ),
    # 7 pair_sequence
    pytest.param(
        "TTJJQQKK", "pair_sequence", "K", {"length": 4}, id="pair_sequence: 10-10-J-J-Q-Q-K-K"
    ),
    pytest.param(
        "334455",
        "pair_sequence",
        "5",
        {"length": 3},
        id="pair_sequence: >= 3 consecutive pairs (334455)",
    ),
    pytest.param(
        "QQKKAA", "pair_sequence", "A", {"length": 3}, id="pair_sequence: within 3..A, ending at A"
    ),
    # 8 triplet_sequence
    pytest.param(
        "444555", "triplet_sequence", "5", {"triplets": 2}, id="triplet_sequence: 4-4-4-5-5-5"
    ),
    pytest.param(
        "KKKAAA",
        "triplet_sequence",
        "A",
        {"triplets": 2},
        id="triplet_sequence: within 3..A, ending at A",
    ),
    pytest.param(
        "333444555666",
        "triplet_sequence",
        "6",
        {"triplets": 4},
        id="triplet_sequence: 333444555666 is four triplets",
    ),
    # 9 triplet_sequence_singles
    pytest.param(
        "77788836",
        "triplet_sequence_singles",
        "8",
        {"triplets": 2},
        id="triplet_sequence_singles: 7-7-7-8-8-8-3-6, rank 8",
    ),
    pytest.param(
        "777888 2 R",
        "triplet_sequence_singles",
        "8",
        {"triplets": 2},
        id="triplet_sequence_singles: 777888 2 R is valid",
    ),
    pytest.param(
        "777888 2 B",
        "triplet_sequence_singles",
        "8",
        {"triplets": 2},
        id="triplet_sequence_singles: a 2 and one joker may be among them",
    ),
    pytest.param(
        "333444 5 6",
        "triplet_sequence_singles",
        "4",
        {"triplets": 2},
        id="triplet_sequence_singles: only the triplets have to be in sequence",
    ),
    pytest.param(
        "KKKAAA 2 B",
        "triplet_sequence_singles",
        "A",
        {"triplets": 2},
        id="triplet_sequence_singles: chain ending at A with 2 and joker",
    ),
    pytest.param(
        "333444555 9 J 2",
        "triplet_sequence_singles",
        "5",
        {"triplets": 3},
        id="triplet_sequence_singles: n triplets + n singles (n=3)",
    ),
    # 10 triplet_sequence_pairs
    pytest.param(
        "888999 44 JJ",
        "triplet_sequence_pairs",
        "9",
        {"triplets": 2},
        id="triplet_sequence_pairs: 8-8-8-9-9-9-4-4-J-J",
    ),
    pytest.param(
        "777888 22 33",
        "triplet_sequence_pairs",
        "8",
        {"triplets": 2},
        id="triplet_sequence_pairs: a pair of 2s is allowed",
    ),
    pytest.param(
        "333444555 66 88 22",
        "triplet_sequence_pairs",
        "5",
        {"triplets": 3},
        id="triplet_sequence_pairs: n triplets + n pairs (n=3)",
    ),
    # 11 bomb
    pytest.param("3333", "bomb", "3", {}, id="bomb: four of one rank (3333)"),
    pytest.param("6666", "bomb", "6", {}, id="bomb: 6666 is a bomb, never a triplet + single"),
    pytest.param("2222", "bomb", "2", {}, id="bomb: four 2s"),
    # 12 rocket
    pytest.param("BR", "rocket", "R", {}, id="rocket: B + R, ranked R"),
    pytest.param("x d", "rocket", "R", {}, id="rocket: via aliases X + D"),
    # 13 quadplex
    pytest.param(
        "666689", "quadplex", "6", {"kickers": "singles"}, id="quadplex singles: 6-6-6-6-8-9"
    ),
    pytest.param(
        "JJJJ 99 QQ", "quadplex", "J", {"kickers": "pairs"}, id="quadplex pairs: J-J-J-J-9-9-Q-Q"
    ),
    pytest.param(
        "6666 2 B",
        "quadplex",
        "6",
        {"kickers": "singles"},
        id="quadplex singles: 2 and a joker can be attached (6666 2 B)",
    ),
    pytest.param(
        "AAAA 2 B", "quadplex", "A", {"kickers": "singles"}, id="quadplex singles: AAAA 2 B"
    ),
    pytest.param(
        "2222 AA KK", "quadplex", "2", {"kickers": "pairs"}, id="quadplex pairs: quad of 2s"
    ),
    pytest.param(
        "3333 22 44",
        "quadplex",
        "3",
        {"kickers": "pairs"},
        id="quadplex pairs: a pair of 2s may be attached",
    ),
]


@pytest.mark.parametrize("text, kind, rank_symbol, shape", KIND_CASES)
def test_kind_examples(text, kind, rank_symbol, shape):
    play = classify(text)
    assert play.kind.value == kind
    assert RANK_SYMBOLS[play.rank] == rank_symbol
    assert play.shape == shape


def test_thirteen_kinds_with_their_names():
    """The thirteen combinations, named in code, CLI and JSON as in the table."""
    assert [k.value for k in Kind] == [
        "single",
        "pair",
        "triplet",
        "triplet_single",
        "triplet_pair",
        "sequence",
        "pair_sequence",
        "triplet_sequence",
        "triplet_sequence_singles",
        "triplet_sequence_pairs",
        "bomb",
        "rocket",
        "quadplex",
    ]


def test_kind_examples_cover_all_thirteen_kinds():
    """Every one of the thirteen kinds has at least one valid example above."""
    assert {case.values[1] for case in KIND_CASES} == {k.value for k in Kind}


def test_classify_accepts_a_hand_as_well_as_text():
    """A play is a multiset of cards read as exactly one kind (Hand or text)."""
    assert classify(Hand.parse("777888 3 6")) == classify("777888 3 6")


def test_as_dict_prints_rank_symbol():
    """The rank, as printed, is the symbol: for `777888 3 6` it is `8`."""
    assert Play.parse("777888 3 6").as_dict() == {
        "cards": "36777888",
        "kind": "triplet_sequence_singles",
        "rank": "8",
        "shape": {"triplets": 2},
    }


def test_as_dict_sequence_rank_is_top():
    """The rank, as printed: for a sequence `TJQKA` it is `A`."""
    assert Play.parse("TJQKA").as_dict() == {
        "cards": "TJQKA",
        "kind": "sequence",
        "rank": "A",
        "shape": {"length": 5},
    }


def test_as_dict_quadplex_shape_and_canonical_cards():
    """Output uses canonical symbols sorted low to high; quadplex shape is singles/pairs."""
    assert Play.parse("B 6 6 2 6 6").as_dict() == {
        "cards": "66662B",
        "kind": "quadplex",
        "rank": "6",
        "shape": {"kickers": "singles"},
    }


# --------------------------------------------------------------------------
# Invalid plays
# --------------------------------------------------------------------------

INVALID_CASES = [
    # Consequences worth a test each
    pytest.param("777888 33", id="777888 33 is not valid (kind 9 needs distinct singles)"),
    pytest.param("333444 5555", id="333444 5555 is not valid (kind 10 needs distinct pairs)"),
    pytest.param("777888 B R", id="777888 B R is not valid (both jokers)"),
    pytest.param("6666 8 8", id="6666 8 8 is not valid (quadplex singles must differ)"),
    pytest.param("JJJJ 99 99", id="JJJJ 99 99 is not valid"),
    pytest.param("JQKA2", id="JQKA2 is not a sequence"),
    # Sequences within 3..A, no 2 or jokers
    pytest.param("A2345", id="sequence: consecutive within 3..A, no wrap A2345"),
    pytest.param("23456", id="sequence: never contains a 2 (23456)"),
    pytest.param("QKA2B", id="sequence: never contains a joker"),
    pytest.param("3456", id="sequence: >= 5 consecutive ranks (3456 too short)"),
    pytest.param("34568", id="sequence: consecutive ranks (34568)"),
    pytest.param("345677", id="sequence: one card each (345677)"),
    pytest.param("KKAA22", id="pair_sequence: within 3..A, a 2 in a pair sequence"),
    pytest.param("3344", id="pair_sequence: >= 3 consecutive pairs (3344 too short)"),
    pytest.param("334466", id="pair_sequence: consecutive pairs (334466)"),
    pytest.param("AAA222", id="triplet_sequence: within 3..A, 222 in a triplet chain"),
    pytest.param("AAA222 3 4", id="triplet_sequence_singles: chain within 3..A (AAA222 3 4)"),
    pytest.param("AAA222 33 44", id="triplet_sequence_pairs: chain within 3..A"),
    pytest.param("333555", id="triplet_sequence: consecutive triplets (333555)"),
    # Jokers
    pytest.param("333 BR", id="jokers never a pair: 333 BR is not a triplet_pair"),
    pytest.param("6666 B R", id="quadplex: never both jokers (6666 B R)"),
    pytest.param("6666 22 BR", id="quadplex pairs: jokers never a pair"),
    pytest.param("777888 22 BR", id="triplet_sequence_pairs: jokers never a pair"),
    pytest.param("2B", id="two cards of different ranks are no pair"),
    # Kickers
    pytest.param("333444 6 77", id="attached singles and pairs cannot be mixed (333444 6 77)"),
    pytest.param("3334446 77", id="rule text: 3-3-3-4-4-4-6-7-7 is not valid"),
    pytest.param("777888 7 3", id="kind 9: singles distinct from every triplet rank"),
    pytest.param("333444 2 2", id="kind 9: singles distinct from each other (2 2)"),
    pytest.param(
        "33334444", id="kickers distinct: 3333 44 44 is no quadplex, 333444 3 4 no kind 9"
    ),
    pytest.param("3333 5", id="quadplex: four of a rank + two single cards (one is too few)"),
    pytest.param("3333 55", id="quadplex singles: two distinct other ranks (55 is one rank)"),
    pytest.param("333 44 5", id="triplet takes one single or one pair, not both"),
    pytest.param("333444555666 777 8", id="kind 9: n=4 singles must be distinct and off the chain"),
    pytest.param("333444 555 6", id="kind 10: n pairs, not a triplet and a single"),
]


@pytest.mark.parametrize("text", INVALID_CASES)
def test_invalid_plays(text):
    with pytest.raises(InvalidPlayError) as info:
        classify(text)
    assert str(info.value), "the message says why"


def test_777888_2R_valid_but_BR_not():
    """`777888 B R` is not valid (both jokers); `777888 2 R` is valid."""
    assert classify("777888 2 R").kind is Kind.TRIPLET_SEQUENCE_SINGLES
    with pytest.raises(InvalidPlayError):
        classify("777888 B R")


def test_6666_is_bomb_not_triplet_single():
    """`6666` is a bomb, never a triplet + single (the single must differ from the triplet)."""
    play = classify("6666")
    assert play.kind is Kind.BOMB
    assert play.kind is not Kind.TRIPLET_SINGLE


def test_BR_is_rocket_not_pair():
    """Two jokers are not a pair; B + R is the rocket."""
    play = classify("BR")
    assert play.kind is Kind.ROCKET
    assert all(p.kind is not Kind.PAIR for p in plays(Hand.parse("BR")))


def test_triplet_sequence_needs_two_triplets():
    """A triplet sequence needs at least two triplets (not three, as the Arabic text says)."""
    assert classify("333").kind is Kind.TRIPLET
    two = classify("333444")
    assert two.kind is Kind.TRIPLET_SEQUENCE
    assert two.shape == {"triplets": 2}
    assert classify("333444 5 6").shape == {"triplets": 2}
    assert classify("333444 55 66").shape == {"triplets": 2}


def test_sequence_highest_is_TJQKA():
    """Sequences never contain 2 or a joker: `TJQKA` is the highest five-card sequence."""
    top = classify("TJQKA")
    for play in plays(Hand.deck()):
        if play.kind is Kind.SEQUENCE and play.shape == {"length": 5}:
            assert not beats(play, top), str(play)


def test_every_play_of_the_deck_has_exactly_one_reading():
    """Under these rules every multiset of cards has at most one reading."""
    for play in plays(Hand.deck()):
        again = classify(play.cards)  # would raise AmbiguousPlayError on two readings
        assert (again.kind, again.rank, again.shape) == (play.kind, play.rank, play.shape)


# --------------------------------------------------------------------------
# Beating
# --------------------------------------------------------------------------

SAMPLE_PLAYS = [
    "3",
    "2",
    "B",
    "R",
    "22",
    "AAA",
    "222 B",
    "AAA 22",
    "3456789TJQKA",
    "QQKKAA",
    "KKKAAA",
    "KKKAAA 2 R",
    "QQQKKKAAA 22 JJ TT",
    "2222 AA KK",
    "2222 A B",
    "2222",
]


@pytest.mark.parametrize("text", SAMPLE_PLAYS)
def test_rocket_beats_everything(text):
    """1. X is the rocket: the rocket beats anything else, including bombs."""
    assert beats(P("BR"), P(text))
    assert not beats(P(text), P("BR"))


@pytest.mark.parametrize("text", [t for t in SAMPLE_PLAYS if classify(t).kind is not Kind.BOMB])
def test_bomb_beats_every_non_bomb(text):
    """2. X is a bomb and Y is not the rocket and not a bomb of higher or equal rank."""
    assert beats(P("3333"), P(text))
    assert not beats(P(text), P("3333"))


def test_lowest_bomb_beats_highest_quadplex():
    """A bomb beats every quadplex, whatever its rank: 3333 beats AAAA 2 B."""
    assert beats(P("3333"), P("AAAA 2 B"))
    assert beats(P("3333"), P("2222 AA KK"))


def test_bomb_beats_quadplex_of_higher_rank_pairs():
    """A quadplex set can be beaten by a bomb made of lower ranked cards."""
    assert beats(P("4444"), P("KKKK 33 55"))


def test_quadplex_does_not_beat_a_bomb():
    """A quadplex beats only a lower quadplex of the same shape (never a bomb)."""
    assert not beats(P("2222 3 4"), P("3333"))
    assert not beats(P("2222 33 44"), P("3333"))


def test_higher_bomb_beats_lower_bomb():
    """2. Y is not a bomb of higher or equal rank: 4444 beats 3333, not the reverse."""
    assert beats(P("4444"), P("3333"))
    assert beats(P("2222"), P("AAAA"))
    assert not beats(P("3333"), P("4444"))
    assert not beats(P("AAAA"), P("2222"))


def test_bombs_ordered_by_rank():
    """Bombs: a bomb beats a bomb of lower rank only, order 3..2."""
    bombs = [P(s * 4) for s in "3456789TJQKA2"]
    for i, x in enumerate(bombs):
        for j, y in enumerate(bombs):
            assert beats(x, y) == (i > j), (str(x), str(y))


def test_nothing_but_rocket_or_bomb_beats_a_bomb():
    """Nothing else beats anything: no non-bomb play beats a bomb."""
    for text in SAMPLE_PLAYS:
        if classify(text).kind not in (Kind.BOMB, Kind.ROCKET):
            assert not beats(P(text), P("3333")), text


EQUAL_RANK_CASES = [
    pytest.param("7", "7", id="equal-rank singles: 3. X's ordering rank is higher (not equal)"),
    pytest.param("99", "99", id="equal-rank pairs"),
    pytest.param("999 3", "999 4", id="equal-rank triplet_single, different kicker"),
    pytest.param("999 33", "999 AA", id="equal-rank triplet_pair, different kicker"),
    pytest.param("34567", "34567", id="equal-rank sequences"),
    pytest.param("777888 3 4", "777888 5 6", id="equal-rank triplet_sequence_singles"),
    pytest.param("777888 33 44", "777888 55 66", id="equal-rank triplet_sequence_pairs"),
    pytest.param("6666 3 4", "6666 8 9", id="equal-rank quadplex singles"),
    pytest.param("6666 33 44", "6666 88 99", id="equal-rank quadplex pairs"),
    pytest.param("5555", "5555", id="2. not a bomb of equal rank"),
]


@pytest.mark.parametrize("x, y", EQUAL_RANK_CASES)
def test_equal_rank_does_not_beat(x, y):
    assert not beats(P(x), P(y))
    assert not beats(P(y), P(x))


SAME_KIND_HIGHER_CASES = [
    pytest.param("R", "B", id="single: the card (B < R)"),
    pytest.param("B", "2", id="single: 2 < B"),
    pytest.param("2", "A", id="single: A < 2"),
    pytest.param("4", "3", id="single: 3 < 4"),
    pytest.param("22", "AA", id="pair: ranked 3..2"),
    pytest.param("999 3", "888 A", id="triplet_single: 9-9-9-3 beats 8-8-8-A (ranked by triplet)"),
    pytest.param("QQQ66", "TTTKK", id="triplet_pair: Q-Q-Q-6-6 beats 10-10-10-K-K"),
    pytest.param("222 3", "AAA R", id="triplet_single: triplet of 2s beats triplet of As"),
    pytest.param("45678", "34567", id="sequence: same length, top rank higher"),
    pytest.param("TJQKA", "9TJQK", id="sequence: TJQKA beats 9TJQK"),
    pytest.param("445566", "334455", id="pair_sequence: same length, top rank higher"),
    pytest.param("555666", "444555", id="triplet_sequence: same triplets, top rank higher"),
    pytest.param("999TTT 3 4", "777888 T J", id="triplet_sequence_singles: top triplet rank"),
    pytest.param("999TTT 33 44", "777888 TT JJ", id="triplet_sequence_pairs: top triplet rank"),
    pytest.param("4444 5 6", "3333 5 6", id="quadplex singles beats a lower quadplex singles"),
    pytest.param("4444 55 66", "3333 55 66", id="quadplex pairs beats a lower quadplex pairs"),
    pytest.param("7777 3 4", "6666 A 2", id="quadplex ranked by the quad, not the kickers"),
]


@pytest.mark.parametrize("x, y", SAME_KIND_HIGHER_CASES)
def test_same_kind_same_shape_higher_rank_beats(x, y):
    """3. Same kind, same number of cards/shape, and X's ordering rank is higher."""
    assert beats(P(x), P(y))
    assert not beats(P(y), P(x))


def test_singles_in_rank_order():
    """Single: ranking from 3 (low) up to red joker (high)."""
    singles = [P(s) for s in RANK_SYMBOLS]
    for i, x in enumerate(singles):
        for j, y in enumerate(singles):
            assert beats(x, y) == (i > j), (str(x), str(y))


NEVER_BEATS_CASES = [
    pytest.param("34567", "345678", id="same kind different length: 34567 vs 345678"),
    pytest.param("9TJQK", "345678", id="a longer sequence never beats a shorter one"),
    pytest.param("334455", "33445566", id="pair_sequence lengths 3 vs 4"),
    pytest.param("KKKAAA", "333444555", id="triplet_sequence: 2 vs 3 triplets"),
    pytest.param("KKKAAA 2 B", "333444555 6 7 8", id="triplet_sequence_singles: 2 vs 3 triplets"),
    pytest.param(
        "KKKAAA 22 QQ", "333444555 66 77 88", id="triplet_sequence_pairs: 2 vs 3 triplets"
    ),
    # 8-card plays of different kinds
    pytest.param(
        "AAAA 22 KK", "777888 3 6", id="8 cards: quadplex pairs vs triplet_sequence_singles"
    ),
    pytest.param("TTJJQQKK", "3333 44 55", id="8 cards: pair_sequence of 4 vs quadplex pairs"),
    pytest.param(
        "TTJJQQKK", "333444 5 6", id="8 cards: pair_sequence of 4 vs triplet_sequence_singles"
    ),
    pytest.param("3456789T", "33445566", id="8 cards: sequence of 8 vs pair_sequence of 4"),
    # 10-card plays of different kinds
    pytest.param(
        "KKKAAA 22 QQ", "3456789TJQ", id="10 cards: triplet_sequence_pairs vs sequence of 10"
    ),
    pytest.param(
        "KKKAAA 22 QQ", "3344556677", id="10 cards: triplet_sequence_pairs vs pair_sequence of 5"
    ),
    pytest.param("56789TJQKA", "3344556677", id="10 cards: sequence of 10 vs pair_sequence of 5"),
    # quadplex shapes
    pytest.param("AAAA 3 4", "3333 44 55", id="quadplex singles vs quadplex pairs"),
    pytest.param("2222 A B", "3333 44 55", id="quadplex singles (2222 A B) vs quadplex pairs"),
    # other cross-kind
    pytest.param("AAAA 3 4", "334455", id="6 cards: quadplex singles vs pair_sequence of 3"),
    pytest.param("AAAA 3 4", "333444", id="6 cards: quadplex singles vs triplet_sequence"),
    pytest.param("AAAA 3 4", "345678", id="6 cards: quadplex singles vs sequence of 6"),
    pytest.param("AA", "3", id="pair vs single"),
    pytest.param("222", "33", id="triplet vs pair"),
    pytest.param("222", "333 4", id="triplet vs triplet_single"),
    pytest.param("222 3", "333 44", id="triplet_single vs triplet_pair"),
    pytest.param("KKK AA", "34567", id="5 cards: triplet_pair vs sequence"),
]


@pytest.mark.parametrize("x, y", NEVER_BEATS_CASES)
def test_different_kind_or_shape_never_beats(x, y):
    """Nothing else beats anything: different kinds or shapes never beat each other."""
    px, py = P(x), P(y)
    assert not beats(px, py)
    assert not beats(py, px)


def test_quadplex_beats_only_lower_quadplex_of_same_shape():
    """A quadplex beats only a lower quadplex of the same shape."""
    high_singles, high_pairs = P("2222 3 4"), P("2222 33 44")
    for text in SAMPLE_PLAYS + ["3333 5 6", "3333 55 66", "AAAA 2 B", "KKKK 22 AA"]:
        y = P(text)
        expected_s = (
            y.kind is Kind.QUADPLEX
            and y.shape == {"kickers": "singles"}
            and y.rank < high_singles.rank
        )
        expected_p = (
            y.kind is Kind.QUADPLEX and y.shape == {"kickers": "pairs"} and y.rank < high_pairs.rank
        )
        assert beats(high_singles, y) == expected_s, text
        assert beats(high_pairs, y) == expected_p, text


# --------------------------------------------------------------------------
# Deals
# --------------------------------------------------------------------------


def test_deal_accepts_full_20_17_17_deal():
    """The landlord holds 20 cards, each peasant 17 (a full deal)."""
    deck = str(Hand.deck())
    deal = Deal.parse(deck[:20], deck[20:37], deck[37:])
    assert [len(h) for h in (deal.landlord, deal.peasant1, deal.peasant2)] == [20, 17, 17]


def test_deal_accepts_endgame_positions():
    """The solver also accepts positions with fewer cards (endgames)."""
    deal = Deal.parse("333", "4", "BR")
    assert str(deal.landlord) == "333" and str(deal.peasant2) == "BR"


def test_deal_four_of_a_rank_across_hands_is_fine():
    """Any hands that fit in one deck: four 9s split across the hands is fine."""
    Deal.parse("99", "9", "9")


def test_deal_five_of_a_rank_refused():
    """Hands must fit in one deck: `five 9s across the deal`."""
    with pytest.raises(DealError, match=r"five 9s across the deal"):
        Deal.parse("999", "99", "3")


def test_deal_two_black_jokers_refused():
    """Hands must fit in one deck: one B only, `two Bs across the deal`."""
    with pytest.raises(DealError, match=r"two Bs across the deal"):
        Deal.parse("3 B", "x", "4")


def test_deal_two_red_jokers_refused():
    """Hands must fit in one deck: one R only, `two Rs across the deal`."""
    with pytest.raises(DealError, match=r"two Rs across the deal"):
        Deal.parse("3", "R", "4 d")


def test_deal_extra_cards_beyond_deck_refused():
    """Hands must fit in one deck: six 2s across the deal."""
    with pytest.raises(DealError, match=r"six 2s across the deal"):
        Deal.parse("22", "22", "22")


@pytest.mark.parametrize(
    "hands",
    [
        pytest.param(("", "3", "4"), id="landlord non-empty"),
        pytest.param(("3", "", "4"), id="each peasant non-empty (peasant 1)"),
        pytest.param(("3", "4", ""), id="each peasant non-empty (peasant 2)"),
        pytest.param((" , -", "3", "4"), id="separators only is an empty hand"),
    ],
)
def test_deal_empty_hand_refused(hands):
    """Landlord non-empty, each peasant non-empty."""
    with pytest.raises(DealError):
        Deal.parse(*hands)
