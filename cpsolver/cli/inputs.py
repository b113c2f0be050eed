"""How commands read what they are given: cards, files, stdin and deals, through the reading layer."""

from __future__ import annotations

import click

from cpsolver.cli.base import BadInput
from cpsolver.io.dealformat import DealDocument, parse_deal_document
from cpsolver.io.reading import read_text, source_name
from cpsolver.rules.cards import Deal


def read_source(path: str, kind: str = "deal") -> str:
    """The text of a file, or of stdin for ``-``, through the reading layer (capped, UTF-8)."""
    return read_text(path, kind)


def read_cards(text: str) -> str:
    """Card text from the argument itself, from stdin (``-``) or a file (``@PATH``).

    In stdin and files, ``#`` starts a comment that runs to the end of the line.
    """
    if text != "-" and not text.startswith("@"):
        cards = text
    else:
        content = read_text(text.removeprefix("@"), "cards")
        cards = " ".join(line.split("#", 1)[0] for line in content.splitlines())
    if not cards.strip():
        source = "CARDS" if text == "" else source_name(text.removeprefix("@"))
        raise BadInput(f"{source}: no cards given")
    return cards


def read_deal(
    source: str | None, landlord: str | None, peasant1: str | None, peasant2: str | None
) -> Deal:
    """A deal from a file or stdin, or from the three hand options."""
    return read_deal_document(source, landlord, peasant1, peasant2).deal


def read_deal_document(
    source: str | None, landlord: str | None, peasant1: str | None, peasant2: str | None
) -> DealDocument:
    """A deal with the id and expected verdict its file may carry (a corpus line is a deal file)."""
    hands = (landlord, peasant1, peasant2)
    if source is not None:
        if any(hand is not None for hand in hands):
            raise click.UsageError("give a DEAL file or the hand options, not both")
        return parse_deal_document(read_source(source), source_name(source))
    if any(hand is None for hand in hands):
        raise click.UsageError(
            "give a DEAL file (or - for stdin), or all of --landlord, --peasant1, --peasant2"
        )
    # An empty hand is left to the deal's own message ("peasant 1's hand is empty").
    return DealDocument(
        Deal.parse(*(read_cards(hand) if hand else "" for hand in hands if hand is not None))
    )
