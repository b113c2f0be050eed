"""A rule-based bot: sensible bids, springs when it finds them, cheap answers.

The bot plays fair: it decides from what its seat sees (:mod:`cpsolver.game.view`)
and nothing else. :class:`OpenBot` is the table's analyst, which also looks at
the other hands to find springs; it is labelled ``cpsolver-open`` and never
takes part in a fair comparison.

Policy:

- **Bidding.** Strength counts what wins tricks: 3 for each bomb and for the
  rocket, 1.5 for each other joker, 1 for each 2, 0.5 for each ace, less 0.5
  for each play beyond six in the hand's fewest-plays split (many loose cards
  are a liability). It bids 3 from strength 6, 2 from 4, 1 from 2.5 — or
  more if the hand's estimated spring odds call for it (3 from 10%, 2 from
  2%: :mod:`cpsolver.game.bidding`) — and passes when that is not above the
  bid to beat.
- **Leading as landlord.** At every lead it looks for a spring: it deals the
  unseen cards out at random several times, consistently with the table
  (:func:`~cpsolver.game.view.sample_hands`), and plays the first step of a
  spring plan that no sampled peasant hand can answer. (``OpenBot`` asks the
  search engine against the real hands instead.)
- **Leading otherwise.** It splits its hand into its best plays
  (:mod:`cpsolver.game.handvalue`: few plays, low kickers, high cards kept
  whole) and leads the one the opponents can least often beat, judged on
  several deals of the unseen cards, the lower-ranked first when equally
  safe; its aces, 2s, jokers, bombs and rocket wait until nothing else is
  left. With the partner down to one card it leads its lowest single; with
  an opponent down to one card it avoids leading a single if it can.
- **The last cards.** From ``endgame_cards`` cards left in all (22 for the
  evaluated agent ``cpsolver``; off for the table's quick bot) it deals the
  unseen cards out several times and solves each deal open-handed
  (:mod:`cpsolver.game.pimc`), taking the option that wins the most deals,
  its own preference on a tie.
- **Answering.** It never beats its partner's play, except as the peasant
  seated before the landlord when the landlord holds ``BLOCK_BELOW`` cards or
  fewer: then it tops the partner with the answer the landlord can least
  often beat on sampled deals, if that is less often than the partner's
  play (the landlord, next, would otherwise go out). Against an opponent it
  plays the answer that leaves its hand the most valuable (the lowest of
  those; the highest when that opponent holds two cards or fewer). The
  landlord passes instead of lowering his hand's value while the peasant
  holds more than ``BREAK_UP_BELOW`` cards; a peasant answers the landlord
  whatever it costs. The landlord's hand values the plays a 2 or a joker
  tops ``LANDLORD_CONTROL`` higher (they win the lead back), so he keeps
  them. It spends a bomb or the rocket only when that opponent is down to
  five cards or fewer, or when the bomb is its last play.
"""

from __future__ import annotations

import functools
import random
import zlib

from cpsolver.game.bidding import odds_bid, spring_odds
from cpsolver.game.engine import Game
from cpsolver.game.handvalue import best_split, hand_value
from cpsolver.game.pimc import pimc_choice
from cpsolver.game.view import View, sample_hands, view_of
from cpsolver.rules.cards import ACE, BLACK_JOKER, RED_JOKER, TWO, Deal, Hand, rank_symbol
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Kind, Play
from cpsolver.rules.ruleset import RuleSet
from cpsolver.spring.search import solve as search

_POWER = (Kind.BOMB, Kind.ROCKET)
SPRING_SAMPLES = 8  # deals of the unseen cards a spring plan must survive
ENDGAME_CARDS = 22  # the evaluated bot's endgame: see Bot.endgame_cards
ENDGAME_SAMPLES = 4
ENDGAME_SECONDS = 0.25  # per sampled deal; an unsolved deal is left out
ANSWER_SLACK = 0.0  # how much hand value an answer may cost while the opponent holds many cards
BREAK_UP_BELOW = 10  # a peasant this close to going out is answered by the landlord even at a cost
LEAD_SAMPLES = 8  # deals of the unseen cards a lead is weighed against
LEAD_RANK_WEIGHT = 0.06  # a lead's score per rank: lower plays go first when equally safe
LANDLORD_CONTROL = 6.0  # the landlord's extra worth of a play a 2 or a joker tops (handvalue)
PEASANT_CONTROL = 0.0  # the same for a peasant
BLOCK_BELOW = 5  # landlord's cards at which the peasant before him tops its partner (_block)


def strength(hand: Hand, rules: RuleSet | None = None) -> float:
    """The bidding strength of a hand (see the module's policy)."""
    rocket = hand[BLACK_JOKER] and hand[RED_JOKER]
    bombs = sum(1 for r in range(TWO + 1) if hand[r] == 4)
    jokers = 0 if rocket else hand[BLACK_JOKER] + hand[RED_JOKER]
    split = fewest_split(hand, rules)
    return (
        3 * (bombs + rocket)
        + 1.5 * jokers
        + hand[TWO]
        + 0.5 * hand[ACE]
        - 0.5 * max(0, len(split) - 6)
    )


