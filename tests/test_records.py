"""rlcard-showdown replays and DouZero evaluation data: round trips, mappings, refusals."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.game.agents import make_agent
from cpsolver.game.cardids import id_of_showdown, showdown_card
from cpsolver.game.evaluate import play_game, seeded_deals, start_game
from cpsolver.game.records import (
    RecordError,
    douzero_data,
    from_showdown,
    read_douzero_deals,
    to_showdown,
    write_douzero_deals,
)
from cpsolver.game.simulation import bot_game
from cpsolver.rules.cards import Hand
from cpsolver.rules.ruleset import standard_rules


def test_showdown_card_names() -> None:
    assert [showdown_card(i) for i in (0, 1, 2, 3, 28, 51, 52, 53)] == [
        "S3",
        "H3",
        "D3",
        "C3",
        "ST",
        "C2",
        "BJ",
        "RJ",
    ]
    assert all(id_of_showdown(showdown_card(i)) == i for i in range(54))
    with pytest.raises(ValueError):
        id_of_showdown("X3")


def finished_games() -> list:
    rules = standard_rules()
    games = []
    for number, deal in enumerate(seeded_deals(9, 4)):
        game = start_game(deal, number, rules)
        agents = [
            make_agent(name, seat) for seat, name in enumerate(["cpsolver", "random", "rlcard"])
        ]
        assert play_game(game, agents) is None
        games.append(game)
    games += [g for g in (bot_game(seed, seed % 3) for seed in range(6)) if g.phase == "over"]
    return games


def test_showdown_round_trip() -> None:
    for game in finished_games():
        replay = json.loads(json.dumps(to_showdown(game, ("a", "b", "c"))))
        assert [len(h.split()) for h in replay["initHands"]] == [
            20 if seat == game.landlord else 17 for seat in range(3)
        ]
        assert len({c for h in replay["initHands"] for c in h.split()}) == 54
        back = from_showdown(replay)
        assert back.landlord == game.landlord and back.bottom == game.bottom
        assert back.actions == game.actions and back.start_of_play == game.start_of_play
        assert back.result()["winner"] == game.result()["winner"]
        assert back.bombs == game.bombs
        del replay["publicCards"]  # the replayer's own files lack it: still readable
        assert from_showdown(replay).actions == game.actions


def test_showdown_refuses_illegal_moves() -> None:
    replay = to_showdown(finished_games()[0])
    replay["moveHistory"][0]["move"] = "P"
    with pytest.raises(RecordError, match="move 1"):
        from_showdown(replay)
    replay["initHands"][0] = "S3"
    with pytest.raises(RecordError):
        from_showdown(replay)


def test_showdown_commands(tmp_path: Path) -> None:
    runner = CliRunner()
    records = tmp_path / "hands.jsonl"
    records.write_text("".join(json.dumps(bot_game(s, s % 3).record()) + "\n" for s in range(4)))
    exported = runner.invoke(cli, ["showdown", "export", str(records)])
    assert exported.exit_code == 0, exported.output
    replays = tmp_path / "replays.jsonl"
    replays.write_text(exported.stdout)
    imported = runner.invoke(cli, ["showdown", "import", str(replays), "--json"])
    assert imported.exit_code == 0, imported.output
    expected = [g.result() for g in (bot_game(s, s % 3) for s in range(4)) if g.phase == "over"]
    keys = ("winner", "bombs", "spring", "anti_spring")  # a replay carries no bid: imported at 1
    assert [{k: r[k] for k in keys} for r in json.loads(imported.stdout)] == [
        {k: r[k] for k in keys} for r in expected
    ]
    broken = runner.invoke(cli, ["showdown", "import", "-"], input='{"initHands": 3}')
    assert broken.exit_code == 2 and "replay 1" in broken.output


def test_douzero_data_round_trip(tmp_path: Path) -> None:
    deals = seeded_deals(4, 5)
    path = tmp_path / "eval.pkl"
    write_douzero_deals(str(path), deals)
    assert read_douzero_deals(str(path)) == deals
    data = douzero_data(deals)
    # DouZero's numbering: 3..A are 3..14, the 2 is 17, the jokers 20 and 30.
    assert sorted(
        {c for d in data for c in d["landlord"] + d["landlord_up"] + d["landlord_down"]}
    ) == [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]
    assert data[0]["landlord_down"] == [
        {
            3: 3,
            4: 4,
            5: 5,
            6: 6,
            7: 7,
            8: 8,
            9: 9,
            10: 10,
            11: 11,
            12: 12,
            13: 13,
            14: 14,
            15: 17,
            16: 20,
            17: 30,
        }[r + 3]
        for r in deals[0].down.ranks()
    ]


def test_douzero_data_runs_nothing(tmp_path: Path) -> None:
    class Boom:
        def __reduce__(self):  # type: ignore[no-untyped-def]
            return (print, ("ran code from a pickle",))

    path = tmp_path / "evil.pkl"
    path.write_bytes(pickle.dumps([Boom()]))
    with pytest.raises(RecordError, match="builtins.print"):
        read_douzero_deals(str(path))
    path.write_bytes(pickle.dumps([{"landlord": [3] * 20}]))
    with pytest.raises(RecordError, match="deal 1"):
        read_douzero_deals(str(path))
    path.write_bytes(b"not a pickle")
    with pytest.raises(RecordError, match="not a pickle"):
        read_douzero_deals(str(path))


def test_evaluate_reads_douzero_deals(tmp_path: Path) -> None:
    path = tmp_path / "eval.pkl"
    runner = CliRunner()
    assert (
        runner.invoke(cli, ["douzero-deals", str(path), "--games", "3", "--seed", "7"]).exit_code
        == 0
    )
    args = ["evaluate", "--landlord", "cpsolver", "--peasants", "random", "--json"]
    from_file = json.loads(runner.invoke(cli, [*args, "--deals", str(path)]).stdout)
    from_seed = json.loads(runner.invoke(cli, [*args, "--games", "3", "--seed", "7"]).stdout)
    assert from_file["overall"] == from_seed["overall"] and from_file["deals"] == 3
    bad = runner.invoke(cli, [*args, "--deals", str(tmp_path / "missing.pkl")])
    assert bad.exit_code == 2 and "cannot read" in bad.output
    assert Hand.deck()  # the deck the deals came from
