"""The marks every picture is drawn with: colours, card tiles, text and its width, the SVG envelope.

Shared by the pictures of :mod:`cpsolver.pictures.svg`, the timeline and the
strategy's line, so that a card looks the same everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from cpsolver.pictures.annotate import group_ranks
from cpsolver.rules.cards import BLACK_JOKER, RED_JOKER, TWO, Hand, rank_of
from cpsolver.rules.plays import Play

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222222"
# The cards that decide hands stand out, as in the terminal: the 2s and the jokers.
RANK_COLOURS = {TWO: "#9a6700", BLACK_JOKER: "#1f4e9a", RED_JOKER: "#c0392b"}
FELT = "#2e7d4f"
MARK = "#c0392b"


class Size:
    """A tile size: width, height, horizontal step between overlapping cards, gap between ranks."""

    def __init__(self, width: int, height: int, step: int, gap: int, font: int) -> None:
        self.width, self.height, self.step, self.gap, self.font = width, height, step, gap, font


LARGE = Size(36, 52, 18, 6, 14)
SMALL = Size(24, 34, 12, 4, 10)


def text_width(content: str, size: float, bold: bool = False) -> float:
    """An upper estimate of the width ``content`` takes at ``size`` px, so no picture cuts it off.

    No font is measured (a picture fetches none): capitals and m, w take
    0.8 em, narrow letters and punctuation 0.36 em, the rest 0.64 em, a tenth
    more in bold; DejaVu Sans, Verdana and Arial all fit inside.

    >>> round(text_width("peasant 1 (to move) · 1 card", 14, bold=True))
    240
    """
    em = 0.0
    for char in content:
        if char.isupper() or char in "mw%@":
            em += 0.8
        elif char in " il.,:;'|!()·":
            em += 0.36
        else:
            em += 0.64
    return em * size * (1.1 if bold else 1.0)


def card_names(cards: Hand | Play) -> str:
    """The cards in words for a title: ``'3 3 4 2 black joker red joker'``."""
    hand = cards.cards if isinstance(cards, Play) else cards
    names = {"B": "black joker", "R": "red joker"}
    words = [names.get(group[0], group[0]) for group in group_ranks(hand) for _ in group]
    return " ".join(words) or "no cards"


def text_at(x: float, y: float, content: str, size: int, **attributes: str) -> str:
    extra = "".join(
        f" {key.replace('_', '-')}={quoteattr(value)}" for key, value in attributes.items()
    )
    return (
        f'<text x="{x:g}" y="{y:g}" font-family={quoteattr(FONT)} font-size="{size}"'
        f"{extra}>{escape(content)}</text>"
    )


def tile(x: float, y: float, symbol: str, size: Size, face_up: bool) -> str:
    colour = RANK_COLOURS.get(rank_of(symbol), INK)
    face = "JOKER" if symbol in "BR" else symbol
    parts = [
        (
            f'<rect x="{x:g}" y="{y:g}" width="{size.width}" height="{size.height}" rx="4" '
            f'fill="#fffdf7" stroke="#555555" stroke-width="1"/>'
        ),
        text_at(x + 4, y + size.font + 1, symbol, size.font, fill=colour, font_weight="bold"),
    ]
    if not face_up:  # its middle lies under the next card
        return "".join(parts)
    parts.append(
        text_at(
            x + size.width / 2 + 3,
            y + size.height * 0.72,
            "★" if face == "JOKER" else symbol,
            size.font + 6,
            fill=colour,
            fill_opacity="0.35" if face != "JOKER" else "1",
            text_anchor="middle",
        )
    )
    return "".join(parts)


def hand_width(cards: Hand | Play, size: Size = LARGE) -> int:
    """The width a hand's tiles take."""
    hand = cards.cards if isinstance(cards, Play) else cards
    groups = group_ranks(hand)
    if not groups:
        return 0
    return (len(hand) - 1) * size.step + (len(groups) - 1) * size.gap + size.width


def tiles(x: float, y: float, cards: Hand | Play, size: Size, label: str) -> str:
    """A hand's tiles, overlapping, a small gap between ranks, under one title."""
    hand = cards.cards if isinstance(cards, Play) else cards
    parts = [f"<g><title>{escape(label)}</title>"]
    left = len(hand)
    for group in group_ranks(hand):
        for symbol in group:
            left -= 1
            parts.append(tile(x, y, symbol, size, left == 0))  # the others are overlapped
            x += size.step
        x += size.gap
    parts.append("</g>")
    return "".join(parts)


def svg_document(width: float, height: float, title: str, body: Sequence[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" role="img">'
        f"<title>{escape(title)}</title>"
        f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>' + "".join(body) + "</svg>\n"
    )
