"""``cpsolver deal``: corpora of random deals and positions, each with an id."""

from __future__ import annotations

import json

import click

from cpsolver.cli.base import cli
from cpsolver.cli.options import kind_sizes, output_option
from cpsolver.io.dealformat import deal_as_dict
from cpsolver.io.dealgen import KINDS, SizeRange, generate
from cpsolver.io.positioncorpus import position_entry_as_dict
from cpsolver.io.positiongen import DEFAULT_MID_TRICK, POSITION_KINDS
from cpsolver.io.positiongen import generate as generate_positions
from cpsolver.io.writing import open_output


@cli.command("deal")
@click.option(
    "--kind",
    type=click.Choice(KINDS + POSITION_KINDS),
    default="full",
    show_default=True,
    help="full: uniform 20/17/17; endgame: smaller hands; planted: spring-likely full deals; "
    "position2, position3: open-hand positions of two or three hands, some mid-trick.",
)
@click.option(
    "--count", type=click.IntRange(min=0), default=1, show_default=True, help="How many deals."
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="The same seed gives the same deals."
)
@click.option(
    "--sizes",
    metavar="L,P1,P2",
    help="Hand sizes, each a number or a range: 1-10,1-10,1-10 by default for endgame; "
    "two (1-10,1-10) for position2, three (1-8,1-8,1-8) for position3.",
)
@click.option(
    "--mid-trick",
    type=click.FloatRange(0, 1),
    default=DEFAULT_MID_TRICK,
    show_default=True,
    metavar="FRACTION",
    help="For positions: the share in the middle of a trick (a play on the table).",
)
@output_option("Write the corpus here (default: stdout, also -).")
def deal_command(
    kind: str, count: int, seed: int, sizes: str | None, mid_trick: float, output: str
) -> None:
    """Write a JSON-lines corpus of random deals or positions, each with an id.

    \b
    Examples:
      cpsolver deal --kind planted --count 1000 --seed 7 -o planted.jsonl
      cpsolver deal --kind endgame --sizes 8,1-10,1-10 --count 5
      cpsolver deal --kind position2 --sizes 14,13 --count 10 --seed 1
    """
    ranges = kind_sizes(kind, sizes)
    if kind in POSITION_KINDS:
        write_positions(kind, count, seed, ranges, mid_trick, output)
        return
    with open_output(output) as stream:
        for entry in generate(kind, count, seed, *([ranges] if ranges else [])):
            stream.write(json.dumps({"id": entry.id, **deal_as_dict(entry.deal)}) + "\n")


def write_positions(
    kind: str,
    count: int,
    seed: int,
    ranges: tuple[SizeRange, ...] | None,
    mid_trick: float,
    output: str,
) -> None:
    """``cpsolver deal --kind position2|position3``: one JSON position a line, with its id.

    Here, not beside the crosscheck of positions (:mod:`cpsolver.cli.positions`):
    importing that module loads the crosscheck, the verifiers and the process
    pools, ~35 ms of a start-up that writing a corpus does not need.
    """
    with open_output(output) as stream:
        for entry in generate_positions(kind, count, seed, ranges, mid_trick):
            stream.write(json.dumps(position_entry_as_dict(entry)) + "\n")
