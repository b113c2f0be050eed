"""Endgame puzzles: ``cpsolver puzzle check`` grades one or re-verifies a pack, ``puzzle make`` draws sound ones."""

from __future__ import annotations

import json
import os
import sys

import click

from cpsolver.cli.base import BadInput, cli
from cpsolver.cli.inputs import HandFlags, read_position_document, read_source
from cpsolver.cli.options import (
    QUESTION_TIMEOUT,
    common_options,
    kind_sizes,
    output_option,
    position_options,
    rules_option,
    timeout_option,
)
from cpsolver.cli.output import emit_json, shown
from cpsolver.io.positioncorpus import PositionDocument, parse_position_document
from cpsolver.io.reading import source_name
from cpsolver.io.rulefiles import load_rules
from cpsolver.io.words import counted
from cpsolver.io.writing import open_output
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.ruleset import RuleSet


@cli.group("puzzle")
def puzzle_group() -> None:
    """Endgame puzzles: check one for a single solution and grade it, make sound ones, re-check a pack.

    'check' reports in text or --json; 'make' writes JSON lines (a pack).

    \b
    Examples:
      cpsolver puzzle check examples/level50.txt --json
      cpsolver puzzle make --count 5 --seed 1 --grade medium -o puzzles.jsonl
      cpsolver puzzle check puzzles.jsonl
    """


@puzzle_group.command("check")
@click.argument("position_file", required=False, metavar="[POSITION|PACK]")
@position_options()
@timeout_option("Give up after this long (exit 3).", default=QUESTION_TIMEOUT)
@common_options
def check_command(
    position_file: str | None,
    flags: HandFlags,
    turn: int | None,
    table: str | None,
    by: int | None,
    timeout: float | None,
    as_json: bool,
    rules_name: str,
) -> None:
    """Is POSITION a sound puzzle (one winning first move), and how hard is it? Or re-verify a PACK.

    The grade counts the only moves on the principal line, the winner's turns
    where exactly one move keeps the win: easy (1), medium (2), hard (3-4),
    expert (5 or more). Exit 0 for a sound puzzle, 1 for one with several
    winning first moves, 2 for bad input or a position the side to move
    loses, 3 when the time limit ran out.

    A PACK ('puzzle make' lines, each with its "puzzle" and proof) is
    re-verified line by line: the position solved afresh (one winning first
    move, every other first move's verdict), the grade and the measures
    recounted, and the proof walked by the checker 'cpsolver verify' uses.
    One result a line; exit 0 when every line holds, 1 when any fails.

    \b
    Examples:
      cpsolver puzzle check examples/level50.txt
      cpsolver puzzle check --hand 'KK 3' --hand 'QQ 4' --json
      cpsolver puzzle check puzzles.jsonl
    """
    from cpsolver.analysis.puzzles import PuzzleError, check

    rules = load_rules(rules_name)
    if position_file is not None and not flags.given and (turn, table, by) == (None, None, None):
        text = read_source(position_file, "record")  # a pack is JSON lines, a proof each
        lines = _pack_lines(text)
        if lines:
            _check_pack(lines, position_file, rules, timeout, as_json)
        try:
            document = parse_position_document(text, rules, source_name(position_file))
        except CpsolverError as error:
            raise BadInput(str(error)) from None
    else:
        document = read_position_document(position_file, flags, turn, table, by, rules)
    try:
        puzzle = check(document.position, rules, timeout)
    except PuzzleError as error:
        if "time limit" in str(error):
            click.echo(f"unknown: {error}")
            sys.exit(3)
        raise BadInput(str(error)) from None
    _report(document, puzzle, as_json)


def _report(document: PositionDocument, puzzle: object, as_json: bool) -> None:
    """One position's report, and its exit: 0 sound, 1 not."""
    from cpsolver.analysis.puzzles import Puzzle

    assert isinstance(puzzle, Puzzle)
    if as_json:
        emit_json({**({"id": document.id} if document.id else {}), **puzzle.as_dict()})
    else:
        first = ", ".join(puzzle.first_moves)
        verdict = "a sound puzzle" if puzzle.sound else "not sound: several winning first moves"
        click.echo(f"{verdict}; grade {puzzle.grade}; winning first moves: {first}")
        click.echo(
            f"{counted(len(puzzle.only_moves), 'only move')} among the winner's "
            f"{counted(puzzle.decisions, 'choice')} on the line:"
        )
        for index in puzzle.only_moves:
            hand, move = puzzle.line[index]
            click.echo(f"  {index + 1:>4}. hand {hand}  {move}")
        traps = ", ".join(puzzle.traps) or "none"
        click.echo(f"line of {counted(puzzle.line_length, 'ply', 'plies')}; greedy traps: {traps}")
        click.echo(f"({counted(puzzle.nodes, 'node')})")
    sys.exit(0 if puzzle.sound else 1)


def _pack_lines(text: str) -> list[tuple[int, object]]:
    """The lines of a pack, parsed, when ``text`` is one (its first line carries a puzzle's proof)."""
    from cpsolver.analysis.puzzlepack import is_pack_line

    numbered = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not numbered or not numbered[0][1].lstrip().startswith("{"):
        return []
    parsed: list[tuple[int, object]] = []
    for number, line in numbered:
        try:
            parsed.append((number, json.loads(line)))
        except json.JSONDecodeError:
            if number == numbered[0][0]:
                return []  # not JSON lines: a position file of another form
            parsed.append((number, line))
    first = parsed[0][1]
    if not (is_pack_line(first) and "proof" in first["puzzle"]):  # type: ignore[index]
        return []
    return parsed


