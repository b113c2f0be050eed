"""The ``cpsolver`` command line: parses, calls the library, prints.

Exit codes follow grep: 0 yes (a play, plays found), 1 no, 2 bad input or
usage. ``--json`` writes only JSON to stdout; messages go to stderr.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from cpsolver.cards import Hand, rank_symbol
from cpsolver.errors import CpsolverError, InvalidPlayError
from cpsolver.movegen import generator
from cpsolver.plays import Kind, Play, classify
from cpsolver.rules import RuleSet, load_rules

F = TypeVar("F", bound=Callable[..., Any])


class BadInput(click.ClickException):
    """A one-line message on stderr and exit code 2, never a traceback."""

    exit_code = 2


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        # Library errors become one-line messages here, at the edge, and nowhere else.
        try:
            return super().invoke(ctx)
        except CpsolverError as error:
            raise BadInput(str(error)) from None


def _read_cards(text: str) -> str:
    """Card text from the argument itself, from stdin (``-``) or a file (``@PATH``).

    In stdin and files, ``#`` starts a comment that runs to the end of the line.
    """
    if text == "-":
        content = sys.stdin.read()
    elif text.startswith("@"):
        try:
            with open(text[1:], encoding="utf-8") as file:
                content = file.read()
        except (OSError, UnicodeDecodeError) as error:
            reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
            raise BadInput(f"cannot read {text[1:]}: {reason}") from None
    else:
        return text
    return " ".join(line.split("#", 1)[0] for line in content.splitlines())


def _common_options(command: F) -> F:
    command = click.option(
        "--rules",
        "rules_name",
        default="standard",
        show_default=True,
        metavar="NAME|PATH",
        help="Rule set: a name bundled in models/ or a TOML file of your own.",
    )(command)
    return click.option("--json", "as_json", is_flag=True, help="Write JSON to stdout.")(command)


def _shape_words(play: Play) -> str:
    shape = play.shape
    if "length" in shape:
        return f"length {shape['length']}"
    if "triplets" in shape:
        return f"{shape['triplets']} triplets"
    if "kickers" in shape:
        return f"with {shape['kickers']}"
    return ""


def _play_line(play: Play, width: int) -> str:
    return f"{play!s:<{width}}  {play.kind.value:<24}  {rank_symbol(play.rank):<2}  {_shape_words(play)}".rstrip()


def _emit_json(value: Any) -> None:
    click.echo(json.dumps(value))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cpsolver")
def cli() -> None:
    """Exact answers about Dou Dizhu deals, and the rules they stand on.

    Cards are written 3456789TJQKA2BR (case-insensitive; 10 for T, X and D for
    the black and red joker; spaces, commas and dashes are ignored). Any CARDS
    argument may be - to read stdin, or @PATH to read a file.
    """


@cli.command("classify")
@click.argument("cards")
@_common_options
def classify_command(cards: str, as_json: bool, rules_name: str) -> None:
    """Say which of the thirteen plays CARDS form, or why they form none.

    Exit 0 for a play, 1 for no play, 2 for bad input.

    \b
    Example:
      cpsolver classify '777888 T J'
      777888TJ: triplet_sequence_singles, rank 8, 2 triplets
    """
    rules = load_rules(rules_name)
    hand = Hand.parse(_read_cards(cards))
    try:
        play = classify(hand, rules)
    except InvalidPlayError as error:
        reason = str(error).split(": ", 1)[-1]
        if as_json:
            _emit_json({"cards": str(hand), "error": reason})
        else:
            click.echo(f"{hand or '(no cards)'}: no play: {reason}")
        sys.exit(1)
    if as_json:
        _emit_json(play.as_dict())
    else:
        words = ", ".join(
            part
            for part in (play.kind.value, f"rank {rank_symbol(play.rank)}", _shape_words(play))
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
@_common_options
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
    cards = Hand.parse(_read_cards(hand))
    moves = generator(rules)
    if beaten is None:
        found = moves.plays(cards)
    else:
        found = moves.answers(cards, classify(Hand.parse(_read_cards(beaten)), rules))
    if kind is not None:
        found = [play for play in found if play.kind.value == kind]
    found.sort(key=Play.sort_key)
    if as_json:
        _emit_json([play.as_dict() for play in found])
    else:
        width = max((len(str(play)) for play in found), default=0)
        for play in found:
            click.echo(_play_line(play, width))
        what = "answers" if beaten is not None else "plays"
        click.echo(f"{len(found)} {what}", err=True)
    if not found:
        sys.exit(1)


def main() -> None:
    """Entry point of the ``cpsolver`` console script."""
    cli()
