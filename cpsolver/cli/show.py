"""show: a deal, position, proof or recorded hand drawn in the terminal, as SVG or as HTML.

Also the ``--svg`` / ``--html`` options that solve, explain and replay share.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cpsolver.cli.base import BadInput, cli
from cpsolver.cli.inputs import HandFlags, read_deal, read_position_document, read_source
from cpsolver.cli.options import common_options, position_options
from cpsolver.cli.output import emit_json
from cpsolver.io.dealformat import deal_as_dict, parse_deal
from cpsolver.io.positionformat import (
    ENTRY_KEYS,
    parse_position,
    position_as_dict,
    position_from_dict,
    read_play,
)
from cpsolver.io.reading import InputError, loads_json, source_name
from cpsolver.io.rulefiles import load_rules
from cpsolver.io.writing import write_text
from cpsolver.rules.cards import Deal
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position, side_wins
from cpsolver.rules.ruleset import RuleSet

if TYPE_CHECKING:
    from cpsolver.spring.cpsat.explain import Explanation

F = TypeVar("F", bound=Callable[..., Any])


def picture_options(command: F) -> F:
    """``--svg FILE`` and ``--html FILE``: write the picture of what the command shows."""
    command = click.option(
        "--html",
        "html_path",
        metavar="FILE",
        help="Write a self-contained HTML page with the pictures here.",
    )(command)
    return click.option(
        "--svg", "svg_path", metavar="FILE", help="Write the picture here, as SVG."
    )(command)


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
        [svg.record(start, actions, landlord, heading)],
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


def _heading(text: str) -> Any:
    from rich.text import Text

    return Text(text, style="bold")


def _read_documents(text: str, source: str) -> list[Any]:
    """JSON documents: proofs, certificates, strategies, records (one or JSON lines)."""
    try:
        documents = [
            loads_json(line, source, number)
            for number, line in enumerate(text.splitlines(), 1)
            if line.strip()
        ]
    except InputError as error:
        try:  # one document over several lines
            documents = [loads_json(text, source)]
        except InputError:
            raise error from None
    if not documents:
        raise BadInput("nothing to show: the input is empty")
    return documents


class NotValid(click.ClickException):
    """A proof, certificate or strategy the checker rejects: never drawn as if it proved anything."""

    exit_code = 1

    def show(self, file: Any = None) -> None:
        click.echo(f"invalid: {self.message}", err=True)


def draw_checked(text: str, rules: RuleSet) -> Drawing:
    """A proof, certificate or strategy, drawn only once the checker accepts it."""
    from cpsolver.verify.check import check_document
    from cpsolver.verify.documents import read_proof

    try:
        document = read_proof(text)
        failure, _ = check_document(document, None, rules)
    except CpsolverError as error:
        failure = str(error)
    if failure is not None:
        raise NotValid(f"{failure} (not drawn: only what 'cpsolver verify' accepts is)")
    kind = document["format"]
    if kind == "cpsolver-strategy":
        position = position_from_dict(document["position"], rules)
        drawing = draw_position(position)
        said = side_wins(document["winner"], position.players)
        drawing.title = f"{said.capitalize()} with best play"
        drawing.renderables.insert(
            0, _heading(f"{drawing.title}: a strategy of this position, checked")
        )
        drawing.data["winner"] = document["winner"]
    else:
        deal = parse_deal(json.dumps(document["deal"]))
        drawing = draw_deal(deal, rules, solve=False)
        drawing.title = "Proof of a spring" if kind == "cpsolver-proof" else "No spring"
        drawing.renderables.insert(0, _heading(f"{drawing.title}, checked"))
        if kind == "cpsolver-proof":
            plan = [read_play(s["cards"], rules, s["kind"], s["rank"]) for s in document["plan"]]
            draw_plan(drawing, deal, plan, rules)
        else:
            draw_explanation(drawing, deal, rules)
    drawing.data["valid"] = True
    return drawing


def draw(text: str, rules: RuleSet, solve: bool, source: str = "input") -> list[Drawing]:
    """Whatever ``text`` holds, drawn."""
    stripped = text.lstrip()
    if not stripped.startswith(("{", "[")):
        keys = {line.split("#", 1)[0].split(":")[0].strip().lower() for line in text.splitlines()}
        # A turn or table line makes landlord:/peasant1: lines a position, as endgame reads them.
        if any(key.startswith("hand") for key in keys) or keys & {"turn", "table"}:
            return [draw_position(parse_position(text, rules))]
        return [draw_deal(parse_deal(text), rules, solve)]
    documents = _read_documents(text, source)
    first = documents[0]
    if not isinstance(first, dict):
        raise BadInput("not a deal, position, proof or record: the JSON is no object")
    kind = first.get("format")
    if kind == "cpsolver-game":
        return [draw_record(document, n, rules) for n, document in enumerate(documents, 1)]
    if kind is None and "actions" in first:
        return [draw_analysis(document, n) for n, document in enumerate(documents, 1)]
    if len(documents) > 1:
        raise BadInput("several JSON lines: only game records and analyses come as JSON lines")
    if kind in ("cpsolver-proof", "cpsolver-certificate", "cpsolver-strategy"):
        return [draw_checked(text, rules)]
    if kind is not None:
        raise BadInput(f"cannot show a document of format {kind!r}")
    if "hands" in first:  # a corpus line is a position file too: its id and expected are allowed
        return [draw_position(position_from_dict(first, rules, ENTRY_KEYS))]
    return [draw_deal(parse_deal(text), rules, solve)]


def draw_flags(
    flags: HandFlags,
    turn: int | None,
    table: str | None,
    by: int | None,
    rules: RuleSet,
    solve: bool,
) -> Drawing:
    """The hands the flags give, drawn as their file would be: the three seats a deal, --hand a position.

    The seats with --turn or --table are a position, as a deal file with a ``turn:`` line is.
    """
    if flags.seated and turn is None and table is None and by is None:
        return draw_deal(read_deal(None, flags), rules, solve)
    return draw_position(read_position_document(None, flags, turn, table, by, rules).position)


def _flag_drawing(
    source: str | None,
    flags: HandFlags,
    turn: int | None,
    table: str | None,
    by: int | None,
    rules: RuleSet,
    solve: bool,
) -> Drawing:
    """The drawing of the hand flags; with a SOURCE too, or with neither, a usage error."""
    if source is not None:
        raise click.UsageError(
            "give a SOURCE file or --landlord/--peasant1/--peasant2 or --hand "
            "(with --turn, --table, --by), not both"
        )
    if not flags.given:
        raise click.UsageError(
            "give a SOURCE file (or - for stdin), or the hands as --landlord, --peasant1, "
            "--peasant2 or --hand (in turn order)"
        )
    return draw_flags(flags, turn, table, by, rules, solve)


@cli.command("show")
@click.argument("source", required=False, metavar="[DEAL|POSITION|PROOF|RECORD|ANALYSIS]")
@position_options("SOURCE")
@click.option("--solve", is_flag=True, help="For a deal: also its spring plan, or why it has none.")
@picture_options
@common_options
def show_command(
    source: str | None,
    flags: HandFlags,
    turn: int | None,
    table: str | None,
    by: int | None,
    solve: bool,
    svg_path: str | None,
    html_path: str | None,
    as_json: bool,
    rules_name: str,
) -> None:
    """Draw a deal, a position, a proof or a recorded hand: in the terminal, as SVG, as HTML.

    SOURCE is a file (or - for stdin): a deal, an open-hand position, a proof
    or certificate from 'solve --proof', a strategy from 'endgame --proof',
    game records from 'play --record' or 'simulate --record', or analysed
    hands from 'analyse --json' (a timeline with the blunders marked). A proof,
    certificate or strategy is checked first, as 'cpsolver verify' checks it,
    and one the checker rejects is not drawn (exit 1). Hands are grouped
    by rank with the 2s and jokers in colour (no colour when piped or with
    NO_COLOR); a plan and an explanation come as tables; a record trick by
    trick. --json gives what is drawn, as data. Instead of SOURCE, the hand
    flags draw a deal (--landlord, --peasant1, --peasant2) or a position
    (--hand in turn order, with --turn, --table and --by).

    \b
    Examples:
      cpsolver show examples/spring.txt --solve
      cpsolver show --landlord '333444 5 7' --peasant1 4 --peasant2 5 --solve
      cpsolver show --hand 'KK 3' --hand 'QQ 4' --turn 1 --table 3 --by 0
      cpsolver show proof.json --svg plan.svg
      cpsolver show hands.jsonl --html hands.html
    """
    rules = load_rules(rules_name)
    if source is None or flags.given or turn is not None or table is not None or by is not None:
        drawings = [_flag_drawing(source, flags, turn, table, by, rules, solve)]
    else:
        drawings = draw(read_source(source, "record"), rules, solve, source_name(source))
    pictures = [picture for drawing in drawings for picture in drawing.pictures]
    if (svg_path or html_path) and pictures:
        write_pictures(svg_path, html_path, drawings[0].title, pictures)
    if as_json:
        data = [drawing.data for drawing in drawings]
        emit_json(data[0] if len(data) == 1 else data)
        return
    import sys

    from rich.console import Console

    # Piped output is read by people too: tables as wide as a wide terminal, not 80 columns.
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    for drawing in drawings:
        for renderable in drawing.renderables:
            console.print(renderable)
