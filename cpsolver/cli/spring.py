"""The spring question: solve, verify, explain and export-cnf."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from cpsolver.cli.base import F, cli
from cpsolver.cli.drawings import (
    draw_deal,
    draw_explanation,
    draw_plan,
    write_pictures,
)
from cpsolver.cli.inputs import HandFlags, read_deal, read_deal_document, read_source
from cpsolver.cli.options import (
    QUESTION_TIMEOUT,
    common_options,
    deal_options,
    picture_options,
    rules_option,
    timeout_option,
)
from cpsolver.cli.output import emit_json, play_line, plays_phrase, shown, write_json
from cpsolver.io.dealformat import DealDocument
from cpsolver.io.reading import source_name
from cpsolver.io.rulefiles import load_rules
from cpsolver.io.words import counted
from cpsolver.io.writing import write_text
from cpsolver.rules.cards import Deal, rank_symbol
from cpsolver.rules.movegen import generator
from cpsolver.rules.position import side_wins
from cpsolver.rules.ruleset import RuleSet
from cpsolver.spring import cpsat
from cpsolver.spring.engines import DEFAULT_ENGINE, ENGINES, solve_with
from cpsolver.spring.proof import build_proof
from cpsolver.spring.result import OBJECTIVES, SpringResult, Verdict
from cpsolver.verify.answer import proof_summary, verify_file_quickly, verify_text
from cpsolver.verify.cnf import ENCODER

if TYPE_CHECKING:  # OR-Tools comes with the explanation; only explain loads it
    from cpsolver.spring.cpsat.explain import Explanation

_EXIT_CODES = {Verdict.SPRING: 0, Verdict.NO_SPRING: 1, Verdict.UNKNOWN: 3}


def _report(result: SpringResult) -> str:
    """The human report of a solve: verdict, objective, numbered plan, statistics."""
    stats = result.stats
    answerable = sum(not step.safe for step in result.plan)
    if result.verdict is Verdict.SPRING:
        lines = [
            f"spring: the landlord plays out alone in {plays_phrase(len(result.plan))}"
            + (", the last one answerable" if answerable else "")
        ]
    elif result.verdict is Verdict.NO_SPRING:
        lines = ["no spring: every split of the landlord's hand has two or more answerable plays"]
    else:
        lines = ["unknown: the time limit was reached before a verdict"]
    if result.objective is not None:
        lines.append(f"{result.objective.name}: {result.objective.value}, by this split")
    width = max((len(str(step.play)) for step in result.plan), default=0)
    last = "  <- answerable, played last" if answerable == 1 else "  <- answerable"
    for number, step in enumerate(result.plan, 1):
        lines.append(f"{number:>4}. {play_line(step.play, width)}{'' if step.safe else last}")
    counts = ", ".join(
        _stat(value, name)
        for name, value in stats.items()
        if isinstance(value, int) and name not in ("engine", "strategy")
    )
    lines.append(f"({stats['engine']}/{stats['strategy']}: {counts}, {stats['seconds']:.3f} s)")
    return "\n".join(lines)


def engine_options(command: F) -> F:
    """--engine, --strategy and --objective, as solve and batch share them."""
    command = click.option(
        "--objective",
        type=click.Choice(OBJECTIVES),
        default="spring",
        show_default=True,
        help="spring: decide; fewest-answerable / fewest-plays: also the split with the proven "
        "fewest answerable plays, or fewest plays.",
    )(command)
    command = click.option(
        "--strategy",
        type=click.Choice(cpsat.STRATEGIES),
        default=cpsat.DEFAULT_STRATEGY,
        show_default=True,
        help="For cpsat. eager: every play's safety first, one solve; lazy: cuts from the answers met.",
    )(command)
    return click.option(
        "--engine",
        type=click.Choice(ENGINES),
        default=DEFAULT_ENGINE,
        show_default=True,
        help="search: depth-first search (the faster); cpsat: the CP-SAT model with cuts.",
    )(command)


@cli.command("solve")
@deal_options
@engine_options
@click.option(
    "--any-plan",
    is_flag=True,
    help="Print the first spring plan found, not one with the fewest plays (a little faster).",
)
@timeout_option("Give up with 'unknown' (exit 3) after this long.", default=QUESTION_TIMEOUT)
@click.option(
    "--proof",
    "proof_path",
    type=click.Path(dir_okay=False, writable=True, allow_dash=True),
    help="Write the proof of a spring, or the certificate of no spring, to this JSON file "
    "(- for stdout; the report then goes to stderr).",
)
@picture_options
@common_options
def solve_command(
    deal: str | None,
    flags: HandFlags,
    engine: str,
    strategy: cpsat.Strategy,
    objective: str,
    any_plan: bool,
    timeout: float | None,
    proof_path: str | None,
    svg_path: str | None,
    html_path: str | None,
    as_json: bool,
    rules_name: str,
) -> None:
    """Decide whether the landlord can play out every card unanswered (a spring).

    DEAL is a file (or - for stdin): three lines 'landlord: CARDS',
    'peasant1: CARDS', 'peasant2: CARDS', or JSON {"landlord": CARDS,
    "peasants": [CARDS, CARDS]}, which may carry an "id" and an "expected"
    verdict, as a line of 'cpsolver deal' does; or a position file that is a
    deal (three hands, the landlord to lead). Or give the hands as flags:
    --landlord, --peasant1, --peasant2, or --hand three times in turn order.
    Exit 0 spring, 1 no spring, 2 bad input, 3 unknown (time limit). A
    spring's plan has the fewest plays of any.

    \b
    Examples:
      cpsolver solve examples/spring.txt
      cpsolver solve --landlord '333444 5 7' --peasant1 4 --peasant2 5 --json
      cpsolver solve --hand '333444 5 7' --hand 4 --hand 5
      cpsolver solve examples/spring.txt --proof proof.json --engine search
      cpsolver solve examples/spring.txt --svg plan.svg
      cpsolver deal --count 1 --seed 3 | cpsolver solve - --json
      cpsolver solve examples/spring.txt --proof - | cpsolver verify -
    """
    rules = load_rules(rules_name)
    document = read_deal_document(deal, flags)
    position = document.deal
    if proof_path is not None and objective == "fewest-plays":
        raise click.UsageError("--proof goes with --objective spring or fewest-answerable")
    if proof_path == "-" and as_json:
        raise click.UsageError("--proof - and --json would both write to stdout; give one a file")
    result = solve_with(engine, position, rules, timeout, strategy, objective, any_plan)
    if proof_path is not None:
        _write_proof(proof_path, position, result, rules)
    if svg_path or html_path:
        drawing = draw_deal(position, rules, solve=False)
        if result.plan:
            draw_plan(drawing, position, [step.play for step in result.plan], rules)
        write_pictures(svg_path, html_path, "Spring plan", drawing.pictures, _report(result))
    if as_json:
        emit_json(result.answer(document))
    else:
        if document.id is not None:
            click.echo(shown(f"deal {document.id}"), err=proof_path == "-")
        click.echo(_report(result), err=proof_path == "-")
    _check_expected(document, result.verdict)
    sys.exit(_EXIT_CODES[result.verdict])


def _labels(document: DealDocument) -> dict[str, str]:
    """The id and expected verdict a deal file carries, for the JSON answer."""
    labels = {"id": document.id, "expected": document.expected}
    return {key: value for key, value in labels.items() if value is not None}


def _check_expected(document: DealDocument, verdict: Verdict) -> None:
    """Say on stderr when the verdict is not the one the deal's file expects."""
    if document.expected is not None and document.expected != verdict.value:
        click.echo(f"expected {document.expected}, but the verdict is {verdict}", err=True)


