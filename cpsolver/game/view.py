"""What one player sees at the table, and hidden hands sampled consistently with it.

A player sees their own hand, the bids, the three face-down cards once the
landlord has turned them, every play so far and so how many cards each seat
holds. Everything a fair agent decides must follow from a :class:`View` alone;
:func:`view_of` is the only place that reads a :class:`Game` on its behalf.

The cards a player does not see (:meth:`View.unseen`) are the deck less their
own hand and every card played. :func:`sample_hands` deals them out again at
random, respecting what the table has shown: each seat's card count, and the
face-down cards still in the landlord's hand (they were shown to all, and
whatever of them he has not played he still holds).

>>> from cpsolver.game.engine import Game
>>> game = Game.deal(seed=7, first_bidder=0)
>>> game.make_bid(0, 3)
>>> view = view_of(game, 1)
>>> view.counts, len(view.unseen())
((20, 17, 17), 37)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cpsolver.game.engine import Game
from cpsolver.rules.cards import DECK_COUNTS, Hand
from cpsolver.rules.plays import Play
from cpsolver.rules.ruleset import RuleSet

DECK = Hand(DECK_COUNTS)


@dataclass(frozen=True)
class View:
    """One seat's knowledge of the hand: nothing another seat holds unseen."""

    seat: int
    hand: Hand
    rules: RuleSet
    auction: tuple[tuple[int, int], ...]
    bid: int
    landlord: int | None
    bottom: Hand | None  # the face-down cards, once turned
    actions: tuple[tuple[int, Play | None], ...]
    counts: tuple[int, int, int]  # cards left in each seat's hand

    @property
    def last(self) -> tuple[int, Play] | None:
        """The play to beat and who made it, or None when this seat leads."""
        return last_play(self.actions)

    @property
    def leading(self) -> bool:
        """Whether this seat leads (plays anything) rather than answers."""
        return self.last is None

    def played(self, seat: int | None = None) -> Hand:
        """Every card played so far, or those of one seat."""
        total = Hand.empty()
        for who, play in self.actions:
            if play is not None and (seat is None or who == seat):
                total = total + play.cards
        return total

    def unseen(self) -> Hand:
        """The cards in the other two hands, together (the face-down ones included)."""
        return DECK - self.hand - self.played()

    def known(self, seat: int) -> Hand:
        """Cards of another seat's hand that this seat knows are there: the landlord's unplayed face-down cards."""
        if seat == self.seat or seat != self.landlord or self.bottom is None:
            return Hand.empty()
        played = self.played(seat)
        return Hand(max(0, b - p) for b, p in zip(self.bottom.counts, played.counts))


def last_play(actions: Sequence[tuple[int, Play | None]]) -> tuple[int, Play] | None:
    """The play the next seat must beat, and who made it; None after two passes or at the start."""
    for passes, (seat, play) in enumerate(reversed(actions)):
        if play is not None:
            return None if passes >= 2 else (seat, play)
    return None


def view_of(game: Game, seat: int) -> View:
    """What ``seat`` sees of ``game`` now."""
    turned = game.landlord is not None and game.phase != "auction"
    return View(
        seat=seat,
        hand=game.hands[seat],
        rules=game.rules,
        auction=tuple(game.auction),
        bid=game.bid,
        landlord=game.landlord if turned else None,
        bottom=game.bottom if turned else None,
        actions=tuple(game.actions),
        counts=(len(game.hands[0]), len(game.hands[1]), len(game.hands[2])),
    )


def sample_hands(view: View, rng: random.Random) -> list[Hand]:
    """All three hands as they might be: this seat's own, the others dealt from the unseen cards.

    Each other seat gets its known cards (the landlord's face-down cards still
    in hand) and then random unseen cards up to its count.
    """
    others = [s for s in range(3) if s != view.seat]
    hands: list[Hand] = [Hand.empty()] * 3
    hands[view.seat] = view.hand
    pool = view.unseen()
    for seat in others:
        hands[seat] = view.known(seat)
        pool = pool - hands[seat]
    cards = [rank for rank, count in enumerate(pool.counts) for _ in range(count)]
    rng.shuffle(cards)
    for seat in others:  # before the bottom is turned, what is left over lies face down
        need = view.counts[seat] - len(hands[seat])
        hands[seat] = hands[seat] + Hand.from_ranks(cards[:need])
        cards = cards[need:]
    return hands
