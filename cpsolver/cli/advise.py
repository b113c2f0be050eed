"""Advise: what the seat to move should play, from that seat's view alone."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from cpsolver.cli.base import BadInput, cli
from cpsolver.cli.evaluate import read_records
from cpsolver.cli.options import common_options, timeout_option
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.errors import CpsolverError

if TYPE_CHECKING:
    from cpsolver.analysis.advise import Advice

SHOWN = 10  # options listed in the text report; --json lists them all


@cli.command("advise")
@click.argument("record_file", required=False, metavar="[RECORD|VIEW]")
@click.option(
    "--hand", "own_hand", metavar="CARDS", help="The seat's own cards (instead of a file)."
)
@click.option(
    "--role",
    type=click.Choice(["landlord", "peasant1", "peasant2"]),
    help="The seat's role: the landlord, the peasant after him (peasant1) or before (peasant2).",
)
@click.option("--bottom", metavar="CARDS", help="The landlord's face-down cards, once turned.")
@click.option(
    "--played",
    metavar="ACTIONS",
    help="The actions so far, from the landlord's lead: 'L:33 P1:pass P2:55 ...'.",
)
@click.option(
    "--counts",
    metavar="L,P1,P2",
    help="Each seat's cards left, when not 20 and 17 less what was played.",
)
@click.option(
    "--at",
    "at",
    type=click.IntRange(min=0),
    help="Advise after this many actions of play (default: where an unfinished record stops).",
)
@click.option(
    "--game",
    "number",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Which hand of a file of several (JSON lines).",
)
@click.option(
    "--samples",
    type=click.IntRange(1, 10_000),
    default=50,
    show_default=True,
    help="Deals of the unseen cards to solve.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of the samples.")
@timeout_option("Seconds for each sampled deal's exact solve.", default=1.0)
@common_options
def advise_command(
    record_file: str | None,
    own_hand: str | None,
    role: str | None,
    bottom: str | None,
    played: str | None,
    counts: str | None,
    at: int | None,
    number: int,
    samples: int,
    seed: int,
    timeout: float | None,
    as_json: bool,
    rules_name: str,
) -> None:
    """What the seat to move should play, seeing only what that seat sees.

    RECORD is a game record ('play --record', 'simulate --record'), an
    rlcard-showdown replay or a Botzone match log, cut after --at actions of play; or a VIEW, one
    seat's knowledge as JSON: {"seat": N, "hand": CARDS, "landlord": N,
    "bottom": CARDS, "bid": N, "actions": [{"seat": N, "cards": CARDS|"pass"}],
    "counts": [N, N, N]} (bottom, bid and counts optional). The unseen cards
    are dealt out again --samples times, as the table allows (each seat's
    count, the landlord's face-down cards), each deal is solved exactly, and
    every legal option gets the share of deals it wins with best play. The
    recommendation is the best share (the fair bot's choice among equals, or
    alone when no deal could be solved in time).

    Or type the view as flags, instead of a file: --hand (the seat's cards),
    --role, --bottom, --played (the actions from the landlord's lead, each
    SEAT:CARDS or SEAT:pass, SEAT one of L, P1, P2) and --counts; they give
    the advice of the VIEW with the landlord in seat 0.

    \b
    Examples:
      cpsolver advise hand.json --at 20
      cpsolver advise hands.jsonl --game 3 --at 12 --samples 200 --json
      cpsolver advise --hand 'KK 3' --role peasant1 --played 'L:44 P1:pass P2:pass L:5'
    """
    from cpsolver.analysis.advise import advise, view_at, view_dict, view_from_dict

    rules = load_rules(rules_name)
    flags = {
        "--hand": own_hand,
        "--role": role,
        "--bottom": bottom,
        "--played": played,
        "--counts": counts,
    }
    given = [name for name, value in flags.items() if value is not None]
    if given:
        if record_file is not None:
            raise BadInput(
                f"give a RECORD or VIEW file, or the view as flags ({given[0]}), not both"
            )
        if at is not None:
            raise BadInput("the flags give a view already cut: --at is for records")
        if own_hand is None or role is None:
            raise BadInput("the view as flags needs --hand and --role at least")
        try:
            view = view_from_dict(view_dict(own_hand, role, bottom, played, counts), rules)
            advice = advise(view, samples, seed, timeout)
        except CpsolverError as error:
            raise BadInput(str(error)) from None
        _say(advice, len(view.actions), timeout, as_json)
        return
    if record_file is None:
        raise BadInput("give a RECORD or VIEW file, or the view as flags (--hand, --role, ...)")
    records = read_records(record_file, rules)
    if number > len(records):
        raise BadInput(f"{record_file} holds {len(records)} hands, not {number}")
    record = records[number - 1]
    try:
        if "hand" in record and "seat" in record and "format" not in record:
            if at is not None:
                raise click.UsageError("a VIEW is already cut: --at is for records")
            view = view_from_dict(record, rules)
            at = len(view.actions)
        else:
            at = _where_it_stops(record) if at is None else at
            view = view_at(record, at, rules)
        advice = advise(view, samples, seed, timeout)
    except CpsolverError as error:
        raise BadInput(f"hand {number}: {error}") from None
    _say(advice, at, timeout, as_json)


def _say(advice: Advice, at: int, timeout: float | None, as_json: bool) -> None:
    """The advice, in text or JSON."""
    if as_json:
        click.echo(json.dumps({"at": at, **advice.as_dict()}))
        return
    why = (
        f"it wins {advice.options[0].share:.0%} of the {advice.decided} deals solved exactly"
        if advice.reason == "exact"
        else f"no sampled deal could be solved within {timeout} s: the fair bot's choice"
    )
    click.echo(f"seat {advice.seat} ({advice.role}) after {at} actions: play {advice.action}")
    click.echo(f"  because {why} (of {advice.samples} sampled; the bot plays {advice.bot})")
    for option in advice.options[:SHOWN]:
        click.echo(f"  {option.action:<14} wins {option.wins:>4} of {option.decided}")
    if len(advice.options) > SHOWN:
        click.echo(f"  ... and {len(advice.options) - SHOWN} more options (--json lists all)")


def _where_it_stops(record: dict[str, object]) -> int:
    """The actions an unfinished record holds; a finished hand needs --at."""
    actions = record.get("actions")
    if record.get("result") is not None or not isinstance(actions, list):
        raise BadInput("the hand is over: say with --at N after how many actions to advise")
    return len(actions)
