"""The table of which module registers which command is true, so every command can be found."""

from __future__ import annotations

import importlib
import pkgutil

import cpsolver.cli
from cpsolver.cli import COMMANDS, cli

# Modules of cpsolver.cli that register no command: the group, the shared readers,
# options and output, and the endgame half of crosscheck.
SHARED = {"base", "drawings", "inputs", "options", "output", "positions"}


def test_every_command_is_registered_by_the_module_the_table_names() -> None:
    modules = {module.name for module in pkgutil.iter_modules(cpsolver.cli.__path__)}
    for module in modules:
        importlib.import_module(f"cpsolver.cli.{module}")
    registered = {
        name: command.callback.__module__.rsplit(".", 1)[1]
        for name, command in cli.commands.items()
        if command.callback is not None
    }
    assert registered == COMMANDS
    # A module that registers nothing must be one of the shared ones, not one forgotten here.
    assert modules - set(COMMANDS.values()) <= SHARED


def test_help_lists_every_command() -> None:
    listed = cli.list_commands(None)  # type: ignore[arg-type]
    assert listed == sorted(COMMANDS)