def _write_proof(path: str, deal: Deal, result: SpringResult, rules: RuleSet) -> None:
    """A proof of a spring, a certificate of no spring, or nothing (with a note) for unknown."""
    if result.verdict is Verdict.SPRING:
        write_json(path, build_proof(deal, result, rules, generator(rules)))
    elif result.verdict is Verdict.NO_SPRING:
        from cpsolver.spring.certify import (
            certify,  # python-sat and OR-Tools: only for certificates
        )

        certified = certify(deal, rules)
        assert certified is not None, "the engines said no spring, the certificate found one"
        write_json(path, certified[0])
    else:
        click.echo("no proof written: the verdict is unknown", err=True)


@cli.command("verify")
@click.argument("files", nargs=-1, required=True, metavar="[DEAL] PROOF")
@common_options
def verify_command(files: tuple[str, ...], as_json: bool, rules_name: str) -> None:
    """Check a proof of a spring, a certificate of no spring, or an endgame strategy.

    PROOF is a file written by 'cpsolver solve --proof' or 'cpsolver endgame
    --proof' (or - for stdin); it embeds its deal or position, and DEAL (a
    position, for a strategy), when given, must be that one. None of it shares
    code with the solvers. A proof is
    replayed with the rules core; a certificate's CNF is rebuilt and its
    refutation checked by unit propagation, without CP-SAT or a SAT solver.
    A strategy is walked from its position: every move legal, every reply of
    the losing side answered, every path ending with the winner out of cards.
    Exit 0 for a valid proof, 1 with the first failure otherwise, 2 for
    unreadable input.

    \b
    Examples:
      cpsolver verify proof.json
      cpsolver verify examples/spring.txt proof.json --json
    """
    if len(files) > 2:
        raise click.UsageError("give at most a DEAL and a PROOF")
    rules = load_rules(rules_name)
    deal_text = read_source(files[0]) if len(files) == 2 else None
    answer = verify_file_quickly(files[-1], deal_text, rules)  # a strategy, as written
    if answer is None:
        text = read_source(files[-1], "proof")
        if deal_text is not None and '"format"' in deal_text and '"format"' not in text:
            raise click.UsageError("give the DEAL first, then the PROOF")
        answer = verify_text(text, deal_text, rules, source_name(files[-1]))
    failure = answer.failure
    if as_json:
        emit_json(answer.as_dict())
    elif failure is None:
        click.echo(f"valid: {_proof_words(answer.document, answer.walked)}")
    else:
        click.echo(f"invalid: {failure}")
    sys.exit(0 if failure is None else 1)


