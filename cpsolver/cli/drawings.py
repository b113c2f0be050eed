"""What show draws, and the --svg / --html pictures that solve, explain, endgame and replay write.

A :class:`Drawing` is one thing drawn three ways: rich renderables for the
terminal, SVG pictures, and the data ``--json`` prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cpsolver.cli.base import BadInput
from cpsolver.io.dealformat import deal_as_dict
from cpsolver.io.positionformat import position_as_dict
from cpsolver.io.writing import write_text
from cpsolver.rules.cards import Deal
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position, side_wins
from cpsolver.rules.ruleset import RuleSet

if TYPE_CHECKING:
    from cpsolver.spring.cpsat.explain import Explanation


def write_pictures(
    svg_path: str | None, html_path: str | None, title: str, pictures: Sequence[str], text: str = ""
) -> None:
    """Write the pictures: the first (or all, stacked) to ``svg_path``, all to ``html_path``."""
    from cpsolver.pictures import svg

    outputs = []
    if svg_path is not None:
        outputs.append((svg_path, pictures[0] if len(pictures) == 1 else _stack(pictures)))
    if html_path is not None:
        outputs.append((html_path, svg.html_page(title, pictures, text)))
    for path, content in outputs:
        write_text(path, content)


def _stack(pictures: Sequence[str]) -> str:
    """Several SVG pictures one under the other, as one SVG."""
    import re

    parts, y, width = [], 0.0, 0.0
    for picture in pictures:
        match = re.match(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)"', picture)
        assert match, "every picture of cpsolver.pictures.svg starts with its size"
        w, h = float(match.group(1)), float(match.group(2))
        parts.append(picture.strip().replace("<svg ", f'<svg x="0" y="{y:g}" ', 1))
        y, width = y + h, max(width, w)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{y:g}" '
        f'viewBox="0 0 {width:g} {y:g}" role="img"><title>cpsolver pictures</title>'
        + "".join(parts)
        + "</svg>\n"
    )


@dataclass
class Drawing:
    """What show draws: terminal renderables, SVG pictures, JSON, and a title."""

    title: str
    renderables: list[Any] = field(default_factory=list)
    pictures: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    page: str | None = None  # a whole HTML page of its own for --html (a strategy's explorer)


def _plan_data(deal: Deal, plays: Sequence[Play], rules: RuleSet) -> list[dict[str, Any]]:
    from cpsolver.pictures.annotate import first_answers

    return [
        {
            "step": number,
            **play.as_dict(),
            "answered_by": [
                {"peasant": n, "with": str(answer)}
                for n, answer in first_answers(deal, play, rules)
            ],
        }
        for number, play in enumerate(plays, 1)
    ]


def draw_deal(deal: Deal, rules: RuleSet, solve: bool) -> Drawing:
    """A deal; with ``solve``, its spring plan or the explanation of why there is none."""
    from cpsolver.pictures import svg, terminal
    from cpsolver.pictures.annotate import group_ranks

    drawing = Drawing("Deal", [terminal.deal_view(deal)], [svg.deal(deal)])
    drawing.data = {
        "what": "deal",
        "deal": deal_as_dict(deal),
        "groups": [group_ranks(hand) for hand in deal.hands],
    }
    if solve:
        from cpsolver.spring.search import solve as search

        plan = [step.play for step in search(deal, rules).plan]
        if plan:
            draw_plan(drawing, deal, plan, rules)
        else:
            draw_explanation(drawing, deal, rules)
    return drawing


def draw_plan(drawing: Drawing, deal: Deal, plan: Sequence[Play], rules: RuleSet) -> None:
    """Add a spring plan: its table and its picture."""
    from cpsolver.pictures import svg, terminal

    drawing.renderables.append(terminal.plan_view(deal, plan, rules))
    drawing.pictures.append(svg.plan(deal, plan, rules))
    drawing.data["plan"] = _plan_data(deal, plan, rules)


def draw_explanation(
    drawing: Drawing, deal: Deal, rules: RuleSet, explanation: Explanation | None = None
) -> None:
    """Add why there is no spring: the blocking cards as a table and a picture."""
    from cpsolver.pictures import svg, terminal
    from cpsolver.spring.cpsat.explain import explain

    explanation = explanation or explain(deal, rules)
    carriers = {
        rank: [(c.play, c.answers) for c in found] for rank, found in explanation.carriers.items()
    }
    drawing.renderables.append(terminal.explanation_view(carriers))
    drawing.pictures.append(svg.explanation(deal, carriers))
    drawing.data["explanation"] = explanation.as_dict()


def draw_position(position: Position) -> Drawing:
    """An open-hand position."""
    from cpsolver.pictures import svg, terminal

    return Drawing(
        "Position",
        [terminal.position_view(position)],
        [svg.position(position)],
        {"what": "position", "position": position_as_dict(position)},
    )


def draw_record(record: dict[str, Any], number: int, rules: RuleSet) -> Drawing:
    """A recorded hand: the deal as play began, then trick by trick."""
    from cpsolver.game.engine import replay, unfinished_words
    from cpsolver.pictures import svg, terminal
    from cpsolver.pictures.annotate import ROLE_NAMES, tricks

    try:
        game = replay(record, rules, unfinished=True)
    except CpsolverError as error:
        raise BadInput(f"record {number}: {error}") from None
    if game.phase in ("auction", "play"):  # the player left the hand: said, not drawn
        from rich.text import Text

        title = f"Hand {number} ({game.origin}): {unfinished_words(game)}"
        return Drawing(
            title, [Text(title)], data={"what": "record", "result": None, "unfinished": True}
        )
    result = game.result()
    if game.landlord is None:
        from rich.text import Text

        title = f"Hand {number} ({game.origin}): everybody passed, the hand was thrown in"
        return Drawing(
            title, [Text(title)], data={"what": "record", "result": result, "tricks": []}
        )
    heading = (
        f"Hand {number} ({game.origin}): seat {game.landlord} landlord at bid {game.bid}, "
        f"{result['winner']} win, stake {result['stake']}"
    )
    start, actions, landlord = game.start_of_play, game.actions, game.landlord
    order = [landlord, (landlord + 1) % 3, (landlord + 2) % 3]
    names = [f"seat {seat}" for seat in range(3)]
    from rich.text import Text

    return Drawing(
        heading,
        [
            Text(heading, style="bold"),
            terminal.deal_view(
                Deal(*(start[s] for s in order)),
                "As play began",
                [f"seat {s} ({ROLE_NAMES[n]})" for n, s in enumerate(order)],
            ),
            terminal.record_view(start, actions, landlord, names),
        ],
        [svg.record(start, actions, landlord, heading, game.bottom, game.auction)],
        {
            "what": "record",
            "result": result,
            "tricks": [
                [
                    {"seat": a.seat, "cards": str(a.play) if a.play else "pass", "left": a.left}
                    for a in trick
                ]
                for trick in tricks(start, actions)
            ],
        },
    )


def explorer_page(
    document: dict[str, Any], position: Position, picture: str, notes: str = ""
) -> str:
    """The walkable HTML page of a checked strategy (``show --html``, ``endgame --html``)."""
    from cpsolver.pictures.explorer import strategy_explorer

    said = side_wins(document["winner"], position.players)
    names = (
        ["landlord", "peasant 1", "peasant 2"]
        if position.players == 3
        else [f"hand {n}" for n in range(position.players)]
    )
    title = f"{said.capitalize()} with best play: walk the strategy"
    return strategy_explorer(document, title, f"{said.capitalize()}.", names, picture, notes)


def draw_analysis(document: Any, number: int) -> Drawing:
    """A hand as 'cpsolver analyse --json' wrote it: who wins after each action, blunders marked."""
    from rich.text import Text

    from cpsolver.pictures.timeline import analysis_lines, analysis_timeline
    from cpsolver.verify.documents import validate

    try:
        validate(document, "analysis")
    except CpsolverError as error:
        raise BadInput(f"analysis {number}: {error}") from None
    lines = analysis_lines(document)
    pictures = [] if document["landlord"] is None else [analysis_timeline(document)]
    return Drawing(
        lines[-1].replace("result", f"Hand {document['id']}", 1),
        [Text("\n".join(lines))],
        pictures,
        {"what": "analysis", **document},
    )


def heading(text: str) -> Any:
    from rich.text import Text

    return Text(text, style="bold")
