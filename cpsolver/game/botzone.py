"""Botzone's FightTheLandlord protocol, and our bot speaking it as a Botzone bot.

The other way round, a Botzone program in one of our seats, is
:mod:`cpsolver.game.botzone_seat`.

The wire format, as Botzone's wiki documents it for FightTheLandlord (the
version with bidding). Cards are ids 0-53 (:mod:`cpsolver.game.cardids`).
Seats are Botzone's positions 0-2; the landlord plays first, then the next
position. A bot gets one *request* a turn:

- bidding: ``{"own": [17 ids], "bid": [the bids before it, 0 = pass]}``,
  answered by a number 0-3;
- its first play: ``{"own": [17 ids as dealt], "publiccard": [3 ids],
  "landlord": pos, "pos": pos, "finalbid": 1-3, "history": [[...], [...]]}``,
  later plays ``{"history": [[...], [...]]}``; ``history`` holds what the
  player two seats back and then the one just before did since this bot's
  last turn (``[]`` for a pass, or when they have not played yet: the landlord
  first gets ``[[], []]``). The answer is a list of ids, ``[]`` to pass.

Two interaction modes, as on Botzone. In the ordinary one the program is
started for every turn and reads one line, ``{"requests": [...],
"responses": [...]}`` (all requests so far and all its earlier answers); it
writes one line, ``{"response": ...}``, and exits. A program that writes the
line ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after its answer is kept running
instead, and from then on reads only each new request, one JSON line a turn.
"""

from __future__ import annotations

import json
from typing import IO, Any

from cpsolver.game.bots import ENDGAME_CARDS, Bot
from cpsolver.game.cardids import hand_of_ids, take
from cpsolver.game.view import View, last_play
from cpsolver.io.reading import InputError, describe_size, limit, loads_json
from cpsolver.rules.cards import Hand
from cpsolver.rules.plays import Kind, Play, beats, readings
from cpsolver.rules.ruleset import RuleSet, standard_rules

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
MAX_LINE = 1 << 20
_WITH_KICKERS = {
    Kind.TRIPLET_SINGLE,
    Kind.TRIPLET_PAIR,
    Kind.TRIPLET_SEQUENCE_SINGLES,
    Kind.TRIPLET_SEQUENCE_PAIRS,
    Kind.QUADPLEX,
}


def read_play(cards: Hand, last: Play | None, rules: RuleSet) -> Play:
    """The play ``cards`` make now, read as the engine reads them; ValueError if they make none."""
    found = readings(cards, rules)
    if not found:
        raise ValueError(f"{cards} is no combination")
    if last is None:
        return min(found, key=lambda p: (p.kind in _WITH_KICKERS, -p.rank))
    for play in found:
        if beats(play, last):
            return play
    raise ValueError(f"{cards} does not beat {last}")


# -- our bot behind the protocol -------------------------------------------------


def _field(request: dict[str, Any], key: str, index: int) -> Any:
    """``request[key]``, or ValueError naming the request that lacks it."""
    if key not in request:
        raise ValueError(f"request {index + 1} has no {key!r}")
    return request[key]


