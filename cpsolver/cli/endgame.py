"""The open-hand question: ``cpsolver endgame``, who wins with best play."""

from __future__ import annotations

import sys
from functools import partial

import click

from cpsolver.cli.base import cli
from cpsolver.cli.inputs import HandFlags, read_position_document
from cpsolver.cli.options import (
    QUESTION_TIMEOUT,
    cluster_options,
    common_options,
    core_option,
    make_runner,
    memory_bytes,
    memory_option,
    picture_options,
    position_options,
    timeout_option,
)
from cpsolver.cli.output import emit_json, shown
from cpsolver.endgame import EndgameResult, Position, solve
from cpsolver.io.positioncorpus import PositionDocument
from cpsolver.io.rulefiles import load_rules, read_rules_text
from cpsolver.io.writing import write_pieces, write_text
from cpsolver.rules.position import side_wins
from cpsolver.rules.ruleset import RuleSet


def hand_name(position: Position, player: int) -> str:
    """How a hand is called: landlord and peasants in the three-player game."""
    if position.players == 3:
        return ("landlord", "peasant 1", "peasant 2")[player]
    return f"hand {player}"


def agreement(position: Position, expected: int, winner: int | None) -> str:
    """Whether the verdict is the one a corpus line expects, in words."""
    said = side_wins(expected, position.players)
    if winner is None:
        return f"expected: {said} (no verdict to compare)"
    if winner == expected:
        return f"expected: {said} (agrees)"
    return f"expected: {said}, but {side_wins(winner, position.players)}"


def report(result: EndgameResult, document: PositionDocument | None = None) -> str:
    """The human report: the id, the verdict (and the one expected), the winning moves, a line, statistics."""
    position = result.position
    mover = hand_name(position, position.turn)
    # Echo what the answer starts from: the line's id, the play to beat when the mover does not lead.
    start = [] if document is None or document.id is None else [f"id: {shown(document.id)}"]
    if position.table is not None and position.by is not None:
        start.append(f"on the table: {position.table} by {hand_name(position, position.by)}")
    if result.winner is None:
        reason = (
            "the memory cap could not be kept"
            if result.stats.get("stopped") == "memory"
            else "the time limit was reached"
        )
        lines = [f"unknown: {reason} before a verdict"]
        if result.known:
            settled = ", ".join(
                f"{move} ({side_wins(side, position.players)})"
                for move, side in result.known.items()
            )
            lines.append(f"first moves settled before it stopped: {settled}")
        if result.unresolved:
            lines.append(
                f"not settled: {', '.join(result.unresolved)}; "
                f"the most promising by the search's order: {result.promising}"
            )
    elif result.mover_wins:
        moves = ", ".join(str(m) for m in result.moves)
        lines = [f"{side_wins(result.winner, position.players)}: {mover} to move wins with {moves}"]
    else:
        lines = [
            f"{side_wins(result.winner, position.players)}: {mover} to move loses, whatever it plays"
        ]
    if document is not None and document.expected is not None:
        lines.append(agreement(position, document.expected, result.winner))
    lines = start + lines
    if result.line:
        lines.append("a line of best play:")
        width = max(len(hand_name(position, p)) for p, _ in result.line)
        for number, (player, move) in enumerate(result.line, 1):
            lines.append(f"{number:>4}. {hand_name(position, player):<{width}}  {move}")
    stats = result.stats
    extra = f", {stats['strategy_nodes']} strategy nodes" if "strategy_nodes" in stats else ""
    if "strategy_stopped" in stats:
        limit = "time limit" if stats["strategy_stopped"] == "time" else "memory cap"
        lines.append(f"(no line: the winning strategy is too big to read out within the {limit})")
    if stats.get("evictions"):
        extra += f", {stats['evicted']} entries evicted at the memory cap"
    if "root_moves" in stats:  # solved move by move over workers: no one table
        work = f"{stats['root_moves_decided']} of {stats['root_moves']} first moves decided"
        work += f" in {stats['tasks']} tasks" if "tasks" in stats else ""
        if stats.get("carried"):
            work += f" ({stats['carried']} lost as a lower one did)"
        lines.append(f"({stats['nodes']} nodes over the workers, {work}, {stats['seconds']:.3f} s)")
    else:
        lines.append(
            f"({stats['nodes']} nodes, {stats['table']} table entries{extra}, "
            f"{stats['seconds']:.3f} s)"
        )
    return "\n".join(lines)


