"""Advice from one seat's view: what to play now, and how often each option wins.

A player at a real table sees their own hand, the bids, the landlord's
face-down cards once turned, and every action so far; not the other hands.
:func:`advise` deals the unseen cards out again ``samples`` times, consistently
with what the table has shown (each seat's card count, the landlord's
unplayed face-down cards), solves each deal exactly with the open-hand solver
within ``time_limit`` seconds, and counts, for every legal option, the deals
on which it wins with best play from then on. No pass narrows the sampling:
the rules never oblige a seat to answer, so a pass proves nothing about a
hand. Where no sampled deal could be solved in time, the advice is the fair
bot's own choice, and says so.

>>> from cpsolver.game.engine import Game
>>> game = Game(None, 0, [Hand.parse("KK 3"), Hand.parse("Q"), Hand.parse("J")], Hand.parse("5 6 7"))
>>> game.make_bid(0, 3)
>>> advice = advise(view_at(game, 0), samples=5)
>>> advice.action, advice.reason, advice.decided
('KK', 'exact', 5)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from cpsolver.analysis.annotate import read_game
from cpsolver.endgame import solve
from cpsolver.game.bots import Bot
from cpsolver.game.view import DECK, View, last_play, sample_hands
from cpsolver.io.reading import is_whole
from cpsolver.rules.cards import Hand, rank_symbol
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play, beats, classify
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, standard_rules

PASS = "pass"
ROLES = ("landlord", "peasant 1", "peasant 2")


class AdviceError(CpsolverError):
    """A view that asks nothing: a hand not in play, or a seat that is not to move."""


@dataclass(frozen=True)
class Option:
    """One legal option and the sampled deals it wins, of those solved exactly."""

    action: str  # the cards, or "pass"
    wins: int
    decided: int

    @property
    def share(self) -> float:
        """The share of the decided deals on which this option wins (0 when none was decided)."""
        return self.wins / self.decided if self.decided else 0.0


@dataclass(frozen=True)
class Advice:
    """The recommended action for the seat to move, the reason, and every option's share.

    ``reason`` is ``exact`` when the recommendation is the option that won the
    most sampled deals solved exactly, ``bot`` when no deal could be solved
    in time and the fair bot's choice stands.
    """

    seat: int
    role: str
    action: str
    reason: str
    samples: int
    decided: int
    bot: str
    options: tuple[Option, ...]  # best first

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of ``cpsolver advise --json``."""
        return {
            "seat": self.seat,
            "role": self.role,
            "action": self.action,
            "reason": self.reason,
            "samples": self.samples,
            "decided": self.decided,
            "bot": self.bot,
            "options": [
                {"action": o.action, "wins": o.wins, "share": round(o.share, 4)}
                for o in self.options
            ],
        }


def view_at(record: Any, actions: int, rules: RuleSet | None = None) -> View:
    """The view of the seat to move after the first ``actions`` actions of a recorded hand.

    ``record`` is what :func:`cpsolver.analysis.read_game` reads (a game
    record, an rlcard-showdown replay, a Botzone match log, or a Game); it is replayed, and so
    checked, whole, and the view is cut from it.
    """
    game = read_game(record, rules)
    if game.landlord is None:
        raise AdviceError("the hand was thrown in: nobody played")
    if not 0 <= actions < len(game.actions) + (game.phase != "over"):
        raise AdviceError(
            f"the record has {len(game.actions)} actions: advice is for 0 to "
            f"{len(game.actions) - (game.phase == 'over')} played"
        )
    done = tuple(game.actions[:actions])
    seat = (game.landlord + actions) % 3
    hands = list(game.start_of_play)
    for who, play in done:
        if play is not None:
            hands[who] = hands[who] - play.cards
    return View(
        seat=seat,
        hand=hands[seat],
        rules=game.rules,
        auction=tuple(game.auction),
        bid=game.bid,
        landlord=game.landlord,
        bottom=game.bottom,
        actions=done,
        counts=(len(hands[0]), len(hands[1]), len(hands[2])),
    )


VIEW_KEYS = ("seat", "hand", "landlord", "bottom", "bid", "actions", "counts")


