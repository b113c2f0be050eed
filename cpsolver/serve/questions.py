"""What the board asks, as plain functions of plain data (no web framework here).

The server reads a request's parameters and body with :func:`read_body`,
:func:`read_position` and :func:`read_seconds` (through the reading layer's
caps; every failure a :class:`~cpsolver.rules.errors.CpsolverError` with one
line to show), and hands the heavy questions to a worker process as a job
(:mod:`cpsolver.serve.jobs`), which answers them with :func:`answer`. The
answers are what the CLI's ``--json`` prints for the same input, built by the
same functions: :meth:`EndgameResult.answer
<cpsolver.endgame.answer.EndgameResult.answer>` (``endgame --json --all``),
:meth:`SpringResult.answer <cpsolver.spring.result.SpringResult.answer>`
(``solve --json``), :func:`~cpsolver.verify.answer.verify_text` (``verify
--json``), ``Odds.as_dict`` (``odds --samples N --json``) and
``Analysis.as_dict`` (``analyse --json``, one a record).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from cpsolver.io.positionformat import position_as_dict, position_from_dict
from cpsolver.io.reading import InputError, decode, describe_size, limit
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.cards import Hand
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.movegen import generator
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet

RULES = "standard"  # the board plays the standard rules
DEFAULT_SECONDS = 60.0  # a question's time limit when the request gives none
MAX_SECONDS = 300.0  # the most a request may ask for (the CLI's default limit)
ODDS_SAMPLES = 2000  # the board's odds are an estimate: seeded samples, as odds --samples
MAX_LINE = 200  # moves a request may replay from its position (a whole hand has fewer)
SOURCE = "request"  # how messages name what a request sent
SEATS = ("landlord", "peasant1", "peasant2")
BODY_KINDS = {"solve": "deal", "verify": "proof", "analyse": "record", "read": "deal"}


class RequestError(CpsolverError):
    """A request the board cannot read: a missing or malformed parameter."""


class TooBig(InputError):
    """A body or parameter over the reading layer's cap for its kind (HTTP 413)."""


def too_big(kind: str, name: str = SOURCE) -> TooBig:
    """The refusal of ``name`` (a body, a parameter) over the cap of ``kind``."""
    noun = "cards" if kind == "cards" else f"a {kind}"
    return TooBig(f"{name}: over the {describe_size(limit(kind))} limit for {noun}")


def rules() -> RuleSet:
    """The rule set the board plays."""
    return load_rules(RULES)


def read_body(data: bytes, kind: str) -> str:
    """A request body as text: at most the reading layer's cap for ``kind``, UTF-8, not empty."""
    cap = limit(kind)
    if len(data) > cap:
        raise too_big(kind)
    text = decode(data, SOURCE)
    if not text.strip():
        raise RequestError(f"{SOURCE}: nothing in it")
    return text


def _cards(value: str, name: str) -> str:
    """A card parameter, within the card cap and not empty."""
    if len(value.encode("utf-8")) > limit("cards"):
        raise too_big("cards", name)
    if not value.strip():
        raise RequestError(f"{name}: no cards given")
    return value


def _whole(value: str | None, name: str) -> int | None:
    """A small whole-number parameter (a hand number)."""
    if value is None or value == "":
        return None
    if not value.isdigit() or len(value) > 3:
        raise RequestError(f"{name}: give a hand number, not {value[:20]!r}")
    return int(value)


def read_position(params: Mapping[str, str], rule_set: RuleSet) -> Position:
    """The position a request's parameters give, as the CLI's hand flags would.

    ``hands=CARDS,CARDS(,CARDS)`` in turn order, or ``landlord``, ``peasant1``
    and ``peasant2``; ``turn=N``; ``table=CARDS&by=N`` mid-trick; ``moves=M,M``
    (``pass`` for a pass) played from there, each checked legal.
    """
    seated = [name for name in SEATS if params.get(name) is not None]
    if seated and params.get("hands") is not None:
        raise RequestError("give landlord, peasant1 and peasant2, or hands, not both")
    if seated:
        missing = [name for name in SEATS if params.get(name) is None]
        if missing:
            raise RequestError(
                f"give all of landlord, peasant1, peasant2 (no {', '.join(missing)})"
            )
        cards = [_cards(params[name], name) for name in SEATS]
    elif params.get("hands") is not None:
        cards = [_cards(hand, "hands") for hand in params["hands"].split(",")]
        if len(cards) not in (2, 3):
            raise RequestError(f"hands: give two or three hands, comma-separated, not {len(cards)}")
    else:
        raise RequestError("give hands=CARDS,CARDS (in turn order) or landlord, peasant1, peasant2")
    table, by = params.get("table") or None, _whole(params.get("by"), "by")
    if (table is None) != (by is None):
        raise RequestError("table and by go together")
    turn = _whole(params.get("turn"), "turn") or 0
    position = Position.parse(
        cards, turn, None if table is None else _cards(table, "table"), by, rule_set
    )
    moves = params.get("moves")
    return position if not moves else replay_moves(position, moves.split(","), rule_set)


def read_landlord(value: str | None) -> str:
    """The ``landlord`` parameter of the odds: a hand of cards."""
    if value is None:
        raise RequestError("give landlord=CARDS")
    Hand.parse(_cards(value, "landlord"))
    return value


def read_text_position(text: str, rule_set: RuleSet) -> Position:
    """The position a deal or position file's text holds (a deal: the landlord to lead)."""
    from cpsolver.io.dealformat import parse_deal
    from cpsolver.io.positionformat import is_position_text, parse_position

    if is_position_text(text):
        return parse_position(text, rule_set)
    return Position.from_deal(parse_deal(text, SOURCE))


