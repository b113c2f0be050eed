"""Botzone's FightTheLandlord protocol, both ways."""

from __future__ import annotations

import io
import json
import os
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.game.agents import make_agent
from cpsolver.game.botzone import KEEP_RUNNING, view_from_requests
from cpsolver.game.botzone_log import history_for
from cpsolver.game.botzone_seat import BotzoneProgram
from cpsolver.game.cardids import deal_ids, hand_of_ids, rank_of_id, take
from cpsolver.game.evaluate import play_game, seeded_deals, start_game
from cpsolver.game.view import view_of
from cpsolver.rules.ruleset import standard_rules

TOY = f"{sys.executable} {Path(__file__).with_name('botzone_toy.py')}"
OURS = f"{sys.executable} -m cpsolver botzone"


def test_card_ids_cover_the_deck_once() -> None:
    ids = deal_ids([d for d in seeded_deals(3, 1)[0].__dict__.values()][:3])
    flat = sorted(card for hand in ids for card in hand)
    assert flat == list(range(54))
    assert [rank_of_id(i) for i in (0, 3, 4, 47, 48, 51, 52, 53)] == [0, 0, 1, 11, 12, 12, 13, 14]
    with pytest.raises(ValueError, match="twice"):
        hand_of_ids([5, 5])
    with pytest.raises(ValueError, match="0-53"):
        hand_of_ids([54])


def games_through(agent_names: list[str], count: int, seed: int) -> list[list[tuple[int, str]]]:
    """The actions of games on seeded deals, one agent name a seat."""
    rules = standard_rules()
    agents = [make_agent(name, seat, rules, timeout=30) for seat, name in enumerate(agent_names)]
    played = []
    try:
        for number, deal in enumerate(seeded_deals(seed, count)):
            game = start_game(deal, number, rules)
            assert play_game(game, agents) is None
            played.append([(seat, str(play)) for seat, play in game.actions])
    finally:
        for agent in agents:
            if isinstance(agent, BotzoneProgram):
                agent.close()
    return played


def test_our_bot_through_the_protocol_decides_as_in_process() -> None:
    keep = f"cmd:{OURS} --keep-running"
    assert games_through([keep, keep, keep], 2, seed=21) == games_through(
        ["cpsolver"] * 3, 2, seed=21
    )


def test_a_program_restarted_every_turn_sees_the_same_game() -> None:
    # The ordinary mode: one run a turn, the whole transcript each time.
    names = [f"cmd:{TOY}", "cpsolver", f"cmd:{TOY} --keep-running"]
    assert games_through(names, 1, seed=4) == games_through(
        [f"cmd:{TOY} --keep-running", "cpsolver", f"cmd:{TOY}"], 1, seed=4
    )


def test_transcripts_rebuild_what_the_seat_sees() -> None:
    # Our own client writes the transcript; the server side must read back the very view.
    rules = standard_rules()
    deal = seeded_deals(8, 1)[0]
    game = start_game(deal, 0, rules)
    bots = [make_agent("cpsolver", seat, rules) for seat in range(3)]
    clients = [BotzoneProgram("unused", seat, rules, 1.0) for seat in range(3)]
    checked = 0
    while game.phase == "play":
        seat = game.turn
        client = clients[seat]
        client._catch_up(game)
        request = {"history": history_for(client.action_ids, client.seat)}
        if not any("publiccard" in r for r in client.requests):
            request.update(
                own=client.ids[seat], publiccard=client.ids[3], landlord=0, pos=seat, finalbid=1
            )
        client.requests.append(request)
        view = view_from_requests(client.requests, client.responses, rules)
        expected = view_of(game, seat)
        assert (view.hand, view.actions, view.counts, view.landlord, view.bottom) == (
            expected.hand,
            expected.actions,
            expected.counts,
            expected.landlord,
            expected.bottom,
        )
        play = bots[seat].choose_play(game)
        ids = [] if play is None else take(list(client.left[seat]), play.cards)
        for card in ids:
            client.left[seat].remove(card)
        client.action_ids.append((seat, ids))
        client.seen += 1
        client.responses.append(ids)
        game.play(seat, play.cards if play else None)
        checked += 1
    assert checked > 10