def fewest_split(hand: Hand, rules: RuleSet | None = None) -> list[Play]:
    """The hand split into the fewest plays.

    The engine wants a whole deal; the peasants' hands are filled with the
    lowest cards the hand lacks, so the split depends on the hand alone.
    """
    return list(_fewest_split(hand, rules))


@functools.lru_cache(maxsize=1 << 16)
def _fewest_split(hand: Hand, rules: RuleSet | None) -> tuple[Play, ...]:
    missing = [rank for rank, count in enumerate((Hand.deck() - hand).counts) for _ in range(count)]
    filler = (Hand.from_ranks(missing[:1]), Hand.from_ranks(missing[1:2]))
    result = search(Deal(hand, *filler), rules, objective="fewest-plays")
    return tuple(step.play for step in result.plan)


@functools.lru_cache(maxsize=1 << 16)
def split_count(hand: Hand, rules: RuleSet | None = None) -> int:
    """The number of plays in the hand's fewest-plays split (0 for no cards)."""
    return len(fewest_split(hand, rules)) if hand else 0


def control(view: View) -> float:
    """The worth the seat's hand value gives a play a 2 or a joker tops: the landlord's or a peasant's."""
    return LANDLORD_CONTROL if view.seat == view.landlord else PEASANT_CONTROL


def _view_seed(view: View) -> int:
    """A seed for the bot's sampling that depends on the view alone (stable across processes)."""
    text = f"{view.seat}|{view.hand}|{view.bottom}|" + ";".join(
        f"{seat}:{play}" for seat, play in view.actions
    )
    return zlib.crc32(text.encode())


def _samples(view: View, salt: int, count: int) -> list[list[Hand]]:
    """``count`` deals of the unseen cards, the same for the same view and ``salt`` (one per use)."""
    rng = random.Random(_view_seed(view) ^ salt)
    return [sample_hands(view, rng) for _ in range(count)]


