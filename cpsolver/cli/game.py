"""The game: play, replay and simulate."""

from __future__ import annotations

import contextlib
import json
import random
import sys
from typing import Any

import click

from cpsolver.cli.base import BadInput, cli
from cpsolver.cli.drawings import write_pictures
from cpsolver.cli.inputs import read_source
from cpsolver.cli.options import (
    answer_timeout_option,
    common_options,
    picture_options,
    rules_option,
)
from cpsolver.cli.output import emit_json, with_progress
from cpsolver.game.engine import Game, NotARecordError, replay, unfinished_words
from cpsolver.io.reading import loads_documents, source_name
from cpsolver.io.rulefiles import load_rules
from cpsolver.io.words import counted
from cpsolver.io.writing import open_output, write_line
from cpsolver.rules.errors import CpsolverError


def agent_options(func: Any) -> Any:
    """``--agent SEAT=AGENT`` (repeatable) and ``--answer-timeout`` for the seats of simulate and play."""
    func = answer_timeout_option("Seconds an outside program may take for one answer.")(func)
    return click.option(
        "--agent",
        "agent_specs",
        multiple=True,
        metavar="SEAT=AGENT",
        help="Seat another agent: cpsolver, random, rlcard or cmd:COMMAND (a Botzone "
        "program); repeatable. Other seats get the quick bot.",
    )(func)


def _seat_agents(specs: tuple[str, ...], free: tuple[int, ...], rules: Any, timeout: float) -> Any:
    """The agents that --agent names, or a one-line error."""
    from cpsolver.game.seats import parse_assignments, seat_agents

    try:
        assigned = parse_assignments(specs, free)
        if "rlcard" in assigned.values():
            from cpsolver.game.agents import make_agent

            make_agent("rlcard", 0)  # says so at once when RLCard is missing
    except CpsolverError as error:
        raise BadInput(str(error)) from None
    agents = seat_agents(assigned, rules, timeout)
    return {seat: agents[seat] for seat in assigned}


@cli.command("play")
@click.option(
    "--seed", type=int, default=None, help="The same seed deals the same hands (default: random)."
)
@click.option("--seat", type=click.IntRange(0, 2), default=0, show_default=True, help="Your seat.")
@click.option(
    "--record",
    "record_path",
    metavar="FILE",
    help="Append each hand's JSON record here (for 'cpsolver replay').",
)
@agent_options
@rules_option
def play_command(
    seed: int | None,
    seat: int,
    record_path: str | None,
    agent_specs: tuple[str, ...],
    timeout: float,
    rules_name: str,
) -> None:
    """Play Dou Dizhu in the terminal against two bots, hand after hand, with a running score.

    Type cards to play them (33, TJQKA, '777888 3 4'), 'pass', 'hint' (the
    bot's bid or play and why), 'plays' (your legal plays by kind), 'analyse'
    (the analyst, who sees every hand: the landlord's spring, your fewest-plays
    split, who wins with best play once few cards are left), 'c' (the card
    counter of cards you have not seen), '?' (the rules), 'quit'. Arrow keys
    edit the line and recall earlier ones; Ctrl-C ends the session, keeping the
    score and the records of finished hands (and of the hand in play, marked
    unfinished: replay and show say so). Each hand ends with the score and
    whether the landlord had a spring at his first lead. The records are JSON,
    not the screen; this command has no --json form.

    \b
    The other seats are the quick bot; --agent 2=cmd:"python mybot.py" seats
    an outside Botzone program (or another agent) instead. An agent that
    crashes, answers illegally or stays silent past --answer-timeout forfeits the
    hand: its side loses it at the stake reached.

    \b
    Examples:
      cpsolver play --seed 7 --seat 1 --record hands.jsonl
      cpsolver play --seat 0 --agent 1=rlcard --agent 2=cmd:"python mybot.py"
    """
    from rich.console import Console

    from cpsolver.game.seats import close_all
    from cpsolver.game.simulation import game_seeds
    from cpsolver.game.table import PersonTable, Quit

    rules = load_rules(rules_name)
    free = tuple(s for s in range(3) if s != seat)
    agents = _seat_agents(agent_specs, free, rules, timeout)
    _line_editing()
    console = Console(highlight=False, soft_wrap=True)  # the terminal wraps; pipes keep lines whole
    table = PersonTable(seat, lambda prompt: _ask(console, prompt), console, rules, agents=agents)
    start = seed if seed is not None else random.SystemRandom().randrange(2**31)
    console.print(
        f"Dou Dizhu against two bots; you are seat {seat}. Session seed {start}. '?' for help."
    )
    try:
        for game_seed, first in game_seeds(start):
            table.play_hand(game_seed, first)
    except (Quit, KeyboardInterrupt) as stop:
        if isinstance(stop, KeyboardInterrupt):
            console.print("\nInterrupted: the hand in play is not scored.")
        console.print(
            "\nGoodbye. Final score: "
            + ", ".join(f"{table.name(s)} {table.totals[s]:+d}" for s in range(3))
        )
    finally:
        close_all(agents)
        if record_path is not None:
            with open_output(record_path, append=True) as stream:
                for record in table.records:
                    write_line(stream, json.dumps(record), record_path)