def view_from_dict(data: Any, rules: RuleSet | None = None) -> View:
    """A seat's view written as JSON: what a player at a real table knows, nothing more.

    ``{"seat": 1, "hand": CARDS, "landlord": 0, "bottom": CARDS, "bid": 3,
    "actions": [{"seat": 0, "cards": CARDS | "pass"}, ...], "counts": [N, N, N]}``:
    ``bottom`` (the face-down cards, shown to all), ``bid`` and ``counts``
    (each seat's cards left; by default 20 for the landlord and 17 for the
    others, less what they played) may be left out. Play starts with the
    landlord and goes round; every play must be one, and beat the table.
    """
    rules = rules or standard_rules()
    if not isinstance(data, dict):
        raise AdviceError("a view is a JSON object")
    unknown = sorted(set(data) - set(VIEW_KEYS))
    if unknown:
        raise AdviceError(
            f"a view may not carry {unknown[0]!r}; it may carry: {', '.join(VIEW_KEYS)}"
        )
    seat, landlord = data.get("seat"), data.get("landlord")
    if not (is_whole(seat) and is_whole(landlord) and 0 <= seat <= 2 and 0 <= landlord <= 2):
        raise AdviceError("a view's 'seat' and 'landlord' are seats, 0, 1 or 2")
    hand = _cards(data.get("hand"), "hand")
    bottom = None if data.get("bottom") is None else _cards(data["bottom"], "bottom")
    actions = _actions(data.get("actions", []), landlord, rules)
    counts = [20 if s == landlord else 17 for s in range(3)]
    for who, play in actions:
        if play is not None:
            counts[who] -= len(play.cards)
    if data.get("counts") is not None:
        given = data["counts"]
        if not (isinstance(given, list) and len(given) == 3 and all(is_whole(c) for c in given)):
            raise AdviceError("a view's 'counts' are three card counts")
        counts = list(given)
    if counts[seat] != len(hand) or min(counts) < 0:
        raise AdviceError(
            f"the seat holds {len(hand)} cards, but the counts say {counts[seat]}: "
            "give 'counts' for hands of other sizes"
        )
    bid = data.get("bid", 3)
    if not is_whole(bid) or not 1 <= bid <= 3:
        raise AdviceError("a view's 'bid' is 1, 2 or 3")
    _check_cards(hand, bottom, actions, seat, landlord, counts)
    if (landlord + len(actions)) % 3 != seat:  # play goes round from the landlord, passes too
        raise AdviceError(
            f"after {len(actions)} actions it is seat {(landlord + len(actions)) % 3}'s turn, "
            f"not seat {seat}'s: advice is for the seat to move"
        )
    return View(
        seat,
        hand,
        rules,
        (),
        bid,
        landlord,
        bottom,
        tuple(actions),
        (counts[0], counts[1], counts[2]),
    )


ROLE_FLAGS = (
    "landlord",
    "peasant1",
    "peasant2",
)  # --role: the landlord, the next seat, the one before
_LABELS = {"l": 0, "landlord": 0, "p1": 1, "peasant1": 1, "p2": 2, "peasant2": 2}


def view_dict(
    hand: str,
    role: str,
    bottom: str | None = None,
    played: str | None = None,
    counts: str | None = None,
) -> dict[str, Any]:
    """The VIEW JSON that ``cpsolver advise``'s hand flags stand for, the landlord in seat 0.

    ``role`` is one of :data:`ROLE_FLAGS`; ``played`` is the actions in
    order, each ``SEAT:CARDS`` or ``SEAT:pass`` with SEAT one of L, P1, P2
    (or landlord, peasant1, peasant2), separated by spaces or commas;
    ``counts`` is three numbers, ``L,P1,P2``.

    >>> view_dict("KK3", "peasant1", played="L:55 P1:pass P2:66")["actions"][2]
    {'seat': 2, 'cards': '66'}
    """
    if role not in ROLE_FLAGS:
        raise AdviceError(f"a role is one of {', '.join(ROLE_FLAGS)}, not {role!r}")
    data: dict[str, Any] = {"seat": ROLE_FLAGS.index(role), "hand": hand, "landlord": 0}
    if bottom is not None:
        data["bottom"] = bottom
    actions = []
    for word in (played or "").replace(",", " ").split():
        label, colon, cards = word.partition(":")
        if not colon or label.lower() not in _LABELS or not cards:
            raise AdviceError(
                f"an action is SEAT:CARDS or SEAT:pass, SEAT one of L, P1, P2; not {word!r}"
            )
        actions.append(
            {
                "seat": _LABELS[label.lower()],
                "cards": cards.lower() if cards.lower() == PASS else cards,
            }
        )
    data["actions"] = actions
    if counts is not None:
        words = counts.split(",")
        if len(words) != 3 or not all(word.strip().isdigit() for word in words):
            raise AdviceError(f"counts are three numbers, L,P1,P2; not {counts!r}")
        data["counts"] = [int(word) for word in words]
    return data