class Bot:
    """The fair rule-based player of one seat."""

    name = "cpsolver"

    def __init__(self, seat: int, rules: RuleSet | None = None, endgame_cards: int = 0) -> None:
        self.seat = seat
        self.rules = rules
        # From this many cards left in all, decide by solving sampled deals (0: never; the
        # table's quick bot). The evaluated agent 'cpsolver' uses ENDGAME_CARDS.
        self.endgame_cards = endgame_cards

    def choose_bid(self, game: Game) -> int:
        """A bid above the current one, or 0 to pass."""
        return self.bid(view_of(game, self.seat))

    def choose_play(self, game: Game) -> Play | None:
        """The play to make now, or None to pass."""
        return self.play(view_of(game, self.seat))

    def bid(self, view: View) -> int:
        """A bid above ``view.bid``, or 0 to pass, from what the seat sees."""
        power = strength(view.hand, self.rules)
        wanted = 3 if power >= 6 else 2 if power >= 4 else 1 if power >= 2.5 else 0
        wanted = max(wanted, odds_bid(spring_odds(view.hand, self.rules)))
        return wanted if wanted > view.bid else 0

    def play(self, view: View) -> Play | None:
        """The play to make now, or None to pass, from what the seat sees."""
        preferred = self._lead(view) if view.leading else self._answer(view)
        if sum(view.counts) > self.endgame_cards:
            return preferred
        last = view.last
        options = generator(self.rules).moves(view.hand, None if last is None else last[1])
        if len(options) < 2:
            return preferred
        return pimc_choice(
            view, options, preferred, ENDGAME_SAMPLES, _view_seed(view), ENDGAME_SECONDS
        )

    def spring_step(self, view: View) -> Play | None:
        """The landlord's next play of a spring that survives every sampled deal of the unseen cards."""
        samples = _samples(view, 0, SPRING_SAMPLES)
        peasants = [s for s in range(3) if s != view.seat]
        moves = generator(self.rules)
        tried: set[tuple[str, ...]] = set()
        for hands in samples:
            plan = [
                step.play
                for step in search(Deal(view.hand, *(hands[s] for s in peasants)), self.rules).plan
            ]
            key = tuple(str(p) for p in plan)
            if not plan or key in tried:
                continue
            tried.add(key)
            if all(
                not moves.can_answer(other[s], step)
                for other in samples
                for s in peasants
                for step in plan[:-1]
            ):
                return plan[0]
        return None

    def _lead(self, view: View) -> Play:
        hand = view.hand
        if view.landlord == self.seat:
            step = self.spring_step(view)
            if step is not None:
                return step
        split = sorted(
            best_split(hand, self.rules, control(view))[1],
            key=lambda p: (p.kind in _POWER, p.rank, -p.size),
        )
        opponents = [s for s in range(3) if s != self.seat and (view.landlord in (s, self.seat))]
        partner = next((s for s in range(3) if s not in (self.seat, *opponents)), None)
        if (
            partner is not None
            and view.counts[partner] == 1
            and min(view.counts[s] for s in opponents) > 1
        ):
            return Play.parse(rank_symbol(next(hand.ranks())))  # a low single the partner may beat
        if any(view.counts[s] == 1 for s in opponents):
            longer = [p for p in split if p.size > 1]
            if longer:
                return longer[0]
            return max(split, key=lambda p: p.rank)  # singles only: the highest first
        return self._safest_lead(view, split, opponents)

    def _safest_lead(self, view: View, split: list[Play], opponents: list[int]) -> Play:
        """The play of the split the opponents can least often answer, low ranks first.

        Aces, 2s, jokers, bombs and the rocket are led only when nothing else is left.
        """
        ordinary = [p for p in split if p.kind not in _POWER and p.rank < ACE] or split
        return self._safest(view, ordinary, opponents)

    def _safest(self, view: View, plays: list[Play], opponents: list[int]) -> Play:
        """The play the opponents can least often beat, plus a little for its rank.

        The unseen cards are dealt out several times; a play's score is the
        share of deals in which an opponent could beat it, plus
        ``LEAD_RANK_WEIGHT`` per rank (the high plays are kept for later).
        """
        if len(plays) == 1:
            return plays[0]
        samples = _samples(view, 0x5EED, LEAD_SAMPLES)
        moves = generator(self.rules)

        def score(play: Play) -> float:
            answered = sum(
                any(moves.can_answer(hands[s], play) for s in opponents) for hands in samples
            )
            return answered / len(samples) + LEAD_RANK_WEIGHT * play.rank

        return min(plays, key=score)

    def _answer(self, view: View) -> Play | None:
        last = view.last
        assert last is not None
        by, target = last
        if view.landlord not in (by, self.seat):
            return self._block(view, target)
        answers = generator(self.rules).answers(view.hand, target)
        ordinary = [p for p in answers if p.kind not in _POWER]
        if ordinary:
            # The answer that leaves the best hand, then the lowest.
            worth = control(view)
            now = hand_value(view.hand, self.rules, worth)
            urgent = view.counts[by] <= 2  # keep the lead from an opponent about to go out
            left, best = max(
                ((hand_value(view.hand - p.cards, self.rules, worth), p) for p in ordinary),
                key=lambda pair: (
                    pair[0],
                    pair[1].rank if urgent else -pair[1].rank,
                    -pair[1].size,
                ),
            )
            # Peasants answer the landlord at any cost: measured, holding back loses them more.
            peasant = self.seat != view.landlord
            if peasant or left >= now - ANSWER_SLACK or view.counts[by] <= BREAK_UP_BELOW:
                return best
        power = sorted(
            (p for p in answers if p.kind in _POWER), key=lambda p: (p.kind is Kind.ROCKET, p.rank)
        )
        if power and (view.counts[by] <= 5 or power[0].cards == view.hand):
            return power[0]
        return None

    def _block(self, view: View, target: Play) -> Play | None:
        """Top the partner's play when the landlord, next to play, is close to going out.

        A peasant never beats its partner, except the one seated before the
        landlord when the landlord holds ``BLOCK_BELOW`` cards or fewer: then
        it plays the answer the landlord can least often beat on sampled deals
        of the unseen cards, if that is less often than the partner's play.
        """
        landlord = view.landlord
        assert landlord is not None
        if (self.seat + 1) % 3 != landlord or view.counts[landlord] > BLOCK_BELOW:
            return None
        moves = generator(self.rules)
        answers = [p for p in moves.answers(view.hand, target) if p.kind not in _POWER]
        if not answers:
            return None
        samples = _samples(view, 0xB10C, LEAD_SAMPLES)

        def beaten(play: Play) -> int:
            return sum(moves.can_answer(hands[landlord], play) for hands in samples)

        best = min(answers, key=lambda p: (beaten(p), p.rank))
        return best if beaten(best) < beaten(target) else None


class OpenBot(Bot):
    """The table's analyst: the same bot, but its spring check reads the real hands (not fair)."""

    name = "cpsolver-open"

    def choose_play(self, game: Game) -> Play | None:
        """The play to make now, with the other hands in view."""
        self._hands = list(game.hands)
        return self.play(view_of(game, self.seat))

    def spring_step(self, view: View) -> Play | None:
        """The next play of a spring against the peasants' real hands, if there is one."""
        peasants = [self._hands[s] for s in range(3) if s != self.seat]
        plan = search(Deal(view.hand, *peasants), self.rules).plan
        return plan[0].play if plan else None
