"""The ``cpsolver`` command line: parses, calls the library, prints.

Exit codes follow grep: 0 yes (a play, plays found, a spring, a valid proof),
1 no, 2 bad input or usage, 3 undecided (a limit was reached). ``--json``
writes only JSON to stdout; messages go to stderr.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

import click

from cpsolver import cpsat
from cpsolver.batch import BatchOptions, done_ids, run_batch
from cpsolver.cards import Deal, Hand, rank_symbol
from cpsolver.certify import certify
from cpsolver.cnf import ENCODER
from cpsolver.cpsat.explain import explain
from cpsolver.crosscheck import CommandSolver, EngineSolver, Solver, Summary, crosscheck
from cpsolver.dealformat import (
    CorpusEntry,
    DealFormatError,
    deal_as_dict,
    deal_as_text,
    parse_deal,
    read_corpus,
)
from cpsolver.dealgen import KINDS, generate, parse_sizes
from cpsolver.engines import DEFAULT_ENGINE, ENGINES, solve_with
from cpsolver.errors import CpsolverError, InvalidPlayError
from cpsolver.game.engine import replay
from cpsolver.movegen import generator
from cpsolver.parallel import Runner, runner_for
from cpsolver.plays import Kind, Play, classify
from cpsolver.proof import build_proof, read_proof
from cpsolver.rules import RuleSet, load_rules, read_rules_text
from cpsolver.spring import OBJECTIVES, SpringResult, Verdict
from cpsolver.verify import check_certificate, check_proof

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


def _read_source(path: str) -> str:
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


def _read_cards(text: str) -> str:
    """Card text from the argument itself, from stdin (``-``) or a file (``@PATH``).

    In stdin and files, ``#`` starts a comment that runs to the end of the line.
    """
    if text != "-" and not text.startswith("@"):
        return text
    content = _read_source(text.removeprefix("@"))
    return " ".join(line.split("#", 1)[0] for line in content.splitlines())


def _read_deal(
    source: str | None, landlord: str | None, peasant1: str | None, peasant2: str | None
) -> Deal:
    """A deal from a file or stdin, or from the three hand options."""
    hands = (landlord, peasant1, peasant2)
    if source is not None:
        if any(hand is not None for hand in hands):
            raise click.UsageError("give a DEAL file or the hand options, not both")
        return parse_deal(_read_source(source))
    if any(hand is None for hand in hands):
        raise click.UsageError(
            "give a DEAL file (or - for stdin), or all of --landlord, --peasant1, --peasant2"
        )
    return Deal.parse(*(_read_cards(hand) for hand in hands if hand is not None))


def _rules_option(command: F) -> F:
    return click.option(
        "--rules",
        "rules_name",
        default="standard",
        show_default=True,
        metavar="NAME|PATH",
        help="Rule set: a name bundled in models/ or a TOML file of your own.",
    )(command)


def _common_options(command: F) -> F:
    command = _rules_option(command)
    return click.option("--json", "as_json", is_flag=True, help="Write JSON to stdout.")(command)


def _shape_words(play: Play) -> str:
    shape = play.shape
    if "length" in shape:
        return f"length {shape['length']}"
    if "triplets" in shape:
        return f"{shape['triplets']} triplets"
    if "kickers" in shape:
        return f"with {shape['kickers']}"
    return ""


def _play_line(play: Play, width: int) -> str:
    return f"{play!s:<{width}}  {play.kind.value:<24}  {rank_symbol(play.rank):<2}  {_shape_words(play)}".rstrip()


def _emit_json(value: Any) -> None:
    click.echo(json.dumps(value))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cpsolver")
def cli() -> None:
    """Exact answers about Dou Dizhu deals, and the rules they stand on.

    Cards are written 3456789TJQKA2BR (case-insensitive; 10 for T, X and D for
    the black and red joker; spaces, commas and dashes are ignored). Any CARDS
    argument may be - to read stdin, or @PATH to read a file.
    """


@cli.command("classify")
@click.argument("cards")
@_common_options
def classify_command(cards: str, as_json: bool, rules_name: str) -> None:
    """Say which of the thirteen plays CARDS form, or why they form none.

    Exit 0 for a play, 1 for no play, 2 for bad input.

    \b
    Example:
      cpsolver classify '777888 T J'
      777888TJ: triplet_sequence_singles, rank 8, 2 triplets
    """
    rules = load_rules(rules_name)
    hand = Hand.parse(_read_cards(cards))
    try:
        play = classify(hand, rules)
    except InvalidPlayError as error:
        reason = str(error).split(": ", 1)[-1]
        if as_json:
            _emit_json({"cards": str(hand), "error": reason})
        else:
            click.echo(f"{hand or '(no cards)'}: no play: {reason}")
        sys.exit(1)
    if as_json:
        _emit_json(play.as_dict())
    else:
        words = ", ".join(
            part
            for part in (play.kind.value, f"rank {rank_symbol(play.rank)}", _shape_words(play))
            if part
        )
        click.echo(f"{play}: {words}")


@cli.command("plays")
@click.argument("hand")
@click.option(
    "--kind",
    type=click.Choice([kind.value for kind in Kind]),
    help="List only the plays of this kind.",
)
@click.option("--beats", "beaten", metavar="PLAY", help="List only the plays that beat PLAY.")
@_common_options
def plays_command(
    hand: str, kind: str | None, beaten: str | None, as_json: bool, rules_name: str
) -> None:
    """List every distinct play in HAND, or only those that beat a play.

    Exit 0 when at least one play is listed, 1 when none is, 2 for bad input.

    \b
    Examples:
      cpsolver plays 33344456
      cpsolver plays 'KKK 2 99 3' --beats 'QQQ A' --json
    """
    rules: RuleSet = load_rules(rules_name)
    cards = Hand.parse(_read_cards(hand))
    moves = generator(rules)
    if beaten is None:
        found = moves.plays(cards)
    else:
        found = moves.answers(cards, classify(Hand.parse(_read_cards(beaten)), rules))
    if kind is not None:
        found = [play for play in found if play.kind.value == kind]
    found.sort(key=Play.sort_key)
    if as_json:
        _emit_json([play.as_dict() for play in found])
    else:
        width = max((len(str(play)) for play in found), default=0)
        for play in found:
            click.echo(_play_line(play, width))
        what = "answers" if beaten is not None else "plays"
        click.echo(f"{len(found)} {what}", err=True)
    if not found:
        sys.exit(1)


_EXIT_CODES = {Verdict.SPRING: 0, Verdict.NO_SPRING: 1, Verdict.UNKNOWN: 3}


def _deal_options(command: F) -> F:
    for name in ("--peasant2", "--peasant1", "--landlord"):
        command = click.option(
            name, metavar="CARDS", help=f"The {name[2:]}'s hand (instead of DEAL)."
        )(command)
    return click.argument("deal", required=False, metavar="[DEAL]")(command)


def _plays(count: int) -> str:
    return f"{count} play{'' if count == 1 else 's'}"


def _seconds(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """A positive, finite number of seconds (nan and inf are refused)."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise click.BadParameter(f"{value} is not a positive number of seconds")
    return value