def _check_pack(
    lines: list[tuple[int, object]],
    path: str,
    rules: RuleSet,
    timeout: float | None,
    as_json: bool,
) -> None:
    """Re-verify every line of a pack, one result a line; exit 0 if all hold, else 1."""
    from cpsolver.analysis.puzzlepack import Recheck, recheck

    folder = "." if path == "-" else os.path.dirname(path) or "."
    failed = 0
    for number, data in lines:
        if isinstance(data, dict):
            result = recheck(data, rules, folder, timeout, number)
        else:
            result = Recheck(f"line {number}", "not a pack line: not JSON")
        failed += result.problem is not None
        if as_json:
            emit_json(result.as_dict())
        elif result.problem is None:
            click.echo(
                f"{shown(result.id)}: ok: {result.summary}; "
                f"proof checked ({counted(result.walked, 'position')})"
            )
        else:
            click.echo(f"{shown(result.id)}: FAILED: {shown(result.problem)}")
    sys.exit(1 if failed else 0)


@puzzle_group.command("make")
@click.option("--count", type=click.IntRange(min=1), default=10, show_default=True)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="The same seed, the same puzzles."
)
@click.option(
    "--sizes",
    default="8-13,8-13",
    show_default=True,
    metavar="A,B[,C]",
    help="The hands' sizes, each a number or a range: two hands, or three "
    "(the landlord, peasant 1, peasant 2; side 0 is the landlord's).",
)
@click.option(
    "--grade",
    "least",
    type=click.Choice(["easy", "medium", "hard", "expert"]),
    default="easy",
    show_default=True,
    help="The least grade kept.",
)
@click.option(
    "--mid-trick",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    metavar="FRACTION",
    help="The share of draws in the middle of a trick: a play on the table to beat, "
    "made by another hand.",
)
@click.option(
    "--tries",
    type=click.IntRange(min=1),
    default=10_000,
    show_default=True,
    help="Positions drawn at most.",
)
@click.option(
    "--notation",
    type=click.Choice(["wz", "yunyan"]),
    help="Write the pack in that solver's input notation (two hands, on lead) instead of JSON.",
)
@click.option(
    "--proofs",
    "proofs_folder",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Write each proof to DIR/ID.json (for 'cpsolver verify') instead of embedding it.",
)
@output_option("Write here (default: stdout, also -).")
@timeout_option("Seconds to check one drawn position; a slower one is passed over.", default=10.0)
@rules_option
def make_command(
    count: int,
    seed: int,
    sizes: str,
    least: str,
    mid_trick: float,
    tries: int,
    notation: str | None,
    proofs_folder: str | None,
    output: str,
    timeout: float | None,
    rules_name: str,
) -> None:
    """Draw positions and keep the sound puzzles, a JSON line each: a pack.

    Each line is a position line (as 'cpsolver deal --kind position2' writes,
    read by endgame, show, batch, crosscheck and puzzle check), with its id
    (puzzle-SEED-DRAW), the expected winner, and "puzzle": the grade and its
    only moves, the winning first move, the principal line, every first
    move's verdict (the side that wins after it), the solver's nodes, the
    line's length, the greedy traps (losing first moves a greedy player
    tries first: fewest plays left, then the highest card) and the winning
    side's proof, compressed in the line (or a file of DIR with --proofs).
    'cpsolver puzzle check PACK' re-verifies it all.

    --notation wz|yunyan writes blocks for those solvers instead: a '# ID
    turn=N' line, then the hands as they read them (the hand to move first;
    0 for the ten, Y/Z for the jokers). They solve two hands on lead only.

    \b
    Examples:
      cpsolver puzzle make --count 5 --seed 1 --grade medium -o puzzles.jsonl
      cpsolver puzzle make --count 5 --sizes 4-6,4-6,4-6 --mid-trick 0.5
      cpsolver puzzle make --count 5 --sizes 6-9,6-9 --notation wz
    """
    from cpsolver.analysis.puzzlepack import pack_line
    from cpsolver.analysis.puzzles import make
    from cpsolver.io.notation import peer_cards, write_block
    from cpsolver.rules.cards import Hand

    rules = load_rules(rules_name)
    kind = "position3" if sizes.count(",") == 2 else "position2"
    ranges = kind_sizes(kind, sizes)
    assert ranges is not None
    if notation is not None:
        if kind == "position3" or mid_trick > 0:
            raise BadInput(
                f"--notation {notation} is for two hands on lead: the peers solve "
                "two-player endgames from the lead only (leave out the third size and --mid-trick)"
            )
        if proofs_folder is not None:
            raise click.UsageError("--proofs is for the JSON pack, not --notation")
    if proofs_folder is not None:
        os.makedirs(proofs_folder, exist_ok=True)
    pack_folder = "." if output == "-" else os.path.dirname(output) or "."
    made = 0
    try:
        with open_output(output) as stream:
            for draw, puzzle in make(count, seed, ranges, least, rules, timeout, tries, mid_trick):
                name = f"puzzle-{seed}-{draw}"
                if notation is not None:
                    first = peer_cards(Hand.parse(puzzle.first_moves[0]))
                    note = f"first_move={first} grade={puzzle.grade}"
                    stream.write(write_block(name, puzzle.position, notation, note) + "\n")
                else:
                    line = pack_line(name, puzzle, rules, proofs_folder, pack_folder)
                    stream.write(json.dumps(line) + "\n")
                made += 1
    except (CpsolverError, OSError) as error:
        raise BadInput(str(error)) from None
    if made < count:
        click.echo(shown(f"made {made} of {count}: {tries} positions drawn"), err=True)
        sys.exit(1)
