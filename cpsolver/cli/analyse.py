"""Analyse: a recorded hand replayed with the open-hand solver's verdict after every action."""

from __future__ import annotations

import json
import sys

import click

from cpsolver.cli.base import BadInput, cli
from cpsolver.cli.drawings import write_pictures
from cpsolver.cli.evaluate import read_records
from cpsolver.cli.options import (
    common_options,
    picture_options,
    positive_seconds,
    timeout_option,
)
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.errors import CpsolverError


@cli.command("analyse")
@click.argument("record_file", metavar="RECORD")
@timeout_option("Seconds for each position.", default=1.0)
@click.option(
    "--total-timeout",
    type=float,
    default=None,
    callback=positive_seconds,
    help="Seconds for the whole hand (default: no limit but --timeout's).",
)
@click.option(
    "--max-cards",
    type=click.IntRange(min=2),
    default=None,
    help="Ask only positions with at most this many cards in all hands.",
)
@picture_options
@common_options
def analyse_command(
    record_file: str,
    timeout: float | None,
    total_timeout: float | None,
    max_cards: int | None,
    svg_path: str | None,
    html_path: str | None,
    as_json: bool,
    rules_name: str,
) -> None:
    """Who wins after every action of a recorded hand, and the blunders.

    RECORD is cpsolver's game records ('play --record', 'simulate --record'),
    rlcard-showdown replays or Botzone FightTheLandlord match logs ({"log":
    [...]}, as Botzone's match page gives them), one JSON object or JSON
    lines, or - for stdin.
    Exit 0 when every position was decided, 3 when a limit left some undecided,
    2 for bad input.

    \b
    Examples:
      cpsolver analyse hands.jsonl --timeout 1 --json
      cpsolver analyse botzone-match.json --max-cards 28
    """
    from cpsolver.analysis import analyse

    rules = load_rules(rules_name)
    analyses = []
    for number, record in enumerate(read_records(record_file, rules), 1):
        try:
            analyses.append(
                analyse(
                    record,
                    rules,
                    timeout,
                    total_timeout,
                    max_cards,
                    None if "format" in record else f"replay {number}",
                )
            )
        except CpsolverError as error:
            raise BadInput(f"record {number}: {error}") from None
    from cpsolver.pictures.timeline import analysis_lines, analysis_timeline

    for analysis in analyses:
        document = analysis.as_dict()
        click.echo(json.dumps(document) if as_json else "\n".join(analysis_lines(document)))
    if svg_path or html_path:
        pictures = [analysis_timeline(a.as_dict()) for a in analyses if a.landlord is not None]
        if pictures:
            write_pictures(svg_path, html_path, f"{len(pictures)} analysed hands", pictures)
    if any(a.undecided for a in analyses):
        sys.exit(3)