@cli.command("endgame")
@click.argument("position_file", required=False, metavar="[POSITION]")
@position_options()
@click.option("--all", "all_moves", is_flag=True, help="List every winning move, each solved.")
@click.option(
    "--proof",
    "proof_path",
    type=click.Path(dir_okay=False),
    help="Write the winning side's strategy here, as a proof for 'cpsolver verify'.",
)
@timeout_option("Give up with 'unknown' (exit 3) after this long.", default=QUESTION_TIMEOUT)
@memory_option
@core_option
@cluster_options(default_workers=1)
@picture_options
@common_options
def endgame_command(
    position_file: str | None,
    flags: HandFlags,
    turn: int | None,
    table: str | None,
    by: int | None,
    all_moves: bool,
    proof_path: str | None,
    timeout: float | None,
    memory_mib: float | None,
    core: str,
    workers: int,
    scheduler: str | None,
    local_cluster: int | None,
    svg_path: str | None,
    html_path: str | None,
    as_json: bool,
    rules_name: str,
) -> None:
    """Who wins with best play when every hand is known, and the winning moves.

    POSITION is a file (or - for stdin): JSON {"hands": [CARDS, CARDS(, CARDS)],
    "turn": N, "table": null | {"cards": CARDS, "by": N}}, a JSON deal (the
    landlord to lead), or 'hand0: CARDS' lines with optional 'turn: N' and
    'table: CARDS by N'; a line of 'cpsolver deal' may carry an "id" and an
    "expected" winner, which the report echoes. Or give the hands as flags:
    --hand CARDS in turn order, or --landlord, --peasant1, --peasant2.
    Two hands are an endgame puzzle; three are the landlord and the two
    peasants, who win together. Side 0 is hand 0's.
    Exit 0 when the side to move wins, 1 when it loses, 2 for bad input,
    3 when the time limit ran out (by default 300 s; --timeout none lifts it).
    With --workers N (or a Dask cluster), each first move of the player to
    move is solved in a worker of its own: the verdict and the winning moves
    (every one with --all), without a line or a proof. The search runs on
    the compiled core where one was built at install (--core says which;
    'cpsolver --version' and the statistics name it).

    \b
    Examples:
      cpsolver endgame examples/level50.txt
      cpsolver endgame --hand 'KK 3' --hand 'QQ 4' --all --json
      cpsolver endgame --landlord 568JQ --peasant1 4TQKB --peasant2 37JA2
      cpsolver endgame examples/spring.txt --proof strategy.json
      cpsolver endgame examples/position3.json --html position.html
      cpsolver deal --kind position3 --count 1 | cpsolver endgame -
    """
    rules = load_rules(rules_name)
    document = read_position_document(position_file, flags, turn, table, by, rules)
    memory = memory_bytes(memory_mib)
    if workers > 1 or scheduler is not None or local_cluster is not None:
        if proof_path is not None:
            raise click.UsageError("--proof needs one search: leave out --workers and the cluster")
        result = _solve_over_workers(
            document.position,
            rules,
            rules_name,
            (workers, scheduler, local_cluster),
            timeout,
            all_moves,
            memory,
            core,
        )
    else:
        result = solve(document.position, rules, timeout, all_moves, memory, core)
    # The proof writer and the pictures load only when asked for: each is start-up
    # (~0.6 ms and ~2 ms) that a plain answer does not need.
    if proof_path is not None:
        from cpsolver.endgame.proof import write_strategy_proof

        if result.winner is None:
            click.echo("no proof written: the verdict is unknown", err=True)
        elif result.strategy is None:
            # Say which limit to raise: a full deal's strategy takes gigabytes and minutes.
            limit, option = (
                ("the time limit", "--timeout")
                if result.stats.get("strategy_stopped") == "time"
                else ("the memory cap", "--memory")
            )
            click.echo(
                f"no proof written: the winning strategy is too big to read out within "
                f"{limit}; a larger {option} may hold it",
                err=True,
            )
        else:
            write_pieces(proof_path, partial(write_strategy_proof, result, rules))
    text = report(result, document)
    if svg_path or html_path:
        from cpsolver.cli.drawings import draw_position, explorer_page, write_pictures
        from cpsolver.endgame.proof import build_strategy_proof

        drawing = draw_position(document.position)
        if html_path is not None and result.strategy is not None:  # a strategy to walk
            proof = build_strategy_proof(result, rules)
            page = explorer_page(proof, document.position, drawing.pictures[0], text)
            write_text(html_path, page)
            html_path = None
        write_pictures(svg_path, html_path, "Open-hand position", drawing.pictures, text)
    if as_json:
        emit_json(result.answer(document))
        if document.expected is not None and result.winner not in (None, document.expected):
            # As solve does: a verdict other than the one expected is said, on stderr.
            click.echo(agreement(document.position, document.expected, result.winner), err=True)
    else:
        click.echo(text)
    sys.exit(3 if result.mover_wins is None else 0 if result.mover_wins else 1)


def _solve_over_workers(
    position: Position,
    rules: RuleSet,
    rules_name: str,
    cluster: tuple[int, str | None, int | None],
    timeout: float | None,
    all_moves: bool,
    memory: int | None,
    core: str,
) -> EndgameResult:
    """The position solved one first move a task (:mod:`cpsolver.scale.split`), as a result."""
    from cpsolver.scale.split import solve_split

    runner = make_runner(*cluster)
    try:
        split = solve_split(
            position, rules, read_rules_text(rules_name), runner, timeout, all_moves, memory, core
        )
    finally:
        runner.close()
    return split.result()
