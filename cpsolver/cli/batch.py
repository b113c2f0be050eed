"""``cpsolver batch``: every deal or position of a corpus solved, streamed, parallel and resumable."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import click

from cpsolver.cli.base import BadInput, Interrupted, cli, sigterm_as_interrupt
from cpsolver.cli.options import (
    QUESTION_TIMEOUT,
    cluster_options,
    common_options,
    core_option,
    make_runner,
    memory_bytes,
    memory_option,
    timeout_option,
    usable_cores,
)
from cpsolver.cli.output import shown, with_progress
from cpsolver.cli.spring import engine_options
from cpsolver.endgame.answer import core_name
from cpsolver.io.positioncorpus import detect_question
from cpsolver.io.reading import read_lines
from cpsolver.io.rulefiles import load_rules, read_rules_text
from cpsolver.io.words import counted
from cpsolver.scale.batch import BatchOptions, Done, done_ids, lock_output, run_batch
from cpsolver.spring import cpsat


@cli.command("batch")
@click.argument("corpus")
@click.option(
    "-o",
    "--output",
    "out_path",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Append one JSON result per deal here; rerun to resume after a crash. "
    "- writes to stdout (no resume; the summary goes to stderr).",
)
@click.option(
    "--question",
    type=click.Choice(["auto", "spring", "endgame"]),
    default="auto",
    show_default=True,
    help="spring: can the landlord play out alone; endgame: who wins each position with "
    'best play (a deal: the landlord leads). auto: endgame if the first line has "hands".',
)
@engine_options
@timeout_option(
    "A deal or position past this is recorded as unknown; the batch goes on.",
    default=QUESTION_TIMEOUT,
)
@memory_option
@core_option
@cluster_options(default_workers=usable_cores())
@click.option("--quiet", is_flag=True, help="No progress bar.")
@common_options
def batch_command(
    corpus: str,
    out_path: str,
    question: str,
    engine: str,
    strategy: cpsat.Strategy,
    objective: str,
    timeout: float | None,
    memory_mib: float | None,
    core: str,
    workers: int,
    scheduler: str | None,
    local_cluster: int | None,
    quiet: bool,
    as_json: bool,
    rules_name: str,
) -> None:
    """Solve every deal or position of a JSON-lines corpus: streamed, parallel, resumable.

    Each result is one JSON line in OUTPUT: id, line, verdict, plan (cards),
    objective, engine, seconds; a line that is no deal gives an error record.
    With --question endgame (the default for a corpus of positions, as
    'cpsolver deal --kind position3' writes), each result is id, line,
    winner (0 the landlord's side, 1 the other, null undecided), moves (the
    winning moves of the player to move), nodes, seconds, status (solved
    or unknown) and players (2 or 3); a line's "expected" winner is compared.
    Rerunning the same command after a crash repairs a torn last line, skips
    the ids already done, and solves the rest. A line's "expected" verdict,
    if any, is compared: a result that contradicts it is a mismatch. Exit 0
    when all is well, 2 if some lines were no deals (their error records are
    written), else 1 if some result contradicts its expected verdict, else 3
    if some deal ran out of time; earlier runs' results count too.

    \b
    Examples:
      cpsolver batch corpus.jsonl -o results.jsonl --workers 2
      cpsolver deal --kind planted --count 10000 | cpsolver batch - -o out.jsonl
      cpsolver deal --count 5 | cpsolver batch - -o - --quiet | jq .verdict
      cpsolver deal --kind position3 --count 200 | cpsolver batch - -o wins.jsonl
      cpsolver batch corpus.jsonl -o results.jsonl --scheduler tcp://10.0.0.5:8786
    """
    load_rules(rules_name)  # refuse a bad rules file before anything starts
    text, source = read_rules_text(rules_name)
    path = Path(out_path)
    to_stdout = out_path == "-"
    if not to_stdout and path.exists() and not path.is_file():
        raise BadInput(
            f"{out_path}: the output must be a file (it is appended to, and read to resume)"
        )
    if not to_stdout and _same_file(corpus, path):
        raise BadInput(
            f"{out_path} is the corpus itself: its lines would be read as results already "
            "done; give another -o"
        )
    with _stdout() if to_stdout else lock_output(path) as output:
        try:
            done = Done() if to_stdout else done_ids(path)
        except OSError as error:
            raise BadInput(f"cannot read {out_path}: {error.strerror}") from None
        total = _count_lines(corpus)
        lines = read_lines(corpus)
        found, pending = detect_question(lines)
        question = found if question == "auto" else question
        if question == "endgame":
            _refuse_spring_options()
        options = BatchOptions(
            engine,
            objective,
            strategy,
            text,
            source,
            timeout,
            question,
            memory_bytes(memory_mib),
            core_name(core),
        )
        runner = make_runner(workers, scheduler, local_cluster)
        try:
            with sigterm_as_interrupt():
                summary = with_progress(
                    total,
                    not (quiet or as_json),
                    lambda advance: run_batch(
                        pending, output, options, runner, done.ids, advance, out_path
                    ),
                )
        finally:
            runner.close()
    report = {"question": question, **summary.as_dict(done)}
    if summary.duplicates and not (as_json and to_stdout):  # else the JSON on stderr says it
        click.echo(_duplicates_warning(summary.duplicates), err=True)
    if as_json:
        click.echo(json.dumps(report), err=to_stdout)  # with -o -, stdout holds the results
    else:
        for line in _summary_lines(report, question, done, out_path, summary.interrupted):
            click.echo(line, err=to_stdout)
    if summary.interrupted:
        sys.exit(Interrupted.exit_code)
    sys.exit(
        _batch_exit_code(
            summary.errors + done.errors,
            len(summary.mismatches) + done.mismatches,
            summary.verdicts["unknown"] + done.unknowns,
        )
    )


SHOWN = 5  # error records and duplicates named in the text summary; --json lists them all


def _summary_lines(
    report: dict[str, Any], question: str, done: Done, out_path: str, interrupted: bool
) -> list[str]:
    """The text summary: this run's work, then (on a resume) all OUT holds, then what to look at."""
    thing = "position" if question == "endgame" else "deal"
    total = report["total"]
    lines = [
        f"solved {counted(report['solved'], thing)} ({_verdicts(report['verdicts'])}) "
        f"in {report['seconds']} s, {report['deals_per_second']} {thing}s/s; "
        f"{counted(report['errors'], 'error record')}; {counted(report['unknowns'], 'unknown')}; "
        f"{report['skipped_already_done']} already done"
        + (f"; {report['mismatches']} not as expected" if report["mismatches"] else "")
        + (
            f"; peak memory {report['peak_memory_mb']} MB"
            if report["peak_memory_mb"] is not None
            else ""
        )
        + ("; interrupted (rerun to resume)" if interrupted else "")
    ]
    if done.results:  # a resume: this run's counts alone would hide the earlier runs' work
        lines.append(
            f"{out_path} now holds {counted(total['results'], 'result')}: "
            f"{counted(total['solved'], thing)} solved ({_verdicts(total['verdicts'])}); "
            f"{counted(total['errors'], 'error record')}; {counted(total['unknowns'], 'unknown')}"
            + (f"; {total['mismatches']} not as expected" if total["mismatches"] else "")
        )
    for slow in report["slowest"]:
        lines.append(shown(f"  slow: {slow['id']} {slow['seconds']:.3f} s"))
    errors = total["error_records"]
    for record in errors[:SHOWN]:
        lines.append(shown(f"  error record: {_where(record['id'], record['line'])}"))
    if len(errors) > SHOWN:
        lines.append(f"  ... and {len(errors) - SHOWN} more error records (--json lists them all)")
    for deal_id in report["mismatched_ids"]:
        lines.append(shown(f"  not as expected: {deal_id}"))
    return lines


