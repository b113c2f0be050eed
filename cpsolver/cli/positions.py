"""Position corpora for ``cpsolver crosscheck``: the endgame question.

``crosscheck`` runs a corpus of positions past our endgame solver (each
strategy checked) and, with ``--against``, another solver, then writes
shrunk reproducers as position files that ``cpsolver endgame`` reads.
(``deal --kind position2|position3``, which writes seeded random positions,
is :mod:`cpsolver.cli.deal`'s: a corpus is written without loading the
crosscheck.)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

import click

from cpsolver.cli.base import sigterm_as_interrupt
from cpsolver.cli.options import make_runner
from cpsolver.cli.output import finish_crosscheck, with_progress, write_reproducers
from cpsolver.crosscheck.endgame import EndgameSummary, crosscheck_positions
from cpsolver.crosscheck.solvers import CommandEndgameSolver, EndgameSolver, OurSolver
from cpsolver.io.dealgen import SizeRange
from cpsolver.io.positioncorpus import (
    PositionCorpusError,
    PositionEntry,
    read_position_corpus_lines,
)
from cpsolver.io.positioncorpus import detect_question as detect_corpus_question
from cpsolver.io.positionformat import position_as_dict, position_as_text
from cpsolver.io.positiongen import POSITION_KINDS, generate
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.position import side_name
from cpsolver.rules.ruleset import RuleSet

SHRINK_BUDGET_TIMEOUTS = 5  # the default shrink budget, in --timeout's (as for deals)
Numbered = Iterator[tuple[int, str | CpsolverError]]


def detect_question(lines: Numbered | None) -> tuple[str, Numbered | None]:
    """The question a corpus asks (:func:`cpsolver.io.positioncorpus.detect_question`).

    No corpus at all (a generated one) is the spring question.
    """
    if lines is None:
        return "spring", None
    return detect_corpus_question(lines)


def run_endgame_crosscheck(
    lines: Numbered | None,
    kind: str | None,
    sizes: tuple[SizeRange, ...] | None,
    count: int,
    seed: int,
    against: str | None,
    timeout: float,
    shrink_budget: float | None,
    out_dir: str,
    check_proofs: bool,
    runner_options: tuple[int, str | None, int | None],
    show_progress: bool,
    as_json: bool,
    rules: RuleSet,
) -> None:
    """``cpsolver crosscheck`` on positions: numbered corpus lines, or ``count`` generated."""
    entries: Iterable[PositionEntry | PositionCorpusError]
    if lines is not None:
        entries, total = read_position_corpus_lines(lines, rules), None
    else:
        if kind not in POSITION_KINDS:
            raise click.UsageError(
                f"the endgame question takes --generate {' or '.join(POSITION_KINDS)}"
            )
        entries, total = generate(kind, count, seed, sizes), count
    solvers: list[EndgameSolver] = [OurSolver(rules, timeout, check_proofs)]
    if against is not None:
        solvers.append(CommandEndgameSolver(against, timeout))  # an empty command: exit 2
    budget = shrink_budget if shrink_budget is not None else SHRINK_BUDGET_TIMEOUTS * timeout
    runner = None
    try:
        runner = make_runner(*runner_options)
        with sigterm_as_interrupt():
            summary = with_progress(
                total,
                show_progress,
                lambda advance: crosscheck_positions(
                    entries, solvers, rules, timeout, budget, lambda: advance(1), runner
                ),
            )
    finally:
        for solver in solvers:
            solver.close()
        if runner is not None:
            runner.close()
    written = write_position_reproducers(summary, out_dir) if summary.findings else []
    finish_crosscheck(summary, summary_table(summary), written, as_json, "positions")


def summary_table(summary: EndgameSummary) -> str:
    """The human summary: counts, then each solver's time."""
    rows: list[tuple[str, object]] = [
        ("positions", summary.positions),
        ("agreements", summary.agreements),
        ("disagreements", summary.disagreements),
        ("invalid moves", summary.invalid_moves),
        ("invalid proofs", summary.invalid_proofs),
        ("unknowns", summary.unknowns),
        ("mover wins", summary.mover_wins),
        ("bad lines", len(summary.bad_lines)),
        ("solver problems", len(summary.problems)),
    ]
    if summary.shrinks_cut_short:
        rows.append(("shrinks cut short", f"{summary.shrinks_cut_short} (--shrink-budget)"))
    rows += [
        (f"time {name}", f"{t['total_s']:.2f} s, {t['median_ms']:.2f} ms median")
        for name, t in summary.as_dict()["time"].items()
    ]
    rows += [
        (f"{name} protocol", {2: "2 (echoes ids)", 1: "1 (no id echo)"}.get(version, "unknown"))
        for name, version in summary.protocols.items()
        if version is not None
    ]
    return "\n".join(f"{label:<18}{value}" for label, value in rows)


def write_position_reproducers(summary: EndgameSummary, out_dir: str) -> list[str]:
    """One position file per finding, runnable as it is with ``cpsolver endgame``."""
    files = []
    for finding in summary.findings:
        cards = (sum(map(len, p.hands)) for p in (finding.original, finding.position))
        header = [
            f"# cpsolver crosscheck: {finding.kind} on position {json.dumps(finding.id)}",
            f"# {' '.join(finding.reason.splitlines())}",
            "# winners here: "
            + ", ".join(
                f"{name} {_side(w, finding.original.players)}"
                for name, w in finding.winners.items()
            ),
            f"# shrunk from {next(cards)} cards to {next(cards)}; original: "
            + json.dumps(position_as_dict(finding.original)),
        ]
        files.append((finding.id, "\n".join(header) + "\n" + position_as_text(finding.position)))
    return write_reproducers(out_dir, files)


def _side(winner: int | None, players: int) -> str:
    return "unknown" if winner is None else side_name(winner, players)
