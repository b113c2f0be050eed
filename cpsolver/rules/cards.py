"""Ranks, hands as count vectors, card notation, and deals.

Ranks are ints ``0..14`` in playing order, low to high: ``3 4 5 6 7 8 9 T J Q
K A 2 B R``. Suits play no part in Dou Dizhu, so a hand is a count vector over
the fifteen ranks.

>>> hand = Hand.parse("10 j q K a, x D")
>>> str(hand)
'TJQKABR'
>>> len(hand), hand[ACE]
(7, 1)
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from cpsolver.rules.errors import CardSyntaxError, DealError, HandError
from cpsolver.rules.notebook import Pictured

Rank = int

RANK_SYMBOLS = "3456789TJQKA2BR"
RANK_COUNT = len(RANK_SYMBOLS)
(
    THREE,
    FOUR,
    FIVE,
    SIX,
    SEVEN,
    EIGHT,
    NINE,
    TEN,
    JACK,
    QUEEN,
    KING,
    ACE,
    TWO,
    BLACK_JOKER,
    RED_JOKER,
) = range(RANK_COUNT)
JOKERS = (BLACK_JOKER, RED_JOKER)

# Rule "four of each rank, one of each joker": the deck's count vector.
DECK_COUNTS: tuple[int, ...] = (4,) * 13 + (1, 1)

# Rule "input notation": canonical symbols are case-insensitive; these are the
# accepted aliases (the two-character "10" is handled by the parser).
_SYMBOL_TO_RANK: dict[str, Rank] = {s: r for r, s in enumerate(RANK_SYMBOLS)}
_SYMBOL_TO_RANK.update({"X": BLACK_JOKER, "D": RED_JOKER})
_SEPARATORS = frozenset(" \t\r\n,-")

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def rank_symbol(rank: Rank) -> str:
    """The canonical symbol of a rank: ``rank_symbol(TEN) == 'T'``."""
    return RANK_SYMBOLS[rank]


def rank_of(symbol: str) -> Rank:
    """The rank of one card symbol or alias (``'10'``, ``'x'``...).

    >>> rank_of('10'), rank_of('x'), rank_of('R')
    (7, 13, 14)
    """
    if symbol == "10":
        return TEN
    try:
        return _SYMBOL_TO_RANK[symbol.upper()]
    except KeyError:
        raise CardSyntaxError(f"unknown card symbol {symbol!r}") from None


def count_phrase(count: int, rank: Rank) -> str:
    """Words for ``count`` cards of ``rank``: ``'five 9s'``, ``'two Bs'``."""
    word = _NUMBER_WORDS[count] if count < len(_NUMBER_WORDS) else str(count)
    return f"{word} {RANK_SYMBOLS[rank]}{'s' if count != 1 else ''}"


# Rule "input notation": names of a joker read as one card. ``bj``/``rj`` only
# as a word of their own, the way suit-and-rank notations write them
# (``S3 HT BJ RJ``); inside a word ``BJ`` could as well be B and J, and is refused.
_JOKER_WORDS: dict[str, Rank] = {"bj": BLACK_JOKER, "rj": RED_JOKER}
_JOKER_NAMES: dict[str, Rank] = {"小王": BLACK_JOKER, "大王": RED_JOKER}


def parse_ranks(text: str) -> list[Rank]:
    """The ranks written in ``text``, in the order written.

    Separators (spaces, commas, dashes) are skipped; anything else that is no
    card symbol raises :class:`CardSyntaxError` with its 1-based position, and
    so does anything that could be read as two different sets of cards.

    >>> parse_ranks("3-3,10 d")
    [0, 0, 7, 14]
    >>> parse_ranks("bj RJ 大王")
    [13, 14, 14]
    """
    ranks: list[Rank] = []
    i = 0
    while i < len(text):
        char = text[i]
        word = _word_at(text, i)
        if char in _SEPARATORS:
            i += 1
        elif word.lower() in _JOKER_WORDS:
            ranks.append(_JOKER_WORDS[word.lower()])
            i += len(word)
        elif (name := text[i : i + 2]) in _JOKER_NAMES:
            ranks.append(_JOKER_NAMES[name])
            i += 2
        elif "joker" in word.lower():
            raise CardSyntaxError(
                f"{word!r} at position {i + 1}: say which joker, B (black, 小王) or R (red, 大王)"
            )
        elif text.startswith("10", i):
            ranks.append(TEN)
            i += 2
        elif char.upper() in "BR" and text[i + 1 : i + 2].upper() == "J":
            pair = text[i : i + 2]
            raise CardSyntaxError(
                f"{pair!r} at position {i + 1} reads two ways: the "
                f"{'black' if char.upper() == 'B' else 'red'} joker, or {char.upper()} and J; "
                f"write {char.upper()} alone for the joker, or a space between for both"
            )
        elif (rank := _SYMBOL_TO_RANK.get(char.upper())) is not None:
            ranks.append(rank)
            i += 1
        else:
            raise CardSyntaxError(f"unknown card symbol {char!r} at position {i + 1}")
    return ranks


def _word_at(text: str, start: int) -> str:
    """The run of non-separators from ``start`` on (a word only where one begins)."""
    if start > 0 and text[start - 1] not in _SEPARATORS:
        return ""
    end = start
    while end < len(text) and text[end] not in _SEPARATORS:
        end += 1
    return text[start:end]


class Hand(Pictured):
    """An immutable multiset of cards: a count for each of the fifteen ranks.

    ``hand[r]`` is the number of cards of rank ``r``; ``len(hand)`` the number
    of cards. Hands compare, hash, add and subtract as multisets.

    >>> Hand.parse("3345") - Hand.parse("34")
    Hand.parse('35')
    >>> Hand.parse("33") <= Hand.parse("333")
    True
    """

    __slots__ = ("_hash", "_size", "counts")

    counts: tuple[int, ...]

    def __init__(self, counts: Iterable[int]) -> None:
        counts = tuple(counts)
        if len(counts) != RANK_COUNT:
            raise HandError(f"a hand has {RANK_COUNT} rank counts, got {len(counts)}")
        for rank, count in enumerate(counts):
            if count < 0:
                raise HandError(f"negative count of {RANK_SYMBOLS[rank]}s")
            if count > DECK_COUNTS[rank]:
                raise HandError(f"{count_phrase(count, rank)} in one hand")
        self.counts = counts
        self._size = sum(counts)
        self._hash = hash(counts)

    @classmethod
    def trusted(cls, counts: tuple[int, ...], size: int) -> Hand:
        """A hand from counts already known valid and their sum, unchecked: for hot paths.

        >>> Hand.trusted((2,) + (0,) * 14, 2)
        Hand.parse('33')
        """
        hand = cls.__new__(cls)
        hand.counts = counts
        hand._size = size
        hand._hash = hash(counts)
        return hand

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read card notation (docs/RULES.md, "Input notation") into a hand."""
        return cls.from_ranks(parse_ranks(text))

    @classmethod
    def from_ranks(cls, ranks: Iterable[Rank]) -> Hand:
        """The hand holding one card of each rank listed (repeats allowed)."""
        counts = [0] * RANK_COUNT
        for rank in ranks:
            counts[rank] += 1
        return cls(counts)

    @classmethod
    def empty(cls) -> Hand:
        """The hand with no cards."""
        return cls((0,) * RANK_COUNT)

    @classmethod
    def deck(cls) -> Hand:
        """All 54 cards as one hand."""
        return cls(DECK_COUNTS)

    def ranks(self) -> Iterator[Rank]:
        """Each card's rank, low to high, repeated by its count."""
        for rank, count in enumerate(self.counts):
            for _ in range(count):
                yield rank

    def __getitem__(self, rank: Rank) -> int:
        return self.counts[rank]

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._size > 0

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self.counts == other.counts

    def __le__(self, other: Hand) -> bool:
        """Multiset inclusion: every card of self is in other."""
        return all(a <= b for a, b in zip(self.counts, other.counts))

    def __ge__(self, other: Hand) -> bool:
        return other <= self

    def __add__(self, other: Hand) -> Hand:
        return Hand(a + b for a, b in zip(self.counts, other.counts))

    def __sub__(self, other: Hand) -> Hand:
        counts = tuple(map(operator.sub, self.counts, other.counts))
        # What is left of a hand is a hand, unless something was taken that was not there.
        if min(counts) < 0:
            raise HandError(f"cannot take {other} out of {self}")
        return Hand.trusted(counts, self._size - other._size)

    def __str__(self) -> str:
        return "".join(RANK_SYMBOLS[r] * c for r, c in enumerate(self.counts))

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"


