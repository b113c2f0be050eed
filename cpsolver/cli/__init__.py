"""The ``cpsolver`` command line: parses, calls the library, prints.

One module per group of commands, each registering on the one group in
:mod:`cpsolver.cli.base`, where the shared options, readers and one-line
errors live.
"""

from __future__ import annotations

from cpsolver.cli import (  # noqa: F401  (each registers its commands)
    batch,
    cards,
    crosscheck,
    deal,
    endgame,
    evaluate,
    game,
    odds,
    rules,
    show,
    spring,
)
from cpsolver.cli.base import cli

__all__ = ["cli", "main"]


def main() -> None:
    """Entry point of the ``cpsolver`` console script."""
    cli()
