"""What every command shares: the group, one-line errors, input readers, common options, output.

Exit codes follow grep: 0 yes (a play, plays found, a spring, a valid proof),
1 no, 2 bad input or usage, 3 undecided (a limit was reached). ``--json``
writes only JSON to stdout; messages go to stderr.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from cpsolver.cards import Deal, rank_symbol
from cpsolver.dealformat import parse_deal
from cpsolver.dealgen import parse_sizes
from cpsolver.errors import CpsolverError
from cpsolver.parallel import Runner, runner_for
from cpsolver.plays import Play

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


class BadInput(click.ClickException):
    """A one-line message on stderr and exit code 2, never a traceback."""

    exit_code = 2


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        global _stdin_used
        _stdin_used = False
        # Library errors become one-line messages here, at the edge, and nowhere else.
        try:
            return super().invoke(ctx)
        except CpsolverError as error:
            raise BadInput(str(error)) from None


_stdin_used = False


def read_source(path: str) -> str:
    """The text of a file, or of stdin for ``-`` (which can be read only once)."""
    global _stdin_used
    if path == "-":
        if _stdin_used:
            raise click.UsageError("stdin (-) can be read only once")
        _stdin_used = True
        try:
            text = sys.stdin.read()
        except UnicodeDecodeError:
            text = "\udcff"
        if any("\udc80" <= char <= "\udcff" for char in text):  # undecodable bytes, escaped
            raise BadInput("cannot read stdin: not UTF-8 text")
        return text
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise BadInput(f"cannot read {path}: {reason}") from None


def read_cards(text: str) -> str:
    """Card text from the argument itself, from stdin (``-``) or a file (``@PATH``).

    In stdin and files, ``#`` starts a comment that runs to the end of the line.
    """
    if text != "-" and not text.startswith("@"):
        return text
    content = read_source(text.removeprefix("@"))
    return " ".join(line.split("#", 1)[0] for line in content.splitlines())


def read_deal(
    source: str | None, landlord: str | None, peasant1: str | None, peasant2: str | None
) -> Deal:
    """A deal from a file or stdin, or from the three hand options."""
    hands = (landlord, peasant1, peasant2)
    if source is not None:
        if any(hand is not None for hand in hands):
            raise click.UsageError("give a DEAL file or the hand options, not both")
        return parse_deal(read_source(source))
    if any(hand is None for hand in hands):
        raise click.UsageError(
            "give a DEAL file (or - for stdin), or all of --landlord, --peasant1, --peasant2"
        )
    return Deal.parse(*(read_cards(hand) for hand in hands if hand is not None))


def rules_option(command: F) -> F:
    return click.option(
        "--rules",
        "rules_name",
        default="standard",
        show_default=True,
        metavar="NAME|PATH",
        help="Rule set: a name bundled in models/ or a TOML file of your own.",
    )(command)


def common_options(command: F) -> F:
    command = rules_option(command)
    return click.option("--json", "as_json", is_flag=True, help="Write JSON to stdout.")(command)


def shape_words(play: Play) -> str:
    shape = play.shape
    if "length" in shape:
        return f"length {shape['length']}"
    if "triplets" in shape:
        return f"{shape['triplets']} triplets"
    if "kickers" in shape:
        return f"with {shape['kickers']}"
    return ""


def play_line(play: Play, width: int) -> str:
    return f"{play!s:<{width}}  {play.kind.value:<24}  {rank_symbol(play.rank):<2}  {shape_words(play)}".rstrip()


def emit_json(value: Any) -> None:
    click.echo(json.dumps(value))


def deal_options(command: F) -> F:
    for name in ("--peasant2", "--peasant1", "--landlord"):
        command = click.option(
            name, metavar="CARDS", help=f"The {name[2:]}'s hand (instead of DEAL)."
        )(command)
    return click.argument("deal", required=False, metavar="[DEAL]")(command)


def plays_phrase(count: int) -> str:
    return f"{count} play{'' if count == 1 else 's'}"


def positive_seconds(
    ctx: click.Context, param: click.Parameter, value: float | None
) -> float | None:
    """A positive, finite number of seconds (nan and inf are refused)."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise click.BadParameter(f"{value} is not a positive number of seconds")
    return value


def write_json(path: str, document: Any) -> None:
    try:
        with open(path, "w", encoding="utf-8") as file:
            json.dump(document, file, indent=2)
            file.write("\n")
    except OSError as error:
        raise BadInput(f"cannot write {path}: {error.strerror}") from None


def cluster_options(default_workers: int) -> Callable[[F], F]:
    """--workers, --scheduler and --local-cluster, as batch and crosscheck share them."""

    def decorate(command: F) -> F:
        command = click.option(
            "--local-cluster",
            type=click.IntRange(min=1),
            metavar="N",
            help="Start a Dask LocalCluster of N workers and run on it.",
        )(command)
        command = click.option(
            "--scheduler", metavar="tcp://HOST:PORT", help="Run on this Dask cluster."
        )(command)
        return click.option(
            "--workers",
            type=click.IntRange(min=1),
            default=default_workers,
            show_default=True,
            help="Local worker processes.",
        )(command)

    return decorate


def make_runner(workers: int, scheduler: str | None, local_cluster: int | None) -> Runner:
    """The runner the cluster options ask for; a bad address is a one-line error."""
    if scheduler is not None and local_cluster is not None:
        raise click.UsageError("give --scheduler or --local-cluster, not both")
    try:
        return runner_for(workers, scheduler, local_cluster)
    except ValueError as error:
        raise BadInput(str(error)) from None


def sizes_option(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    if value is None:
        return None
    try:
        return parse_sizes(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def with_progress(total: int | None, show: bool, work: Callable[[Callable[[int], None]], T]) -> T:
    """Run ``work`` with a progress bar (rate, ETA) on a terminal, or plainly."""
    if not (show and sys.stderr.isatty()):
        return work(lambda n: None)
    from rich.progress import (  # only for a person at a terminal
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeRemainingColumn,
    )

    columns = (BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*Progress.get_default_columns()[:1], *columns, transient=True) as bar:
        task = bar.add_task("solving", total=total)
        return work(lambda n: bar.advance(task, n))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cpsolver")
def cli() -> None:
    """Exact answers about Dou Dizhu deals, and the rules they stand on.

    Cards are written 3456789TJQKA2BR (case-insensitive; 10 for T, X and D for
    the black and red joker; spaces, commas and dashes are ignored). Any CARDS
    argument may be - to read stdin, or @PATH to read a file.
    """
