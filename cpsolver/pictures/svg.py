"""Pictures as SVG text: cards as tiles, a deal around a table, a plan, a recorded hand.

Pure functions returning self-contained SVG (no external fonts, images or
scripts; generic font families only) that is accessible: every picture and
every hand has a ``<title>`` naming its cards. Nothing in the rules core
imports this module at load time; ``Hand._repr_svg_`` and friends import it
when a notebook asks for a picture.

>>> picture = hand(Hand.parse("33 R"))
>>> picture.startswith("<svg") and "<title>3 3 red joker</title>" in picture
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape

from cpsolver.io.words import counted
from cpsolver.pictures.annotate import ROLE_NAMES, first_answers, tricks
from cpsolver.pictures.drawing import (
    FELT,
    FONT,
    INK,
    LARGE,
    MARK,
    SMALL,
    card_names,
    hand_width,
    svg_document,
    text_at,
    text_width,
    tiles,
)
from cpsolver.rules.cards import Deal, Hand, rank_symbol
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet


def hand(cards: Hand | Play, label: str | None = None) -> str:
    """One hand or play as a row of tiles."""
    title = label or card_names(cards)
    width = max(hand_width(cards), LARGE.width) + 16
    return svg_document(width, LARGE.height + 16, title, [tiles(8, 8, cards, LARGE, title)])


def _hand_label(name: str, cards: Hand, note: str = "") -> str:
    """A hand's heading: ``peasant 1 (to move) · 4 cards``."""
    return f"{name} · {counted(len(cards), 'card')}{note}"


def _hand_block(x: float, y: float, name: str, cards: Hand, note: str = "") -> list[str]:
    count = counted(len(cards), "card")
    return [
        text_at(x, y + 14, _hand_label(name, cards, note), 14, fill=INK, font_weight="bold"),
        tiles(x, y + 22, cards, LARGE, f"{name}, {count}: {card_names(cards)}"),
    ]


def table(
    hands: Sequence[Hand],
    names: Sequence[str],
    centre: str = "",
    centre_cards: Play | None = None,
    turn: int | None = None,
    title: str = "",
) -> str:
    """Two or three hands around a table: hand 0 below, the others above.

    ``centre`` is written on the table and ``centre_cards`` drawn on it;
    ``turn`` marks the hand to move.
    """

    def name(number: int) -> str:
        return names[number] + (" (to move)" if number == turn else "")

    top = list(range(1, len(hands)))
    # Each hand's room holds its tiles and its heading; the table holds what is written on it.
    widths = [
        max(hand_width(h), 200, math.ceil(text_width(_hand_label(name(n), h), 14, bold=True)))
        for n, h in enumerate(hands)
    ]
    top_width = sum(widths[n] for n in top) + 40 * (len(top) - 1)
    width = max(top_width, widths[0], 360, math.ceil(text_width(centre, 14)) + 40) + 40
    body: list[str] = []
    # Turn order runs landlord -> peasant 1 -> peasant 2: peasant 1 to the right.
    x = width - 20
    for number in top:
        x -= widths[number]
        body += _hand_block(x, 10, name(number), hands[number])
        x -= 40
    felt_y = 10 + 22 + LARGE.height + 20
    felt_height = 100
    body.append(
        f'<rect x="20" y="{felt_y}" width="{width - 40:g}" height="{felt_height}" rx="40" '
        f'fill="{FELT}"/>'
    )
    if centre:
        body.append(
            text_at(width / 2, felt_y + 26, centre, 14, fill="#ffffff", text_anchor="middle")
        )
    if centre_cards is not None:
        x = (width - hand_width(centre_cards)) // 2
        body.append(
            tiles(x, felt_y + 36, centre_cards, LARGE, f"on the table: {card_names(centre_cards)}")
        )
    bottom_y = felt_y + felt_height + 20
    body += _hand_block((width - widths[0]) / 2, bottom_y, name(0), hands[0])
    return svg_document(width, bottom_y + 22 + LARGE.height + 12, title or "A deal", body)


def deal(position: Deal) -> str:
    """A deal: the landlord below, the peasants above, a table between."""
    title = "; ".join(
        f"{role}: {card_names(hand)}" for role, hand in zip(ROLE_NAMES, position.hands)
    )
    return table(position.hands, ROLE_NAMES, "the landlord leads", title=f"Deal. {title}")


