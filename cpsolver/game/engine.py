"""One hand of Dou Dizhu from the deal to the score: auction, play, scoring, record.

Seats are 0, 1, 2, in turn order. A seeded deal gives each seat 17 cards and
leaves 3 face down. The auction (docs/RULES.md, "Auction and scoring"): in turn,
each seat passes or bids higher than the highest bid so far (1 to 3); a bid of
3 ends it at once, otherwise it ends when the other two have passed after the
last bid; if all three pass with no bid, the hand is thrown in. The highest
bidder is the landlord, takes the three cards and leads. Each following
player passes or beats the last play; after two passes in a row the one who
played last leads again with any play. The first out of cards wins for their
side. The stake is the bid, doubled for each bomb or rocket played, doubled
again for a spring (the peasants played no card) or an anti-spring (the
landlord played only his first lead and lost).

An illegal action raises :class:`IllegalActionError` saying why and leaves
the game as it was.

>>> game = Game.deal(seed=7)
>>> len(game.hands[0]), len(game.bottom), game.phase
(17, 3, 'auction')
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from cpsolver.io.words import counted
from cpsolver.rules.cards import DECK_COUNTS, Hand
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Kind, Play, beats, classify, readings
from cpsolver.rules.ruleset import RuleSet, standard_rules

RECORD_FORMAT = "cpsolver-game"
RECORD_VERSION = 1
PASS = "pass"
_WITH_KICKERS = frozenset(
    {
        Kind.TRIPLET_SINGLE,
        Kind.TRIPLET_PAIR,
        Kind.TRIPLET_SEQUENCE_SINGLES,
        Kind.TRIPLET_SEQUENCE_PAIRS,
        Kind.QUADPLEX,
    }
)


class IllegalActionError(CpsolverError):
    """An action the rules do not allow now; the game is left unchanged."""


class NotARecordError(IllegalActionError):
    """A document that is no game record at all (bad input), not a record that fails to replay.

    An :class:`IllegalActionError` still, for callers that catch every failure of a replay.
    """


@dataclass
class Game:
    """The whole state of one hand, changed only by :meth:`bid` and :meth:`play`."""

    seed: int | None  # None: a deal given card by card (as evaluate's), not dealt from a seed
    first_bidder: int
    hands: list[Hand]
    bottom: Hand
    rules: RuleSet = field(default_factory=standard_rules)
    phase: str = "auction"  # auction, play, thrown_in, over
    turn: int = 0
    auction: list[tuple[int, int]] = field(default_factory=list)  # (seat, bid; 0 = pass)
    bid: int = 0
    landlord: int | None = None
    actions: list[tuple[int, Play | None]] = field(
        default_factory=list
    )  # (seat, play; None = pass)
    last: tuple[int, Play] | None = None  # the play to beat, and who made it
    passes: int = 0
    bombs: int = 0
    plays_made: list[int] = field(default_factory=lambda: [0, 0, 0])
    winner: int | None = None
    original: list[Hand] = field(default_factory=list)  # as dealt
    start_of_play: list[Hand] = field(default_factory=list)  # after the landlord took the bottom

    @classmethod
    def deal(cls, seed: int, first_bidder: int | None = None, rules: RuleSet | None = None) -> Game:
        """A fresh hand: 17 cards to each seat and 3 face down, all from ``seed``."""
        if first_bidder not in (None, 0, 1, 2) or isinstance(first_bidder, bool):
            raise IllegalActionError(f"the first bidder is seat 0, 1 or 2, not {first_bidder!r}")
        rng = random.Random(seed)
        cards = [rank for rank, count in enumerate(DECK_COUNTS) for _ in range(count)]
        rng.shuffle(cards)
        hands = [Hand.from_ranks(cards[17 * seat : 17 * seat + 17]) for seat in range(3)]
        first = rng.randrange(3) if first_bidder is None else first_bidder
        game = cls(seed, first, hands, Hand.from_ranks(cards[51:]), rules or standard_rules())
        game.turn = first
        game.original = list(hands)
        return game

    # -- the auction ----------------------------------------------------------

    def bid_options(self) -> list[int]:
        """The bids the seat to act may make now; 0 is a pass."""
        return [0, *range(self.bid + 1, 4)] if self.phase == "auction" else []

    def make_bid(self, seat: int, amount: int) -> None:
        """Seat ``seat`` bids ``amount`` (1-3) or passes (0)."""
        if self.phase != "auction":
            raise IllegalActionError("the auction is over")
        if seat != self.turn:
            raise IllegalActionError(f"it is seat {self.turn}'s turn to bid, not seat {seat}'s")
        if amount not in (0, 1, 2, 3):
            raise IllegalActionError(f"a bid is 1, 2 or 3 (or a pass), not {amount}")
        if amount and amount <= self.bid:
            raise IllegalActionError(f"a bid must be higher than {self.bid}")
        self.auction.append((seat, amount))
        if amount:
            self.bid, self.landlord = amount, seat
        passes_since_bid = 0
        for _, earlier in reversed(self.auction):
            if earlier:
                break
            passes_since_bid += 1
        if amount == 3 or (self.bid and passes_since_bid == 2):
            self._start_play()
        elif not self.bid and passes_since_bid == 3:
            self.phase = "thrown_in"
        else:
            self.turn = (seat + 1) % 3

    def _start_play(self) -> None:
        assert self.landlord is not None
        self.hands[self.landlord] = self.hands[self.landlord] + self.bottom
        self.start_of_play = list(self.hands)
        self.phase = "play"
        self.turn = self.landlord

    # -- the play -------------------------------------------------------------

    @property
    def leading(self) -> bool:
        """Whether the seat to act leads (plays anything) rather than answers."""
        return self.last is None

    def legal_plays(self, seat: int | None = None) -> list[Play]:
        """Every play the seat to act may make now (passing aside)."""
        seat = self.turn if seat is None else seat
        moves = generator(self.rules)
        hand = self.hands[seat]
        if self.last is None:
            return moves.plays(hand)
        return moves.answers(hand, self.last[1])

    def play(self, seat: int, cards: Hand | str | None) -> Play | None:
        """Seat ``seat`` plays ``cards`` (a play, or None / "pass" to pass); returns the play."""
        if self.phase != "play":
            raise IllegalActionError(
                "there is no play now" if self.phase != "auction" else "the auction is on"
            )
        if seat != self.turn:
            raise IllegalActionError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if cards is None or (isinstance(cards, str) and cards.strip().lower() == PASS):
            if self.leading:
                raise IllegalActionError("you lead: play any combination, passing is not allowed")
            self._record(seat, None)
            return None
        hand = Hand.parse(cards) if isinstance(cards, str) else cards
        if not hand <= self.hands[seat]:
            missing = hand - Hand(min(a, b) for a, b in zip(hand.counts, self.hands[seat].counts))
            raise IllegalActionError(f"{hand} is not in your hand (no {missing})")
        play = self._reading(hand)
        self._record(seat, play)
        return play

    def _reading(self, hand: Hand) -> Play:
        """The play these cards make now.

        Under rules where one multiset reads two ways, an answer takes the
        first reading that beats the play on the table, and a lead the reading
        without kickers if there is one, then the highest-ranked: the same
        cards always make the same play, so a record replays exactly.
        """
        found = readings(hand, self.rules)
        if not found:
            classify(hand, self.rules)  # raises, saying why these cards are no play
        if self.last is None:
            return min(found, key=lambda p: (p.kind in _WITH_KICKERS, -p.rank))
        beating = [p for p in found if beats(p, self.last[1])]
        if not beating:
            last = self.last[1]
            raise IllegalActionError(
                f"{found[0]} ({found[0].kind.value}) does not beat {last} ({last.kind.value})"
            )
        return beating[0]

    def _record(self, seat: int, play: Play | None) -> None:
        self.actions.append((seat, play))
        self.turn = (seat + 1) % 3
        if play is None:
            self.passes += 1
            if self.passes == 2:  # both others passed: the last player leads again
                self.last, self.passes = None, 0
            return
        self.hands[seat] = self.hands[seat] - play.cards
        self.plays_made[seat] += 1
        self.bombs += play.kind in (Kind.BOMB, Kind.ROCKET)
        self.last, self.passes = (seat, play), 0
        if not self.hands[seat]:
            self.phase, self.winner = "over", seat

    # -- the score ------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        """Who won, and the stake with its factors; thrown-in hands score nothing."""
        if self.phase == "thrown_in":
            return {
                "winner": "thrown_in",
                "bid": 0,
                "bombs": 0,
                "spring": False,
                "anti_spring": False,
                "stake": 0,
                "score": [0, 0, 0],
            }
        if self.phase != "over" or self.landlord is None or self.winner is None:
            raise IllegalActionError("the hand is not over")
        landlord_won = self.winner == self.landlord
        peasants = [s for s in range(3) if s != self.landlord]
        spring = landlord_won and all(self.plays_made[s] == 0 for s in peasants)
        anti_spring = not landlord_won and self.plays_made[self.landlord] == 1
        stake = self.bid * 2**self.bombs * (2 if spring or anti_spring else 1)
        score = [0, 0, 0]
        for seat in peasants:
            score[seat] = -stake if landlord_won else stake
        score[self.landlord] = -sum(score[s] for s in peasants)
        return {
            "winner": "landlord" if landlord_won else "peasants",
            "bid": self.bid,
            "bombs": self.bombs,
            "spring": spring,
            "anti_spring": anti_spring,
            "stake": stake,
            "score": score,
        }

    def record(self) -> dict[str, Any]:
        """The JSON record of the hand, from which :func:`replay` re-runs and re-scores it."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "rules": {"name": self.rules.name, "digest": self.rules.digest},
            "seed": self.seed,
            "first_bidder": self.first_bidder,
            "deal": {"hands": [str(h) for h in self.original], "bottom": str(self.bottom)},
            "auction": [{"seat": seat, "bid": amount} for seat, amount in self.auction],
            "landlord": self.landlord,
            "actions": [
                {"seat": seat, "cards": str(play) if play else PASS} for seat, play in self.actions
            ],
            "result": self.result() if self.phase in ("over", "thrown_in") else None,
            # A hand left mid-way (the player quit) says so, for replay and show.
            **({} if self.phase in ("over", "thrown_in") else {"unfinished": True}),
        }

    def _repr_svg_(self) -> str:
        """The hand as a timeline of tricks (or the deal, before play), for Jupyter."""
        from cpsolver.pictures import svg

        if self.landlord is None or not self.start_of_play:
            names = [f"seat {seat}" for seat in range(3)]
            return svg.table(self.hands, names, f"the auction ({self.phase})", title="A hand")
        return svg.record(
            self.start_of_play, self.actions, self.landlord, self.origin, self.bottom, self.auction
        )

    def _repr_html_(self) -> str:
        from cpsolver.pictures import svg

        return svg.html_fragment(self._repr_svg_(), f"{self.origin}, {self.phase}")

    @property
    def origin(self) -> str:
        """Where the deal came from, for titles: ``seed 7``, or ``a given deal``."""
        return "a given deal" if self.seed is None else f"seed {self.seed}"


