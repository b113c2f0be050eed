"""What every command shares: the group, one-line errors, input readers, common options, output.

Exit codes follow grep: 0 yes (a play, plays found, a spring, a valid proof),
1 no, 2 bad input or usage, 3 undecided (a limit was reached). ``--json``
writes only JSON to stdout; messages go to stderr.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import io
import json
import math
import os
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import click

from cpsolver import __version__
from cpsolver.cards import Deal, rank_symbol
from cpsolver.dealformat import DealDocument, parse_deal_document
from cpsolver.dealgen import parse_sizes
from cpsolver.errors import CpsolverError
from cpsolver.parallel import Runner, runner_for
from cpsolver.plays import Play
from cpsolver.reading import read_text, reset_stdin, source_name
from cpsolver.writing import OutputError, open_output, safe_name, write_text

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


class BadInput(click.ClickException):
    """A one-line message on stderr and exit code 2, never a traceback."""

    exit_code = 2


class Interrupted(click.ClickException):
    """Ctrl-C or SIGTERM: one line, exit 130 (128 + SIGINT), as shells report it."""

    exit_code = 130


class _Group(click.Group):
    """The ``cpsolver`` group: one-line errors, and each command module imported when first named."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Command name -> the module of cpsolver.cli that registers it (see cli/__init__.py):
        # a command imports its module, and with it its solvers, only when it is run.
        self.modules: dict[str, str] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.modules})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.modules:
            importlib.import_module(f"cpsolver.cli.{self.modules[cmd_name]}")
        return super().get_command(ctx, cmd_name)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        # Usage errors as one line (click prints usage, a hint, a blank line and the error).
        if not kwargs.get("standalone_mode", True):
            return super().main(*args, **kwargs)
        kwargs["standalone_mode"] = False
        try:
            outcome = super().main(*args, **kwargs)
        except click.UsageError as error:
            click.echo(f"Error: {error.format_message()}", err=True)
            sys.exit(error.exit_code)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except click.Abort:
            click.echo("Error: interrupted", err=True)
            sys.exit(Interrupted.exit_code)
        sys.exit(outcome if isinstance(outcome, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        reset_stdin()
        # Library errors become one-line messages here, at the edge, and nowhere else.
        try:
            try:
                return super().invoke(ctx)
            finally:
                _flush_stdout()
        except CpsolverError as error:
            raise BadInput(str(error)) from None
        except KeyboardInterrupt:
            raise Interrupted("interrupted") from None
        except OSError as error:  # a write to stdout or stderr that failed (closed pipe, full disk)
            _silence_stdout()
            where = error.filename or "stdout"
            raise BadInput(f"cannot write {where}: {error.strerror or error}") from None


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block SIGTERM acts as Ctrl-C, so a long run ends the same tidy way.

    (The run writes what it has finished, ends its workers, prints the summary
    so far and exits 130.)
    """

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: leave SIGTERM as it is
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _flush_stdout() -> None:
    """Flush stdout now, so a closed pipe or a full disk is reported, not a traceback at exit."""
    try:
        sys.stdout.flush()
    except OSError as error:
        _silence_stdout()
        raise OutputError(f"cannot write stdout: {error.strerror or error}") from None


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass  # a stdout without a descriptor (a test harness) has nothing to flush at exit


def read_source(path: str, kind: str = "deal") -> str:
    """The text of a file, or of stdin for ``-``, through the reading layer (capped, UTF-8)."""
    return read_text(path, kind)


def read_cards(text: str) -> str:
    """Card text from the argument itself, from stdin (``-``) or a file (``@PATH``).

    In stdin and files, ``#`` starts a comment that runs to the end of the line.
    """
    if text != "-" and not text.startswith("@"):
        cards = text
    else:
        content = read_text(text.removeprefix("@"), "cards")
        cards = " ".join(line.split("#", 1)[0] for line in content.splitlines())
    if not cards.strip():
        source = "CARDS" if text == "" else source_name(text.removeprefix("@"))
        raise BadInput(f"{source}: no cards given")
    return cards


def read_deal(
    source: str | None, landlord: str | None, peasant1: str | None, peasant2: str | None
) -> Deal:
    """A deal from a file or stdin, or from the three hand options."""
    return read_deal_document(source, landlord, peasant1, peasant2).deal


def read_deal_document(
    source: str | None, landlord: str | None, peasant1: str | None, peasant2: str | None
) -> DealDocument:
    """A deal with the id and expected verdict its file may carry (a corpus line is a deal file)."""
    hands = (landlord, peasant1, peasant2)
    if source is not None:
        if any(hand is not None for hand in hands):
            raise click.UsageError("give a DEAL file or the hand options, not both")
        return parse_deal_document(read_source(source), source_name(source))
    if any(hand is None for hand in hands):
        raise click.UsageError(
            "give a DEAL file (or - for stdin), or all of --landlord, --peasant1, --peasant2"
        )
    # An empty hand is left to the deal's own message ("peasant 1's hand is empty").
    return DealDocument(
        Deal.parse(*(read_cards(hand) if hand else "" for hand in hands if hand is not None))
    )


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


def timeout_option(help: str, default: float | None = None) -> Callable[[F], F]:
    """``--timeout SECONDS``, the one name for a time limit, with ``--time-limit`` as a hidden alias."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def merged(*args: Any, **kwargs: Any) -> Any:
            alias = kwargs.pop("time_limit_alias")
            if alias is not None:
                kwargs["timeout"] = alias
            return command(*args, **kwargs)

        with_alias = click.option(
            "--time-limit",
            "time_limit_alias",
            type=float,
            callback=positive_seconds,
            hidden=True,
            help="The old name of --timeout.",
        )(merged)
        return click.option(
            "--timeout",
            type=float,
            callback=positive_seconds,
            default=default,
            show_default=default is not None,
            metavar="SECONDS",
            help=help,
        )(with_alias)  # type: ignore[return-value]

    return decorate


def write_json(path: str, document: Any) -> None:
    """Write a JSON document whole (``-``: stdout); a failure is one line, exit 2."""
    with open_output(path) as file:
        json.dump(document, file, indent=2)
        file.write("\n")


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


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _capped(option: str, wanted: int) -> int:
    """``wanted`` workers, or the cores here with a warning: more only thrash (and may not start)."""
    cores = usable_cores()
    if wanted <= cores:
        return wanted
    click.echo(
        f"Warning: {option} {wanted} is more than the {cores} cores here; using {cores}", err=True
    )
    return cores


def make_runner(workers: int, scheduler: str | None, local_cluster: int | None) -> Runner:
    """The runner the cluster options ask for; a bad address is a one-line error.

    ``--workers`` and ``--local-cluster`` are capped at the cores this machine has.
    """
    if scheduler is not None and local_cluster is not None:
        raise click.UsageError("give --scheduler or --local-cluster, not both")
    if local_cluster is not None:
        local_cluster = _capped("--local-cluster", local_cluster)
    try:
        return runner_for(_capped("--workers", workers), scheduler, local_cluster)
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
@click.version_option(__version__, prog_name="cpsolver")
def cli() -> None:
    """Exact answers about Dou Dizhu deals, and the rules they stand on.

    Cards are written 3456789TJQKA2BR (case-insensitive; 10 for T, X and D for
    the black and red joker; spaces, commas and dashes are ignored). Any CARDS
    argument may be - to read stdin, or @PATH to read a file.
    """


def finish_crosscheck(
    summary: Any, table: str, written: list[str], as_json: bool, what: str
) -> None:
    """Print a crosscheck's summary (or its JSON), then exit with its code.

    ``summary`` is a spring or an endgame crosscheck's summary: both have
    findings, bad lines, solver problems and an interrupted flag. Exit 130 if
    interrupted, 1 on a finding or a solver problem, 2 on bad lines, else 0.
    """
    if as_json:
        emit_json(summary.as_dict())
    else:
        click.echo(table)
        for finding, path in zip(summary.findings, written):
            click.echo(f"{finding.kind} on {finding.id}: {finding.reason} -> {path}")
        for line in summary.bad_lines:
            click.echo(f"bad line: {line}", err=True)
        for problem in summary.problems[:20]:
            click.echo(f"{problem['solver']} on {problem['id']}: {problem['problem']}", err=True)
        if summary.interrupted:
            click.echo(f"interrupted: the summary covers the {what} checked so far", err=True)
    if summary.interrupted:
        sys.exit(Interrupted.exit_code)
    if summary.findings or summary.problems:
        sys.exit(1)
    if summary.bad_lines:
        sys.exit(2)


def write_reproducers(out_dir: str, files: list[tuple[str, str]]) -> list[str]:
    """Write each (id, text) as a file in ``out_dir``, named safely from its id; the paths.

    Names never leave the folder and never overwrite an earlier run's files.
    """
    folder = Path(out_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BadInput(f"cannot write reproducers to {out_dir}: {error.strerror}") from None
    paths = []
    taken = {entry.name.lower() for entry in folder.iterdir()}
    for name, text in files:
        path = folder / safe_name(name, taken)
        write_text(str(path), text)
        paths.append(str(path))
    return paths
