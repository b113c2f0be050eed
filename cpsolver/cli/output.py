"""How commands answer: play lines, JSON, whole files, progress, a cross-check's summary."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cpsolver.cli.base import BadInput, Interrupted, T
from cpsolver.io.words import counted
from cpsolver.io.writing import safe_name, write_text
from cpsolver.rules.cards import rank_symbol
from cpsolver.rules.plays import Play

if TYPE_CHECKING:  # a crosscheck's summary only: its report module costs start-up ~10 ms
    from cpsolver.crosscheck.report import Tally

# C0 and C1 controls (escape sequences, newlines, carriage returns) and the
# Unicode line and paragraph separators: what could forge a line or drive a terminal.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def shown(text: str) -> str:
    r"""``text`` as a terminal may print it: every control character as its escape.

    Ids, corpus lines and solvers' words come from input; printed raw, a newline
    in an id would forge a line of output and an escape sequence set the title.

    >>> shown("d1\n\x1b]0;owned\x07")
    'd1\\n\\x1b]0;owned\\x07'
    """
    return _CONTROL.sub(lambda match: match.group().encode("unicode_escape").decode(), text)


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


def plays_phrase(count: int) -> str:
    """``1 play``, ``3 plays``."""
    return counted(count, "play")


def write_json(path: str, document: Any) -> None:
    """Write a JSON document whole (``-``: stdout; ``.gz``: compressed); a failure is one line, exit 2."""
    write_text(path, json.dumps(document, indent=2) + "\n")


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


def finish_crosscheck(
    summary: Tally[Any], table: str, written: list[str], as_json: bool, what: str
) -> None:
    """Print a crosscheck's summary (or its JSON), then exit with its code.

    ``summary`` is a spring or an endgame crosscheck's summary. Exit 130 if
    interrupted, 1 on a finding or a solver problem, 2 on bad lines, else 0.
    """
    if as_json:
        emit_json(summary.as_dict())
    else:
        click.echo(table)
        for finding, path in zip(summary.findings, written):
            click.echo(shown(f"{finding.kind} on {finding.id}: {finding.reason} -> {path}"))
        for line in summary.bad_lines:
            click.echo(shown(f"bad line: {line}"), err=True)
        for problem in summary.problems[:20]:
            said = f"{problem['solver']} on {problem['id']}: {problem['problem']}"
            click.echo(shown(said), err=True)
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
