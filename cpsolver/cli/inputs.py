"""How commands read what they are given: cards, files, stdin, deals and positions, through the reading layer.

The hand flags are one family on every command that takes hands (see
:func:`cpsolver.cli.options.hand_options`): ``--landlord``, ``--peasant1``,
``--peasant2`` name the three seats of a deal, ``--hand`` (repeated) gives the
hands of any position in turn order. :class:`HandFlags` is what a command
receives, and the readers here turn it, or a file, into a deal or a position.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

import click

from cpsolver.cli.base import BadInput
from cpsolver.io.dealformat import DealDocument
from cpsolver.io.positioncorpus import (
    PositionDocument,
    deal_document_of,
    parse_position_document,
)
from cpsolver.io.reading import read_text, source_name
from cpsolver.rules.cards import Deal, Hand
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet

SEAT_FLAGS = ("--landlord", "--peasant1", "--peasant2")
# What a usage error tells a user to give instead: every spelling of the family.
FAMILY = "--landlord/--peasant1/--peasant2 or --hand (in turn order)"


@dataclass(frozen=True)
class HandFlags:
    """The hand flags as given: the three seats (``--landlord`` ...), or ``--hand`` in turn order."""

    landlord: str | None = None
    peasant1: str | None = None
    peasant2: str | None = None
    hands: tuple[str, ...] = ()

    @property
    def seats(self) -> tuple[str | None, str | None, str | None]:
        """The ``--landlord``, ``--peasant1`` and ``--peasant2`` values (None where not given)."""
        return (self.landlord, self.peasant1, self.peasant2)

    @property
    def seated(self) -> bool:
        """Whether any of ``--landlord``, ``--peasant1``, ``--peasant2`` was given."""
        return any(seat is not None for seat in self.seats)

    @property
    def given(self) -> bool:
        """Whether any hand flag was given."""
        return self.seated or bool(self.hands)


def read_source(path: str, kind: str = "deal") -> str:
    """The text of a file, or of stdin for ``-``, through the reading layer (capped, UTF-8)."""
    return read_text(path, kind)


def read_cards(text: str, name: str | None = None) -> str:
    """Card text from the argument itself, from stdin (``-``) or a file (``@PATH``).

    In stdin and files, ``#`` starts a comment that runs to the end of the line.
    An empty hand is an error naming ``name`` (the flag, ``--peasant1``) when given.
    """
    if text != "-" and not text.startswith("@"):
        cards = text
    else:
        content = read_text(text.removeprefix("@"), "cards")
        cards = " ".join(line.split("#", 1)[0] for line in content.splitlines())
    if not cards.strip():
        source = None if text == "" else source_name(text.removeprefix("@"))
        where = ": ".join(part for part in (name, source) if part) or "CARDS"
        raise BadInput(f"{where}: no cards given")
    return cards


def flag_cards(flags: HandFlags, players: Sequence[int]) -> list[str] | None:
    """The cards of every hand the flags give, in turn order; None when none is given.

    ``players`` are the numbers of ``--hand`` the command takes (three seats are
    three hands). Mixing the two spellings, a missing seat or a wrong number of
    ``--hand`` is a usage error that says what to give.
    """
    if not flags.given:
        return None
    if flags.seated and flags.hands:
        raise click.UsageError(
            "give --landlord, --peasant1 and --peasant2, or --hand in turn order, not both"
        )
    if flags.seated:
        if 3 not in players:
            raise click.UsageError(
                f"give --hand {_count_words(players)} times, not the three seats"
            )
        missing = [name for name, seat in zip(SEAT_FLAGS, flags.seats) if seat is None]
        if missing:
            raise click.UsageError(
                f"give all of --landlord, --peasant1, --peasant2 (no {', '.join(missing)})"
            )
        return [read_cards(seat or "", name) for name, seat in zip(SEAT_FLAGS, flags.seats)]
    if len(flags.hands) not in players:
        raise click.UsageError(
            f"give --hand {_count_words(players)} times (in turn order), not {len(flags.hands)}"
        )
    return [read_cards(hand, f"--hand #{n}") for n, hand in enumerate(flags.hands, 1)]


def _count_words(players: Sequence[int]) -> str:
    """``three`` or ``two or three``."""
    return " or ".join(("two", "three")[count - 2] for count in players)


def read_deal(source: str | None, flags: HandFlags) -> Deal:
    """A deal from a file or stdin, or from the hand flags."""
    return read_deal_document(source, flags).deal


def read_deal_document(source: str | None, flags: HandFlags) -> DealDocument:
    """A deal with the id and expected verdict its file may carry (a corpus line is a deal file).

    A position file that is a deal (three hands, the landlord to lead, a clear
    table) is read as that deal, with its id.
    """
    if source is not None:
        if flags.given:
            raise click.UsageError(f"give a DEAL file or {FAMILY}, not both")
        return deal_document_of(read_source(source), source_name(source))
    cards = flag_cards(flags, (3,))
    if cards is None:
        raise click.UsageError(
            "give a DEAL file (or - for stdin), or all of --landlord, --peasant1, --peasant2 "
            "(or --hand three times, in turn order)"
        )
    return DealDocument(Deal.parse(*cards))


def read_landlord_cards(text: str, name: str) -> tuple[str, DealDocument | None]:
    """The landlord's cards, and the deal they come from when a file holds a deal.

    ``text`` is CARDS, or ``-``, ``@PATH`` or the path of a file holding cards,
    a deal or a corpus line (then its landlord's hand). A path is read only
    when ``text`` is no cards: cards are never mistaken for a file.
    """
    path = text.removeprefix("@") if text == "-" or text.startswith("@") else None
    if path is None and os.path.isfile(text) and not _are_cards(text):
        path = text
    if path is None:
        return read_cards(text, name), None
    content = read_text(path, "deal")
    bare = "\n".join(line.split("#", 1)[0] for line in content.splitlines())
    if bare.lstrip()[:1] in ("{", "[") or ":" in bare:
        document = deal_document_of(content, source_name(path))
        return str(document.deal.landlord), document
    if not bare.strip():
        raise BadInput(f"{name}: {source_name(path)}: no cards given")
    return " ".join(bare.splitlines()), None


def _are_cards(text: str) -> bool:
    """Whether ``text`` reads as cards."""
    try:
        Hand.parse(text)
    except CpsolverError:
        return False
    return True


def read_position_document(
    source: str | None,
    flags: HandFlags,
    turn: int | None,
    table: str | None,
    by: int | None,
    rules: RuleSet,
) -> PositionDocument:
    """A position (with its file's id and expected winner) from a file or stdin, or from the flags.

    Three seats are the three-player position, the landlord to lead unless ``turn``.
    """
    if source is not None:
        if flags.given or turn is not None or table is not None or by is not None:
            raise click.UsageError(
                f"give a POSITION file or {FAMILY} (with --turn, --table, --by), not both"
            )
        return parse_position_document(read_source(source), rules, source_name(source))
    cards = flag_cards(flags, (2, 3))
    if cards is None:
        raise click.UsageError(
            "give a POSITION file (or - for stdin), or two or three --hand options "
            "(or --landlord, --peasant1, --peasant2)"
        )
    if (table is None) != (by is None):
        raise click.UsageError("--table and --by go together")
    return PositionDocument(
        Position.parse(
            cards, turn or 0, None if table is None else read_cards(table, "--table"), by, rules
        )
    )
