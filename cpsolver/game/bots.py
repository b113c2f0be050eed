"""A rule-based bot: sensible bids, springs when the solver finds them, cheap answers.

Policy:

- **Bidding.** Strength counts what wins tricks: 3 for each bomb and for the
  rocket, 1.5 for each other joker, 1 for each 2, 0.5 for each ace, less 0.5
  for each play beyond six in the hand's fewest-plays split (many loose cards
  are a liability). It bids 3 from strength 6, 2 from 4, 1 from 2.5, and
  passes when that is not above the bid to beat.
- **Leading as landlord.** At every lead it asks the search engine whether the
  hand is a spring against the peasants' hands as they stand — the bot is the
  table's analyst and sees every hand — and if so plays the plan's next play.
- **Leading otherwise.** It splits its hand into the fewest plays and leads
  the lowest-ranked of them, bombs and the rocket last; with an opponent down
  to one card it avoids leading a single if it can.
- **Answering.** It never beats its partner's play. Against an opponent it
  plays the lowest answer of the same kind and shape; it spends a bomb or the
  rocket only when that opponent is down to five cards or fewer, or when the
  bomb is its last play.
"""

from __future__ import annotations

from cpsolver.cards import ACE, BLACK_JOKER, RED_JOKER, TWO, Deal, Hand
from cpsolver.game.engine import Game
from cpsolver.plays import Kind, Play
from cpsolver.rules import RuleSet
from cpsolver.search import solve as search

_POWER = (Kind.BOMB, Kind.ROCKET)


def strength(hand: Hand, others: tuple[Hand, Hand], rules: RuleSet | None = None) -> float:
    """The bidding strength of a hand (see the module's policy)."""
    rocket = hand[BLACK_JOKER] and hand[RED_JOKER]
    bombs = sum(1 for r in range(TWO + 1) if hand[r] == 4)
    jokers = 0 if rocket else hand[BLACK_JOKER] + hand[RED_JOKER]
    split = fewest_split(hand, others, rules)
    return (
        3 * (bombs + rocket)
        + 1.5 * jokers
        + hand[TWO]
        + 0.5 * hand[ACE]
        - 0.5 * max(0, len(split) - 6)
    )


def fewest_split(hand: Hand, others: tuple[Hand, Hand], rules: RuleSet | None = None) -> list[Play]:
    """The hand split into the fewest plays (the other hands only complete the deal)."""
    result = search(Deal(hand, *others), rules, objective="fewest-plays")
    return [step.play for step in result.plan]


class Bot:
    """The rule-based player of one seat."""

    def __init__(self, seat: int, rules: RuleSet | None = None) -> None:
        self.seat = seat
        self.rules = rules

    def _others(self, game: Game) -> tuple[Hand, Hand]:
        return game.hands[(self.seat + 1) % 3], game.hands[(self.seat + 2) % 3]

    def choose_bid(self, game: Game) -> int:
        """A bid above the current one, or 0 to pass."""
        power = strength(game.hands[self.seat], self._others(game), self.rules)
        wanted = 3 if power >= 6 else 2 if power >= 4 else 1 if power >= 2.5 else 0
        return wanted if wanted > game.bid else 0

    def choose_play(self, game: Game) -> Play | None:
        """The play to make now, or None to pass."""
        if game.leading:
            return self._lead(game)
        return self._answer(game)

    def _lead(self, game: Game) -> Play:
        hand = game.hands[self.seat]
        others = self._others(game)
        if game.landlord == self.seat:
            spring = search(Deal(hand, *others), self.rules)
            if spring.plan:
                return spring.plan[0].play
        split = sorted(
            fewest_split(hand, others, self.rules),
            key=lambda p: (p.kind in _POWER, p.rank, -p.size),
        )
        opponents = [s for s in range(3) if s != self.seat and (game.landlord in (s, self.seat))]
        if any(len(game.hands[s]) == 1 for s in opponents):
            longer = [p for p in split if p.size > 1]
            if longer:
                return longer[0]
        return split[0]

    def _answer(self, game: Game) -> Play | None:
        assert game.last is not None
        by = game.last[0]
        if game.landlord not in (by, self.seat):
            return None  # never beat the partner
        answers = game.legal_plays(self.seat)
        ordinary = sorted(
            (p for p in answers if p.kind not in _POWER), key=lambda p: (p.rank, p.size)
        )
        if ordinary:
            return ordinary[0]
        power = sorted(
            (p for p in answers if p.kind in _POWER), key=lambda p: (p.kind is Kind.ROCKET, p.rank)
        )
        hand = game.hands[self.seat]
        if power and (len(game.hands[by]) <= 5 or power[0].cards == hand):
            return power[0]
        return None