def _stat(value: int, name: str) -> str:
    """A search statistic in words: ``1 safe play``, ``23 unsafe classes`` (the names are plural)."""
    plural = name.replace("_", " ")
    single = plural[:-2] if plural.endswith("sses") else plural.removesuffix("s")
    return counted(value, single, plural)


def _proof_words(document: Any, walked: int) -> str:
    summary = proof_summary(document, walked)
    if "winner" in summary:
        players = len(document["position"]["hands"])
        return (
            f"{side_wins(summary['winner'], players)}: a strategy of "
            f"{counted(summary['nodes'], 'position')}, every reply of the other side answered"
        )
    if summary["verdict"] == "spring":
        return f"a spring in {plays_phrase(summary['steps'])}, every step checked"
    return (
        f"no spring: the landlord's cards {summary['blocking']} cannot all be played "
        f"({summary['lemmas']} proof lines checked)"
    )


@cli.command("explain")
@deal_options
@picture_options
@common_options
def explain_command(
    deal: str | None,
    flags: HandFlags,
    svg_path: str | None,
    html_path: str | None,
    as_json: bool,
    rules_name: str,
) -> None:
    """Say why a deal has no spring: a few landlord cards that cannot all be played.

    The blocking cards are irreducible: without any one of them, the rest could
    be played by disjoint plays with at most one answerable. Each comes with the
    plays that could carry it and who answers each. DEAL is read as by
    'cpsolver solve' (a corpus line's id is printed first), or the hands are
    given as --landlord, --peasant1, --peasant2 or --hand three times. Exit 0
    for a spring (nothing to explain), 1 for no spring (explained), 2 for bad
    input.

    \b
    Examples:
      cpsolver explain examples/no_spring.txt
      cpsolver explain --landlord 'KK 2' --peasant1 AA --peasant2 B --json
      cpsolver explain --hand 'KK 2' --hand AA --hand B
      cpsolver deal --count 1 --seed 3 | cpsolver explain -
      cpsolver explain examples/no_spring.txt --html why.html
    """
    rules = load_rules(rules_name)
    document = read_deal_document(deal, flags)
    position = document.deal
    from cpsolver.spring.cpsat.explain import explain  # OR-Tools: only here

    explanation = explain(position, rules)
    verdict = Verdict.SPRING if explanation.blocking is None else Verdict.NO_SPRING
    if svg_path or html_path:
        drawing = draw_deal(position, rules, solve=False)
        if explanation.blocking is not None:
            draw_explanation(drawing, position, rules, explanation)
        write_pictures(svg_path, html_path, "Why no spring", drawing.pictures)
    if as_json:
        emit_json({**_labels(document), **explanation.as_dict()})
    else:
        if document.id is not None:
            click.echo(shown(f"deal {document.id}"))
        click.echo(_explanation_report(explanation))
    _check_expected(document, verdict)
    sys.exit(0 if explanation.blocking is None else 1)