class UnfinishedRecordError(NotARecordError):
    """The record of a hand left before its end (``"unfinished": true``): nothing to score."""


def replay(record: dict[str, Any], rules: RuleSet | None = None, unfinished: bool = False) -> Game:
    """Re-run a recorded hand action by action; IllegalActionError if anything does not match.

    A record's ``seed`` deals the cards; a record whose ``seed`` is null
    (``evaluate --records`` writes those) is dealt its ``deal`` as written.
    A record marked ``"unfinished"`` (a player quit mid-hand) is
    :class:`UnfinishedRecordError`, unless ``unfinished``: then its actions
    are replayed and checked, and the game is returned as it stood.
    """
    rules = rules or standard_rules()
    if record.get("format") != RECORD_FORMAT or record.get("version") != RECORD_VERSION:
        raise NotARecordError(
            f"not a game record: it needs format {RECORD_FORMAT!r}, version {RECORD_VERSION}"
        )
    made = record.get("rules")
    if not isinstance(made, dict) or not all(
        isinstance(made.get(k), str) for k in ("name", "digest")
    ):
        raise NotARecordError(
            "not a game record: it names no rules ('rules': {'name': ..., 'digest': ...})"
        )
    if (made["name"], made["digest"]) != (rules.name, rules.digest):
        name, digest = made["name"], made["digest"]
        raise IllegalActionError(
            f"the record was made under the rules {name!r} ({digest}), not {rules.name!r} "
            f"({rules.digest}): replay it with --rules {name} if those are the rules you mean"
        )
    try:
        first = _whole(record["first_bidder"], "first_bidder")
        if record["seed"] is None:
            seed = None
            game = _given_deal(record["deal"], first, rules)
        else:
            seed = _whole(record["seed"], "seed")
            game = Game.deal(seed, first, rules)
        steps: list[tuple[str, int, Any]] = [
            ("bid", _whole(s["seat"], "seat"), _whole(s["bid"], "bid")) for s in record["auction"]
        ]
        steps += [
            ("action", _whole(s["seat"], "seat"), _text(s["cards"])) for s in record["actions"]
        ]
        recorded_deal = record["deal"]
    except (KeyError, TypeError) as error:
        raise NotARecordError(f"not a game record: missing or wrong {error}") from None
    if seed is not None and recorded_deal != {
        "hands": [str(h) for h in game.hands],
        "bottom": str(game.bottom),
    }:
        raise IllegalActionError(f"seed {seed} deals other cards than the record")
    for number, (what, seat, value) in enumerate(steps, 1):
        try:
            if what == "bid":
                game.make_bid(seat, value)
            else:
                game.play(seat, value)
        except CpsolverError as error:
            raise IllegalActionError(
                f"step {number} ({what} of seat {seat}: {value}): {error}"
            ) from None
    if record.get("unfinished") is True:
        if not unfinished:
            raise UnfinishedRecordError(f"{unfinished_words(game)}: it has no result to check")
        if game.phase in ("over", "thrown_in"):
            raise IllegalActionError("the record says unfinished, but its actions end the hand")
        return game
    if record.get("landlord") != game.landlord:
        raise IllegalActionError(
            f"the record names seat {record.get('landlord')} landlord; the auction made {game.landlord}"
        )
    if game.phase not in ("over", "thrown_in"):
        raise IllegalActionError("the recorded actions stop before the hand is over")
    if record.get("result") != game.result():
        raise IllegalActionError(
            f"the recorded result {record.get('result')} is not the replayed {game.result()}"
        )
    return game


