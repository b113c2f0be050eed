"""Options the commands share, defined once: --rules, --json, hands, --timeout, --svg, clusters."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from cpsolver.cli.base import BadInput, F
from cpsolver.cli.inputs import HandFlags
from cpsolver.endgame.answer import CORES
from cpsolver.endgame.budget import DEFAULT_MEMORY

if TYPE_CHECKING:
    from cpsolver.io.dealgen import SizeRange
    from cpsolver.scale.parallel import Runner

# Seconds a question (a spring, an open-hand position, one line of a batch)
# may take by default: a full deal's open-hand search can take hours, most
# questions take well under a second. ``--timeout none`` lifts it.
QUESTION_TIMEOUT = 300.0


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


def hand_options(instead_of: str, players: tuple[int, ...]) -> Callable[[F], F]:
    """The hand flags, one family on every command: the three seats, or ``--hand`` in turn order.

    ``--landlord``, ``--peasant1`` and ``--peasant2`` give a three-player deal
    or position; ``--hand CARDS``, repeated, gives ``players`` hands in turn
    order. The command receives them as one argument, ``flags`` (a
    :class:`~cpsolver.cli.inputs.HandFlags`), read by the readers of
    :mod:`cpsolver.cli.inputs`.
    """
    counts = " or ".join(("two", "three")[count - 2] for count in players)
    three = "landlord, peasant 1, peasant 2"
    order = f"{counts}: {three}" if players == (3,) else f"{counts}; three are {three}"

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def merged(*args: Any, **kwargs: Any) -> Any:
            kwargs["flags"] = HandFlags(
                kwargs.pop("landlord"),
                kwargs.pop("peasant1"),
                kwargs.pop("peasant2"),
                kwargs.pop("hand_flags"),
            )
            return command(*args, **kwargs)

        wrapped: Any = click.option(
            "--hand",
            "hand_flags",
            multiple=True,
            metavar="CARDS",
            help=f"A hand, in turn order ({order}), instead of {instead_of}.",
        )(merged)
        for seat in ("peasant2", "peasant1", "landlord"):
            wrapped = seat_option(seat, instead_of)(wrapped)
        return wrapped  # type: ignore[no-any-return]

    return decorate


def seat_option(seat: str, instead_of: str) -> Callable[[F], F]:
    """One seat's flag of the hand family: ``--landlord``, ``--peasant1`` or ``--peasant2``."""
    whose = {"landlord": "The landlord's", "peasant1": "Peasant 1's", "peasant2": "Peasant 2's"}
    return click.option(
        f"--{seat}", seat, metavar="CARDS", help=f"{whose[seat]} hand (instead of {instead_of})."
    )


def landlord_option(instead_of: str) -> Callable[[F], F]:
    """``--landlord CARDS`` alone, for a command about the landlord's hand (odds)."""
    return seat_option("landlord", instead_of)


def deal_options(command: F) -> F:
    """``[DEAL]`` and the hand flags (three hands): what solve, explain and export-cnf read."""
    command = hand_options("DEAL", (3,))(command)
    return click.argument("deal", required=False, metavar="[DEAL]")(command)


def position_options(instead_of: str = "POSITION") -> Callable[[F], F]:
    """The hand flags (two or three hands) with ``--turn``, ``--table`` and ``--by``: a position."""

    def decorate(command: F) -> F:
        command = click.option(
            "--by", type=click.IntRange(0, 2), help="The hand that made the --table play."
        )(command)
        command = click.option(
            "--table",
            metavar="CARDS",
            help="The play to beat, if the player to move does not lead.",
        )(command)
        command = click.option(
            "--turn", type=click.IntRange(0, 2), help="The hand to move (default 0, the landlord)."
        )(command)
        return hand_options(instead_of, (2, 3))(command)

    return decorate


def positive_seconds(
    ctx: click.Context, param: click.Parameter, value: float | None
) -> float | None:
    """A positive, finite number of seconds (nan and inf are refused)."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise click.BadParameter(f"{value} is not a positive number of seconds")
    return value


class Limit(click.ParamType):  # type: ignore[type-arg]  # not generic in every click allowed
    """A positive, finite number (of seconds, of MiB), or ``none`` for no limit at all."""

    name = "limit"

    def __init__(self, unit: str) -> None:
        self.unit = unit

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value is None or isinstance(value, (int, float)):
            return value
        if str(value).strip().lower() == "none":
            return None
        try:
            number = float(value)
        except ValueError:
            self.fail(f"{value!r} is not a number of {self.unit} (nor 'none')", param, ctx)
        if not (math.isfinite(number) and number > 0):
            self.fail(f"{number} is not a positive number of {self.unit} (nor 'none')", param, ctx)
        return number


def picture_options(command: F) -> F:
    """``--svg FILE`` and ``--html FILE``: write the picture of what the command shows.

    Defined here, not beside the pictures (:mod:`cpsolver.cli.drawings`), so a
    command can load those only when a picture is asked for.
    """
    command = click.option(
        "--html",
        "html_path",
        metavar="FILE",
        help="Write a self-contained HTML page with the pictures here.",
    )(command)
    return click.option(
        "--svg", "svg_path", metavar="FILE", help="Write the picture here, as SVG."
    )(command)


def memory_option(command: F) -> F:
    """``--memory MIB``: the cap on the open-hand search's resident memory (``none``: no cap)."""
    return click.option(
        "--memory",
        "memory_mib",
        type=Limit("MiB"),
        default=DEFAULT_MEMORY // (1024 * 1024),
        show_default=True,
        metavar="MIB|none",
        help="Keep the search's memory near this many MiB: past it the table evicts "
        "(slower, still exact).",
    )(command)


