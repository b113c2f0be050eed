"""Corpora: deal, crosscheck and batch."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import click

from cpsolver import cpsat
from cpsolver.batch import BatchOptions, done_ids, run_batch
from cpsolver.cli.base import (
    BadInput,
    cli,
    cluster_options,
    common_options,
    emit_json,
    make_runner,
    positive_seconds,
    read_source,
    sizes_option,
    with_progress,
)
from cpsolver.crosscheck import CommandSolver, EngineSolver, Solver, Summary, crosscheck
from cpsolver.dealformat import (
    CorpusEntry,
    DealFormatError,
    deal_as_dict,
    deal_as_text,
    read_corpus,
)
from cpsolver.dealgen import KINDS, generate
from cpsolver.engines import DEFAULT_ENGINE, ENGINES
from cpsolver.rules import load_rules, read_rules_text
from cpsolver.spring import OBJECTIVES


@cli.command("deal")
@click.option(
    "--kind",
    type=click.Choice(KINDS),
    default="full",
    show_default=True,
    help="full: uniform 20/17/17; endgame: smaller hands; planted: spring-likely full deals.",
)
@click.option(
    "--count", type=click.IntRange(min=0), default=1, show_default=True, help="How many deals."
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="The same seed gives the same deals."
)
@click.option(
    "--sizes",
    callback=sizes_option,
    metavar="L,P1,P2",
    help="Endgame hand sizes, each a number or a range: 1-10,1-10,1-10 by default.",
)
@click.option(
    "-o",
    "--output",
    type=click.File("w", encoding="utf-8"),
    default="-",
    help="Write the corpus here (default: stdout).",
)
def deal_command(kind: str, count: int, seed: int, sizes: Any, output: IO[str]) -> None:
    """Write a JSON-lines corpus of random deals, each with an id.

    \b
    Examples:
      cpsolver deal --kind planted --count 1000 --seed 7 -o planted.jsonl
      cpsolver deal --kind endgame --sizes 8,1-10,1-10 --count 5
    """
    if sizes is not None and kind != "endgame":
        raise click.UsageError("--sizes is for --kind endgame")
    for entry in generate(kind, count, seed, *([sizes] if sizes else [])):
        output.write(json.dumps({"id": entry.id, **deal_as_dict(entry.deal)}) + "\n")


def _summary_table(summary: Summary) -> str:
    times = summary.as_dict()["time"]
    rows: list[tuple[str, object]] = [
        ("deals", summary.deals),
        ("agreements", summary.agreements),
        ("disagreements", summary.disagreements),
        ("invalid proofs", summary.invalid_proofs),
        ("unknowns", summary.unknowns),
        ("springs", summary.springs),
        ("bad lines", len(summary.bad_lines)),
        ("solver problems", len(summary.problems)),
    ]
    rows += [
        (f"time {name}", f"{t['total_s']:.2f} s, {t['median_ms']:.2f} ms median")
        for name, t in times.items()
    ]
    return "\n".join(f"{label:<18}{value}" for label, value in rows)


@cli.command("crosscheck")
@click.argument("corpus", required=False)
@click.option(
    "--generate",
    "kind",
    type=click.Choice(KINDS),
    help="Check generated deals instead of a corpus.",
)
@click.option(
    "--count",
    type=click.IntRange(min=0),
    default=1000,
    show_default=True,
    help="With --generate: how many deals.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="With --generate: the seed.")
@click.option(
    "--against",
    metavar="COMMAND",
    help="Also ask this solver command, over the line protocol (see the README).",
)
@click.option(
    "--timeout",
    type=float,
    callback=positive_seconds,
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="How long each solver may take on one deal.",
)
@click.option(
    "--reproducers",
    "out_dir",
    type=click.Path(file_okay=False),
    default="crosscheck-reproducers",
    show_default=True,
    help="Folder for the reproducers of failures (made only if there are any).",
)
@click.option(
    "--optima",
    is_flag=True,
    help="Also compare our engines' fewest-answerable and fewest-plays optima, and check their splits.",
)
@cluster_options(default_workers=1)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@common_options
def crosscheck_command(
    corpus: str | None,
    kind: str | None,
    count: int,
    seed: int,
    against: str | None,
    timeout: float,
    out_dir: str,
    optima: bool,
    workers: int,
    scheduler: str | None,
    local_cluster: int | None,
    quiet: bool,
    as_json: bool,
    rules_name: str,
) -> None:
    """Run every deal past both engines (and another solver), verify every plan, compare.

    Every disagreement and invalid plan is shrunk to a small reproducer, written
    to the reproducers folder as a deal file. Exit 0 when all agree, 1 on any
    disagreement, invalid plan or failure of the external solver, 2 on bad
    input (bad corpus lines included).

    \b
    Examples:
      cpsolver crosscheck examples/corpus.jsonl
      cpsolver crosscheck --generate planted --count 1000 --seed 1
      cpsolver crosscheck --generate endgame --count 200 --against 'python examples/external_solver.py'
    """
    rules = load_rules(rules_name)
    if (corpus is None) == (kind is None):
        raise click.UsageError("give a CORPUS file (or -) or --generate KIND, one of them")
    entries: Iterable[CorpusEntry | DealFormatError]
    if corpus is not None:
        entries = read_corpus(read_source(corpus).splitlines())
        total = None
    else:
        entries = generate(kind or "full", count, seed)
        total = count
    solvers: list[Solver] = [EngineSolver(name, rules, timeout, optima) for name in ENGINES]
    if against is not None:
        try:
            solvers.append(CommandSolver(against, timeout))
        except ValueError as error:
            raise BadInput(str(error)) from None
    try:
        runner = make_runner(workers, scheduler, local_cluster)
    except click.ClickException:
        for solver in solvers:
            solver.close()
        raise
    try:
        summary = with_progress(
            total,
            not (quiet or as_json),
            lambda advance: crosscheck(entries, solvers, rules, lambda: advance(1), runner),
        )
    except ValueError as error:  # the external command could not be started
        raise BadInput(str(error)) from None
    finally:
        for solver in solvers:
            solver.close()
        runner.close()
    written = _write_reproducers(summary, out_dir) if summary.findings else []
    if as_json:
        emit_json(summary.as_dict())
    else:
        click.echo(_summary_table(summary))
        for finding, path in zip(summary.findings, written):
            click.echo(f"{finding.kind} on {finding.id}: {finding.reason} -> {path}")
        for line in summary.bad_lines:
            click.echo(f"bad line: {line}", err=True)
        for problem in summary.problems[:20]:
            click.echo(f"{problem['solver']} on {problem['id']}: {problem['problem']}", err=True)
    if summary.findings or summary.problems:
        sys.exit(1)
    if summary.bad_lines:
        sys.exit(2)


def _write_reproducers(summary: Summary, out_dir: str) -> list[str]:
    """One deal file per finding, runnable as it is with ``cpsolver solve``."""
    folder = Path(out_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        for finding in summary.findings:
            path = folder / f"{finding.id}.txt"
            header = [
                f"# cpsolver crosscheck: {finding.kind} on deal {finding.id}",
                f"# {finding.reason}",
                "# verdicts here: "
                + ", ".join(f"{name} {v}" for name, v in finding.verdicts.items()),
                (
                    f"# shrunk from {sum(map(len, finding.original.hands))} cards to "
                    f"{sum(map(len, finding.deal.hands))}; original: {deal_as_dict(finding.original)}"
                ),
            ]
            path.write_text("\n".join(header) + "\n" + deal_as_text(finding.deal), encoding="utf-8")
            paths.append(str(path))
    except OSError as error:
        raise BadInput(f"cannot write reproducers to {out_dir}: {error.strerror}") from None
    return paths


@cli.command("batch")
@click.argument("corpus")
@click.option(
    "-o",
    "--output",
    "out_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="Append one JSON result per deal here; rerun to resume after a crash.",
)
@click.option("--engine", type=click.Choice(ENGINES), default=DEFAULT_ENGINE, show_default=True)
@click.option(
    "--strategy",
    type=click.Choice(cpsat.STRATEGIES),
    default=cpsat.DEFAULT_STRATEGY,
    show_default=True,
    help="For cpsat.",
)
@click.option("--objective", type=click.Choice(OBJECTIVES), default="spring", show_default=True)
@click.option(
    "--timeout",
    type=float,
    callback=positive_seconds,
    metavar="SECONDS",
    help="A deal past this is recorded as unknown; the batch goes on.",
)
@cluster_options(default_workers=os.cpu_count() or 1)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@common_options
def batch_command(
    corpus: str,
    out_path: str,
    engine: str,
    strategy: cpsat.solver.Strategy,
    objective: str,
    timeout: float | None,
    workers: int,
    scheduler: str | None,
    local_cluster: int | None,
    quiet: bool,
    as_json: bool,
    rules_name: str,
) -> None:
    """Solve every deal of a JSON-lines corpus: streamed, parallel, resumable.

    Each result is one JSON line in OUTPUT: id, line, verdict, plan (cards),
    objective, engine, seconds; a line that is no deal gives an error record.
    Rerunning the same command after a crash repairs a torn last line, skips
    the ids already done, and solves the rest. Exit 0 when every line was a
    deal, 2 if some were not (their error records are written), 3 if none
    erred but some deal ran out of time, counting earlier runs' results too.

    \b
    Examples:
      cpsolver batch corpus.jsonl -o results.jsonl --workers 2
      cpsolver deal --kind planted --count 10000 | cpsolver batch - -o out.jsonl
      cpsolver batch corpus.jsonl -o results.jsonl --scheduler tcp://10.0.0.5:8786
    """
    load_rules(rules_name)  # refuse a bad rules file before anything starts
    text, source = read_rules_text(rules_name)
    options = BatchOptions(engine, objective, strategy, text, source, timeout)
    path = Path(out_path)
    if path.exists() and not path.is_file():
        raise BadInput(
            f"{out_path}: the output must be a file (it is appended to, and read to resume)"
        )
    try:
        done = done_ids(path)
    except OSError as error:
        raise BadInput(f"cannot read {out_path}: {error.strerror}") from None
    total = _count_lines(corpus) if corpus != "-" else None
    lines = sys.stdin if corpus == "-" else _open_lines(corpus)
    runner = make_runner(workers, scheduler, local_cluster)
    try:
        with path.open("a", encoding="utf-8") as output:
            summary = with_progress(
                total,
                not (quiet or as_json),
                lambda advance: run_batch(lines, output, options, runner, done.ids, advance),
            )
    except OSError as error:
        raise BadInput(f"cannot write {out_path}: {error.strerror}") from None
    finally:
        runner.close()
    report = summary.as_dict()
    if as_json:
        emit_json(report)
    else:
        verdicts = (
            ", ".join(f"{count} {name}" for name, count in report["verdicts"].items()) or "none"
        )
        click.echo(
            f"solved {report['solved']} deals ({verdicts}) in {report['seconds']} s, "
            f"{report['deals_per_second']} deals/s; {report['errors']} error records; "
            f"{report['skipped_already_done']} already done"
        )
        for slow in report["slowest"]:
            click.echo(f"  slow: {slow['id']} {slow['seconds']:.3f} s")
    errors = summary.errors + done.errors
    sys.exit(2 if errors else 3 if summary.verdicts["unknown"] + done.unknowns else 0)


def _open_lines(path: str) -> Iterator[str]:
    """The lines of a file, read lazily."""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            yield from file
    except OSError as error:
        raise BadInput(f"cannot read {path}: {error.strerror}") from None


def _count_lines(path: str) -> int | None:
    try:
        with open(path, "rb") as file:
            return sum(1 for line in file if line.strip())
    except OSError as error:
        raise BadInput(f"cannot read {path}: {error.strerror}") from None