def replay_moves(position: Position, moves: list[str], rule_set: RuleSet) -> Position:
    """The position after ``moves`` (card text or ``pass``), each legal; none may end the hand."""
    if len(moves) > MAX_LINE:
        raise RequestError(f"moves: at most {MAX_LINE} moves")
    for number, text in enumerate(moves, 1):
        chosen = _legal(position, text.strip(), rule_set, number)
        after = position.after(chosen)
        if after is None:
            raise RequestError(f"moves: move {number} ({text}) ends the hand: nothing to show")
        position = after
    return position


def _legal(position: Position, text: str, rule_set: RuleSet, number: int) -> Any:
    """The legal move of the player to move that ``text`` names."""
    choices = generator(rule_set).moves(position.hands[position.turn], position.table)
    if text.lower() == "pass":
        if None not in choices:
            raise RequestError(f"moves: move {number}: the player on lead cannot pass")
        return None
    wanted = Hand.parse(_cards(text, "moves"))
    for play in choices:
        if play is not None and play.cards == wanted:
            return play
    raise RequestError(f"moves: move {number} ({text}) is not legal here")


def read_seconds(value: str | None) -> float:
    """A request's time limit in seconds: positive, at most :data:`MAX_SECONDS`."""
    if value is None or value == "":
        return DEFAULT_SECONDS
    try:
        seconds = float(value)
    except ValueError:
        raise RequestError(f"timeout: give seconds, not {value[:20]!r}") from None
    if not math.isfinite(seconds) or not 0 < seconds <= MAX_SECONDS:
        raise RequestError(f"timeout: give seconds above 0 and at most {MAX_SECONDS:g}")
    return seconds


def position_query(position: Position) -> dict[str, str]:
    """The URL parameters of a position (``hands``, ``turn``, ``table``, ``by``)."""
    query = {"hands": ",".join(str(hand) for hand in position.hands), "turn": str(position.turn)}
    if position.table is not None:
        query["table"] = str(position.table)
        query["by"] = str(position.by)
    return query


def hand_names(position: Position) -> list[str]:
    """How the board names the hands: the roles in a three-player position."""
    if position.players == 3:
        return ["landlord", "peasant 1", "peasant 2"]
    return [f"hand {number}" for number in range(position.players)]


def position_view(position: Position, rule_set: RuleSet) -> dict[str, Any]:
    """What the board draws a position from: its JSON, URL, names and legal moves.

    Each move carries the URL parameters of the position after it, or
    ``null`` when it empties the mover's hand (the mover's side has won).
    """
    moves = []
    for play in generator(rule_set).moves(position.hands[position.turn], position.table):
        after = position.after(play)
        moves.append(
            {
                "move": "pass" if play is None else str(play),
                "next": None if after is None else position_query(after),
            }
        )
    return {
        "position": position_as_dict(position, rule_set),
        "query": position_query(position),
        "names": hand_names(position),
        "side_of_turn": position.side_of(position.turn),
        "moves": moves,
    }


def job_for(kind: str, seconds: float, **data: Any) -> dict[str, Any]:
    """A job for the worker: the question, its time limit, its data (plain JSON)."""
    return {"kind": kind, "seconds": seconds, **data}


def answer(job: Mapping[str, Any]) -> Any:
    """Answer a job (in the worker): the CLI's JSON for the same input."""
    rule_set = rules()
    kind, seconds = job["kind"], float(job["seconds"])
    if kind == "endgame":
        from cpsolver.endgame import solve

        position = position_from_dict(job["position"], rule_set)
        return solve(position, rule_set, seconds, True, None).answer()
    if kind == "solve":
        from cpsolver.io.positioncorpus import deal_document_of
        from cpsolver.spring.engines import DEFAULT_ENGINE, solve_with

        document = deal_document_of(job["text"], SOURCE)
        return solve_with(DEFAULT_ENGINE, document.deal, rule_set, seconds).answer(document)
    if kind == "verify":
        from cpsolver.verify.answer import verify_text

        return verify_text(job["text"], None, rule_set, SOURCE).as_dict()
    if kind == "odds":
        return _odds(job["landlord"], seconds, rule_set)
    if kind == "analyse":
        return _analyses(job["text"], seconds, rule_set)
    raise RequestError(f"no question {kind!r}")


def _odds(landlord: str, seconds: float, rule_set: RuleSet) -> dict[str, Any]:
    """``cpsolver odds CARDS --samples N --seed 0 --json``, as one answer."""
    from cpsolver.odds import estimate_odds, question

    started = time.perf_counter()
    asked = question(Hand.parse(landlord), None, None, rule_set)
    odds = estimate_odds(asked, ODDS_SAMPLES, 0, False, time.monotonic() + seconds)
    return {**odds.as_dict(), "seconds": round(time.perf_counter() - started, 3)}


def _analyses(text: str, seconds: float, rule_set: RuleSet) -> list[dict[str, Any]]:
    """``cpsolver analyse RECORD --timeout 1 --total-timeout SECONDS --json``: one a record."""
    from cpsolver.analysis import analyse
    from cpsolver.io.reading import loads_records

    found = []
    deadline = time.monotonic() + seconds
    for number, record in enumerate(loads_records(text, SOURCE), 1):
        left = max(0.01, deadline - time.monotonic())
        name = None if "format" in record else f"replay {number}"
        try:
            found.append(analyse(record, rule_set, min(1.0, left), left, None, name).as_dict())
        except CpsolverError as error:
            raise RequestError(f"record {number}: {error}") from None
    return found