def core_option(command: F) -> F:
    """``--core auto|compiled|python``: which open-hand search runs (the same answers from each)."""
    return click.option(
        "--core",
        type=click.Choice(CORES),
        default="auto",
        show_default=True,
        help="The open-hand search's core: the compiled one where it was built (auto), "
        "or the pure-Python reference. Both give the same answers.",
    )(command)


def memory_bytes(memory_mib: float | None) -> int | None:
    """The ``--memory`` option in bytes, as the solver takes it."""
    return None if memory_mib is None else int(memory_mib * 1024 * 1024)


def _seconds_option(name: str, old: str, help: str, **settings: Any) -> Callable[[F], F]:
    """An option of seconds that reaches the command as ``timeout``, its old name hidden beside it."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def merged(*args: Any, **kwargs: Any) -> Any:
            alias = kwargs.pop("old_name_alias")
            if alias is not None:
                kwargs["timeout"] = alias
            return command(*args, **kwargs)

        with_alias = click.option(
            old,
            "old_name_alias",
            type=float,
            callback=positive_seconds,
            hidden=True,
            help=f"The old name of {name}.",
        )(merged)
        return click.option(name, "timeout", callback=positive_seconds, help=help, **settings)(
            with_alias
        )  # type: ignore[return-value]

    return decorate


def timeout_option(help: str, default: float | None = None) -> Callable[[F], F]:
    """``--timeout SECONDS``, the one name for a time limit, with ``--time-limit`` as a hidden alias.

    With a ``default``, ``--timeout none`` lifts the limit.
    """
    return _seconds_option(
        "--timeout",
        "--time-limit",
        help,
        type=Limit("seconds") if default is not None else float,
        default=default,
        show_default=default is not None,
        metavar="SECONDS|none" if default is not None else "SECONDS",
    )


def answer_timeout_option(help: str) -> Callable[[F], F]:
    """``--answer-timeout SECONDS``: how long an outside program may take for one answer.

    ``--timeout`` is the time a question may take; this is another idea, so
    another name. ``--timeout``, its old name here, stays as a hidden alias.
    """
    return _seconds_option(
        "--answer-timeout",
        "--timeout",
        help,
        type=float,
        default=10.0,
        show_default=True,
        metavar="SECONDS",
    )


def output_option(help: str) -> Callable[[F], F]:
    """``-o FILE``: where a command writes its lines; ``-`` (the default) is stdout."""
    return click.option(
        "-o",
        "--output",
        default="-",
        type=click.Path(dir_okay=False, allow_dash=True),
        metavar="FILE",
        help=help,
    )


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


def capped_workers(option: str, wanted: int) -> int:
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
    # Here, not at the top: process pools cost every command's start-up ~15 ms.
    from cpsolver.scale.parallel import runner_for

    if scheduler is not None and local_cluster is not None:
        raise click.UsageError("give --scheduler or --local-cluster, not both")
    if local_cluster is not None:
        local_cluster = capped_workers("--local-cluster", local_cluster)
    try:
        return runner_for(capped_workers("--workers", workers), scheduler, local_cluster)
    except ValueError as error:
        raise BadInput(str(error)) from None


def kind_sizes(kind: str | None, text: str | None) -> tuple[SizeRange, ...] | None:
    """``--sizes`` read for the corpus kind it shapes, as ``deal`` and ``crosscheck`` both take it.

    Three sizes (landlord, peasant 1, peasant 2) for endgame deals, one a hand
    for positions; any other kind takes none.
    """
    if text is None:
        return None
    # Here, not at the top: the generators cost every command's start-up ~2 ms.
    from cpsolver.io.dealgen import parse_sizes
    from cpsolver.io.positiongen import POSITION_KINDS, parse_position_sizes, players_of

    try:
        if kind == "endgame":
            return parse_sizes(text)
        if kind in POSITION_KINDS:
            return parse_position_sizes(text, players_of(kind))
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--sizes'") from None
    raise click.UsageError("--sizes is for endgame, position2 and position3 corpora")