def position(position: Position) -> str:
    """An open-hand position: its hands, the hand to move, and the play on the table."""
    names = ROLE_NAMES if position.players == 3 else ("hand 0", "hand 1")
    if position.table is None:
        centre = f"{names[position.turn]} leads"
    else:
        assert position.by is not None
        centre = f"{names[position.by]} played {position.table}; {names[position.turn]} to answer"
    title = "Position. " + "; ".join(
        f"{name}: {card_names(hand)}" for name, hand in zip(names, position.hands)
    )
    return table(
        position.hands, names, centre, position.table, position.turn, title=f"{title}. {centre}"
    )


def plan(
    position: Deal | None,
    plays: Sequence[Play],
    rules: RuleSet | None = None,
    safe: Sequence[bool] | None = None,
) -> str:
    """A plan's plays in order; an answerable play is marked with who answers it.

    Without the deal, ``safe`` (one flag a play) says which plays are answerable.
    """
    row = LARGE.height + 20
    tiles_width = max((hand_width(p) for p in plays), default=0)
    label_x = 60 + tiles_width + 24
    marks: list[tuple[bool, str]] = []  # each play: answerable, and the note beside it
    for number, play in enumerate(plays):
        if position is not None:
            answers = first_answers(position, play, rules)
            answerable = bool(answers)
            note = "answerable: " + "; ".join(f"peasant {n} with {a}" for n, a in answers)
        else:
            answerable = safe is not None and not safe[number]
            note = "answerable"
        if answerable and number == len(plays) - 1:
            note += " (played last)"
        marks.append((answerable, note if answerable else "nobody can answer"))
    words = f"The landlord's plan: {counted(len(plays), 'play')}"
    # The labels' column is at least 330 wide, and as wide as its longest note.
    column = max([330] + [math.ceil(text_width(note, 13)) + 20 for _, note in marks])
    width = max(label_x + column, math.ceil(text_width(words, 16, bold=True)) + 40)
    body: list[str] = []
    notes: list[str] = []
    for number, (play, (answerable, note)) in enumerate(zip(plays, marks)):
        y = 40 + number * row
        if answerable:
            body.append(
                f'<rect x="8" y="{y - 8}" width="{width - 16:g}" height="{row - 4}" '
                f'rx="6" fill="#fdecea" stroke="{MARK}" stroke-width="2"/>'
            )
        notes.append(f"{number + 1}. {play} ({play.kind.value}), {note}")
        body.append(text_at(20, y + 30, f"{number + 1}.", 16, fill=INK, font_weight="bold"))
        body.append(tiles(60, y, play, LARGE, f"step {number + 1}: {card_names(play)}"))
        body.append(text_at(label_x, y + 20, play.kind.value.replace("_", " "), 14, fill=INK))
        body.append(text_at(label_x, y + 40, note, 13, fill=MARK if answerable else FELT))
    heading = text_at(20, 24, words, 16, fill=INK, font_weight="bold")
    height = 40 + len(plays) * row + 8
    return svg_document(width, height, "Plan. " + " ".join(notes), [heading, *body])


def html_fragment(picture: str, caption: str) -> str:
    """A picture and its caption, for a notebook's ``_repr_html_``."""
    return f"<figure>{picture}<figcaption>{escape(caption)}</figcaption></figure>"


def explanation(
    position: Deal, carriers: dict[int, list[tuple[Play, list[tuple[int, Play]]]]]
) -> str:
    """Why there is no spring: each blocking card, the plays that could carry it, who answers.

    ``carriers`` maps a blocking rank to (play, answers) pairs, as in
    :func:`cpsolver.pictures.terminal.explanation_view`.
    """
    row = LARGE.height + 30  # the carriers as large as the blocking card: readable when scaled
    body: list[str] = []
    words: list[str] = []
    y = 44.0
    widest = 0.0
    for rank, plays in carriers.items():
        card = Hand.from_ranks([rank])
        body.append(tiles(14, y, card, LARGE, f"blocking card {card_names(card)}"))
        x = 70.0
        for play, answers in plays:
            if answers:
                note = "; ".join(f"peasant {n}: {a}" for n, a in answers)
                words.append(f"{card_names(card)} in {play}: {note}")
            else:
                note = "safe, rest uncoverable"
                words.append(f"{card_names(card)} in {play}: safe, but the rest cannot be covered")
            body.append(tiles(x, y, play, LARGE, f"{card_names(play)} ({play.kind.value})"))
            colour = MARK if answers else FELT
            body.append(text_at(x, y + LARGE.height + 16, note, 13, fill=colour))
            x += max(hand_width(play), math.ceil(text_width(note, 13))) + 22
        widest = max(widest, x)
        y += row
    blocking = " ".join(rank_symbol(r) for r in carriers)
    head = text_at(
        14,
        26,
        f"No spring: the landlord's {blocking} cannot all be played",
        15,
        fill=INK,
        font_weight="bold",
    )
    title = f"Why no spring. Blocking cards {blocking}. " + "; ".join(words)
    head_width = text_width(f"No spring: the landlord's {blocking} cannot all be played", 15, True)
    return svg_document(max(widest, 480, math.ceil(head_width) + 28), y + 4, title, [head, *body])


