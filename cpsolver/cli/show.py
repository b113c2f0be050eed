"""show: a deal, position, proof, record or analysis drawn in the terminal, as SVG or as HTML.

What each thing looks like is :mod:`cpsolver.cli.drawings`; here the input is
read, told apart, checked (a proof is drawn only once its checker accepts it)
and printed.
"""

from __future__ import annotations

import json
from typing import Any

import click

from cpsolver.cli.base import BadInput, cli
from cpsolver.cli.drawings import (
    Drawing,
    draw_analysis,
    draw_deal,
    draw_explanation,
    draw_plan,
    draw_position,
    draw_record,
    explorer_page,
    heading,
    write_pictures,
)
from cpsolver.cli.inputs import HandFlags, read_deal, read_position_document, read_source
from cpsolver.cli.options import common_options, picture_options, position_options
from cpsolver.cli.output import emit_json
from cpsolver.io.dealformat import parse_deal
from cpsolver.io.positionformat import (
    ENTRY_KEYS,
    parse_position,
    position_from_dict,
    read_play,
)
from cpsolver.io.reading import loads_documents, source_name
from cpsolver.io.rulefiles import load_rules
from cpsolver.io.writing import write_text
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.position import Position, side_wins
from cpsolver.rules.ruleset import RuleSet


def _read_documents(text: str, source: str, rules: RuleSet) -> list[Any]:
    """JSON documents: proofs, certificates, strategies, records (one or JSON lines).

    A Botzone match log is read as the game record of its hand.
    """
    from cpsolver.game.botzone_log import botzone_records

    documents = botzone_records(loads_documents(text, source), source, rules)
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
    from cpsolver.verify.compiled import check_quickly
    from cpsolver.verify.documents import read_proof

    try:
        document = read_proof(text)
        # The compiled checker only ever says valid; the Python one says why not.
        valid = check_quickly(text, None, rules) is not None
        failure = None if valid else check_document(document, None, rules)[0]
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
        drawing.page = explorer_page(document, position, drawing.pictures[0])
        drawing.pictures.append(_line_picture(document, position, said))
        drawing.renderables.insert(
            0, heading(f"{drawing.title}: a strategy of this position, checked")
        )
        drawing.data["winner"] = document["winner"]
    else:
        deal = parse_deal(json.dumps(document["deal"]))
        drawing = draw_deal(deal, rules, solve=False)
        drawing.title = "Proof of a spring" if kind == "cpsolver-proof" else "No spring"
        drawing.renderables.insert(0, heading(f"{drawing.title}, checked"))
        if kind == "cpsolver-proof":
            plan = [read_play(s["cards"], rules, s["kind"], s["rank"]) for s in document["plan"]]
            draw_plan(drawing, deal, plan, rules)
        else:
            draw_explanation(drawing, deal, rules)
    drawing.data["valid"] = True
    return drawing


def _line_picture(document: dict[str, Any], position: Position, said: str) -> str:
    """A checked strategy's winning move (when the winner is to move) and its line, drawn."""
    from cpsolver.pictures.annotate import ROLE_NAMES
    from cpsolver.pictures.strategyline import line_picture, strategy_line

    line = strategy_line(document)
    names = ROLE_NAMES if position.players == 3 else ("hand 0", "hand 1")
    winner_moves = position.side_of(position.turn) == document["winner"]
    move = f"; the winning move: {line[0][1]}" if winner_moves and line else ""
    return line_picture(names, line, f"{said.capitalize()} with best play{move}. A line:")


def draw(text: str, rules: RuleSet, solve: bool, source: str = "input") -> list[Drawing]:
    """Whatever ``text`` holds, drawn."""
    stripped = text.lstrip()
    if not stripped.startswith(("{", "[")):
        keys = {line.split("#", 1)[0].split(":")[0].strip().lower() for line in text.splitlines()}
        # A turn or table line makes landlord:/peasant1: lines a position, as endgame reads them.
        if any(key.startswith("hand") for key in keys) or keys & {"turn", "table"}:
            return [draw_position(parse_position(text, rules))]
        return [draw_deal(parse_deal(text), rules, solve)]
    documents = _read_documents(text, source, rules)
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


def _flag_drawing(
    source: str | None,
    flags: HandFlags,
    turn: int | None,
    table: str | None,
    by: int | None,
    rules: RuleSet,
    solve: bool,
) -> Drawing:
    """The hands the flags give, drawn as their file would be: the three seats a deal, --hand a position.

    The seats with --turn or --table are a position, as a deal file with a
    ``turn:`` line is. With a SOURCE too, or with neither, a usage error.
    """
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
    if flags.seated and turn is None and table is None and by is None:
        return draw_deal(read_deal(None, flags), rules, solve)
    return draw_position(read_position_document(None, flags, turn, table, by, rules).position)


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
    game records from 'play --record' or 'simulate --record', Botzone
    FightTheLandlord match logs ({"log": [...]}), or analysed
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
    if html_path is not None and len(drawings) == 1 and drawings[0].page is not None:
        write_text(html_path, drawings[0].page)  # the strategy to walk, not a still picture
        html_path = None
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
