"""The DouZero evaluation protocol: deals, both ways, scores and intervals; the evaluate command."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from cpsolver.cli import cli
from cpsolver.game.evaluate import (
    Outcome,
    evaluate,
    mean_interval,
    seeded_deals,
    start_game,
    summarize,
    wilson,
)
from cpsolver.rules.ruleset import standard_rules

TOY = f"{sys.executable} {Path(__file__).with_name('botzone_toy.py')}"


def test_deals_are_douzero_shaped_and_seeded() -> None:
    deals = seeded_deals(5, 20)
    assert deals == seeded_deals(5, 20) and deals != seeded_deals(6, 20)
    game = start_game(deals[0], 0, standard_rules())
    assert (game.landlord, game.turn, game.bid, game.phase) == (0, 0, 1, "play")
    assert [len(h) for h in game.hands] == [20, 17, 17]


def test_scores_follow_douzero_and_our_rules() -> None:
    won = Outcome(0, "a", True, 2, True, False, 10)
    assert (won.douzero_score, won.our_score) == (8, 16)
    lost = Outcome(0, "a", False, 0, False, True, 4)
    assert (lost.douzero_score, lost.our_score) == (-2, -4)


def brute_wilson(wins: int, games: int) -> tuple[float, float]:
    # The interval as the set of shares whose score test accepts the count: scanned, not solved.
    z = 1.959963984540054
    inside = [
        p / 20000
        for p in range(20001)
        if (wins - games * p / 20000) ** 2 <= z * z * games * (p / 20000) * (1 - p / 20000)
    ]
    return inside[0], inside[-1]


@given(st.integers(1, 60), st.data())
def test_wilson_matches_the_score_test(games: int, data: st.DataObject) -> None:
    wins = data.draw(st.integers(0, games))
    low, high = wilson(wins, games)
    brute_low, brute_high = brute_wilson(wins, games)
    assert abs(low - brute_low) < 1e-4 and abs(high - brute_high) < 1e-4


def test_mean_interval() -> None:
    values = [random.Random(1).gauss(0, 1) for _ in range(3)] + [2.0, -1.0]
    mean, _, high = mean_interval(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    assert high - mean == pytest.approx(1.959963984540054 * sd / math.sqrt(5))


def test_summary_takes_a_sides_view() -> None:
    outcomes = [
        Outcome(0, "a", True, 1, False, False, 9),  # A landlord wins: +4
        Outcome(0, "b", True, 0, True, False, 9),  # B landlord springs: A -2, ours -4
        Outcome(1, "a", False, 0, False, True, 9),  # A landlord loses to anti-spring
        Outcome(1, "b", False, 0, False, False, 9),  # A peasants win
    ]
    report = summarize(outcomes, "x", "y")
    assert report["as_landlord"]["wp"] == 0.5 and report["as_peasants"]["wp"] == 0.5
    assert report["as_landlord"]["adp"] == 1.0 and report["as_landlord"]["adp_ours"] == 0.0
    assert report["as_peasants"]["adp"] == 0.0 and report["as_peasants"]["adp_ours"] == -1.0
    assert report["overall"]["games"] == 4 and report["springs"] == 1


def test_self_play_is_even_and_workers_agree() -> None:
    deals = seeded_deals(3, 4)
    one = evaluate(deals, "cpsolver", "random")
    assert evaluate(deals, "cpsolver", "random", workers=2) == one
    mirror = summarize(evaluate(deals, "random", "random"), "random", "random")
    assert mirror["overall"]["wp"] == 0.5  # each deal is won once by either agent


def test_evaluate_command_json() -> None:
    result = CliRunner().invoke(
        cli,
        [
            "evaluate",
            "--landlord",
            "cpsolver",
            "--peasants",
            f"cmd:{TOY}",
            "--games",
            "2",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["overall"]["games"] == 4 and report["fair"] and report["forfeits"] == []
    assert set(report["as_landlord"]) >= {"wp", "wp_ci", "adp", "adp_ci", "adp_ours", "adp_ours_ci"}


def test_evaluate_command_reports_forfeits_and_open_agent() -> None:
    result = CliRunner().invoke(
        cli,
        [
            "evaluate",
            "--landlord",
            "cpsolver-open",
            "--peasants",
            f"cmd:{TOY} --crash",
            "--games",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "not a fair comparison" in result.output
    assert "crashed (exit code 3)" in result.output


def test_evaluate_command_refuses_unknown_agents() -> None:
    result = CliRunner().invoke(
        cli, ["evaluate", "--landlord", "alphazero", "--peasants", "random"]
    )
    assert result.exit_code == 2 and "is no agent" in result.output
