"""Corpora of open-hand positions: one JSON position a line, with an id and maybe a verdict.

A line is the position contract plus an optional ``"id"`` (the line number if
absent) and an optional ``"expected": {"winner": 0 | 1}``::

    {"id": "p1", "hands": ["KK3", "QQ4"], "turn": 0, "table": null, "expected": {"winner": 0}}

A deal line (``{"landlord": ..., "peasants": [...]}``) is the three-player
position with the landlord to lead; its spring label, if any, is read as what
it implies: ``"spring"`` means the landlord wins, ``"no_spring"`` says nothing.

>>> entry = parse_position_line('{"id": 7, "hands": ["KK3", "QQ4"], "expected": {"winner": 0}}', 1)
>>> entry.id, entry.expected, position_entry_as_dict(entry)["hands"]
('7', 0, ['3KK', '4QQ'])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Any

from cpsolver.io.corpus import corpus_id, numbered, parse_line, read_entries
from cpsolver.io.dealformat import DealDocument, parse_deal_document
from cpsolver.io.positionformat import (
    ENTRY_KEYS,
    PositionFormatError,
    is_position_text,
    parse_position,
    position_as_dict,
    position_from_dict,
)
from cpsolver.io.reading import InputError, loads_json
from cpsolver.rules.cards import Deal
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet


class PositionCorpusError(CpsolverError):
    """A corpus line that is no position; the message names the line."""


@dataclass(frozen=True)
class PositionEntry:
    """One line of a position corpus: the position, its id, the side expected to win (if known)."""

    line: int
    id: str
    position: Position
    expected: int | None = None


def parse_position_line(line: str, number: int, rules: RuleSet | None = None) -> PositionEntry:
    """One corpus line; errors name the line."""

    def entry(data: Any) -> PositionEntry:
        position = position_from_dict(data, rules, ENTRY_KEYS)
        return PositionEntry(
            number, corpus_id(data, number), position, _expected(data.get("expected"))
        )

    return parse_line(line, number, entry, PositionCorpusError)


@dataclass(frozen=True)
class PositionDocument:
    """A position file: the position, and the id and expected winner a JSON line may carry."""

    position: Position
    id: str | None = None
    expected: int | None = None


def parse_position_document(
    text: str, rules: RuleSet | None = None, source: str | None = None
) -> PositionDocument:
    """A position file of either form, with a JSON line's ``id`` and ``expected`` winner.

    A corpus line of ``cpsolver deal`` (a position or a deal) is a position
    file; errors name ``source`` when it is given.

    >>> found = parse_position_document('{"id": "p", "hands": ["3", "4"], "expected": {"winner": 1}}')
    >>> found.id, found.expected
    ('p', 1)
    """
    if text.lstrip()[:1] not in ("{", "["):
        try:
            return PositionDocument(parse_position(text, rules))
        except CpsolverError as error:
            raise type(error)(f"{source}: {error}" if source else str(error)) from None
    try:
        data = loads_json(text, source or "position")
    except InputError as error:  # the reading layer's limits: digits, depth; it names the source
        raise PositionFormatError(str(error)) from None
    try:
        position = position_from_dict(data, rules, ENTRY_KEYS)
        found = data.get("id")  # position_from_dict refuses anything but an object
        return PositionDocument(
            position,
            None if found is None else corpus_id(data, 0),
            _expected(data.get("expected")),
        )
    except CpsolverError as error:
        raise type(error)(f"{source}: {error}" if source else str(error)) from None


def position_as_deal(position: Position, source: str | None = None) -> Deal:
    """The deal a position is when it is one: three hands, the landlord to lead, a clear table.

    Errors name ``source`` when it is given.

    >>> position_as_deal(Position.from_deal(Deal.parse("3", "4", "5"))).landlord
    Hand.parse('3')
    """
    if position.players != 3 or position.turn != 0 or position.table is not None:
        raise PositionFormatError(
            f"{source}: "
            * (source is not None)
            + "a deal is three hands with the landlord (hand 0) to lead and nothing on the table; "
            "ask 'cpsolver endgame' about other positions"
        )
    return Deal(*position.hands)


def _expected(value: Any) -> int | None:
    """The winning side a line's ``expected`` names (a deal's spring label implies side 0)."""
    if value is None or value in ("no_spring", "unknown"):
        return None
    if value == "spring":
        return 0
    winner = value.get("winner") if isinstance(value, dict) else None
    if (
        not isinstance(value, dict)
        or set(value) != {"winner"}
        or isinstance(winner, bool)
        or winner not in (0, 1)
    ):
        raise PositionCorpusError(
            f'\'expected\' must be {{"winner": 0}} or {{"winner": 1}}, got {value!r}'
        )
    return int(winner)


def read_position_corpus(
    lines: Iterable[str], rules: RuleSet | None = None
) -> Iterator[PositionEntry | PositionCorpusError]:
    """Each non-blank line, read; a bad line yields its error and reading goes on."""
    return read_position_corpus_lines(numbered(lines), rules)


def read_position_corpus_lines(
    lines: Iterable[tuple[int, str | CpsolverError]], rules: RuleSet | None = None
) -> Iterator[PositionEntry | PositionCorpusError]:
    """Each numbered line (from :func:`cpsolver.io.reading.read_lines`), read.

    A bad line (unreadable, or no position) yields its error, and reading goes on.
    """
    return read_entries(
        lines, lambda line, number: parse_position_line(line, number, rules), PositionCorpusError
    )


def position_entry_as_dict(entry: PositionEntry) -> dict[str, Any]:
    """The corpus line of an entry: its id, the position, and its expected winner if any."""
    line: dict[str, Any] = {"id": entry.id, **position_as_dict(entry.position)}
    if entry.expected is not None:
        line["expected"] = {"winner": entry.expected}
    return line


def is_position_line(line: str) -> bool:
    """Whether a corpus line has the shape of a position (``"hands"``), not of a deal.

    >>> is_position_line('{"hands": ["3", "4"]}'), is_position_line('{"landlord": "3"}')
    (True, False)
    """
    try:
        data = loads_json(line, "a corpus line")
    except InputError:
        return False
    return isinstance(data, dict) and "hands" in data


def detect_question(
    lines: Iterable[tuple[int, str | CpsolverError]],
) -> tuple[str, Iterator[tuple[int, str | CpsolverError]]]:
    """The question a corpus asks, from its first readable line, and all its lines again.

    A line with ``"hands"`` is a position (``"endgame"``); anything else, and an
    empty corpus, is ``"spring"``. Only the lines up to the first readable one are held.

    >>> detect_question(iter([(1, '{"hands": ["3", "4"]}')]))[0]
    'endgame'
    """
    seen: list[tuple[int, str | CpsolverError]] = []
    rest = iter(lines)
    for item in rest:
        seen.append(item)
        if isinstance(item[1], str) and item[1].strip():
            question = "endgame" if is_position_line(item[1]) else "spring"
            return question, chain(seen, rest)
    return "spring", iter(seen)


def deal_document_of(text: str, source: str) -> DealDocument:
    """The deal a file's text holds, in any deal form or as a position that is a deal."""
    if is_position_text(text):
        found = parse_position_document(text, source=source)
        return DealDocument(position_as_deal(found.position, source), found.id)
    return parse_deal_document(text, source)
