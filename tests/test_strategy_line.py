"""A strategy proof's line, found in the proof alone, is as long as the solver's line of best play."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.endgame import solve
from cpsolver.endgame.proof import build_strategy_proof
from cpsolver.pictures.strategyline import line_picture, strategy_line
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import standard_rules

POSITIONS = [
    Position.parse(["KK 3", "QQ 4"]),
    Position.parse(["KK 5 3", "AA 4"]),
    Position.parse(["KKK 2 5", "AA 7", "QQQ 3 6"], turn=1, table="5", by=0),
    Position.parse(["568JQ", "4TQKB", "37JA2"]),
]


@pytest.mark.parametrize("position", POSITIONS, ids=str)
def test_the_line_is_the_solvers_longest_resistance(position: Position) -> None:
    result = solve(position)
    line = strategy_line(build_strategy_proof(result, standard_rules()))
    assert len(line) == len(result.line)
    assert [hand for hand, _ in line] == [hand for hand, _ in result.line]
    if result.mover_wins:
        assert line[0][1] in [str(move) for move in result.moves]
    picture = line_picture(["hand 0", "hand 1", "hand 2"], line, "A line")
    assert ET.fromstring(picture).tag.endswith("svg")


def test_show_draws_a_strategy_with_its_winning_move_and_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    proof, picture = tmp_path / "strategy.json", tmp_path / "strategy.svg"
    CliRunner().invoke(cli, ["endgame", "--hand", "KK 3", "--hand", "A 4", "--proof", str(proof)])
    result = CliRunner().invoke(cli, ["show", str(proof), "--svg", str(picture)])
    assert result.exit_code == 0
    drawn = picture.read_text()
    assert "the winning move: KK. A line:" in drawn
    assert "1. hand 0 KK; 2. hand 1 pass; 3. hand 0 3" in drawn