def _check_cards(
    hand: Hand,
    bottom: Hand | None,
    actions: list[tuple[int, Play | None]],
    seat: int,
    landlord: int,
    counts: list[int],
) -> None:
    """The cards a view shows must fit in one deck, and the unseen ones fill the other hands."""
    # Counted by rank, not added as hands: a hand refuses a fifth card before we could say why.
    shown = list(hand.counts)
    for _, play in actions:
        if play is not None:
            shown = [a + b for a, b in zip(shown, play.cards.counts)]
    for rank, (count, most) in enumerate(zip(shown, DECK.counts)):
        if count > most:
            raise AdviceError(
                f"the hand and the cards played hold {count} of {rank_symbol(rank)}, "
                f"the deck has {most}"
            )
    seen = Hand(shown)
    others = sum(counts) - counts[seat]
    if others > len(DECK) - len(seen):
        raise AdviceError(
            f"the other seats hold {others} cards by the counts, "
            f"but only {len(DECK) - len(seen)} are unseen"
        )
    if bottom is None:
        return
    by_landlord = Hand.empty()
    for who, play in actions:
        if play is not None and who == landlord:
            by_landlord = by_landlord + play.cards
    if seat == landlord:
        if not bottom <= hand + by_landlord:
            raise AdviceError(
                "the bottom cards are neither in the landlord's hand nor played by him"
            )
        return
    unplayed = Hand(max(0, b - p) for b, p in zip(bottom.counts, by_landlord.counts))
    if not unplayed <= DECK - seen:
        raise AdviceError("the bottom cards the landlord still holds are in no one else's reach")


def _cards(text: Any, what: str) -> Hand:
    if not isinstance(text, str):
        raise AdviceError(f"a view's {what!r} is cards, as text")
    return Hand.parse(text)


def _actions(items: Any, landlord: int, rules: RuleSet) -> list[tuple[int, Play | None]]:
    """The actions of a view, checked to go round from the landlord, each play beating the table."""
    if not isinstance(items, list):
        raise AdviceError("a view's 'actions' are a list")
    actions: list[tuple[int, Play | None]] = []
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict) or set(item) != {"seat", "cards"}:
            raise AdviceError(f'action {number} is {{"seat": N, "cards": CARDS or "pass"}}')
        if item["seat"] != (landlord + number - 1) % 3:
            raise AdviceError(f"action {number} is seat {item['seat']}'s, out of turn")
        last = last_play(actions)
        if item["cards"] == PASS:
            if last is None:
                raise AdviceError(f"action {number} passes on lead")
            actions.append((item["seat"], None))
            continue
        try:
            play = classify(_cards(item["cards"], "cards"), rules)
        except CpsolverError as error:
            raise AdviceError(f"action {number}: {error}") from None
        if last is not None and not beats(play, last[1]):
            raise AdviceError(f"action {number}: {play} does not beat {last[1]}")
        actions.append((item["seat"], play))
    return actions


def options_of(view: View) -> list[Play | None]:
    """Every legal option of the seat to move: any play on lead, else an answer or a pass."""
    last = last_play(view.actions)
    return generator(view.rules).moves(view.hand, None if last is None else last[1])


def advise(view: View, samples: int = 50, seed: int = 0, time_limit: float | None = 1.0) -> Advice:
    """What the seat of ``view`` should do now; see the module. Same view and seed, same advice."""
    if view.landlord is None:
        raise AdviceError("the auction is not over: advice is for the play")
    if not view.hand:
        raise AdviceError("the seat to move has no cards: the hand is over")
    options = options_of(view)
    bot = _name(Bot(view.seat, view.rules).play(view))
    rng = random.Random(seed)
    wins: Counter[str] = Counter()
    decided = 0
    last = last_play(view.actions)
    landlord = view.landlord
    for _ in range(samples):
        hands = sample_hands(view, rng)
        position = Position(
            tuple(hands[(landlord + step) % 3] for step in range(3)),
            (view.seat - landlord) % 3,
            None if last is None else last[1],
            None if last is None else (last[0] - landlord) % 3,
        )
        result = solve(position, view.rules, time_limit=time_limit, all_moves=True, strategy=False)
        if result.winner is None:
            continue
        decided += 1
        wins.update(str(move) for move in result.moves)
    ranked = sorted(
        (Option(_name(o), wins[_name(o)], decided) for o in options),
        key=lambda o: (-o.wins, o.action != bot),  # the bot's choice first among equals
    )
    if decided == 0:
        action, reason = bot, "bot"
    else:
        action, reason = ranked[0].action, "exact"
    role = ROLES[(view.seat - landlord) % 3]
    return Advice(view.seat, role, action, reason, samples, decided, bot, tuple(ranked))


def _name(option: Play | None) -> str:
    return PASS if option is None else str(option)


__all__ = [
    "ROLE_FLAGS",
    "Advice",
    "AdviceError",
    "Option",
    "advise",
    "options_of",
    "view_at",
    "view_dict",
    "view_from_dict",
]
