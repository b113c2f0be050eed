"""Deals, positions, plans, explanations and recorded hands drawn for a terminal (rich).

Hands are grouped by rank (``33 444 5 ... 22 B R``) with the 2s and the jokers
in colour; rich leaves the colour out when the output is no terminal or
``NO_COLOR`` is set. Each function returns a rich renderable; nothing here
prints.

>>> from rich.console import Console
>>> console = Console(width=60, no_color=True)
>>> with console.capture() as captured:
...     console.print(hand_text(Hand.parse("3 33 4 22 R B")))
>>> captured.get()
'333 4 22 B R\\n'
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cpsolver.pictures.annotate import ROLE_NAMES, first_answers, group_ranks, tricks
from cpsolver.rules.cards import BLACK_JOKER, RED_JOKER, TWO, Deal, Hand, rank_of, rank_symbol
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet

# The cards that decide hands stand out: the 2s and the two jokers.
RANK_STYLES = {TWO: "bold yellow", BLACK_JOKER: "bold blue", RED_JOKER: "bold red"}


def hand_text(hand: Hand | Play | None, empty: str = "-") -> Text:
    """A hand (or play) grouped by rank, 2s and jokers coloured; ``empty`` for no cards."""
    if hand is None:
        return Text(empty, style="dim")
    cards = hand.cards if isinstance(hand, Play) else hand
    if not cards:
        return Text(empty, style="dim")
    text = Text()
    for number, group in enumerate(group_ranks(cards)):
        if number:
            text.append(" ")
        text.append(group, style=RANK_STYLES.get(rank_of(group[0]), ""))
    return text


def deal_view(deal: Deal, title: str = "Deal", names: Sequence[str] = ROLE_NAMES) -> Table:
    """The three hands, one row each: role, number of cards, the cards grouped."""
    table = Table(title=title, title_justify="left")
    table.add_column("hand")
    table.add_column("cards", justify="right")
    table.add_column("holding")
    for role, hand in zip(names, deal.hands):
        table.add_row(role, str(len(hand)), hand_text(hand))
    return table


def position_view(position: Position) -> Table:
    """An open-hand position: each hand, who is to move, and the play on the table."""
    names = ROLE_NAMES if position.players == 3 else ("hand 0", "hand 1")
    lead = "leads" if position.on_lead else "to answer"
    table = Table(title=f"Position: {names[position.turn]} to move ({lead})", title_justify="left")
    table.add_column("hand")
    table.add_column("side", justify="right")
    table.add_column("cards", justify="right")
    table.add_column("holding")
    table.add_column("")
    for number, hand in enumerate(position.hands):
        note = Text("to move" if number == position.turn else "")
        if position.by == number and position.table is not None:
            note = Text.assemble("played ", hand_text(position.table))
        table.add_row(
            f"{number}: {names[number]}",
            str(position.side_of(number)),
            str(len(hand)),
            hand_text(hand),
            note,
        )
    return table


def plan_view(deal: Deal, plan: Sequence[Play], rules: RuleSet | None = None) -> Table:
    """A plan as a table: step, cards, kind, rank, and who could answer with what."""
    table = Table(title="Plan", title_justify="left")
    table.add_column("step", justify="right")
    table.add_column("cards", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("rank", justify="center")
    table.add_column("who could answer")
    for number, play in enumerate(plan, 1):
        answers = first_answers(deal, play, rules)
        who: Text | str = (
            Text("; ").join(
                Text.assemble(f"peasant {n} with ", hand_text(answer)) for n, answer in answers
            )
            if answers
            else Text("nobody", style="green")
        )
        if answers and number == len(plan):
            who = Text.assemble(who, Text(" (played last)", style="dim"))
        table.add_row(str(number), hand_text(play), play.kind.value, rank_symbol(play.rank), who)
    return table


def explanation_view(carriers: dict[int, list[tuple[Play, list[tuple[int, Play]]]]]) -> Table:
    """An explanation as a table: each blocking card, the plays that could carry it, their answers.

    ``carriers`` maps a blocking rank to (play, answers) pairs, answers being
    (peasant, play) pairs, empty for a safe play.
    """
    table = Table(title="Why no spring", title_justify="left")
    table.add_column("blocking card", justify="center")
    table.add_column("a play that could carry it", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("who answers it")
    for rank, plays in carriers.items():
        for number, (play, answers) in enumerate(plays):
            who: Text | str = (
                Text("; ").join(
                    Text.assemble(f"peasant {n} with ", hand_text(answer)) for n, answer in answers
                )
                if answers
                else "nobody (safe, but then the rest cannot be covered)"
            )
            card = hand_text(Hand.from_ranks([rank])) if number == 0 else Text("")
            table.add_row(card, hand_text(play), play.kind.value, who, end_section=False)
        table.add_section()
    return table


def record_view(
    start: Sequence[Hand],
    actions: Sequence[tuple[int, Play | None]],
    landlord: int,
    names: Sequence[str] = ("seat 0", "seat 1", "seat 2"),
) -> Table:
    """A recorded hand trick by trick: who played what, and how many cards each had left."""
    table = Table(title="Trick by trick", title_justify="left")
    table.add_column("trick", justify="right")
    table.add_column("who")
    table.add_column("play")
    table.add_column("left", justify="right")
    for number, trick in enumerate(tricks(start, actions), 1):
        for index, action in enumerate(trick):
            role = "landlord" if action.seat == landlord else "peasant"
            table.add_row(
                str(number) if index == 0 else "",
                f"{names[action.seat]} ({role})",
                hand_text(action.play, "pass"),
                str(action.left),
            )
        table.add_section()
    return table


def stacked(*parts: RenderableType) -> Group:
    """Several renderables one under the other."""
    return Group(*parts)