def _report(result: SpringResult) -> str:
    """The human report of a solve: verdict, objective, numbered plan, statistics."""
    stats = result.stats
    answerable = sum(not step.safe for step in result.plan)
    if result.verdict is Verdict.SPRING:
        lines = [
            f"spring: the landlord plays out alone in {_plays(len(result.plan))}"
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
        lines.append(f"{number:>4}. {_play_line(step.play, width)}{'' if step.safe else last}")
    counts = ", ".join(
        f"{value} {name.replace('_', ' ')}"
        for name, value in stats.items()
        if isinstance(value, int) and name not in ("engine", "strategy")
    )
    lines.append(f"({stats['engine']}/{stats['strategy']}: {counts}, {stats['seconds']:.3f} s)")
    return "\n".join(lines)


@cli.command("solve")
@_deal_options
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default=DEFAULT_ENGINE,
    show_default=True,
    help="cpsat: the CP-SAT model with cuts; search: depth-first search.",
)
@click.option(
    "--strategy",
    type=click.Choice(cpsat.STRATEGIES),
    default=cpsat.DEFAULT_STRATEGY,
    show_default=True,
    help="For cpsat. eager: every play's safety first, one solve; lazy: cuts from the answers met.",
)
@click.option(
    "--objective",
    type=click.Choice(OBJECTIVES),
    default="spring",
    show_default=True,
    help="spring: decide; fewest-answerable / fewest-plays: also the split with the proven "
    "fewest answerable plays, or fewest plays.",
)
@click.option(
    "--time-limit",
    type=float,
    callback=_seconds,
    metavar="SECONDS",
    help="Give up with 'unknown' (exit 3) after this long.",
)
@click.option(
    "--proof",
    "proof_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Write the proof of a spring, or the certificate of no spring, to this JSON file.",
)
@_common_options
def solve_command(
    deal: str | None,
    landlord: str | None,
    peasant1: str | None,
    peasant2: str | None,
    engine: str,
    strategy: cpsat.solver.Strategy,
    objective: str,
    time_limit: float | None,
    proof_path: str | None,
    as_json: bool,
    rules_name: str,
) -> None:
    """Decide whether the landlord can play out every card unanswered (a spring).

    DEAL is a file (or - for stdin): three lines 'landlord: CARDS',
    'peasant1: CARDS', 'peasant2: CARDS', or JSON {"landlord": CARDS,
    "peasants": [CARDS, CARDS]}. Exit 0 spring, 1 no spring, 2 bad input,
    3 unknown (time limit).

    \b
    Examples:
      cpsolver solve examples/spring.txt
      cpsolver solve --landlord '333444 5 7' --peasant1 4 --peasant2 5 --json
      cpsolver solve examples/spring.txt --proof proof.json --engine search
    """
    rules = load_rules(rules_name)
    position = _read_deal(deal, landlord, peasant1, peasant2)
    if proof_path is not None and objective == "fewest-plays":
        raise click.UsageError("--proof goes with --objective spring or fewest-answerable")
    result = solve_with(engine, position, rules, time_limit, strategy, objective)
    if proof_path is not None:
        _write_proof(proof_path, position, result, rules)
    if as_json:
        _emit_json(result.as_dict())
    else:
        click.echo(_report(result))
    sys.exit(_EXIT_CODES[result.verdict])


