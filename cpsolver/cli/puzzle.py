"""Endgame puzzles: ``cpsolver puzzle check`` grades one, ``cpsolver puzzle make`` draws sound ones."""

from __future__ import annotations

import json
import sys

import click

from cpsolver.cli.base import BadInput, cli
from cpsolver.cli.inputs import HandFlags, read_position_document
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
from cpsolver.io.positionformat import position_as_dict
from cpsolver.io.rulefiles import load_rules
from cpsolver.io.writing import open_output
from cpsolver.rules.errors import CpsolverError


@cli.group("puzzle")
def puzzle_group() -> None:
    """Endgame puzzles: check one for a single solution and grade it, or make sound ones.

    'check' reports in text or --json; 'make' writes JSON lines.

    \b
    Examples:
      cpsolver puzzle check examples/level50.txt --json
      cpsolver puzzle make --count 5 --seed 1 --grade medium -o puzzles.jsonl
    """


@puzzle_group.command("check")
@click.argument("position_file", required=False, metavar="[POSITION]")
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
    """Is POSITION a sound puzzle (one winning first move), and how hard is it?

    The grade counts the only moves on the principal line, the winner's turns
    where exactly one move keeps the win: easy (1), medium (2), hard (3-4),
    expert (5 or more). Exit 0 for a sound puzzle, 1 for one with several
    winning first moves, 2 for bad input or a position the side to move
    loses, 3 when the time limit ran out.

    \b
    Examples:
      cpsolver puzzle check examples/level50.txt
      cpsolver puzzle check --hand 'KK 3' --hand 'QQ 4' --json
    """
    from cpsolver.analysis.puzzles import PuzzleError, check

    rules = load_rules(rules_name)
    document = read_position_document(position_file, flags, turn, table, by, rules)
    try:
        puzzle = check(document.position, rules, timeout)
    except PuzzleError as error:
        if "time limit" in str(error):
            click.echo(f"unknown: {error}")
            sys.exit(3)
        raise BadInput(str(error)) from None
    if as_json:
        emit_json({**({"id": document.id} if document.id else {}), **puzzle.as_dict()})
    else:
        first = ", ".join(puzzle.first_moves)
        verdict = "a sound puzzle" if puzzle.sound else "not sound: several winning first moves"
        click.echo(f"{verdict}; grade {puzzle.grade}; winning first moves: {first}")
        click.echo(
            f"{len(puzzle.only_moves)} only moves among the winner's "
            f"{puzzle.decisions} choices on the line:"
        )
        for index in puzzle.only_moves:
            hand, move = puzzle.line[index]
            click.echo(f"  {index + 1:>4}. hand {hand}  {move}")
        click.echo(f"({puzzle.nodes} nodes)")
    sys.exit(0 if puzzle.sound else 1)


@puzzle_group.command("make")
@click.option("--count", type=click.IntRange(min=1), default=10, show_default=True)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="The same seed, the same puzzles."
)
@click.option(
    "--sizes",
    default="8-13,8-13",
    show_default=True,
    help="The two hands' sizes, each a number or a range.",
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
    "--tries",
    type=click.IntRange(min=1),
    default=10_000,
    show_default=True,
    help="Positions drawn at most.",
)
@output_option("Write here (default: stdout, also -).")
@timeout_option("Seconds to check one drawn position; a slower one is passed over.", default=10.0)
@rules_option
def make_command(
    count: int,
    seed: int,
    sizes: str,
    least: str,
    tries: int,
    output: str,
    timeout: float | None,
    rules_name: str,
) -> None:
    """Draw two-player positions and keep the sound puzzles, one JSON line each.

    Each line is a position line (as 'cpsolver deal --kind position2' writes,
    read by endgame, show, batch and puzzle check), with its id
    (puzzle-SEED-DRAW), the expected winner, and "puzzle": the grade, the
    winning first move and the only moves.

    \b
    Examples:
      cpsolver puzzle make --count 5 --seed 1 --grade medium -o puzzles.jsonl
    """
    from cpsolver.analysis.puzzles import make

    rules = load_rules(rules_name)
    ranges = kind_sizes("position2", sizes)
    assert ranges is not None
    made = 0
    try:
        with open_output(output) as stream:
            for draw, puzzle in make(count, seed, ranges, least, rules, timeout, tries):
                line = {
                    "id": f"puzzle-{seed}-{draw}",
                    **position_as_dict(puzzle.position, rules),
                    "expected": {"winner": puzzle.position.side_of(puzzle.position.turn)},
                    "puzzle": {
                        "grade": puzzle.grade,
                        "first_move": puzzle.first_moves[0],
                        "only_moves": len(puzzle.only_moves),
                    },
                }
                stream.write(json.dumps(line) + "\n")
                made += 1
    except CpsolverError as error:
        raise BadInput(str(error)) from None
    if made < count:
        click.echo(shown(f"made {made} of {count}: {tries} positions drawn"), err=True)
        sys.exit(1)
