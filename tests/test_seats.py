"""Other agents in the seats of simulate and play: outside Botzone programs, forfeits, records."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.game.engine import Game, replay
from cpsolver.game.seats import forfeit_result, parse_assignments, seat_agents
from cpsolver.game.simulation import bot_game, seated_game, simulate
from cpsolver.rules.errors import CpsolverError

TOY = f"{sys.executable} {Path(__file__).with_name('botzone_toy.py')}"


def test_assignments_are_read_and_checked() -> None:
    assert parse_assignments(["0=random", f"2=cmd:{TOY}"]) == {0: "random", 2: f"cmd:{TOY}"}
    for bad, message in [
        (["3=random"], "no SEAT=AGENT"),
        (["1random"], "no SEAT=AGENT"),
        (["1="], "no SEAT=AGENT"),
        (["1=alphazero"], "is no agent"),
        (["1=cmd: "], "is no agent"),
        (["1=random", "1=rlcard"], "two agents"),
    ]:
        with pytest.raises(CpsolverError, match=message):
            parse_assignments(bad)
    with pytest.raises(CpsolverError, match="seat 1 is yours"):
        parse_assignments(["1=random"], free=(0, 2))


def test_forfeit_scores_balance_and_fall_on_the_failing_side() -> None:
    game = Game.deal(3, 0)
    alone = forfeit_result(game, 1, "crashed")  # in the auction: seat 1 alone loses the bid 1
    assert alone["score"] == [1, -2, 1] and alone["winner"] == "forfeit"
    game.make_bid(0, 2)
    game.make_bid(1, 0)
    game.make_bid(2, 0)
    peasant = forfeit_result(game, 2, "silent")
    assert peasant["score"] == [4, -2, -2] and peasant["winner"] == "landlord"
    landlord = forfeit_result(game, 0, "illegal")
    assert landlord["score"] == [-4, 2, 2] and landlord["winner"] == "peasants"
    for result in (alone, peasant, landlord):
        assert sum(result["score"]) == 0


def test_an_outside_program_plays_whole_hands_that_replay() -> None:
    # The toy bids 0, leads its lowest card and passes otherwise: legal all along.
    agents = seat_agents(parse_assignments([f"1=cmd:{TOY}", "2=random"]), None, timeout=20)
    played = 0
    try:
        for seed in range(4):
            game, forfeit = seated_game(seed, seed % 3, agents)
            assert forfeit is None
            if game.phase == "over":
                played += 1
                assert replay(game.record()).result() == game.result()
    finally:
        for agent in agents.values():
            getattr(agent, "close", lambda: None)()
    assert played >= 2


@pytest.mark.parametrize(
    ("flag", "reason"),
    [
        ("--crash", "crashed (exit code 3)"),
        ("--silent", "silent"),
    ],
)
def test_a_failing_program_loses_the_hand_and_the_run_goes_on(flag: str, reason: str) -> None:
    # (The toy's --illegal lead needs the lead, which it never gets here: it bids 0 and
    # passes; evaluate's tests cover an illegal play, the same failure.)
    agents = seat_agents(parse_assignments([f"1=cmd:{TOY} {flag}"]), None, timeout=1.0)
    started = time.monotonic()
    summary = simulate(3, 1, agents=agents)
    assert time.monotonic() - started < 60  # a silent program is not waited for past --timeout
    assert summary.games == 3
    failed = [f for f in summary.forfeits if reason in f]
    assert failed and all(f.startswith("seat 1 (cmd:") for f in failed)
    # The failing seat never wins a forfeited hand, and the hands still add up.
    assert summary.wins_by_seat[1] <= summary.games - len(summary.forfeits)


def test_simulate_command_with_agents_and_records(tmp_path: Path) -> None:
    records = tmp_path / "hands.jsonl"
    result = CliRunner().invoke(
        cli,
        [
            "simulate",
            "--games",
            "4",
            "--seed",
            "2",
            "--agent",
            f"0=cmd:{TOY}",
            "--agent",
            "2=random",
            "--record",
            str(records),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 4 and report["forfeits"] == []
    again = CliRunner().invoke(cli, ["replay", str(records), "--json"])
    assert again.exit_code == 0 and json.loads(again.stdout)["valid"] is True


def test_simulate_command_lists_forfeits_and_refuses_bad_seats() -> None:
    crash = CliRunner().invoke(
        cli, ["simulate", "--games", "2", "--agent", f"2=cmd:{TOY} --crash", "--quiet"]
    )
    assert crash.exit_code == 0, crash.output
    assert "forfeit: seat 2 (cmd:" in crash.output and "crashed (exit code 3)" in crash.output
    bad = CliRunner().invoke(cli, ["simulate", "--agent", "5=random"])
    assert bad.exit_code == 2 and "no SEAT=AGENT" in bad.output


def test_play_against_an_outside_program() -> None:
    script = ["pass"] * 400
    result = CliRunner().invoke(
        cli,
        ["play", "--seed", "4", "--seat", "0", "--agent", f"1=cmd:{TOY} --crash"],
        input="\n".join(script) + "\n",
    )
    assert result.exit_code == 0, result.output
    # The toy passes its bid and crashes at its first play: it forfeits, the score says so.
    assert "forfeits the hand: crashed (exit code 3)" in result.output
    assert "Goodbye. Final score:" in result.output
    mine = CliRunner().invoke(cli, ["play", "--seat", "1", "--agent", "1=random"])
    assert mine.exit_code == 2 and "seat 1 is yours" in mine.output


def test_evaluate_records_replay_and_export(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    result = CliRunner().invoke(
        cli,
        [
            "evaluate",
            "--landlord",
            "cpsolver",
            "--peasants",
            "random",
            "--games",
            "3",
            "--seed",
            "5",
            "--records",
            str(records),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    lines = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(lines) == 6 and all(r["seed"] is None for r in lines)
    assert [r["evaluation"]["agents"][0] for r in lines] == ["cpsolver", "random"] * 3
    # The records re-run to the scores the evaluation counted.
    wins = sum(
        (replay(r).result()["winner"] == "landlord") == (r["evaluation"]["landlord_agent"] == "a")
        for r in lines
    )
    assert wins == report["overall"]["wins"]
    again = CliRunner().invoke(cli, ["replay", str(records), "--json"])
    assert again.exit_code == 0 and json.loads(again.stdout)["valid"] is True
    exported = CliRunner().invoke(cli, ["showdown", "export", str(records)])
    assert exported.exit_code == 0
    replays = [json.loads(line) for line in exported.stdout.splitlines()]
    assert replays[0]["playerInfo"][1]["agentInfo"]["name"] == "random"
    imported = CliRunner().invoke(cli, ["showdown", "import", "-", "--json"], input=exported.stdout)
    assert [r["score"] for r in json.loads(imported.stdout)] == [
        r["result"]["score"] for r in lines
    ]


def test_a_given_deal_record_must_be_one_deck() -> None:
    record = bot_game(1, 0).record()
    record["seed"] = None
    assert replay(record).result() == record["result"]  # the deal as written: the same hand
    short = {**record, "deal": {**record["deal"], "bottom": ""}}
    with pytest.raises(CpsolverError, match="17 cards for each seat and 3 face down"):
        replay(short)
    hands = record["deal"]["hands"]
    swapped = {**record, "deal": {"hands": [hands[0], hands[1], hands[1]], "bottom": "333"}}
    with pytest.raises(CpsolverError):
        replay(swapped)