def _explanation_report(explanation: Explanation) -> str:
    """The human report of explain: the blocking cards, each with the plays that could carry it."""
    blocking = explanation.blocking
    if blocking is None:
        return "spring: nothing to explain"
    cards = " ".join(map(rank_symbol, blocking.ranks()))
    lines = [
        f"no spring: the landlord's {cards} cannot all be played with at most one answerable play"
    ]
    for rank, carriers in explanation.carriers.items():
        lines.append(f"  {rank_symbol(rank)}: " + "; ".join(str(c) for c in carriers))
    lines.append("Without any one of these cards, the rest could be played.")
    return "\n".join(lines)


@cli.command("export-cnf")
@deal_options
@click.option(
    "--cnf",
    "cnf_path",
    default="-",
    metavar="FILE",
    help="Write the CNF here, in DIMACS (default: stdout, also -).",
)
@click.option(
    "--drat",
    "drat_path",
    metavar="FILE",
    help="Write the refutation here, in DRAT text (- for stdout).",
)
@rules_option
def export_cnf_command(
    deal: str | None,
    flags: HandFlags,
    cnf_path: str,
    drat_path: str | None,
    rules_name: str,
) -> None:
    """Write a no-spring deal's certificate CNF (DIMACS) and refutation (DRAT) for other checkers.

    The CNF says "the blocking cards can be covered by disjoint plays with at
    most one answerable" (encoder cover-cnf-1, see docs/why-not.md); a refutation
    proves there is no spring. DEAL and the hand flags are read as by
    'cpsolver solve'. Output is DIMACS and DRAT, not JSON. Exit 0
    when written, 1 for a spring (nothing to refute), 2 for bad input.

    \b
    Examples:
      cpsolver export-cnf examples/no_spring.txt --cnf deal.cnf --drat deal.drat
      drat-trim deal.cnf deal.drat
    """
    rules = load_rules(rules_name)
    position = read_deal(deal, flags)
    from cpsolver.spring.certify import certify  # python-sat and OR-Tools: only here

    certified = certify(position, rules)
    if certified is None:
        click.echo("spring: nothing to refute", err=True)
        sys.exit(1)
    document, cnf = certified
    comments = [
        f"cpsolver {ENCODER}: can the landlord's {document['blocking']} be covered by disjoint plays,",
        "at most one answerable? Unsatisfiable means no spring.",
        f"deal: {json.dumps(document['deal'])}; rules: {rules.name} ({rules.digest})",
    ]
    write_text(cnf_path, cnf.dimacs(comments))
    if drat_path is not None:
        write_text(drat_path, "\n".join(document["proof"]) + "\n")