@pytest.mark.parametrize(
    ("flag", "reason"),
    [
        ("--crash", "crashed (exit code 3)"),
        ("--silent", "no answer within 1 s"),
        ("--illegal", "cards it does not hold"),
        ("--chatty", "more than one line"),
    ],
)
def test_a_misbehaving_program_loses_with_the_reason(flag: str, reason: str) -> None:
    rules = standard_rules()
    game = start_game(seeded_deals(2, 1)[0], 0, rules)
    program = BotzoneProgram(f"{TOY} {flag}", 0, rules, timeout=1.0)
    agents = [program, make_agent("random", 1), make_agent("random", 2)]
    started = time.monotonic()
    forfeit = play_game(game, agents)
    program.close()
    assert forfeit is not None and reason in forfeit and forfeit.startswith("seat 0")
    assert time.monotonic() - started < 10


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in _state(pid)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads /proc")
@pytest.mark.parametrize(
    ("output", "reason"),
    [
        ("subprocess.DEVNULL", "crashed (exit code 3)"),
        ("None", "no answer within 2 s"),  # the child holds the output open: no end of it
    ],
)
def test_what_a_crashing_program_started_does_not_outlive_it(
    tmp_path: Path, output: str, reason: str
) -> None:
    pid_file = tmp_path / "grandchild.pid"
    script = tmp_path / "bot.py"
    script.write_text(
        "import subprocess, sys\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], "
        f"stdout={output})\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "sys.exit(3)\n"
    )
    rules = standard_rules()
    game = start_game(seeded_deals(2, 1)[0], 0, rules)
    program = BotzoneProgram(f"{sys.executable} {script}", 0, rules, timeout=2.0)
    forfeit = play_game(game, [program, make_agent("random", 1), make_agent("random", 2)])
    program.close()
    assert forfeit is not None and reason in forfeit
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(grandchild)


def test_a_program_that_cannot_start_loses() -> None:
    rules = standard_rules()
    game = start_game(seeded_deals(2, 1)[0], 0, rules)
    agents = [
        BotzoneProgram("/no/such/program", 0, rules, 1.0),
        make_agent("random", 1),
        make_agent("random", 2),
    ]
    assert "cannot start" in (play_game(game, agents) or "")


def test_botzone_command_bids_and_plays() -> None:
    runner = CliRunner()
    own = [
        0,
        4,
        8,
        12,
        16,
        20,
        24,
        28,
        32,
        36,
        40,
        44,
        48,
        49,
        50,
        52,
        53,
    ]  # 3..A, three 2s, both jokers
    bid = runner.invoke(
        cli,
        ["botzone"],
        input=json.dumps({"requests": [{"own": own, "bid": [1]}], "responses": []}),
    )
    assert bid.exit_code == 0, bid.output
    assert json.loads(bid.stdout) == {"response": 3}
    play = {
        "requests": [
            {"own": own, "bid": [1]},
            {
                "own": own,
                "publiccard": [1, 2, 3],
                "landlord": 1,
                "pos": 1,
                "finalbid": 3,
                "history": [[], []],
            },
        ],
        "responses": [3],
    }
    result = runner.invoke(cli, ["botzone", "--keep-running"], input=json.dumps(play) + "\n")
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and lines[1] == KEEP_RUNNING
    cards = json.loads(lines[0])["response"]
    assert cards and set(cards) <= set(own) | {1, 2, 3}
    bad = runner.invoke(cli, ["botzone"], input='{"requests": [{"bid": []}], "responses": []}')
    assert bad.exit_code == 2 and "not a FightTheLandlord transcript" in bad.output


def test_serve_keeps_running_on_single_requests() -> None:
    from cpsolver.game.botzone import serve

    own = list(range(0, 68, 4))[:13] + [1, 5, 52, 53]
    first = {"requests": [{"own": own, "bid": []}], "responses": []}
    out = io.StringIO()
    assert (
        serve(
            io.StringIO(json.dumps(first) + "\n" + json.dumps({"own": own, "bid": [3]}) + "\n"),
            out,
            True,
        )
        == 2
    )
    assert out.getvalue().count(KEEP_RUNNING) == 2
