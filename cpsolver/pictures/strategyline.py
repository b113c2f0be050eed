"""A strategy proof's winning move and its line of best play, found in the proof and drawn.

A checked strategy holds, at each of the winner's turns, its one move, and at
each of the other side's, every reply. Its *line* is the winner's moves against
the longest resistance: at each reply, the one whose strategy lasts longest (a
spring node plays its plays out in turn). The winning move is the line's first
move when the winner is to move.

>>> document = {"winner": 0, "root": 0, "position": {"hands": ["3KK", "4QQ"], "turn": 0},
...             "nodes": [{"hands": ["3KK", "4QQ"], "turn": 0, "table": None,
...                        "spring": [{"cards": "KK"}, {"cards": "3"}]}]}
>>> strategy_line(document)
[(0, 'KK'), (1, 'pass'), (0, '3')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cpsolver.pictures.drawing import (
    INK,
    LARGE,
    MARK,
    hand_width,
    svg_document,
    text_at,
    text_width,
    tiles,
)
from cpsolver.rules.cards import Hand

PASS = "pass"
MAX_LINE = 200  # moves; a whole hand has fewer


def _length(nodes: Sequence[dict[str, Any]], index: int, memo: dict[int, int]) -> int:
    """Moves to the end from node ``index`` against the longest resistance (iteratively, no recursion)."""
    stack = [index]
    while stack:
        here = stack[-1]
        if here in memo:
            stack.pop()
            continue
        node = nodes[here]
        if "spring" in node:
            memo[here] = 2 * len(node["spring"]) - 1
            stack.pop()
            continue
        moves = [node["move"]] if "move" in node else node["replies"]
        waiting = [m["next"] for m in moves if m["next"] is not None and m["next"] not in memo]
        if waiting:
            stack.extend(waiting)
            continue
        memo[here] = 1 + max((0 if m["next"] is None else memo[m["next"]]) for m in moves)
        stack.pop()
    return memo[index]


def strategy_line(document: dict[str, Any]) -> list[tuple[int, str]]:
    """The line of a checked strategy ``document``: (hand, cards or ``pass``) to the end."""
    nodes = document["nodes"]
    players = len(document["position"]["hands"])
    memo: dict[int, int] = {}
    line: list[tuple[int, str]] = []
    index: int | None = document["root"]
    while index is not None and len(line) < MAX_LINE:
        node = nodes[index]
        turn = node["turn"]
        if "spring" in node:  # the mover plays out; each other hand passes between
            for number, play in enumerate(node["spring"]):
                if number:
                    line += [((turn + k) % players, PASS) for k in range(1, players)]
                line.append((turn, play["cards"]))
            break
        if "move" in node:
            chosen = node["move"]
        else:  # the reply that holds out longest
            chosen = max(
                node["replies"],
                key=lambda m: 0 if m["next"] is None else _length(nodes, m["next"], memo),
            )
        line.append((turn, chosen["cards"]))
        index = chosen["next"]
    return line


def line_picture(names: Sequence[str], line: Sequence[tuple[int, str]], heading: str) -> str:
    """The line as a picture: one row a move, the hand's name, its cards (or pass)."""
    row = LARGE.height + 14
    name_width = max(text_width(name, 14, bold=True) for name in names) + 10
    tiles_x = 50 + name_width
    body = [text_at(20, 24, heading, 16, fill=INK, font_weight="bold")]
    widest = text_width(heading, 16, bold=True) + 40
    words = []
    for number, (hand, cards) in enumerate(line):
        y = 40 + number * row
        colour = MARK if hand == 0 else INK  # hand 0's side in red, as a record marks the landlord
        body.append(text_at(20, y + 30, f"{number + 1}.", 14, fill="#777777"))
        body.append(text_at(50, y + 30, names[hand], 14, fill=colour, font_weight="bold"))
        if cards == PASS:
            body.append(text_at(tiles_x, y + 30, PASS, 14, fill="#999999", font_style="italic"))
            widest = max(widest, tiles_x + 60)
        else:
            played = Hand.parse(cards)
            body.append(tiles(tiles_x, y, played, LARGE, f"{names[hand]}: {cards}"))
            widest = max(widest, tiles_x + hand_width(played) + 20)
        words.append(f"{number + 1}. {names[hand]} {cards}")
    height = 40 + len(line) * row + 6
    return svg_document(max(widest, 360), height, f"{heading}. " + "; ".join(words), body)
