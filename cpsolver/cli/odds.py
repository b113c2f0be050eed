"""Spring odds from the landlord's own hand: cpsolver odds."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

import click

from cpsolver.cli.base import cli
from cpsolver.cli.inputs import read_cards, read_landlord_cards
from cpsolver.cli.options import (
    QUESTION_TIMEOUT,
    cluster_options,
    common_options,
    landlord_option,
    make_runner,
    timeout_option,
    usable_cores,
)
from cpsolver.cli.output import emit_json, shown, with_progress
from cpsolver.io.dealformat import DealDocument
from cpsolver.io.rulefiles import load_rules
from cpsolver.io.words import counted as _count
from cpsolver.rules.cards import Hand

if TYPE_CHECKING:  # numpy comes with the odds; only the odds command loads them
    from cpsolver.odds import Odds


def _sizes(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    parts = value.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise click.BadParameter(f"{value!r} is not two card counts N,M (such as 17,17)")
    return int(parts[0]), int(parts[1])


def _report(odds: Odds) -> str:
    """The human report: the figure, what it is over, and the work it took."""
    q = odds.question
    p = odds.probability
    if odds.samples is None and not odds.complete:
        low_bound, high_bound = odds.bounds
        head = (
            f"unknown: the time limit ran out after {odds.splits} of {q.splits} splits; "
            f"the odds are between {float(low_bound):.6f} and {float(high_bound):.6f} "
            "(--timeout none lifts the limit)"
        )
        over = f"so far {odds.springs} springs in {odds.splits} splits"
    elif odds.samples is None:
        head = f"spring odds: {p.numerator}/{p.denominator} = {float(p):.6f} ({float(p):.2%})"
        over = f"over {odds.splits} equally likely splits"
    else:
        low, high = odds.interval or (0.0, 1.0)
        head = (
            f"spring odds: about {float(p):.4f} (95% interval {low:.4f} to {high:.4f}), "
            f"{odds.springs} springs in {odds.splits} samples (seed {odds.seed})"
        )
        if not odds.complete:
            head += f"; the time limit stopped it short of {odds.samples}"
        over = "over random splits"
    dealt = f"{len(q.unseen)} unseen cards dealt {q.sizes[0]} and {q.sizes[1]}"
    if q.face_down:
        dealt += f", {q.face_down} face down to the landlord"
    lines = [head, f"{over}: {dealt}"]
    if odds.by_fewest is not None:
        lines.append("fewest answerable plays        splits    share")
        for fewest, count in sorted(odds.by_fewest.items()):
            label = f"{fewest} (spring)" if fewest <= 1 else str(fewest)
            lines.append(f"  {label:<14} {count:>20}  {count / odds.splits:>7.2%}")
    work = f"{_count(odds.profiles, 'answer profile')}, {_count(odds.decisions, 'decision')}"
    if odds.screened:
        work += (
            f"; {_count(odds.screened, 'face-down choice')} ruled out at once"
            if q.face_down
            else "; ruled out at once: certain answers leave no spring"
        )
    if odds.certain:
        work += (
            f"; {_count(odds.certain, 'face-down choice')} a spring at once"
            if q.face_down
            else "; a spring at once: no unseen card answers the plays of one"
        )
    lines.append(f"({work})")
    return "\n".join(lines)


def _hand(hand: str | None, landlord: str | None) -> tuple[str, DealDocument | None]:
    """The landlord's cards from HAND or --landlord (one of them), and the deal a file held."""
    if hand is not None and landlord is not None:
        raise click.UsageError("give the landlord's HAND or --landlord, not both")
    if hand is None and landlord is None:
        raise click.UsageError("give the landlord's HAND (or --landlord CARDS)")
    if landlord is not None:
        return read_landlord_cards(landlord, "--landlord")
    return read_landlord_cards(hand or "", "HAND")