def _whole(value: Any, what: str, low: int, high: int) -> int:
    """A JSON whole number from ``low`` to ``high`` (true and 1.0 are not), or ValueError."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(
            f"{what} must be a whole number from {low} to {high}, not {json.dumps(value)}"
        )
    return value


def _bids(value: Any, index: int) -> list[int]:
    """The bids before ours: 0 (a pass) or above every bid before it, 1 to 3, at most two."""
    if not isinstance(value, list) or len(value) > 2:
        raise ValueError(f"request {index + 1}: 'bid' is a list of the (at most two) bids before")
    bids: list[int] = []
    for bid in value:
        bid = _whole(bid, "a bid", 0, 3)
        if bid and bid <= max(bids, default=0):
            raise ValueError(f"request {index + 1}: a bid of {bid} does not top {max(bids)}")
        bids.append(bid)
    return bids


def view_from_requests(
    requests: list[Any], responses: list[Any], rules: RuleSet | None = None
) -> View:
    """What our seat sees, rebuilt from a Botzone transcript (the last request unanswered)."""
    rules = rules or standard_rules()
    if not requests or len(responses) != len(requests) - 1:
        raise ValueError("a transcript has one more request than responses")
    current = requests[-1]
    if not isinstance(current, dict):
        raise ValueError("a request is a JSON object")
    last = len(requests) - 1
    if "history" not in current and "bid" in current:
        bids = _bids(current["bid"], last)
        return View(
            seat=len(bids),
            hand=hand_of_ids(_field(current, "own", last)),
            rules=rules,
            auction=tuple(enumerate(bids)),
            bid=max(bids, default=0),
            landlord=None,
            bottom=None,
            actions=(),
            counts=(17, 17, 17),
        )
    first = next(
        (i for i, r in enumerate(requests) if isinstance(r, dict) and "publiccard" in r), None
    )
    if first is None:
        raise ValueError("no play request carries 'publiccard'")
    setup = requests[first]
    pos = _whole(_field(setup, "pos", first), "'pos'", 0, 2)
    landlord = _whole(_field(setup, "landlord", first), "'landlord'", 0, 2)
    bottom = hand_of_ids(setup["publiccard"])
    hand = hand_of_ids(_field(setup, "own", first))
    if pos == landlord and len(hand) == 17:
        hand = hand + bottom
    counts = [17, 17, 17]
    counts[landlord] = 20
    actions: list[tuple[int, Play | None]] = []

    def act(seat: int, ids: Any) -> None:
        if not isinstance(ids, list):
            raise ValueError(f"a play is a list of card ids, not {ids!r}")
        if not ids:
            actions.append((seat, None))
            return
        cards = hand_of_ids(ids)
        last = last_play(actions)
        actions.append((seat, read_play(cards, last[1] if last else None, rules)))
        counts[seat] -= len(cards)

    for index in range(first, len(requests)):
        history = requests[index].get("history") if isinstance(requests[index], dict) else None
        if not isinstance(history, list) or len(history) != 2:
            raise ValueError(f"request {index + 1}: 'history' is two lists of card ids")
        acted = (pos - landlord) % 3 if index == first else 2
        for back in range(acted, 0, -1):
            act((pos - back) % 3, history[2 - back])
        if index < len(requests) - 1:
            act(pos, responses[index])
    played = Hand.empty()
    for seat, play in actions:
        if seat == pos and play is not None:
            played = played + play.cards
    if not played <= hand:
        raise ValueError("the earlier responses play cards the bot does not hold")
    return View(
        seat=pos,
        hand=hand - played,
        rules=rules,
        auction=(),
        bid=_whole(setup.get("finalbid", 1), "'finalbid'", 1, 3),
        landlord=landlord,
        bottom=bottom,
        actions=tuple(actions),
        counts=(counts[0], counts[1], counts[2]),
    )


def respond(requests: list[Any], responses: list[Any], rules: RuleSet | None = None) -> Any:
    """Our bot's answer to the last request of a transcript: a bid, or a list of card ids."""
    view = view_from_requests(requests, responses, rules)
    bot = Bot(view.seat, rules, ENDGAME_CARDS)  # the same bot as the agent 'cpsolver'

    if view.landlord is None:
        return bot.bid(view)
    play = bot.play(view)
    if play is None:
        return []
    setup = next(r for r in requests if "publiccard" in r)
    mine = list(setup["own"])
    if view.seat == int(setup["landlord"]) and len(mine) == 17:
        mine += list(setup["publiccard"])
    for answer in responses:
        if isinstance(answer, list):
            for card in answer:
                mine.remove(card)
    return take(mine, play.cards)


def serve(lines: IO[str], out: IO[str], keep_running: bool, rules: RuleSet | None = None) -> int:
    """Run our bot as a Botzone program on ``lines``; returns the number of answers given.

    Each input line is a whole transcript ``{"requests", "responses"}``, or
    (once this bot has asked to keep running) one new request.
    """
    requests: list[Any] = []
    responses: list[Any] = []
    answered = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if len(line) > limit("line"):
            raise InputError(f"stdin: line {number} is longer than {describe_size(limit('line'))}")
        data = loads_json(line, "stdin", number)  # bounded: digits and depth
        if isinstance(data, dict) and "requests" in data:
            requests, responses = list(data["requests"]), list(data.get("responses", []))
        elif answered:
            requests.append(data)
        else:
            raise InputError(
                "stdin: the first input is a transcript {'requests': [...], 'responses': [...]}"
            )
        answer = respond(requests, responses, rules)
        responses.append(answer)
        out.write(json.dumps({"response": answer}) + "\n")
        answered += 1
        if not keep_running:
            break
        out.write(KEEP_RUNNING + "\n")
        out.flush()
    out.flush()
    return answered
