"""Botzone whole-match logs: read as the hand they log, written back, refused in one line."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.cli import cli
from cpsolver.game.botzone_log import BotzoneLogError, from_botzone, read_match
from cpsolver.game.botzone_log_writer import to_botzone_log
from cpsolver.game.engine import Game, replay
from cpsolver.game.simulation import bot_game
from cpsolver.rules.cards import Hand

FIXTURE = Path(__file__).parent / "data" / "botzone_match.json"


def _cut(game: Game, actions: int) -> Game:
    """The same hand left after its first ``actions`` plays and passes."""
    cut = Game(None, game.first_bidder, list(game.original), game.bottom, game.rules)
    cut.original, cut.turn = list(game.original), game.first_bidder
    for seat, bid in game.auction:
        cut.make_bid(seat, bid)
    for seat, play in game.actions[:actions]:
        cut.play(seat, None if play is None else play.cards)
    return cut


def _same_hand(read: Game, game: Game) -> None:
    assert read.original == game.original and read.bottom == game.bottom
    assert (read.landlord, read.bid, read.phase) == (game.landlord, game.bid, game.phase)
    assert read.start_of_play == game.start_of_play
    assert read.actions == game.actions  # every play, every pass, in order
    if game.phase in ("over", "thrown_in"):
        assert read.result() == game.result()


# -- round trips -------------------------------------------------------------------------


def test_round_trip_over_seeded_games() -> None:
    for seed in range(80):
        game = bot_game(seed, seed % 3)
        log = json.loads(json.dumps(to_botzone_log(game)))
        match = read_match(log)
        _same_hand(match.game, game)
        # Our record of it replays to the same hand, as analyse, replay and show read it.
        _same_hand(replay(json.loads(json.dumps(match.record())), unfinished=True), game)
        if game.phase == "over":
            assert match.scores == game.result()["score"] and match.forfeit is None


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.floats(0, 1))
def test_round_trip_of_a_hand_left_mid_play(seed: int, where: float) -> None:
    game = bot_game(seed, seed % 3)
    if game.landlord is None:
        return
    # After one action at least: before it, a landlord who bid 3 at once has shown only its own.
    cut = _cut(game, 1 + int(where * (len(game.actions) - 2)))
    match = read_match(json.loads(json.dumps(to_botzone_log(cut))))
    _same_hand(match.game, cut)
    assert match.record()["unfinished"] is True and match.scores is None


# -- a log written by hand from the wiki's envelope, not by our writer --------------------


def test_the_hand_written_log_reads_as_written() -> None:
    match = read_match(json.loads(FIXTURE.read_text()))
    game = match.game
    assert match.bids == [0, 2, 0] and match.scores == [-8, 16, -8] and match.forfeit is None
    assert (game.landlord, game.bid, game.phase) == (1, 2, "over")
    assert game.bottom == Hand.parse("2 B R")
    assert game.start_of_play == [
        Hand.parse("7 888 TT JJJ QQ K AA 222"),
        Hand.parse("34567 9999 TT J KKK AA 2 B R"),
        Hand.parse("333 444 555 666 77 8 QQ"),
    ]
    plays = [(seat, None if play is None else play.cards) for seat, play in game.actions]
    written = [
        (1, "34567"),
        (2, "45678"),
        (0, None),
        (1, "9999"),
        (2, None),
        (0, None),
        (1, "JKKK"),
        (2, None),
        (0, None),
        (1, "TT"),
        (2, "QQ"),
        (0, None),
        (1, "AA"),
        (2, None),
        (0, None),
        (1, "BR"),
        (2, None),
        (0, None),
        (1, "2"),
    ]
    assert plays == [(seat, None if c is None else Hand.parse(c)) for seat, c in written]
    result = game.result()
    assert (result["winner"], result["bombs"], result["stake"]) == ("landlord", 2, 8)
    assert result["score"] == [-8, 16, -8]


def test_from_botzone_gives_the_game_as_from_showdown_does() -> None:
    game = from_botzone(json.loads(FIXTURE.read_text()))
    assert isinstance(game, Game) and game.winner == 1


# -- the commands --------------------------------------------------------------------------


def _run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def test_analyse_gives_the_same_analysis_as_on_our_record(tmp_path: Path) -> None:
    for seed in (1, 4):
        game = bot_game(seed, 0)
        ours, logged = tmp_path / "ours.json", tmp_path / "log.json"
        ours.write_text(json.dumps(game.record()))
        logged.write_text(json.dumps(to_botzone_log(game)))
        found = []
        for path in (ours, logged):
            result = _run("analyse", str(path), "--max-cards", "28", "--timeout", "10", "--json")
            assert result.exit_code in (0, 3), result.output  # 3: positions left undecided
            document = json.loads(result.stdout)
            found.append(({k: v for k, v in document.items() if k != "id"}, result.exit_code))
        assert found[0] == found[1]
        assert any(a["winner_before"] is not None for a in found[0][0]["actions"])


def test_replay_show_and_advise_read_a_log(tmp_path: Path) -> None:
    replayed = _run("replay", str(FIXTURE), "--json")
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.stdout)["replayed"][0]["score"] == [-8, 16, -8]
    shown = _run("show", str(FIXTURE), "--json")
    assert shown.exit_code == 0, shown.output
    assert "seat 1 landlord at bid 2, landlord win, stake 8" in _run("show", str(FIXTURE)).stdout
    advised = _run("advise", str(FIXTURE), "--at", "18", "--samples", "3", "--json")
    assert advised.exit_code == 0, advised.output
    assert json.loads(advised.stdout)["action"] == "2"
    several = tmp_path / "matches.jsonl"
    several.write_text("".join(json.dumps(to_botzone_log(bot_game(s, 0))) + "\n" for s in range(4)))
    result = _run("replay", str(several), "--json")
    assert result.exit_code == 0 and len(json.loads(result.stdout)["replayed"]) == 4


def test_simulate_writes_botzone_logs(tmp_path: Path) -> None:
    path = tmp_path / "logs.jsonl"
    result = _run(
        "simulate",
        "--games",
        "3",
        "--seed",
        "2",
        "--record",
        str(path),
        "--format",
        "botzone",
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    lines = path.read_text().splitlines()
    assert len(lines) == 3 and all("log" in json.loads(line) for line in lines)
    assert _run("replay", str(path)).exit_code == 0


# -- refusals: one line, exit 2 (and what is no refusal: a forfeit, a log cut short) ----------


def _fixture() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text())


def _answer(log: dict[str, Any], turn: int) -> dict[str, Any]:
    """The answer entry of the judge's turn ``turn`` (from 1)."""
    entry = log["log"][2 * turn - 1]
    return next(iter(entry.values()))


