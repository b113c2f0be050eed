"""Open-hand positions: every hand known, whose turn it is, and the play on the table.

Two kinds of position share one type:

- two-player (an endgame puzzle): hands 0 and 1 alternate; a pass gives the
  lead back to the other player;
- three-player: hand 0 is the landlord, hands 1 and 2 the peasants, in turn
  order 0 -> 1 -> 2 -> 0; the peasants are one side.

A *side* is 0 for hand 0 (the landlord, or the first player) and 1 for the
other hand or hands. The first player of a side to run out of cards wins for
that side (docs/RULES.md, "Play").

>>> position = Position.parse(["KK 5", "AA"], turn=0)
>>> position.players, position.side_of(1), position.on_lead
(2, 1, True)
>>> Position.parse(["KK", "33", "44"], turn=1, table="55", by=1)
Traceback (most recent call last):
...
cpsolver.rules.errors.PositionError: the table play 55 is hand 1's, and hand 1 is to move: the table would be clear
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cpsolver.rules.cards import DECK_COUNTS, RANK_COUNT, Deal, Hand, count_phrase
from cpsolver.rules.errors import CardSyntaxError, HandError, PositionError
from cpsolver.rules.plays import Play, classify
from cpsolver.rules.ruleset import RuleSet


@dataclass(frozen=True, slots=True)
class Position:
    """Two or three known hands, the player to move, and the play to beat (if any).

    ``table`` is the last play made in the current trick and ``by`` the hand
    that made it; both are None when the player to move leads.
    """

    hands: tuple[Hand, ...]
    turn: int = 0
    table: Play | None = None
    by: int | None = None

    def __post_init__(self) -> None:
        players = len(self.hands)
        if players not in (2, 3):
            raise PositionError(f"a position has two or three hands, not {players}")
        for number, hand in enumerate(self.hands):
            if not hand:
                raise PositionError(f"hand {number} is empty: the game would be over")
        if not 0 <= self.turn < players:
            raise PositionError(f"turn {self.turn}: there is no hand {self.turn}")
        if (self.table is None) != (self.by is None):
            raise PositionError("a table play needs the hand that made it, and only then")
        cards = list(self.table.cards.counts) if self.table is not None else [0] * RANK_COUNT
        for hand in self.hands:
            cards = [a + b for a, b in zip(cards, hand.counts)]
        for rank, total in enumerate(cards):
            if total > DECK_COUNTS[rank]:
                raise PositionError(f"{count_phrase(total, rank)} in the position")
        if self.by is not None:
            if not 0 <= self.by < players:
                raise PositionError(f"the table play is by hand {self.by}, and there is none")
            if self.by == self.turn:
                raise PositionError(
                    f"the table play {self.table} is hand {self.by}'s, and hand {self.turn} "
                    "is to move: the table would be clear"
                )

    @classmethod
    def parse(
        cls,
        hands: Sequence[str],
        turn: int = 0,
        table: str | None = None,
        by: int | None = None,
        rules: RuleSet | None = None,
    ) -> Position:
        """A position from card notation; errors name the hand."""
        parsed = []
        for number, text in enumerate(hands):
            try:
                parsed.append(Hand.parse(text))
            except (CardSyntaxError, HandError) as error:
                raise type(error)(f"hand {number}: {error}") from None
        play = None if table is None else classify(Hand.parse(table), rules)
        return cls(tuple(parsed), turn, play, by)

    @classmethod
    def from_deal(cls, deal: Deal) -> Position:
        """The three-player position of a deal: the landlord to lead."""
        return cls(deal.hands, 0)

    @property
    def players(self) -> int:
        """How many hands: 2 or 3."""
        return len(self.hands)

    @property
    def on_lead(self) -> bool:
        """Whether the player to move leads (no play to beat)."""
        return self.table is None

    def side_of(self, player: int) -> int:
        """The side of a hand: 0 for hand 0, 1 for the others."""
        return 0 if player == 0 else 1

    def after(self, play: Play | None) -> Position | None:
        """The position after a legal ``play`` (None: a pass); None when it empties the mover's hand.

        The caller vouches that the move is legal here (the checkers test that
        first): a legal move from a valid position leads to a valid one, so it
        is not checked again.
        """
        turn = self.turn
        following = (turn + 1) % self.players
        if play is None:
            if following == self.by:  # everyone else passed: the table is cleared
                return _made(self.hands, following, None, None)
            return _made(self.hands, following, self.table, self.by)
        left = self.hands[turn] - play.cards
        if not left:
            return None
        hands = self.hands[:turn] + (left,) + self.hands[turn + 1 :]
        return _made(hands, following, play, turn)

    def side_name(self, side: int) -> str:
        """How a side is called in this position: see :func:`side_name`."""
        return side_name(side, self.players)

    def opponents(self, player: int) -> list[int]:
        """The hands of the other side."""
        side = self.side_of(player)
        return [p for p in range(self.players) if self.side_of(p) != side]


_new = object.__new__
_set = object.__setattr__


def _made(hands: tuple[Hand, ...], turn: int, table: Play | None, by: int | None) -> Position:
    """A position known to be valid, made without checking it again (a frozen dataclass's way)."""
    found: Position = _new(Position)
    _set(found, "hands", hands)
    _set(found, "turn", turn)
    _set(found, "table", table)
    _set(found, "by", by)
    return found


def side_name(side: int, players: int) -> str:
    """The one way every command and picture names a side of a game of ``players`` hands.

    The landlord and the peasants when three play; the first and the second
    player, with the hand number, when two do.

    >>> side_name(0, 3), side_name(1, 3), side_name(1, 2)
    ('the landlord', 'the peasants', 'the second player (hand 1)')
    """
    if players == 3:
        return ("the landlord", "the peasants")[side]
    return ("the first player (hand 0)", "the second player (hand 1)")[side]


def side_wins(side: int, players: int) -> str:
    """``side_name`` with its verb: 'the landlord wins', 'the peasants win'.

    >>> side_wins(1, 3), side_wins(0, 2)
    ('the peasants win', 'the first player (hand 0) wins')
    """
    return f"{side_name(side, players)} {'win' if players == 3 and side == 1 else 'wins'}"