def record(
    start: Sequence[Hand],
    actions: Sequence[tuple[int, Play | None]],
    landlord: int,
    heading: str = "",
    bottom: Hand | None = None,
    auction: Sequence[tuple[int, int]] = (),
) -> str:
    """A recorded hand: the hands as play began (by role), the bottom cards and the auction,
    then a timeline, one row a trick, each action left to right.

    Seats are named by their role in this hand (L the landlord, P1 and P2 the
    peasants in turn order), with the seat number beside.
    """
    order = [landlord, (landlord + 1) % 3, (landlord + 2) % 3]
    names = {seat: f"{ROLE_NAMES[n]} (seat {seat})" for n, seat in enumerate(order)}
    short = {seat: ("L", "P1", "P2")[n] for n, seat in enumerate(order)}
    title = heading or "A recorded hand, trick by trick"
    body: list[str] = [text_at(10, 24, title, 15, fill=INK, font_weight="bold")]
    widest = text_width(title, 15, bold=True) + 20
    words = [f"{names[seat]}: {card_names(start[seat])}" for seat in order]
    y = 36.0
    for seat in order:  # the hands as play began
        label = f"{short[seat]}: {names[seat]} · {counted(len(start[seat]), 'card')}"
        colour = MARK if seat == landlord else INK
        body.append(text_at(10, y + 12, label, 11, fill=colour, font_weight="bold"))
        body.append(
            tiles(10, y + 18, start[seat], SMALL, f"{names[seat]}: {card_names(start[seat])}")
        )
        widest = max(widest, hand_width(start[seat], SMALL) + 20, text_width(label, 11, True) + 20)
        y += SMALL.height + 26
    if bottom is not None or auction:
        bids = ", ".join(f"seat {s} " + (f"bids {b}" if b else "passes") for s, b in auction)
        parts = ["bottom cards"] if bottom is not None else []
        said = "; ".join(parts + ([f"auction: {bids}"] if auction else []))
        body.append(text_at(10, y + 12, said, 11, fill=INK))
        widest = max(widest, text_width(said, 11) + 20)
        words.append(said + ("" if bottom is None else f" ({card_names(bottom)})"))
        if bottom is not None:
            body.append(tiles(10, y + 18, bottom, SMALL, f"bottom cards: {card_names(bottom)}"))
            y += SMALL.height + 26
        else:
            y += 20
    row = SMALL.height + 30
    cut = tricks(start, actions)
    for number, trick in enumerate(cut):
        top = y + number * row
        body.append(text_at(10, top + 30, f"{number + 1}", 12, fill="#777777"))
        x = 40.0
        for action in trick:
            who = f"seat {action.seat}, {names[action.seat]}"
            if action.play is None:
                words.append(f"{names[action.seat]} passes")
                body.append(
                    text_at(x, top + 12, short[action.seat], 11, fill=INK, font_weight="bold")
                )
                body.append(
                    f"<g><title>{escape(who)} passes</title>"
                    + text_at(x, top + 34, "pass", 12, fill="#999999", font_style="italic")
                    + "</g>"
                )
                x += 44
                continue
            words.append(f"{names[action.seat]}: {card_names(action.play)}")
            colour = MARK if action.seat == landlord else INK
            label = f"{short[action.seat]} · {action.left} left"
            body.append(text_at(x, top + 12, label, 11, fill=colour, font_weight="bold"))
            body.append(tiles(x, top + 18, action.play, SMALL, f"{who}: {card_names(action.play)}"))
            x += max(hand_width(action.play, SMALL), 70) + 14
        widest = max(widest, x + 10)
    height = y + len(cut) * row + 6
    return svg_document(
        max(widest, 420), height, f"{heading or 'A recorded hand'}. " + "; ".join(words), body
    )


def html_page(title: str, pictures: Sequence[str], text: str = "") -> str:
    """A self-contained HTML page: the pictures, and ``text`` as preformatted lines under them."""
    figures = "\n".join(f"<figure>{picture}</figure>" for picture in pictures)
    notes = f"<pre>{escape(text)}</pre>\n" if text else ""
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>body{{font-family:{FONT};margin:2em}}figure{{margin:1em 0}}</style></head>\n"
        f"<body><h1>{escape(title)}</h1>\n{figures}\n{notes}</body></html>\n"
    )