def _ask(console: Any, prompt: str) -> str:
    """A line from the player; piped input is echoed, so a scripted session reads like one typed."""
    if sys.stdin.isatty():
        # input() draws the prompt itself, so readline can redraw it while the line is edited.
        return input(prompt)
    console.print(prompt, end="")
    line = sys.stdin.readline()
    if not line:
        console.print()
        raise EOFError
    console.print(line.rstrip("\n"), markup=False)
    return line.rstrip("\n")


@cli.command("replay")
@click.argument("record_file", metavar="RECORD")
@click.option(
    "--step",
    is_flag=True,
    help="Step through each hand play by play (Enter/n next, p previous, q quit).",
)
@picture_options
@common_options
def replay_command(
    record_file: str,
    step: bool,
    svg_path: str | None,
    html_path: str | None,
    as_json: bool,
    rules_name: str,
) -> None:
    """Re-run a recorded hand action by action and re-score it.

    RECORD is a JSON record of one hand, or JSON lines of several (from
    'cpsolver play --record', 'simulate --record' or the library), or
    Botzone FightTheLandlord match logs ({"log": [...]}), or - for stdin. With --step, each hand is shown play by play, the hands as they
    were. --svg and --html draw each hand as a timeline of tricks. Exit 0 when
    every hand replays to its recorded result, 1 at the first that does not,
    2 for unreadable input.

    \b
    Examples:
      cpsolver replay hands.jsonl --json
      cpsolver replay hands.jsonl --step
      cpsolver replay hands.jsonl --html hands.html
    """
    if step and (as_json or record_file == "-"):
        raise click.UsageError("--step reads keys from the terminal: give a RECORD file, no --json")
    rules = load_rules(rules_name)
    text = read_source(record_file, "record")
    source = source_name(record_file)
    from cpsolver.game.botzone_log import botzone_records

    records = botzone_records(loads_documents(text, source), record_file, rules)
    if not records:
        raise BadInput(f"{record_file}: no game records in it")
    results: list[dict[str, Any]] = []
    games: list[Game] = []
    for number, record in enumerate(records, 1):
        if not isinstance(record, dict):
            raise BadInput(f"{record_file}: record {number} is not a JSON object")
        try:
            game = replay(record, rules, unfinished=True)
        except NotARecordError as error:  # bad input, not a record that fails to replay
            raise BadInput(f"{record_file}: record {number}: {error}") from None
        except CpsolverError as error:
            failure = f"record {number}: {error}"
            if as_json:
                emit_json({"valid": False, "failure": failure, "replayed": results})
            else:
                click.echo(f"invalid: {failure}")
            sys.exit(1)
        if game.phase in ("auction", "play"):  # a hand the player left: replayed, not scored
            results.append({"unfinished": True, "phase": game.phase, "actions": len(game.actions)})
            if not as_json:
                click.echo(f"hand {number} ({game.origin}): {unfinished_words(game)}")
            continue
        results.append(game.result())
        games.append(game)
        if not as_json:
            result = game.result()
            click.echo(
                f"hand {number} ({game.origin}): {result['winner']}, score {result['score']}"
            )
    if svg_path or html_path:
        from cpsolver.pictures import svg

        pictures = [
            svg.record(g.start_of_play, g.actions, g.landlord, f"Hand {n} ({g.origin})")
            for n, g in enumerate(games, 1)
            if g.landlord is not None
        ]
        if pictures:
            write_pictures(svg_path, html_path, f"{len(pictures)} recorded hands", pictures)
    if as_json:
        emit_json({"valid": True, "failure": None, "replayed": results})
    elif step:
        _step(games)


