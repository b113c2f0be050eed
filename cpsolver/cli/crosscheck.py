"""``cpsolver crosscheck``: every deal past both engines (and another solver), compared."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import click

from cpsolver.cli.base import cli, sigterm_as_interrupt
from cpsolver.cli.options import (
    cluster_options,
    common_options,
    kind_sizes,
    make_runner,
    positive_seconds,
    timeout_option,
)
from cpsolver.cli.output import finish_crosscheck, with_progress, write_reproducers
from cpsolver.cli.positions import detect_question, run_endgame_crosscheck
from cpsolver.crosscheck.spring import CommandSolver, EngineSolver, Solver, Summary, crosscheck
from cpsolver.io.dealformat import (
    CorpusEntry,
    DealFormatError,
    deal_as_dict,
    deal_as_text,
    read_corpus_lines,
)
from cpsolver.io.dealgen import KINDS, generate
from cpsolver.io.positiongen import POSITION_KINDS
from cpsolver.io.reading import read_lines
from cpsolver.io.rulefiles import load_rules
from cpsolver.spring.engines import ENGINES


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
    rows += [
        (f"{name} protocol", _protocol_words(version))
        for name, version in summary.protocols.items()
    ]
    if summary.shrinks_cut_short:
        rows.append(("shrinks cut short", f"{summary.shrinks_cut_short} (--shrink-budget)"))
    return "\n".join(f"{label:<18}{value}" for label, value in rows)


def _protocol_words(version: int | None) -> str:
    if version == 2:
        return "2 (echoes ids)"
    if version == 1:
        return "1 (no id echo: a second answer to one deal cannot be told from the next)"
    return "unknown (it never answered)"


@cli.command("crosscheck")
@click.argument("corpus", required=False)
@click.option(
    "--generate",
    "kind",
    type=click.Choice(KINDS + POSITION_KINDS),
    help="Check generated deals (or positions: position2, position3) instead of a corpus.",
)
@click.option(
    "--question",
    type=click.Choice(["spring", "endgame"]),
    help="spring: can the landlord play out alone; endgame: who wins with best play. "
    "Default: endgame for positions (lines with 'hands', --generate position2|3), else spring.",
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
    help="Also ask this solver command, over the line protocol (see docs/crosscheck.md).",
)
@click.option(
    "--sizes",
    metavar="SIZES",
    help="With --generate: hand sizes, each a number or a range, as 'cpsolver deal' takes "
    "them (three for endgame, one a hand for position2 and position3).",
)
@timeout_option("How long each solver may take on one deal.", default=10.0)
@click.option(
    "--shrink-budget",
    type=float,
    callback=positive_seconds,
    metavar="SECONDS",
    help="How long shrinking one failure may take (default: 5 x --timeout); "
    "past it the smallest failing deal found is kept.",
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
@click.option(
    "--no-proof-check",
    is_flag=True,
    help="Endgame question: do not check our strategies with the strategy checker (faster).",
)
@cluster_options(default_workers=1)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@common_options
def crosscheck_command(
    corpus: str | None,
    kind: str | None,
    question: str | None,
    count: int,
    seed: int,
    sizes: Any,
    against: str | None,
    timeout: float,
    shrink_budget: float | None,
    out_dir: str,
    optima: bool,
    no_proof_check: bool,
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

    A corpus of positions (lines with "hands"; or --question endgame, or
    --generate position2|position3) asks the endgame question instead: who
    wins with best play. Our solver's strategies are checked, another
    solver's winners compared and its claimed winning moves played and
    solved, and failures shrunk to position files for 'cpsolver endgame'.

    \b
    Examples:
      cpsolver crosscheck examples/corpus.jsonl
      cpsolver crosscheck --generate planted --count 1000 --seed 1
      cpsolver crosscheck --generate endgame --count 200 --against 'python examples/external_solver.py'
      cpsolver crosscheck --generate position2 --count 50 --against 'python examples/external_endgame_solver.py'
      cpsolver crosscheck --generate endgame --sizes 10,5,5 --count 100
    """
    rules = load_rules(rules_name)
    if (corpus is None) == (kind is None):
        raise click.UsageError("give a CORPUS file (or -) or --generate KIND, one of them")
    sizes = kind_sizes(kind, sizes)
    detected, lines = detect_question(None if corpus is None else read_lines(corpus))
    if question is None:
        question = "endgame" if kind in POSITION_KINDS else detected
    if question == "endgame":
        if optima:
            raise click.UsageError("--optima is for the spring question")
        run_endgame_crosscheck(
            lines,
            kind,
            sizes,
            count,
            seed,
            against,
            timeout,
            shrink_budget,
            out_dir,
            not no_proof_check,
            (workers, scheduler, local_cluster),
            not (quiet or as_json),
            as_json,
            rules,
        )
        return
    if kind in POSITION_KINDS:
        raise click.UsageError(f"--generate {kind} asks the endgame question, not the spring")
    entries: Iterable[CorpusEntry | DealFormatError]
    if lines is not None:
        entries = read_corpus_lines(lines)
        total = None
    else:
        entries = generate(kind or "full", count, seed, *([sizes] if sizes else []))
        total = count
    solvers: list[Solver] = [EngineSolver(name, rules, timeout, optima) for name in ENGINES]
    if against is not None:
        solvers.append(CommandSolver(against, timeout))  # an empty command: one line, exit 2
    budget = shrink_budget if shrink_budget is not None else 5 * timeout
    try:
        runner = make_runner(workers, scheduler, local_cluster)
        with sigterm_as_interrupt():
            summary = with_progress(
                total,
                not (quiet or as_json),
                lambda advance: crosscheck(
                    entries, solvers, rules, lambda: advance(1), runner, budget
                ),
            )
    finally:
        for solver in solvers:
            solver.close()
        if "runner" in locals():
            runner.close()
    written = _write_reproducers(summary, out_dir) if summary.findings else []
    finish_crosscheck(summary, _summary_table(summary), written, as_json, "deals")


def _write_reproducers(summary: Summary, out_dir: str) -> list[str]:
    """One deal file per finding, runnable as it is with ``cpsolver solve``."""
    files = []
    for finding in summary.findings:
        header = [
            f"# cpsolver crosscheck: {finding.kind} on deal {json.dumps(finding.id)}",
            f"# {' '.join(finding.reason.splitlines())}",
            "# verdicts here: " + ", ".join(f"{name} {v}" for name, v in finding.verdicts.items()),
            (
                f"# shrunk from {sum(map(len, finding.original.hands))} cards to "
                f"{sum(map(len, finding.deal.hands))}; original: {deal_as_dict(finding.original)}"
            ),
        ]
        files.append((finding.id, "\n".join(header) + "\n" + deal_as_text(finding.deal)))
    return write_reproducers(out_dir, files)
