"""Commands over the rules core: classify and plays."""

from __future__ import annotations

import sys

import click

from cpsolver.cli.base import cli
from cpsolver.cli.inputs import read_cards
from cpsolver.cli.options import common_options
from cpsolver.cli.output import emit_json, play_line, shape_words
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.cards import Hand, rank_symbol
from cpsolver.rules.errors import InvalidPlayError
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Kind, Play, classify
from cpsolver.rules.ruleset import RuleSet


@cli.command("classify")
@click.argument("cards")
@common_options
def classify_command(cards: str, as_json: bool, rules_name: str) -> None:
    """Say which of the thirteen plays CARDS form, or why they form none.

    Exit 0 for a play, 1 for no play, 2 for bad input.

    \b
    Example:
      cpsolver classify '777888 T J'
      777888TJ: triplet_sequence_singles, rank 8, 2 triplets
    """
    rules = load_rules(rules_name)
    hand = Hand.parse(read_cards(cards))
    try:
        play = classify(hand, rules)
    except InvalidPlayError as error:
        reason = str(error).split(": ", 1)[-1]
        if as_json:
            emit_json({"cards": str(hand), "error": reason})
        else:
            click.echo(f"{hand or '(no cards)'}: no play: {reason}")
        sys.exit(1)
    if as_json:
        emit_json(play.as_dict())
    else:
        words = ", ".join(
            part
            for part in (play.kind.value, f"rank {rank_symbol(play.rank)}", shape_words(play))
            if part
        )
        click.echo(f"{play}: {words}")


@cli.command("plays")
@click.argument("hand")
@click.option(
    "--kind",
    type=click.Choice([kind.value for kind in Kind]),
    help="List only the plays of this kind.",
)
@click.option("--beats", "beaten", metavar="PLAY", help="List only the plays that beat PLAY.")
@common_options
def plays_command(
    hand: str, kind: str | None, beaten: str | None, as_json: bool, rules_name: str
) -> None:
    """List every distinct play in HAND, or only those that beat a play.

    Exit 0 when at least one play is listed, 1 when none is, 2 for bad input.

    \b
    Examples:
      cpsolver plays 33344456
      cpsolver plays 'KKK 2 99 3' --beats 'QQQ A' --json
    """
    rules: RuleSet = load_rules(rules_name)
    cards = Hand.parse(read_cards(hand))
    moves = generator(rules)
    if beaten is None:
        found = moves.plays(cards)
    else:
        found = moves.answers(cards, classify(Hand.parse(read_cards(beaten)), rules))
    if kind is not None:
        found = [play for play in found if play.kind.value == kind]
    found.sort(key=Play.sort_key)
    if as_json:
        emit_json([play.as_dict() for play in found])
    else:
        width = max((len(str(play)) for play in found), default=0)
        for play in found:
            click.echo(play_line(play, width))
        what = "answers" if beaten is not None else "plays"
        click.echo(f"{len(found)} {what}", err=True)
    if not found:
        sys.exit(1)
