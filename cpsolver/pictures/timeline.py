"""An analysed hand as a timeline: one row a trick, each action with who wins after it, blunders marked.

It draws the JSON document of ``cpsolver analyse --json`` (with its
``landlord`` and ``hands``, each seat's cards as play began), so a saved
analysis draws again without the solver; :func:`analysis_lines` gives the
same hand as the lines of text that ``analyse`` and ``show`` print.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from cpsolver.io.words import counted
from cpsolver.pictures.drawing import INK, MARK, SMALL, hand_width, svg_document, text_at, tiles
from cpsolver.rules.cards import Hand

SIDE_COLOURS = (MARK, "#1f4e9a")  # the landlord's side red, the peasants' blue
SIDE_WORDS = ("landlord", "peasants")


def _verdict(winner: Any) -> tuple[str, str]:
    """The words and colour of a verdict: a side, or undecided."""
    if winner in (0, 1):
        return f"{SIDE_WORDS[winner]} win", SIDE_COLOURS[winner]
    return "undecided", "#999999"


def _side_word(winner: Any) -> str:
    return SIDE_WORDS[winner] if winner in (0, 1) else "undecided"


def analysis_lines(document: dict[str, Any]) -> list[str]:
    """The hand as text: a line an action (who wins before and after, blunders marked), a summary."""
    lines = [f"{document['id']}:"]
    for action in document["actions"]:
        mark = f"  BLUNDER (better: {action['better']})" if action["blunder"] else ""
        lines.append(
            f"{action['index']:>4}  seat {action['seat']} {SIDE_WORDS[action['side']]:<8}  "
            f"{action['action']:<12}  {_side_word(action['winner_before'])} -> "
            f"{_side_word(action['winner_after'])}{mark}"
        )
    result = document["result"]
    score = f", score {result['score']}" if "score" in result else ""
    lines.append(
        f"result: {result['winner']} win{score}; "
        f"{counted(document.get('blunders', 0), 'blunder')}, "
        f"{counted(document.get('undecided', 0), 'position')} undecided"
    )
    return lines


def analysis_timeline(document: dict[str, Any]) -> str:
    """The SVG timeline of one analysed hand; each action says who wins after it."""
    landlord = document["landlord"]
    left = [len(Hand.parse(cards)) for cards in document["hands"]]
    short = ["L" if seat == landlord else f"P{seat}" for seat in range(3)]
    row = SMALL.height + 56
    body: list[str] = []
    words: list[str] = []
    widest, y, trick, passes = 0.0, 40 - row, 0, 2
    x = 40.0
    for action in document["actions"]:
        if passes == 2:  # a new trick: a new row
            trick, passes, y, x = trick + 1, 0, y + row, 40.0
            body.append(text_at(10, y + 30, f"{trick}", 12, fill="#777777"))
        seat, cards = action["seat"], action["action"]
        after, colour = _verdict(action["winner_after"])
        who = f"action {action['index']}, seat {seat} ({short[seat]})"
        note = f"{who}: {cards}, then {after}"
        if action["blunder"]:
            note += f"; a blunder, {action['better']} kept the win"
        words.append(note)
        if cards == "pass":
            passes += 1
            width = 44.0
            body.append(text_at(x, y + 34, "pass", 12, fill="#999999", font_style="italic"))
        else:
            passes = 0
            played = Hand.parse(cards)
            left[seat] -= len(played)
            width = max(hand_width(played, SMALL), 70)
            body.append(tiles(x, y + 18, played, SMALL, f"{who}: {cards}"))
        label = short[seat] if cards == "pass" else f"{short[seat]} · {left[seat]} left"
        body.append(text_at(x, y + 12, label, 11, fill=INK, font_weight="bold"))
        body.append(
            f"<g><title>{escape(note)}</title>"
            + text_at(x, y + SMALL.height + 32, "→ " + after, 10, fill=colour)
            + "</g>"
        )
        if action["blunder"]:
            body.append(
                f'<rect x="{x - 4:g}" y="{y - 2:g}" width="{width + 8:g}" '
                f'height="{SMALL.height + 52}" rx="6" fill="none" stroke="{MARK}" '
                'stroke-width="2.5"/>'
            )
            body.append(
                text_at(
                    x,
                    y + SMALL.height + 46,
                    f"blunder: {action['better']}",
                    10,
                    fill=MARK,
                    font_weight="bold",
                )
            )
        x += width + 14
        widest = max(widest, x)
    result = document["result"]
    blunders = document.get("blunders", 0)
    heading = (
        f"{document['id']}: {result['winner']} win; {counted(blunders, 'blunder')}, "
        f"{document.get('undecided', 0)} undecided"
    )
    head = text_at(10, 24, heading, 15, fill=INK, font_weight="bold")
    height = 40 + trick * row + 6
    return svg_document(
        max(widest + 10, 420), height, f"{heading}. " + "; ".join(words), [head, *body]
    )
