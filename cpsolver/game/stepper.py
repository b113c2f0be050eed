"""A recorded hand stepped through play by play, the hands as they were at each step.

Keys (typed, then Enter): ``n`` or nothing for the next play, ``p`` for the
previous one, ``s`` for the start, ``e`` for the end, ``q`` to stop.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from cpsolver.game.engine import Game
from cpsolver.pictures.annotate import hands_after
from cpsolver.pictures.terminal import hand_text

KEYS = "Enter or n: next play, p: previous, s: start, e: end, q: quit"


def step_view(game: Game, count: int) -> Table:
    """The hand after its first ``count`` plays and passes: each seat's cards and the last action."""
    assert game.landlord is not None
    hands = hands_after(game.start_of_play, game.actions, count)
    total = len(game.actions)
    if count == 0:
        caption = f"before the first play: seat {game.landlord} (landlord) leads"
    else:
        seat, play = game.actions[count - 1]
        caption = f"seat {seat} {'played ' + str(play) if play else 'passed'}"
    table = Table(title=f"Play {count} of {total}: {caption}", title_justify="left")
    table.add_column("seat")
    table.add_column("role")
    table.add_column("left", justify="right")
    table.add_column("hand")
    table.add_column("last action")
    last: dict[int, Text] = {}
    for seat, play in game.actions[max(0, count - 2) : count]:
        last[seat] = hand_text(play, "pass")
    for seat in range(3):
        role = "landlord" if seat == game.landlord else "peasant"
        table.add_row(
            str(seat), role, str(len(hands[seat])), hand_text(hands[seat]), last.get(seat, "")
        )
    return table


def step_through(game: Game, console: Console, read: Callable[[str], str]) -> bool:
    """Show ``game`` play by play, as the keys ask; False when the person quit."""
    if game.landlord is None:
        console.print("This hand was thrown in: nothing was played.")
        return True
    count = 0
    total = len(game.actions)
    console.print(KEYS)
    while True:
        console.print(step_view(game, count))
        try:
            key = read("> ").strip().lower()
        except EOFError:
            return False
        if key in ("", "n"):
            if count == total:
                return True
            count += 1
        elif key == "p":
            count = max(0, count - 1)
        elif key == "s":
            count = 0
        elif key == "e":
            count = total
        elif key == "q":
            return False
        else:
            console.print(KEYS)
