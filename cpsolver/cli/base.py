"""The group every command registers on, and its one-line errors.

The shared readers, options and output helpers live beside it
(:mod:`~cpsolver.cli.inputs`, :mod:`~cpsolver.cli.options`, :mod:`~cpsolver.cli.output`).

Exit codes follow grep: 0 yes (a play, plays found, a spring, a valid proof),
1 no, 2 bad input or usage, 3 undecided (a limit was reached). ``--json``
writes only JSON to stdout; messages go to stderr. A stdout pipe closed by its
reader (``| head``) ends any command quietly with 141, the status a shell
gives a Unix tool that SIGPIPE ended.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import signal
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from cpsolver import __version__
from cpsolver.io.reading import reset_stdin
from cpsolver.io.writing import OutputError, StdoutClosed
from cpsolver.rules.errors import CpsolverError

F = TypeVar("F", bound=Callable[..., Any])
PIPE_CLOSED = 128 + signal.SIGPIPE if hasattr(signal, "SIGPIPE") else 141  # what a shell shows
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
        # Library errors become one-line messages here, at the edge, and nowhere else;
        # SIGTERM ends every command as Ctrl-C does (one line, exit 130), not with -15.
        try:
            try:
                with sigterm_as_interrupt():
                    return super().invoke(ctx)
            finally:
                _flush_stdout()
        except StdoutClosed:
            raise _pipe_closed() from None
        except CpsolverError as error:
            raise BadInput(str(error)) from None
        except KeyboardInterrupt:
            raise Interrupted("interrupted") from None
        except MemoryError:  # a proof of gigabytes on a small machine, say: one line, not a trace
            raise BadInput(
                "out of memory: the input, or the work it asks for, is more than this "
                "process may hold"
            ) from None
        except BrokenPipeError as error:
            if error.filename is not None:  # a named path the user asked for: a real failure
                _silence_stdout()
                raise BadInput(f"cannot write {error.filename}: {error.strerror}") from None
            raise _pipe_closed() from None
        except OSError as error:  # a write to stdout or stderr that failed (full disk)
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


def _pipe_closed() -> click.exceptions.Exit:
    """The quiet end of a command whose stdout pipe was closed: no message, exit 141.

    The reader (``head``, ``less`` quit early) has what it wanted; Unix tools
    die of SIGPIPE there without a word, and a shell reports 128 + 13.
    """
    _silence_stdout()
    return click.exceptions.Exit(PIPE_CLOSED)


def _flush_stdout() -> None:
    """Flush stdout now, so a closed pipe or a full disk is reported, not a traceback at exit."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        raise StdoutClosed("stdout was closed") from None
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


def _print_version(context: click.Context, _: click.Parameter, value: bool) -> None:
    """``--version``: the package's version, and which cores the open-hand search and verify run on."""
    if not value or context.resilient_parsing:
        return
    from cpsolver.endgame.answer import core_name
    from cpsolver.verify.compiled import available

    checker = "compiled" if available() else "python"
    click.echo(
        f"cpsolver, version {__version__} "
        f"(open-hand search: the {core_name()} core; strategy checker: the {checker} one)"
    )
    context.exit()


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and which open-hand core was built, and exit.",
)
def cli() -> None:
    """Exact answers about Dou Dizhu deals, and the rules they stand on.

    Cards are written 3456789TJQKA2BR (case-insensitive; 10 for T, X and D for
    the black and red joker; spaces, commas and dashes are ignored). Any CARDS
    argument may be - to read stdin, or @PATH to read a file.
    """