def _step(games: list[Game]) -> None:
    from rich.console import Console

    from cpsolver.game.stepper import step_through

    _line_editing()
    console = Console(highlight=False)
    for number, game in enumerate(games, 1):
        console.print(f"\n[bold]Hand {number}[/bold] ({game.origin})")
        if not step_through(game, console, input):
            return


def _line_editing() -> None:
    """Arrow keys edit the line and walk the history instead of printing escape codes."""
    try:
        import readline  # noqa: F401  (installing it is the point)
    except ImportError:  # not on every platform; plain input still works
        pass


@cli.command("simulate")
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="How many hands the bots play.",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="The same seed plays the same hands."
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--record",
    "record_path",
    metavar="FILE",
    help="Write every hand's JSON record here, one a line (for 'replay' and 'show').",
)
@click.option(
    "--format",
    "record_format",
    type=click.Choice(["cpsolver", "botzone"]),
    default="cpsolver",
    show_default=True,
    help="--record's format: our game records, or Botzone FightTheLandlord match logs.",
)
@agent_options
@common_options
def simulate_command(
    games: int,
    seed: int,
    quiet: bool,
    record_path: str | None,
    record_format: str,
    agent_specs: tuple[str, ...],
    timeout: float,
    as_json: bool,
    rules_name: str,
) -> None:
    """Bots against bots: win rates by seat and role, stakes, springs taken and missed.

    Every seat is the quick bot unless --agent SEAT=AGENT seats another:
    cpsolver, random, rlcard, or cmd:COMMAND, an outside program speaking
    Botzone's FightTheLandlord protocol (bidding included). An agent that
    crashes, answers illegally or stays silent past --answer-timeout forfeits the
    hand: its side loses it at the stake reached (alone, at the bid reached,
    in the auction); the reasons are listed, and forfeited hands are not
    written to --record. With --format botzone each hand is written as a
    Botzone match log ({"log": [...]}, the requests a Botzone bot is sent and
    its answers), which analyse, replay and show read too.

    \b
    Examples:
      cpsolver simulate --games 1000 --seed 3 --json
      cpsolver simulate --games 10 --record hands.jsonl
      cpsolver simulate --games 50 --agent 0=cmd:"python mybot.py" --agent 1=random
    """
    from cpsolver.game.seats import close_all
    from cpsolver.game.simulation import simulate

    rules = load_rules(rules_name)
    agents = _seat_agents(agent_specs, (0, 1, 2), rules, timeout)
    full = None
    if agents:
        from cpsolver.game.seats import seat_agents

        full = {**seat_agents({}, rules), **agents}

    with contextlib.ExitStack() as stack:
        stream = None if record_path is None else stack.enter_context(open_output(record_path))

        def write(game: Game) -> None:
            if stream is not None and record_path is not None:
                if record_format == "botzone":
                    from cpsolver.game.botzone_log_writer import to_botzone_log

                    write_line(stream, json.dumps(to_botzone_log(game)), record_path)
                else:
                    write_line(stream, json.dumps(game.record()), record_path)

        stack.callback(close_all, agents)
        summary = with_progress(
            games,
            not (quiet or as_json),
            lambda advance: simulate(games, seed, lambda: advance(1), rules, write, full),
        )
    report = summary.as_dict()
    if as_json:
        emit_json(report)
        return
    click.echo(f"{counted(report['games'], 'hand')} ({report['thrown_in']} thrown in)")

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
    for reason in report["forfeits"]:
        click.echo(f"forfeit: {reason}")
    click.echo(
        f"landlord had a spring at the first lead: {report['spring_available_at_first_lead']}, "
        f"took it: {report['spring_taken']}"
    )
    for bid, row in report["by_bid"].items():
        click.echo(
            f"won at bid {bid}: {counted(row['hands'], 'hand')}, the landlord's estimated spring odds "
            f"{row['mean_spring_odds']:.1%} on average, {counted(row['springs'], 'spring')}"
        )