@cli.command("odds")
@click.argument("hand", metavar="HAND", required=False)
@landlord_option("HAND")
@click.option(
    "--unseen",
    metavar="CARDS",
    help="The cards the landlord cannot see (default: the rest of the deck).",
)
@click.option(
    "--peasant-sizes",
    callback=_sizes,
    metavar="N,M",
    help="The peasants' hand sizes (default: 17,17 for a 17- or 20-card hand, else the "
    "unseen cards halved); unseen cards beyond N+M are face down and the landlord's.",
)
@click.option(
    "--distribution",
    is_flag=True,
    help="Also count the splits by their fewest answerable plays (0 and 1 are springs).",
)
@click.option(
    "--samples",
    type=click.IntRange(min=1, max=10**9),
    metavar="N",
    help="Estimate from N seeded random splits, with a 95% interval, instead of counting all.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of --samples.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@timeout_option(
    "Stop after this long: an exact count says what it knows (exit 3), an estimate "
    "uses the samples drawn.",
    default=QUESTION_TIMEOUT,
)
@cluster_options(default_workers=usable_cores())
@common_options
def odds_command(
    hand: str | None,
    landlord: str | None,
    unseen: str | None,
    peasant_sizes: tuple[int, int] | None,
    distribution: bool,
    samples: int | None,
    seed: int,
    quiet: bool,
    timeout: float | None,
    workers: int,
    scheduler: str | None,
    local_cluster: int | None,
    as_json: bool,
    rules_name: str,
) -> None:
    """The probability of a spring, from the landlord's hand alone.

    Counts exactly, over every equally likely split of the unseen cards
    between the peasants: a 20-card hand against 17 and 17 of the other 34
    cards; a 17-card hand before the auction over the three face-down cards
    as well; any endgame with --unseen and --peasant-sizes. The probability
    is printed as a fraction in lowest terms and a decimal. Exit 0 when a
    spring is possible, 1 when not, 2 for bad input, 3 when the time limit
    (300 s by default) stopped the work short.

    HAND (or --landlord CARDS) is cards, or - or a file holding cards, a deal
    or a line of 'cpsolver deal': then the landlord's hand, and the
    peasants' cards are the unseen ones, dealt as their hands are.

    \b
    Examples:
      cpsolver odds 568888999TTTQKAA22BR
      cpsolver odds --landlord 568888999TTTQKAA22BR
      cpsolver deal --count 1 --seed 3 | cpsolver odds -
      cpsolver odds 568888999TTTQKAA22BR --distribution --json
      cpsolver odds 568888999TTTQKA2B --samples 10000 --seed 1
      cpsolver odds 'KK 2' --unseen 'AA 3 4' --peasant-sizes 2,2
    """
    rules = load_rules(rules_name)
    from cpsolver.odds import chunks, estimate_odds, exact_odds, question

    cards, document = _hand(hand, landlord)
    unseen_hand = None if unseen is None else Hand.parse(read_cards(unseen, "--unseen"))
    if document is not None and unseen is None and peasant_sizes is None:
        # A deal says which cards the landlord cannot see, and how they are dealt.
        unseen_hand = document.deal.peasant1 + document.deal.peasant2
        peasant_sizes = (len(document.deal.peasant1), len(document.deal.peasant2))
    asked = question(Hand.parse(cards), unseen_hand, peasant_sizes, rules)
    started = time.perf_counter()
    deadline = None if timeout is None else time.monotonic() + timeout
    given = click.get_current_context().get_parameter_source("workers")
    if samples is not None:
        chose_workers = given is not click.core.ParameterSource.DEFAULT and workers > 1
        if chose_workers or scheduler is not None or local_cluster is not None:
            raise click.UsageError(
                "--samples runs here; --workers, --scheduler, --local-cluster are for exact counts"
            )
        odds = estimate_odds(asked, samples, seed, distribution, deadline)
    else:
        work = chunks(asked, distribution)
        # Every core by default, as batch; but no pool to start for fewer chunks than cores.
        runner = make_runner(max(1, min(workers, len(work))), scheduler, local_cluster)
        try:
            odds = with_progress(
                len(work),
                not (quiet or as_json),
                lambda advance: exact_odds(asked, distribution, runner, advance, work, deadline),
            )
        finally:
            runner.close()
    labels = {} if document is None or document.id is None else {"id": document.id}
    if as_json:
        emit_json({**labels, **odds.as_dict(), "seconds": round(time.perf_counter() - started, 3)})
    else:
        if labels:
            click.echo(shown(f"deal {labels['id']}"))
        click.echo(_report(odds))
    sys.exit(3 if not odds.complete else 0 if odds.springs else 1)
