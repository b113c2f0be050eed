"""The ``cpsolver`` command line: parses, calls the library, prints.

One module per group of commands, each registering on the one group in
:mod:`cpsolver.cli.base` (with the one-line errors); the shared readers,
options and output are :mod:`~cpsolver.cli.inputs`, :mod:`~cpsolver.cli.options`
and :mod:`~cpsolver.cli.output`. A module is imported only when one of its commands is named
(``cpsolver classify`` never loads the solvers); ``COMMANDS`` says which
module registers which command, and ``tests/test_cli_layout.py`` holds it
to what the modules really register.
"""

from __future__ import annotations

from cpsolver.cli.base import cli

COMMANDS = {
    "advise": "advise",
    "analyse": "analyse",
    "classify": "cards",
    "plays": "cards",
    "deal": "deal",
    "crosscheck": "crosscheck",
    "batch": "batch",
    "endgame": "endgame",
    "evaluate": "evaluate",
    "botzone": "evaluate",
    "showdown": "evaluate",
    "douzero-deals": "evaluate",
    "play": "game",
    "replay": "game",
    "simulate": "game",
    "odds": "odds",
    "puzzle": "puzzle",
    "rules": "rules",
    "serve": "serve",
    "show": "show",
    "solve": "spring",
    "verify": "spring",
    "explain": "spring",
    "export-cnf": "spring",
}
cli.modules.update(COMMANDS)

__all__ = ["cli", "main"]


def main() -> None:
    """Entry point of the ``cpsolver`` console script."""
    cli()