def _request(log: dict[str, Any], turn: int) -> dict[str, Any]:
    return next(iter(log["log"][2 * turn - 2]["output"]["content"].values()))


def _not_json() -> str:
    return '{"log": [ {"output": '


def _log_not_a_list() -> dict[str, Any]:
    return {"log": {"0": "request"}, "initdata": ""}


def _card_54() -> dict[str, Any]:
    log = _fixture()
    _request(log, 1)["own"][0] = 54
    return log


def _dealt_twice() -> dict[str, Any]:
    log = _fixture()
    for turn in (2, 4):  # seat 1's bidding and first play request; seat 0 holds id 19
        _request(log, turn)["own"][0] = 19
    return log


def _does_not_beat() -> dict[str, Any]:
    log = _fixture()
    _answer(log, 5)["response"] = [1, 2]  # a pair of 3s on the landlord's straight
    return log


def _history_contradicts() -> dict[str, Any]:
    log = _fixture()
    _request(log, 6)["history"] = [[0, 4, 8, 12, 16], []]
    return log


def _cards_not_held() -> dict[str, Any]:
    log = _fixture()
    _answer(log, 4)["response"] = [0, 4, 8, 12, 20]  # 20 is seat 0's 8
    return log


def _judge_finishes_early() -> dict[str, Any]:
    log = _fixture()
    del log["log"][10:-1]
    return log


REFUSED = {
    "not JSON": (_not_json, "broken JSON"),
    "log not a list": (_log_not_a_list, "'log' is a list of turns"),
    "card id 54": (_card_54, "a card id is a whole number 0-53, not 54"),
    "dealt twice": (_dealt_twice, "card id 19 appears twice"),
    "does not beat": (_does_not_beat, "turn 5: player 2 plays [1, 2]: "),
    "history": (_history_contradicts, "turn 6: player 0 is told the history"),
    "not held": (_cards_not_held, "card ids it does not hold"),
    "finish early": (_judge_finishes_early, "the judge finishes the match before"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
@pytest.mark.parametrize("command", ["analyse", "replay", "show"])
def test_bad_logs_are_one_line_exit_2(tmp_path: Path, case: str, command: str) -> None:
    make, said = REFUSED[case]
    made = make()
    path = tmp_path / "log.json"
    path.write_text(made if isinstance(made, str) else json.dumps(made))
    result = _run(command, str(path))
    assert result.exit_code == 2, result.output
    assert said in result.stderr and result.stderr.strip().count("\n") == 0
    assert "Traceback" not in result.output
    if not isinstance(made, str):
        with pytest.raises(BotzoneLogError):
            read_match(made)


def test_a_bot_that_times_out_leaves_the_hand_unfinished(tmp_path: Path) -> None:
    log = _fixture()
    _answer(log, 7)["verdict"] = "TLE"
    del _answer(log, 7)["response"]
    del log["log"][14:-1]  # the judge finishes at once
    log["log"][-1]["output"]["content"] = {"0": 1, "1": -2, "2": 1}
    match = read_match(copy.deepcopy(log))
    assert match.forfeit == (1, "TLE") and match.scores == [1, -2, 1]
    assert len(match.game.actions) == 3 and match.game.phase == "play"
    record = match.record()
    assert record["unfinished"] is True and record["botzone"]["forfeit"] == {
        "seat": 1,
        "verdict": "TLE",
    }
    path = tmp_path / "tle.json"
    path.write_text(json.dumps(log))
    replayed = _run("replay", str(path))
    assert replayed.exit_code == 0 and "unfinished hand (left after 3 plays" in replayed.stdout
    analysed = _run("analyse", str(path))
    assert analysed.exit_code == 2 and analysed.stderr.strip().count("\n") == 0
    log["log"].insert(-1, log["log"][12])  # a request after the failure
    with pytest.raises(BotzoneLogError, match="after a bot failed"):
        read_match(log)


def test_a_log_cut_mid_hand_reads_as_unfinished(tmp_path: Path) -> None:
    log = _fixture()
    del log["log"][17:]  # stops at turn 9's request, unanswered
    match = read_match(log)
    assert match.record()["unfinished"] is True and len(match.game.actions) == 5
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(log))
    shown = _run("show", str(path))
    assert shown.exit_code == 0 and "unfinished hand" in shown.stdout
    analysed = _run("analyse", str(path))
    assert analysed.exit_code == 2 and "unfinished hand" in analysed.stderr
    del log["log"][3:]  # only seat 0's and seat 1's cards shown, no publiccard yet
    with pytest.raises(BotzoneLogError, match="player 2's cards are known"):
        read_match(log)
