"""One position over several workers: each first move solved apart gives the solver's own answer."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.endgame import solve
from cpsolver.io.positiongen import random_position
from cpsolver.io.rulefiles import read_rules_text
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import standard_rules
from cpsolver.scale.parallel import InProcess, LocalPool
from cpsolver.scale.split import first_moves, solve_split

RULES = standard_rules()
TEXT = read_rules_text("standard")


def _positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    three, two = ((3, 6), (3, 6), (3, 6)), ((4, 8), (4, 8))
    return [random_position(rng, three if k % 2 else two, 0.4) for k in range(count)]


@pytest.fixture(scope="module")
def pool() -> Iterator[LocalPool]:
    runner = LocalPool(2)
    yield runner
    runner.close()


@pytest.mark.parametrize("where", ["here", "pool"])
def test_every_winning_first_move_is_the_solvers_own(where: str, pool: LocalPool) -> None:
    runner = InProcess() if where == "here" else pool
    for position in _positions(24, 8):
        alone = solve(position, RULES, all_moves=True)
        split = solve_split(position, RULES, TEXT, runner, all_moves=True)
        assert split.winner == alone.winner
        assert sorted(split.moves) == sorted(map(str, alone.moves))
        assert split.decided == split.total == split.stats["root_moves"]


def test_without_all_it_stops_at_a_winning_move(pool: LocalPool) -> None:
    for position in _positions(16, 9):
        alone = solve(position, RULES, all_moves=True)
        split = solve_split(position, RULES, TEXT, pool)
        assert split.winner == alone.winner
        winning = set(map(str, alone.moves))
        assert (len(split.moves) == 1 and split.moves[0] in winning) == bool(winning)


def test_without_all_the_workers_get_the_moves_the_search_tries_in_its_order() -> None:
    # The landlord alone never needs to kick the K while the lone 5 stays in hand.
    position = Position.parse(["4445K", "QQ", "JJ"])
    legal = [str(move) for move in first_moves(position, RULES, all_moves=True)]
    tried = [str(move) for move in first_moves(position, RULES)]
    assert "444K" in legal and "444K" not in tried
    assert set(tried) < set(legal) and tried[0] == "4445"


def test_the_moves_left_out_never_change_the_verdict() -> None:
    rng = random.Random(5)
    fewer = 0
    for _ in range(40):
        position = random_position(rng, ((6, 9), (5, 8), (5, 8)), 0.3)
        left_out = len(first_moves(position, RULES, all_moves=True)) - len(
            first_moves(position, RULES)
        )
        fewer += left_out > 0
        split = solve_split(position, RULES, TEXT, InProcess())
        assert split.winner == solve(position, RULES).winner
        assert split.total == split.stats["root_moves"]
    assert fewer >= 10  # the moves left out are tried, not a rare case


def test_a_deadline_past_leaves_the_verdict_unknown_unless_a_move_wins_at_once() -> None:
    position = Position.parse(["3334445567778899TTTJJQKA22R", "345566678899TJJQQQKKKAAA22B"])
    split = solve_split(position, RULES, TEXT, InProcess(), time_limit=1e-9)
    assert split.winner is None and split.decided == 0


def test_the_command_over_two_workers_and_its_bad_options() -> None:
    run = CliRunner().invoke
    result = run(cli, ["endgame", "--hand", "KK 3", "--hand", "QQ 4", "--workers", "2", "--all"])
    assert result.exit_code == 0 and result.output.startswith("the first player (hand 0) wins")
    assert "first moves decided" in result.output
    result = run(
        cli, ["endgame", "--hand", "KK 3", "--hand", "QQ 4", "--workers", "2", "--proof", "p.json"]
    )
    assert result.exit_code == 2 and "--proof needs one search" in result.output