def _write_json(path: str, document: Any) -> None:
    try:
        with open(path, "w", encoding="utf-8") as file:
            json.dump(document, file, indent=2)
            file.write("\n")
    except OSError as error:
        raise BadInput(f"cannot write {path}: {error.strerror}") from None


def _write_proof(path: str, deal: Deal, result: SpringResult, rules: RuleSet) -> None:
    """A proof of a spring, a certificate of no spring, or nothing (with a note) for unknown."""
    if result.verdict is Verdict.SPRING:
        _write_json(path, build_proof(deal, result, rules, generator(rules)))
    elif result.verdict is Verdict.NO_SPRING:
        certified = certify(deal, rules)
        assert certified is not None, "the engines said no spring, the certificate found one"
        _write_json(path, certified[0])
    else:
        click.echo("no proof written: the verdict is unknown", err=True)


@cli.command("verify")
@click.argument("files", nargs=-1, required=True, metavar="[DEAL] PROOF")
@_common_options
def verify_command(files: tuple[str, ...], as_json: bool, rules_name: str) -> None:
    """Check a proof of a spring, or a certificate of no spring, sharing no code with the solvers.

    PROOF is a file written by 'cpsolver solve --proof' (or - for stdin); it
    embeds its deal, and DEAL, when given, must be that deal. A proof is
    replayed with the rules core; a certificate's CNF is rebuilt and its
    refutation checked by unit propagation, without CP-SAT or a SAT solver.
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
    deal_text = _read_source(files[0]) if len(files) == 2 else None
    text = _read_source(files[-1])
    if deal_text is not None and '"format"' in deal_text and '"format"' not in text:
        raise click.UsageError("give the DEAL first, then the PROOF")
    position = parse_deal(deal_text) if deal_text is not None else None
    try:
        parsed = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise BadInput(f"{files[-1]}: not a proof: not JSON ({error})") from None
    if not isinstance(parsed, dict):
        raise BadInput(f"{files[-1]}: not a proof: a proof is a JSON object")
    document: dict[str, Any] | None = None
    try:
        document = read_proof(text)
    except CpsolverError as error:
        failure: str | None = str(error)
    else:
        is_certificate = document.get("format") == "cpsolver-certificate"
        check = check_certificate if is_certificate else check_proof
        failure = check(document, position, rules)
    if as_json:
        _emit_json({"valid": failure is None, "failure": failure, **_proof_summary(document)})
    elif failure is None:
        click.echo(f"valid: {_proof_words(document)}")
    else:
        click.echo(f"invalid: {failure}")
    sys.exit(0 if failure is None else 1)


def _cluster_options(default_workers: int) -> Callable[[F], F]:
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


def _runner(workers: int, scheduler: str | None, local_cluster: int | None) -> Runner:
    """The runner the cluster options ask for; a bad address is a one-line error."""
    if scheduler is not None and local_cluster is not None:
        raise click.UsageError("give --scheduler or --local-cluster, not both")
    try:
        return runner_for(workers, scheduler, local_cluster)
    except ValueError as error:
        raise BadInput(str(error)) from None


def _sizes(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    if value is None:
        return None
    try:
        return parse_sizes(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


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
    callback=_sizes,
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
    callback=_seconds,
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
@_cluster_options(default_workers=1)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@_common_options
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
        entries = read_corpus(_read_source(corpus).splitlines())
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
        runner = _runner(workers, scheduler, local_cluster)
    except click.ClickException:
        for solver in solvers:
            solver.close()
        raise
    try:
        summary = _with_progress(
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
        _emit_json(summary.as_dict())
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


def _proof_summary(document: Any) -> dict[str, Any]:
    if document is None:
        return {}
    if document.get("format") == "cpsolver-certificate":
        return {
            "verdict": "no_spring",
            "blocking": document["blocking"],
            "lemmas": len(document["proof"]),
        }
    return {"verdict": "spring", "steps": len(document["plan"])}


def _proof_words(document: Any) -> str:
    summary = _proof_summary(document)
    if summary["verdict"] == "spring":
        return f"a spring in {_plays(summary['steps'])}, every step checked"
    return (
        f"no spring: the landlord's cards {summary['blocking']} cannot all be played "
        f"({summary['lemmas']} proof lines checked)"
    )


@cli.command("explain")
@_deal_options
@_common_options
def explain_command(
    deal: str | None,
    landlord: str | None,
    peasant1: str | None,
    peasant2: str | None,
    as_json: bool,
    rules_name: str,
) -> None:
    """Say why a deal has no spring: a few landlord cards that cannot all be played.

    The blocking cards are irreducible: without any one of them, the rest could
    be played by disjoint plays with at most one answerable. Each comes with the
    plays that could carry it and who answers each. Exit 0 for a spring (nothing
    to explain), 1 for no spring (explained), 2 for bad input.

    \b
    Examples:
      cpsolver explain examples/no_spring.txt
      cpsolver explain --landlord 'KK 2' --peasant1 AA --peasant2 B --json
    """
    rules = load_rules(rules_name)
    position = _read_deal(deal, landlord, peasant1, peasant2)
    explanation = explain(position, rules)
    if as_json:
        _emit_json(explanation.as_dict())
    elif explanation.blocking is None:
        click.echo("spring: nothing to explain")
    else:
        blocking = explanation.blocking
        click.echo(
            f"no spring: the landlord's {' '.join(map(rank_symbol, blocking.ranks()))} cannot all be played "
            "with at most one answerable play"
        )
        for rank, carriers in explanation.carriers.items():
            click.echo(f"  {rank_symbol(rank)}: " + "; ".join(str(c) for c in carriers))
        click.echo("Without any one of these cards, the rest could be played.")
    sys.exit(0 if explanation.blocking is None else 1)


@cli.command("export-cnf")
@_deal_options
@click.option(
    "--cnf",
    "cnf_path",
    type=click.File("w", encoding="utf-8"),
    default="-",
    help="Write the CNF here, in DIMACS (default: stdout).",
)
@click.option(
    "--drat",
    "drat_path",
    type=click.File("w", encoding="utf-8"),
    help="Write the refutation here, in DRAT text.",
)
@_rules_option
def export_cnf_command(
    deal: str | None,
    landlord: str | None,
    peasant1: str | None,
    peasant2: str | None,
    cnf_path: IO[str],
    drat_path: IO[str] | None,
    rules_name: str,
) -> None:
    """Write a no-spring deal's certificate CNF (DIMACS) and refutation (DRAT) for other checkers.

    The CNF says "the blocking cards can be covered by disjoint plays with at
    most one answerable" (encoder cover-cnf-1, see the README); a refutation
    proves there is no spring. Output is DIMACS and DRAT, not JSON. Exit 0
    when written, 1 for a spring (nothing to refute), 2 for bad input.

    \b
    Examples:
      cpsolver export-cnf examples/no_spring.txt --cnf deal.cnf --drat deal.drat
      drat-trim deal.cnf deal.drat
    """
    rules = load_rules(rules_name)
    position = _read_deal(deal, landlord, peasant1, peasant2)
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
    cnf_path.write(cnf.dimacs(comments))
    if drat_path is not None:
        drat_path.write("\n".join(document["proof"]) + "\n")


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
    callback=_seconds,
    metavar="SECONDS",
    help="A deal past this is recorded as unknown; the batch goes on.",
)
@_cluster_options(default_workers=os.cpu_count() or 1)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@_common_options
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
    runner = _runner(workers, scheduler, local_cluster)
    try:
        with path.open("a", encoding="utf-8") as output:
            summary = _with_progress(
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
        _emit_json(report)
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


def _with_progress(total: int | None, show: bool, work: Callable[[Callable[[int], None]], T]) -> T:
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


@cli.command("play")
@click.option(
    "--seed", type=int, default=None, help="The same seed deals the same hands (default: random)."
)
@click.option("--seat", type=click.IntRange(0, 2), default=0, show_default=True, help="Your seat.")
@click.option(
    "--record",
    "record_path",
    type=click.File("a", encoding="utf-8"),
    help="Append each hand's JSON record here (for 'cpsolver replay').",
)
@_rules_option
def play_command(seed: int | None, seat: int, record_path: IO[str] | None, rules_name: str) -> None:
    """Play Dou Dizhu in the terminal against two bots, hand after hand, with a running score.

    Type cards to play them (33, TJQKA, '777888 3 4'), 'pass', 'hint' (cycles
    through your legal plays), '?' (the rules), 'quit'. Each hand ends with the
    score and whether the landlord had a spring at his first lead. The records
    are JSON, not the screen; this command has no --json form.

    \b
    Example:
      cpsolver play --seed 7 --seat 1 --record hands.jsonl
    """
    from rich.console import Console

    from cpsolver.game.table import PersonTable, Quit, game_seeds

    console = Console(highlight=False)
    table = PersonTable(seat, lambda prompt: console.input(prompt), console, load_rules(rules_name))
    start = seed if seed is not None else random.SystemRandom().randrange(2**31)
    console.print(
        f"Dou Dizhu against two bots; you are seat {seat}. Session seed {start}. '?' for help."
    )
    try:
        for game_seed, first in game_seeds(start):
            table.play_hand(game_seed, first)
    except Quit:
        console.print(
            "\nGoodbye. Final score: "
            + ", ".join(f"{table.name(s)} {table.totals[s]:+d}" for s in range(3))
        )
    finally:
        if record_path is not None:
            for record in table.records:
                record_path.write(json.dumps(record) + "\n")


@cli.command("replay")
@click.argument("record_file", metavar="RECORD")
@_common_options
def replay_command(record_file: str, as_json: bool, rules_name: str) -> None:
    """Re-run a recorded hand action by action and re-score it.

    RECORD is a JSON record of one hand, or JSON lines of several (from
    'cpsolver play --record' or the library), or - for stdin. Exit 0 when
    every hand replays to its recorded result, 1 at the first that does not,
    2 for unreadable input.

    \b
    Example:
      cpsolver replay hands.jsonl --json
    """
    rules = load_rules(rules_name)
    text = _read_source(record_file)
    try:
        records = [json.loads(line) for line in text.splitlines() if line.strip()]
    except (json.JSONDecodeError, RecursionError):
        try:
            records = [json.loads(text)]
        except (json.JSONDecodeError, RecursionError) as error:
            raise BadInput(f"{record_file}: not JSON: {error}") from None
    if not records:
        raise BadInput(f"{record_file}: no game records in it")
    results: list[dict[str, Any]] = []
    for number, record in enumerate(records, 1):
        if not isinstance(record, dict):
            raise BadInput(f"{record_file}: record {number} is not a JSON object")
        try:
            game = replay(record, rules)
        except CpsolverError as error:
            failure = f"record {number}: {error}"
            if as_json:
                _emit_json({"valid": False, "failure": failure, "replayed": results})
            else:
                click.echo(f"invalid: {failure}")
            sys.exit(1)
        results.append(game.result())
        if not as_json:
            result = game.result()
            click.echo(
                f"hand {number} (seed {record['seed']}): {result['winner']}, score {result['score']}"
            )
    if as_json:
        _emit_json({"valid": True, "failure": None, "replayed": results})


@cli.command("simulate")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@_common_options
def simulate_command(games: int, seed: int, quiet: bool, as_json: bool, rules_name: str) -> None:
    """Bots against bots: win rates by seat and role, stakes, springs taken and missed.

    \b
    Example:
      cpsolver simulate --games 1000 --seed 3 --json
    """
    from cpsolver.game.table import simulate

    summary = _with_progress(
        games,
        not (quiet or as_json),
        lambda advance: simulate(games, seed, lambda: advance(1), load_rules(rules_name)),
    )
    report = summary.as_dict()
    if as_json:
        _emit_json(report)
        return
    click.echo(f"{report['games']} hands ({report['thrown_in']} thrown in)")

    def share(rate: float | None) -> str:
        return "n/a" if rate is None else f"{rate:.1%}"

    seats = ", ".join(f"{seat}: {share(rate)}" for seat, rate in report["win_rate_by_seat"].items())
    click.echo(f"win rate by seat: {seats}")
    roles = report["win_rate_by_role"]
    click.echo(
        f"win rate by role: landlord {share(roles['landlord'])}, peasants {share(roles['peasants'])}"
    )
    click.echo(f"average stake: {report['average_stake']}")
    click.echo(f"springs: {report['springs']}, anti-springs: {report['anti_springs']}")
    click.echo(
        f"landlord had a spring at the first lead: {report['spring_available_at_first_lead']}, "
        f"took it: {report['spring_taken']}"
    )


def main() -> None:
    """Entry point of the ``cpsolver`` console script."""
    cli()
