"""Deals as text and JSON, and corpora of deals as JSON lines.

Two forms of one deal are read, told apart by their first character:

    # a comment                    {"landlord": "333444 5 7",
    landlord: 333444 5 7            "peasants": ["99 J", "KK A"]}
    peasant1: 99 J
    peasant2: KK A

A corpus is one JSON deal per line, each with an optional ``"id"`` and an
optional ``"expected"`` verdict. A single JSON deal may carry the same fields,
so any corpus line is a deal file and ``cpsolver deal`` pipes into every
command that reads one.

>>> deal = parse_deal("landlord: 333\\npeasant1: 4\\npeasant2: 5")
>>> deal_as_dict(deal)
{'landlord': '333', 'peasants': ['4', '5']}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cpsolver.io.corpus import corpus_id, numbered, parse_line, read_entries
from cpsolver.io.reading import InputError, loads_json
from cpsolver.rules.cards import Deal
from cpsolver.rules.errors import CpsolverError

VERDICTS = ("spring", "no_spring", "unknown")
# The fields a JSON deal may carry besides its hands, in a corpus line or a deal file alike.
ENTRY_KEYS = ("id", "expected")
_TEXT_KEYS = ("landlord", "peasant1", "peasant2")


class DealFormatError(CpsolverError):
    """A deal file or corpus line that is neither deal form; the message says where."""


@dataclass(frozen=True)
class DealDocument:
    """A deal file: the deal, and the id and expected verdict a JSON deal may carry."""

    deal: Deal
    id: str | None = None
    expected: str | None = None


def parse_deal(text: str, source: str | None = None) -> Deal:
    """A deal from either form: JSON (starts with ``{``) or three ``key: cards`` lines.

    Errors name ``source`` (the file, or ``stdin``) when it is given.
    """
    return parse_deal_document(text, source).deal


def parse_deal_document(text: str, source: str | None = None) -> DealDocument:
    """A deal file of either form, with a JSON deal's ``id`` and ``expected`` (a corpus line).

    >>> parse_deal_document('{"id": "d1", "landlord": "3", "peasants": ["4", "5"]}').id
    'd1'
    """
    try:
        if text.lstrip()[:1] in ("{", "["):
            data = loads_json(text, source or "deal")
            deal = deal_from_dict(data, ENTRY_KEYS)
            expected = _expected(data)
            found = data.get("id")
            return DealDocument(deal, None if found is None else corpus_id(data, 0), expected)
        return DealDocument(_parse_text(text))
    except InputError as error:
        raise DealFormatError(str(error)) from None
    except DealFormatError as error:
        raise DealFormatError(f"{source}: {error}" if source else str(error)) from None


def _expected(data: dict[str, Any]) -> str | None:
    """The ``expected`` verdict a JSON deal may carry, checked."""
    expected = data.get("expected")
    if expected is not None and expected not in VERDICTS:
        raise DealFormatError(f"'expected' must be one of {', '.join(VERDICTS)}, got {expected!r}")
    return expected if expected is None else str(expected)


def _parse_text(text: str) -> Deal:
    found: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        key, colon, cards = content.partition(":")
        key = key.strip().lower().replace(" ", "").replace("_", "")
        if not colon or key not in _TEXT_KEYS:
            raise DealFormatError(
                f"line {number}: expected 'landlord:', 'peasant1:' or 'peasant2:' "
                f"and cards, got {content!r}"
            )
        if key in found:
            raise DealFormatError(f"line {number}: {key} given twice")
        found[key] = cards
    missing = [key for key in _TEXT_KEYS if key not in found]
    if missing:
        raise DealFormatError(f"no {' and no '.join(missing)} line in the deal")
    return Deal.parse(found["landlord"], found["peasant1"], found["peasant2"])


def deal_from_dict(data: Any, extra: tuple[str, ...] = ()) -> Deal:
    """A deal from its JSON form ``{"landlord": str, "peasants": [str, str]}``.

    Keys other than these (and the ``extra`` ones a corpus line may carry) are refused.
    """
    if not isinstance(data, dict):
        raise DealFormatError("a JSON deal must be an object with 'landlord' and 'peasants'")
    allowed = ("landlord", "peasants", *extra)
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise DealFormatError(
            f"a deal line may not carry the key {unknown[0]!r}; it may carry: {', '.join(allowed)}"
        )
    landlord = data.get("landlord")
    peasants = data.get("peasants")
    if not isinstance(landlord, str):
        raise DealFormatError("a JSON deal needs 'landlord': a string of cards")
    if (
        not isinstance(peasants, list)
        or len(peasants) != 2
        or not all(isinstance(p, str) for p in peasants)
    ):
        raise DealFormatError("a JSON deal needs 'peasants': a list of two strings of cards")
    return Deal.parse(landlord, peasants[0], peasants[1])


def deal_as_dict(deal: Deal) -> dict[str, Any]:
    """The JSON form of a deal."""
    return {"landlord": str(deal.landlord), "peasants": [str(p) for p in deal.peasants]}


def deal_as_text(deal: Deal) -> str:
    """The text form of a deal: three ``key: cards`` lines."""
    return "".join(f"{key}: {hand}\n" for key, hand in zip(_TEXT_KEYS, deal.hands))


@dataclass(frozen=True)
class CorpusEntry:
    """One line of a corpus: the deal, its id (the line number if none), its expected verdict."""

    line: int
    id: str
    deal: Deal
    expected: str | None = None


def parse_corpus_line(line: str, number: int) -> CorpusEntry:
    """One JSON-lines corpus entry; errors name the line."""

    def entry(data: Any) -> CorpusEntry:
        return CorpusEntry(
            number, corpus_id(data, number), deal_from_dict(data, ENTRY_KEYS), _expected(data)
        )

    return parse_line(line, number, entry, DealFormatError)


def read_corpus_lines(
    lines: Iterable[tuple[int, str | CpsolverError]],
) -> Iterator[CorpusEntry | DealFormatError]:
    """Each numbered line of a corpus (from :func:`cpsolver.io.reading.read_lines`), read.

    A bad line (unreadable, or no deal) yields its error, and reading goes on.
    """
    return read_entries(lines, parse_corpus_line, DealFormatError)


def read_corpus(lines: Iterable[str]) -> Iterator[CorpusEntry | DealFormatError]:
    """Each non-blank line of a corpus, read; a bad line yields its error and reading goes on."""
    return read_corpus_lines(numbered(lines))