def unfinished_words(game: Game) -> str:
    """What an unfinished record holds, in one line: where the hand was left."""
    if game.phase == "auction":
        where = "in the auction"
    else:
        where = "after " + counted(len(game.actions), "play or pass", "plays and passes")
    return f"an unfinished hand (left {where}), not scored"


def _given_deal(deal: Any, first_bidder: int, rules: RuleSet) -> Game:
    """A game dealt the record's own cards: 17 to each seat and 3 face down, one deck."""
    hands = [Hand.parse(_text(text)) for text in deal["hands"]]
    bottom = Hand.parse(_text(deal["bottom"]))
    if [len(h) for h in hands] != [17, 17, 17] or len(bottom) != 3:
        raise IllegalActionError("a recorded deal is 17 cards for each seat and 3 face down")
    if hands[0] + hands[1] + hands[2] + bottom != Hand(DECK_COUNTS):
        raise IllegalActionError("the recorded hands and face-down cards are not one deck")
    if first_bidder not in (0, 1, 2):
        raise IllegalActionError(f"the first bidder is seat 0, 1 or 2, not {first_bidder}")
    game = Game(None, first_bidder, hands, bottom, rules)
    game.turn = first_bidder
    game.original = list(hands)
    return game


def _whole(value: Any, name: str) -> int:
    """A record's whole number, refusing strings, floats and booleans."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} {value!r}: a whole number")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"cards {value!r}: a string")
    return value