def _verdicts(verdicts: dict[str, int]) -> str:
    return ", ".join(f"{count} {name}" for name, count in verdicts.items()) or "none"


def _where(deal_id: Any, line: Any) -> str:
    """``line 3`` for a line known by its number, ``line 3 (id "x")`` for one with an id of its own."""
    if deal_id == str(line):
        return f"line {line}"
    return f"line {line} (id {json.dumps(deal_id)})"


def _duplicates_warning(duplicates: list[dict[str, Any]]) -> str:
    """One line: how many lines repeated an earlier id, the first few, and what was done with them."""
    named = ", ".join(
        f"{json.dumps(d['id'])} at line {d['line']} (first at line {d['first_line']})"
        for d in duplicates[:SHOWN]
    )
    more = f" and {len(duplicates) - SHOWN} more" if len(duplicates) > SHOWN else ""
    return shown(
        f"Warning: {counted(len(duplicates), 'line')} "
        f"{'repeats' if len(duplicates) == 1 else 'repeat'} an earlier id, not solved again "
        f"(each id is solved once, at its first line): {named}{more}"
    )


def _refuse_spring_options() -> None:
    """--engine, --strategy and --objective are the spring question's: refused for positions."""
    context = click.get_current_context()
    for name in ("engine", "strategy", "objective"):
        if context.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT:
            raise click.UsageError(
                f"--{name} is for the spring question; the endgame question has one solver"
            )


def _batch_exit_code(errors: int, mismatches: int, unknowns: int) -> int:
    """2 for lines that were no deals, else 1 for results against expectation, else 3 for unknowns."""
    return 2 if errors else 1 if mismatches else 3 if unknowns else 0


@contextlib.contextmanager
def _stdout() -> Iterator[IO[str]]:
    """stdout as a batch's output (``-o -``), left open when the batch is done."""
    yield sys.stdout


def _same_file(corpus: str, output: Path) -> bool:
    """Whether the corpus (a path, or - for stdin) is the output file, by device and inode."""
    try:
        wrote = output.stat()
        read = os.fstat(sys.stdin.fileno()) if corpus == "-" else os.stat(corpus)
    except (OSError, ValueError):  # no output yet, or no stdin: nothing to clash with
        return False
    return stat.S_ISREG(read.st_mode) and (read.st_dev, read.st_ino) == (wrote.st_dev, wrote.st_ino)


def _count_lines(path: str) -> int | None:
    """The lines of a regular file, for the progress bar; None for stdin, pipes and devices."""
    try:
        if path == "-" or not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as file:
            return sum(block.count(b"\n") for block in iter(lambda: file.read(1 << 20), b""))
    except OSError:
        return None  # reading it will say why
