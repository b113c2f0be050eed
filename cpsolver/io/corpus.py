"""Corpora as JSON lines, whatever a line holds: its id, its JSON, a bad line as an error record.

Every error names its line, and a bad line does not stop the reading.

The deal corpora (:mod:`cpsolver.io.dealformat`) and the position corpora
(:mod:`cpsolver.io.positioncorpus`) read their lines this one way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from cpsolver.io.reading import InputError, loads_json
from cpsolver.rules.errors import CpsolverError

Entry = TypeVar("Entry")
Failure = TypeVar("Failure", bound=CpsolverError)


def corpus_id(data: Any, number: int) -> str:
    """The id of a corpus line's JSON: its ``"id"`` as text, else its line number.

    >>> corpus_id({"id": 7}, 3), corpus_id({}, 3), corpus_id([1], 3)
    ('7', '3', '3')
    """
    found = data.get("id") if isinstance(data, dict) else None
    if found is None:
        return str(number)
    return found if isinstance(found, str) else json.dumps(found)


def corpus_key(data: Any, number: int | None) -> str:
    """What tells line ``number`` (or a result of it) from every other: its id as typed, or its number.

    ``"5"``, ``5`` and a line without an id at line 5 are three keys; a line
    whose id is its own line number as text is one line either way.
    A result record, carrying the line's ``"id"`` and ``"line"``, has the
    key of the line it answers.

    >>> corpus_key({"id": "5"}, 2), corpus_key({"id": 5}, 3), corpus_key({}, 5)
    ('"5"', '5', 'line 5')
    >>> corpus_key({"id": "5", "line": 5}, 5) == corpus_key({"id": None}, 5)
    True
    """
    found = data.get("id") if isinstance(data, dict) else None
    if found is None or (number is not None and found == str(number)):
        return f"line {number}"
    return json.dumps(found, sort_keys=True)


def parse_line(
    line: str, number: int, build: Callable[[Any], Entry], failure: type[CpsolverError]
) -> Entry:
    """Line ``number`` read as JSON and built into an entry; an error is ``failure``, naming the line."""
    try:
        data = loads_json(line, f"line {number}")
    except InputError as error:
        raise failure(str(error)) from None
    try:
        return build(data)
    except CpsolverError as error:
        raise failure(f"line {number}: {error}") from None


def numbered(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Each non-blank line with its number, counting from 1."""
    return ((number, line) for number, line in enumerate(lines, 1) if line.strip())


def read_entries(
    lines: Iterable[tuple[int, str | CpsolverError]],
    parse: Callable[[str, int], Entry],
    failure: type[Failure],
) -> Iterator[Entry | Failure]:
    """Each numbered line (from :func:`numbered`, or :func:`cpsolver.io.reading.read_lines`), parsed.

    A bad line (unreadable, or no entry) yields its error as ``failure``, and
    reading goes on.
    """
    for number, line in lines:
        if isinstance(line, CpsolverError):
            yield failure(str(line))
            continue
        try:
            yield parse(line, number)
        except failure as error:
            yield error
