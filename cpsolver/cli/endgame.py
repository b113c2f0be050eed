"""The open-hand question: ``cpsolver endgame``, who wins with best play."""

from __future__ import annotations

import sys

import click

from cpsolver.cli.base import cli
from cpsolver.cli.inputs import read_cards, read_source
from cpsolver.cli.options import (
    QUESTION_TIMEOUT,
    common_options,
    memory_bytes,
    memory_option,
    timeout_option,
)
from cpsolver.cli.output import emit_json, write_json
from cpsolver.endgame import EndgameResult, Position, solve
from cpsolver.endgame.proof import build_strategy_proof
from cpsolver.io.positionformat import parse_position
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.ruleset import RuleSet


def hand_name(position: Position, player: int) -> str:
    """How a hand is called: landlord and peasants in the three-player game."""
    if position.players == 3:
        return ("landlord", "peasant 1", "peasant 2")[player]
    return f"hand {player}"


def side_wins(position: Position, side: int) -> str:
    """The words for a side's win: 'hand 1 wins', 'the peasants win'."""
    if position.players == 3:
        return ("the landlord wins", "the peasants win")[side]
    return f"hand {side} wins"


def read_position(
    source: str | None,
    hands: tuple[str, ...],
    turn: int | None,
    table: str | None,
    by: int | None,
    rules: RuleSet,
) -> Position:
    """A position from a file or stdin, or from the hand options."""
    flags = bool(hands) or turn is not None or table is not None or by is not None
    if source is not None:
        if flags:
            raise click.UsageError("give a POSITION file or the --hand options, not both")
        return parse_position(read_source(source), rules)
    if len(hands) not in (2, 3):
        raise click.UsageError(
            "give a POSITION file (or - for stdin), or two or three --hand options"
        )
    if (table is None) != (by is None):
        raise click.UsageError("--table and --by go together")
    return Position.parse(
        [read_cards(h) for h in hands],
        turn or 0,
        None if table is None else read_cards(table),
        by,
        rules,
    )


def report(result: EndgameResult) -> str:
    """The human report: the verdict, the winning moves, a line to the end, statistics."""
    position = result.position
    mover = hand_name(position, position.turn)
    # Echo what the answer starts from: the play to beat, when the mover does not lead.
    start = (
        []
        if position.table is None or position.by is None
        else [f"on the table: {position.table} by {hand_name(position, position.by)}"]
    )
    if result.winner is None:
        reason = (
            "the memory cap could not be kept"
            if result.stats.get("stopped") == "memory"
            else "the time limit was reached"
        )
        lines = [f"unknown: {reason} before a verdict"]
    elif result.mover_wins:
        moves = ", ".join(str(m) for m in result.moves)
        lines = [f"{side_wins(position, result.winner)}: {mover} to move wins with {moves}"]
    else:
        lines = [f"{side_wins(position, result.winner)}: {mover} to move loses, whatever it plays"]
    lines = start + lines
    if result.line:
        lines.append("a line of best play:")
        width = max(len(hand_name(position, p)) for p, _ in result.line)
        for number, (player, move) in enumerate(result.line, 1):
            lines.append(f"{number:>4}. {hand_name(position, player):<{width}}  {move}")
    stats = result.stats
    extra = f", {stats['strategy_nodes']} strategy nodes" if "strategy_nodes" in stats else ""
    if stats.get("evictions"):
        extra += f", {stats['evicted']} entries evicted at the memory cap"
    lines.append(
        f"({stats['nodes']} nodes, {stats['table']} table entries{extra}, {stats['seconds']:.3f} s)"
    )
    return "\n".join(lines)


@cli.command("endgame")
@click.argument("position_file", required=False, metavar="[POSITION]")
@click.option(
    "--hand",
    "hands",
    multiple=True,
    metavar="CARDS",
    help="A hand, in turn order: two for a two-player puzzle, three for landlord, peasant 1, peasant 2.",
)
@click.option("--turn", type=click.IntRange(0, 2), help="The hand to move (default 0).")
@click.option(
    "--table", metavar="CARDS", help="The play to beat, if the player to move does not lead."
)
@click.option("--by", type=click.IntRange(0, 2), help="The hand that made the --table play.")
@click.option("--all", "all_moves", is_flag=True, help="List every winning move, each solved.")
@click.option(
    "--proof",
    "proof_path",
    type=click.Path(dir_okay=False),
    help="Write the winning side's strategy here, as a proof for 'cpsolver verify'.",
)
@timeout_option("Give up with 'unknown' (exit 3) after this long.", default=QUESTION_TIMEOUT)
@memory_option
@common_options
def endgame_command(
    position_file: str | None,
    hands: tuple[str, ...],
    turn: int | None,
    table: str | None,
    by: int | None,
    all_moves: bool,
    proof_path: str | None,
    timeout: float | None,
    memory_mib: float | None,
    as_json: bool,
    rules_name: str,
) -> None:
    """Who wins with best play when every hand is known, and the winning moves.

    POSITION is a file (or - for stdin): JSON {"hands": [CARDS, CARDS(, CARDS)],
    "turn": N, "table": null | {"cards": CARDS, "by": N}}, a JSON deal (the
    landlord to lead), or 'hand0: CARDS' lines with optional 'turn: N' and
    'table: CARDS by N'. Two hands are an endgame puzzle; three are the
    landlord and the two peasants, who win together. Side 0 is hand 0's.
    Exit 0 when the side to move wins, 1 when it loses, 2 for bad input,
    3 when the time limit ran out (by default 300 s; --timeout none lifts it).

    \b
    Examples:
      cpsolver endgame examples/level50.txt
      cpsolver endgame --hand 'KK 3' --hand 'QQ 4' --all --json
      cpsolver endgame examples/spring.txt --proof strategy.json
    """
    rules = load_rules(rules_name)
    position = read_position(position_file, hands, turn, table, by, rules)
    result = solve(position, rules, timeout, all_moves, memory_bytes(memory_mib))
    if proof_path is not None:
        if result.winner is None:
            click.echo("no proof written: the verdict is unknown", err=True)
        else:
            write_json(proof_path, build_strategy_proof(result, rules))
    if as_json:
        emit_json(result.as_dict())
    else:
        click.echo(report(result))
    sys.exit(3 if result.mover_wins is None else 0 if result.mover_wins else 1)
