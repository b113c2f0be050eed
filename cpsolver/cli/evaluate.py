"""Agents measured the way the field measures them: evaluate, and our bot as a Botzone program."""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Any

import click

from cpsolver.cli.base import BadInput, cli
from cpsolver.cli.options import (
    answer_timeout_option,
    capped_workers,
    common_options,
)
from cpsolver.cli.output import emit_json, with_progress
from cpsolver.io.reading import loads_records, source_name
from cpsolver.io.rulefiles import load_rules
from cpsolver.io.words import counted
from cpsolver.io.writing import open_output, write_line
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.ruleset import RuleSet


def read_records(path: str, rules: RuleSet | None = None) -> list[dict[str, Any]]:
    """JSON objects from a file or stdin: one JSON document, or JSON lines.

    A Botzone match log among them is read (under ``rules``) as the game record of its hand.
    """
    from cpsolver.cli.inputs import read_source
    from cpsolver.game.botzone_log import botzone_records

    records = loads_records(read_source(path, "record"), source_name(path), path)
    return botzone_records(records, path, rules)


def _agent_spec(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from cpsolver.game.agents import AGENT_NAMES

    if value in AGENT_NAMES[:-1] or (value.startswith("cmd:") and value[4:].strip()):
        return value
    raise click.BadParameter(f"{value!r} is no agent (known: {', '.join(AGENT_NAMES)})")


def _line(name: str, figures: dict[str, Any]) -> str:
    low, high = figures["wp_ci"]
    adp_low, adp_high = figures["adp_ci"]
    ours_low, ours_high = figures["adp_ours_ci"]
    return (
        f"{name:<12} WP {figures['wp']:.3f} [{low:.3f}, {high:.3f}]  "
        f"ADP {figures['adp']:+.3f} [{adp_low:+.3f}, {adp_high:+.3f}]  "
        f"ADP ours {figures['adp_ours']:+.3f} [{ours_low:+.3f}, {ours_high:+.3f}]  "
        f"({counted(figures['games'], 'game')})"
    )


@cli.command("evaluate")
@click.option(
    "--landlord",
    "a",
    required=True,
    callback=_agent_spec,
    metavar="AGENT",
    help="Agent A (landlord in each deal's first game).",
)
@click.option(
    "--peasants",
    "b",
    required=True,
    callback=_agent_spec,
    metavar="AGENT",
    help="Agent B (the peasants in each deal's first game).",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Deals; each is played twice, roles swapped.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the deals.")
@click.option(
    "--deals",
    "deals_path",
    metavar="PICKLE",
    help="Deals from a DouZero evaluation-data file instead of the seed (all of them unless --games is given).",
)
@click.option(
    "--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes."
)
@answer_timeout_option("Seconds a program may take for one answer.")
@click.option(
    "--records",
    "records_path",
    metavar="FILE",
    help="Write each game's record here, one JSON line each, in deal order (for 'replay', "
    "'show' and 'showdown export').",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@common_options
def evaluate_command(
    a: str,
    b: str,
    games: int,
    seed: int,
    deals_path: str | None,
    workers: int,
    timeout: float,
    records_path: str | None,
    quiet: bool,
    as_json: bool,
    rules_name: str,
) -> None:
    """Rank two agents by DouZero's protocol: WP and ADP per role and overall.

    Deals without bidding (landlord 20 cards, peasants 17), each played twice:
    A as landlord against two B peasants, then the roles swapped. Figures are
    A's, with 95% intervals; ADP by DouZero's scoring (bombs double) and by
    ours (springs and anti-springs double too). AGENT is cpsolver,
    cpsolver-heuristic (the same bot without its exact endgame), random,
    rlcard, cmd:COMMAND (a program speaking Botzone's FightTheLandlord
    protocol) or cpsolver-open (sees every hand: not a fair player). A program
    that crashes, answers illegally or stays silent past --timeout loses that
    game; the reason is listed.

    --records writes every game played to the end as a game record (JSON
    lines, the deal written out, with the seats' agents under "evaluation"):
    'cpsolver replay' re-runs them, 'cpsolver showdown export' turns them into
    rlcard-showdown replays. Forfeited games are not written.

    \b
    Examples:
      cpsolver evaluate --landlord cpsolver --peasants random --games 200 --seed 1
      cpsolver evaluate --landlord cpsolver --peasants rlcard --games 50 --records games.jsonl
    """
    from cpsolver.game.agents import is_fair
    from cpsolver.game.evaluate import evaluate, seeded_deals, summarize

    load_rules(rules_name)  # a bad rule set is a one-line error before any work
    if deals_path is not None:
        from cpsolver.game.records import read_douzero_deals

        deals = read_douzero_deals(deals_path)
        click_games = click.get_current_context().get_parameter_source("games")
        if click_games == click.core.ParameterSource.COMMANDLINE:
            deals = deals[:games]
    else:
        deals = seeded_deals(seed, games)
    if "rlcard" in (a, b):
        from cpsolver.game.agents import make_agent

        make_agent("rlcard", 0)  # says so at once when RLCard is missing
    workers = capped_workers("--workers", workers)
    with contextlib.ExitStack() as stack:
        # Opened first: an unwritable FILE is said at once, not after the games.
        stream = None if records_path is None else stack.enter_context(open_output(records_path))
        outcomes = with_progress(
            2 * len(deals),
            not (quiet or as_json),
            lambda advance: evaluate(
                deals, a, b, rules_name, workers, timeout, advance, stream is not None
            ),
        )
        if stream is not None and records_path is not None:
            for outcome in outcomes:
                if outcome.record is not None:
                    write_line(stream, json.dumps(outcome.record), records_path)
    report = summarize(outcomes, a, b)
    report["seed"] = None if deals_path else seed
    report["fair"] = is_fair(a) and is_fair(b)
    if as_json:
        emit_json(report)
        return
    click.echo(f"A = {a}, B = {b}: {counted(report['deals'], 'deal')}, each played both ways")
    if not report["fair"]:
        click.echo("note: cpsolver-open sees every hand; this is not a fair comparison")
    click.echo(_line("A landlord", report["as_landlord"]))
    click.echo(_line("A peasants", report["as_peasants"]))
    click.echo(_line("overall", report["overall"]))
    for forfeit in report["forfeits"]:
        click.echo(f"forfeit in deal {forfeit['deal']}: {forfeit['forfeit']}")


@cli.command("botzone")
@click.option(
    "--keep-running", is_flag=True, help="Ask Botzone to keep the program running between turns."
)
@click.option(
    "--rules",
    "rules_name",
    default="standard",
    show_default=True,
    metavar="NAME|PATH",
    help="Rule set.",
)
def botzone_command(keep_running: bool, rules_name: str) -> None:
    """Play as a Botzone FightTheLandlord bot: bid and play, one JSON line in and out a turn.

    Reads {"requests": [...], "responses": [...]} and writes {"response": ...}:
    a bid 0-3, or the card ids (0-53) to play, [] to pass. With
    --keep-running it then writes >>>BOTZONE_REQUEST_KEEP_RUNNING<<< and reads
    each next request alone, one line a turn. This is our fair bot: it sees
    only what the requests carry.

    \b
    Example:
      echo '{"requests": [{"own": [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 49, 50, 52, 53], "bid": []}], "responses": []}' | cpsolver botzone
    """
    from cpsolver.game.botzone import serve

    rules = load_rules(rules_name)
    try:
        answered = serve(sys.stdin, sys.stdout, keep_running, rules)
    except (ValueError, KeyError, TypeError, json.JSONDecodeError, CpsolverError) as error:
        raise BadInput(f"not a FightTheLandlord transcript: {error}") from None
    if not answered:
        raise BadInput("no request on stdin")


@cli.group("showdown")
def showdown_group() -> None:
    """rlcard-showdown replay JSON: export our game records, import replays.

    \b
    Example:
      cpsolver showdown export hands.jsonl > replays.jsonl
    """


@showdown_group.command("export")
@click.argument("record_file", metavar="RECORD")
@click.option(
    "--rules",
    "rules_name",
    default="standard",
    show_default=True,
    metavar="NAME|PATH",
    help="Rule set.",
)
def showdown_export(record_file: str, rules_name: str) -> None:
    """Game records (from 'cpsolver play --record') as rlcard-showdown replays, one JSON line each.

    Thrown-in hands have no play to replay and are left out.

    \b
    Example:
      cpsolver showdown export hands.jsonl > replays.jsonl
    """
    from cpsolver.game.engine import replay
    from cpsolver.game.records import to_showdown

    rules = load_rules(rules_name)
    for number, record in enumerate(read_records(record_file, rules), 1):
        try:
            game = replay(record, rules)
        except CpsolverError as error:
            raise BadInput(f"record {number}: {error}") from None
        if game.phase == "over":
            seated = record.get("evaluation", {})
            names = seated.get("agents") if isinstance(seated, dict) else None
            if not (isinstance(names, list) and len(names) == 3):
                names = ["", "", ""]
            click.echo(json.dumps(to_showdown(game, [str(name) for name in names])))


@showdown_group.command("import")
@click.argument("replay_file", metavar="REPLAY")
@common_options
def showdown_import(replay_file: str, as_json: bool, rules_name: str) -> None:
    """Re-play rlcard-showdown replays (a JSON object, or JSON lines) and score them.

    Exit 0 when every move is legal, 2 at the first that is not.

    \b
    Example:
      cpsolver showdown import replays.jsonl --json
    """
    from cpsolver.game.records import from_showdown

    rules = load_rules(rules_name)
    results = []
    for number, replay in enumerate(read_records(replay_file), 1):
        try:
            game = from_showdown(replay, rules)
        except CpsolverError as error:
            raise BadInput(f"replay {number}: {error}") from None
        if game.phase != "over":
            raise BadInput(f"replay {number}: the moves stop before the hand is over")
        result = game.result()
        results.append({"landlord": game.landlord, "actions": len(game.actions), **result})
        if not as_json:
            click.echo(f"replay {number}: {result['winner']} win, score {result['score']}")
    if as_json:
        emit_json(results)


@cli.command("douzero-deals")
@click.argument("out_path", metavar="OUT")
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="How many deals to write.",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="The seed of the deals (as in evaluate)."
)
@click.option("--json", "as_json", is_flag=True, help="Write what was written as JSON to stdout.")
def douzero_deals_command(out_path: str, games: int, seed: int, as_json: bool) -> None:
    """Write the seeded deals of 'evaluate' as a DouZero evaluation-data pickle.

    DouZero's own evaluate.py reads it (--eval_data OUT); 'cpsolver evaluate
    --deals OUT' plays the same deals.

    \b
    Example:
      cpsolver douzero-deals eval_data.pkl --games 10000 --seed 1
    """
    from cpsolver.game.evaluate import seeded_deals
    from cpsolver.game.records import write_douzero_deals

    write_douzero_deals(out_path, seeded_deals(seed, games))
    if as_json:
        emit_json({"path": out_path, "deals": games, "seed": seed})
    else:
        click.echo(f"{counted(games, 'deal')} from seed {seed} written to {out_path}")
