"""One vocabulary: every command and picture names the winning side the same way.

The landlord and the peasants when three play; the first and the second
player, with the hand number, when two do. Never "side 0", "Side 1" or
"hand 1 wins".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.rules.position import Position, side_wins

OLD_WORDS = re.compile(r"\b[Ss]ide [01]\b|\bhand [01] wins?\b")
POSITIONS = {
    "two": ["--hand", "KK 5", "--hand", "AA"],
    "three": ["--landlord", "KKK 2 5", "--peasant1", "AA 7", "--peasant2", "QQQ 3 6"],
}


def _run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.output


@pytest.mark.parametrize("players", ["two", "three"])
def test_endgame_verify_and_show_name_the_winner_alike(players: str, tmp_path: Path) -> None:
    proof = tmp_path / "strategy.json"
    said = _run("endgame", *POSITIONS[players], "--proof", str(proof))
    verified = _run("verify", str(proof))
    shown = _run("show", str(proof))
    hands = 2 if players == "two" else 3
    winner = next(s for s in (0, 1) if said.startswith(side_wins(s, hands)))
    words = side_wins(winner, hands)
    assert said.startswith(words) and verified.startswith(f"valid: {words}")
    assert shown.startswith(f"{words.capitalize()} with best play")
    for text in (said, verified, shown):
        assert not OLD_WORDS.search(text), text


def test_the_names_of_the_sides() -> None:
    assert Position.parse(["3", "4", "5"]).side_name(1) == "the peasants"
    assert Position.parse(["3", "4"]).side_name(0) == "the first player (hand 0)"


@pytest.mark.parametrize(
    ("kind", "sizes", "cards"),
    [
        ("position2", "6-8,6-8", (12, 16)),
        ("position3", "3,3,2", (8, 8)),
        ("endgame", "3,3,3", (9, 9)),
    ],
)
def test_deal_and_crosscheck_take_sizes_alike(
    kind: str, sizes: str, cards: tuple[int, int]
) -> None:
    """`crosscheck --generate position2 --sizes 6-8,6-8` demanded three sizes where deal takes two."""
    import json

    dealt = CliRunner().invoke(cli, ["deal", "--kind", kind, "--sizes", sizes, "--count", "3"])
    assert dealt.exit_code == 0, dealt.output
    for line in dealt.output.splitlines():
        entry = json.loads(line)
        hands = entry.get("hands") or [entry["landlord"], *entry["peasants"]]
        assert cards[0] <= sum(map(len, hands)) <= cards[1]
    checked = CliRunner().invoke(
        cli, ["crosscheck", "--generate", kind, "--sizes", sizes, "--count", "3", "--json"]
    )
    assert checked.exit_code == 0, checked.output


@pytest.mark.parametrize("command", [["deal", "--kind"], ["crosscheck", "--generate"]])
def test_sizes_for_a_kind_that_takes_none_is_one_line(command: list[str]) -> None:
    result = CliRunner().invoke(cli, [*command, "full", "--sizes", "3,3,3", "--count", "1"])
    assert (
        result.exit_code == 2 and "--sizes is for endgame, position2 and position3" in result.output
    )


def _options() -> dict[str, set[tuple[str, str]]]:
    """Every visible long option of every command: its (type, command) uses."""
    import click

    context = cli.make_context("cpsolver", [], resilient_parsing=True)
    found: dict[str, set[tuple[str, str]]] = {}

    def walk(group: click.Group, path: str) -> None:
        for name in group.list_commands(context):
            command = group.get_command(context, name)
            assert command is not None
            if isinstance(command, click.Group):
                walk(command, f"{path}{name} ")
                continue
            for param in command.params:
                if isinstance(param, click.Option) and not param.hidden:
                    for opt in param.opts:
                        if opt.startswith("--"):
                            found.setdefault(opt, set()).add((param.type.name, path + name))

    walk(cli, "")
    return found


def test_an_option_name_means_one_thing_in_every_command() -> None:
    """`--timeout` meant a question's time in solve and an outside program's answer in play."""
    options = _options()
    for name, uses in options.items():
        assert len({kind for kind, _ in uses}) == 1, (name, sorted(uses))
    assert {command for _, command in options["--answer-timeout"]} == {
        "play",
        "simulate",
        "evaluate",
    }
    assert len(options) > 40


def test_the_old_name_of_the_answer_timeout_still_works() -> None:
    new = CliRunner().invoke(cli, ["simulate", "--games", "1", "--answer-timeout", "3", "--json"])
    old = CliRunner().invoke(cli, ["simulate", "--games", "1", "--timeout", "3", "--json"])
    assert new.exit_code == old.exit_code == 0 and new.output == old.output


def test_workers_default_to_every_core_in_batch_and_odds() -> None:
    """`odds --workers` defaulted to 1 where batch used every core."""
    import click

    from cpsolver.cli.options import usable_cores

    context = cli.make_context("cpsolver", [], resilient_parsing=True)
    for name in ("batch", "odds"):
        command = cli.get_command(context, name)
        assert isinstance(command, click.Command)
        option = next(p for p in command.params if p.name == "workers")
        assert option.default == usable_cores(), name