PLAYER_NAMES = ("landlord", "peasant 1", "peasant 2")


@dataclass(frozen=True, slots=True)
class Deal(Pictured):
    """The three hands of a position: the landlord's and the two peasants'.

    A full deal is 20/17/17; smaller endgame positions are accepted too. The
    hands must fit in one deck together and none may be empty.

    >>> Deal.parse("333", "444", "555").landlord
    Hand.parse('333')
    >>> Deal.parse("3333", "3", "4")
    Traceback (most recent call last):
    ...
    cpsolver.rules.errors.DealError: five 3s across the deal
    """

    landlord: Hand
    peasant1: Hand
    peasant2: Hand

    def __post_init__(self) -> None:
        for name, hand in zip(PLAYER_NAMES, self.hands):
            if not hand:
                raise DealError(f"{'the ' if name == 'landlord' else ''}{name}'s hand is empty")
        for rank in range(RANK_COUNT):
            total = self.landlord[rank] + self.peasant1[rank] + self.peasant2[rank]
            if total > DECK_COUNTS[rank]:
                raise DealError(f"{count_phrase(total, rank)} across the deal")

    @classmethod
    def parse(cls, landlord: str, peasant1: str, peasant2: str) -> Deal:
        """A deal from the card notation of each hand; errors name the hand."""
        hands = []
        for name, text in zip(PLAYER_NAMES, (landlord, peasant1, peasant2)):
            try:
                hands.append(Hand.parse(text))
            except (CardSyntaxError, HandError) as error:
                raise type(error)(f"{name}: {error}") from None
        return cls(*hands)

    @property
    def hands(self) -> tuple[Hand, Hand, Hand]:
        """The landlord's hand, then the peasants'."""
        return (self.landlord, self.peasant1, self.peasant2)

    @property
    def peasants(self) -> tuple[Hand, Hand]:
        """The two peasants' hands."""
        return (self.peasant1, self.peasant2)
