"""The game: auction, play, scoring, records and replay, bots, and the terminal table."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.cli import cli
from cpsolver.game.engine import Game, IllegalActionError, replay
from cpsolver.game.simulation import bot_game, game_seeds
from cpsolver.game.table import breakdown
from cpsolver.rules.cards import Hand

HANDS = Path(__file__).parent / "data" / "hands.jsonl"


def finished(landlord: int, bid: int, bombs: int, plays_made: list[int], winner: int) -> Game:
    """A game set straight to its end, for the scoring table."""
    game = Game.deal(1, 0)
    game.phase, game.landlord, game.bid, game.bombs = "over", landlord, bid, bombs
    game.plays_made, game.winner = plays_made, winner
    return game


# (bid, bombs, plays by seat, winner seat) -> (stake, score); the landlord is seat 0.
SCORING = [
    ((1, 0, [5, 2, 3], 0), (1, [2, -1, -1])),
    ((2, 0, [5, 2, 3], 0), (2, [4, -2, -2])),
    ((3, 0, [5, 2, 3], 0), (3, [6, -3, -3])),
    ((1, 1, [5, 2, 3], 0), (2, [4, -2, -2])),  # one bomb
    (
        (2, 2, [5, 2, 3], 1),
        (8, [-16, 8, 8]),
    ),  # two bombs (or a bomb and the rocket), landlord loses
    ((3, 3, [5, 2, 3], 2), (24, [-48, 24, 24])),  # three bombs
    ((1, 1, [6, 0, 0], 0), (4, [8, -4, -4])),  # spring with the rocket played: 1 x 2 x 2
    ((3, 0, [4, 0, 0], 0), (6, [12, -6, -6])),  # spring
    ((2, 0, [1, 3, 2], 1), (4, [-8, 4, 4])),  # anti-spring: the landlord played only his first lead
    ((2, 1, [1, 0, 4], 2), (8, [-16, 8, 8])),  # anti-spring with a bomb
    ((1, 0, [2, 3, 1], 2), (1, [-2, 1, 1])),  # landlord loses, no doubling
]


@pytest.mark.parametrize(("case", "expected"), SCORING)
def test_scoring_table(
    case: tuple[int, int, list[int], int], expected: tuple[int, list[int]]
) -> None:
    bid, bombs, plays_made, winner = case
    result = finished(0, bid, bombs, plays_made, winner).result()
    assert (result["stake"], result["score"]) == expected
    assert sum(result["score"]) == 0
    assert result["spring"] == (winner == 0 and plays_made[1:] == [0, 0])
    assert result["anti_spring"] == (winner != 0 and plays_made[0] == 1)


def test_breakdown_words() -> None:
    result = finished(0, 3, 1, [4, 0, 0], 0).result()
    assert breakdown(result) == (
        "bid 3, doubled for 1 bomb or rocket, doubled again for the spring = 12"
    )


def test_all_pass_throws_the_hand_in() -> None:
    game = Game.deal(3, first_bidder=1)
    for seat in (1, 2, 0):
        game.make_bid(seat, 0)
    assert game.phase == "thrown_in" and game.result()["score"] == [0, 0, 0]


def test_a_bid_of_3_ends_the_auction_at_once() -> None:
    game = Game.deal(3, first_bidder=0)
    game.make_bid(0, 1)
    game.make_bid(1, 3)
    assert (game.phase, game.landlord, game.bid, game.turn) == ("play", 1, 3, 1)
    assert len(game.hands[1]) == 20


def test_two_passes_after_a_bid_end_the_auction() -> None:
    game = Game.deal(3, first_bidder=2)
    game.make_bid(2, 0)
    game.make_bid(0, 1)
    game.make_bid(1, 0)
    assert game.phase == "auction"
    game.make_bid(2, 2)
    game.make_bid(0, 0)
    game.make_bid(1, 0)
    assert (game.phase, game.landlord, game.bid) == ("play", 2, 2)


@pytest.mark.parametrize(
    ("bids", "bad", "message"),
    [
        ([(0, 2)], (1, 2), "a bid must be higher than 2"),
        ([(0, 2)], (1, 1), "a bid must be higher than 2"),
        ([], (1, 1), "it is seat 0's turn to bid, not seat 1's"),
        ([], (0, 4), "a bid is 1, 2 or 3 (or a pass), not 4"),
        ([(0, 3)], (1, 0), "the auction is over"),
    ],
)
def test_illegal_bids_are_refused_and_change_nothing(
    bids: list[tuple[int, int]], bad: tuple[int, int], message: str
) -> None:
    game = Game.deal(3, first_bidder=0)
    for seat, amount in bids:
        game.make_bid(seat, amount)
    before = copy.deepcopy(game)
    with pytest.raises(IllegalActionError) as caught:
        game.make_bid(*bad)
    assert str(caught.value) == message
    assert game == before


def started(seed: int = 3) -> Game:
    game = Game.deal(seed, first_bidder=0)
    game.make_bid(0, 3)
    return game


def test_illegal_plays_are_refused_and_change_nothing() -> None:
    game = started()
    hand = game.hands[0]
    absent = next(r for r in range(15) if not hand[r])
    lowest = next(hand.ranks())
    cases = [
        (1, str(Hand.from_ranks([lowest])), "it is seat 0's turn, not seat 1's"),
        (0, "pass", "you lead: play any combination, passing is not allowed"),
        (
            0,
            str(Hand.from_ranks([absent])),
            f"{Hand.from_ranks([absent])} is not in your hand (no {Hand.from_ranks([absent])})",
        ),
    ]
    for seat, cards, message in cases:
        before = copy.deepcopy(game)
        with pytest.raises(IllegalActionError) as caught:
            game.play(seat, cards)
        assert str(caught.value) == message
        assert game == before
    game.play(0, Hand.from_ranks([max(hand.ranks())]))  # the landlord's highest single
    answer = game.hands[1]
    lower = next(answer.ranks())
    if lower < max(hand.ranks()):
        before = copy.deepcopy(game)
        with pytest.raises(IllegalActionError, match="does not beat"):
            game.play(1, Hand.from_ranks([lower]))
        assert game == before


def test_two_passes_give_the_lead_back() -> None:
    game = started()
    top = max(game.hands[0].ranks())
    game.play(0, Hand.from_ranks([top]))
    game.play(1, "pass")
    game.play(2, "pass")
    assert game.turn == 0 and game.leading


@pytest.mark.parametrize("line", HANDS.read_text().splitlines())
def test_scripted_hands_replay_to_their_scores(line: str) -> None:
    record = json.loads(line)
    game = replay(record)
    assert game.result() == record["result"]
    assert sum(record["result"]["score"]) == 0


def test_tampered_records_are_refused() -> None:
    record = json.loads(HANDS.read_text().splitlines()[0])
    bad = copy.deepcopy(record)
    bad["result"]["score"] = [9, 9, 9]
    with pytest.raises(IllegalActionError, match="the recorded result"):
        replay(bad)
    bad = copy.deepcopy(record)
    bad["seed"] += 1
    with pytest.raises(IllegalActionError, match="deals other cards than the record"):
        replay(bad)
    if record["actions"]:
        bad = copy.deepcopy(record)
        bad["actions"][0]["cards"] = "pass"
        with pytest.raises(IllegalActionError, match="step .* passing is not allowed"):
            replay(bad)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.randoms(use_true_random=False))
def test_random_legal_actions_always_end_and_keep_the_deck(seed: int, rng: random.Random) -> None:
    game = Game.deal(seed)
    while game.phase == "auction":
        game.make_bid(game.turn, rng.choice(game.bid_options()))
    if game.phase == "thrown_in":
        return
    for _ in range(200):  # 54 cards: a hand ends long before this
        if game.phase != "play":
            break
        options = game.legal_plays()
        if options and (game.leading or rng.random() < 0.6):
            game.play(game.turn, rng.choice(options).cards)
        else:
            game.play(game.turn, None)
        played = [play.cards for _, play in game.actions if play is not None]
        held = game.hands[0] + game.hands[1] + game.hands[2]
        total = held
        for cards in played:
            total = total + cards
        assert total == Hand.deck()
    assert game.phase == "over" and game.winner is not None
    assert replay(game.record()).result() == game.result()


def test_bot_games_replay_and_springs_are_taken() -> None:
    for (seed, first), _ in zip(game_seeds(5), range(30)):
        game = bot_game(seed, first)
        assert replay(game.record()).result() == game.result()


def test_play_a_whole_hand_at_the_terminal_with_a_bad_input_and_a_hint() -> None:
    """A person who passes every bid and every trick: a bot is landlord and the hand ends."""
    script = ["ZZ", "?", "hint", "77Z", "pass"] + ["hint", "pass"] * 200
    result = CliRunner().invoke(
        cli, ["play", "--seed", "4", "--seat", "1"], input="\n".join(script) + "\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'ZZ' is no bid" in out
    assert "Rules: the landlord" in out
    assert out.count("hint: ") >= 3
    assert (
        re.search(r"hint: [3-9TJQKA2BR]+ \(\w+\)", out) or "hint: nothing beats it" in out
    )  # in play
    assert "'77Z' is no bid" in out or "unknown card symbol 'Z' at position 3" in out
    assert "went out: the" in out and "Stake: bid" in out
    assert "At the first lead" in out and "Score: " in out
    assert "Goodbye. Final score:" in out


def test_play_records_replay(tmp_path: Path) -> None:
    records = tmp_path / "hands.jsonl"
    script = ["pass"] * 400
    CliRunner().invoke(
        cli,
        ["play", "--seed", "9", "--seat", "2", "--record", str(records)],
        input="\n".join(script),
    )
    assert records.read_text()
    result = CliRunner().invoke(cli, ["replay", str(records), "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["valid"] is True


def test_a_record_that_names_no_rules_is_bad_input_saying_so(tmp_path: Path) -> None:
    """It said "made under the rules None (None)" and exit 1, as if the record were tampered with."""
    records = tmp_path / "hands.jsonl"
    CliRunner().invoke(cli, ["simulate", "--games", "1", "--record", str(records), "--json"])
    record = json.loads(records.read_text().splitlines()[0])
    del record["rules"]
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(record))
    result = CliRunner().invoke(cli, ["replay", str(bare)])
    assert result.exit_code == 2 and "None" not in result.output
    assert "it names no rules" in result.output


def test_replay_command_rejects_a_tampered_record(tmp_path: Path) -> None:
    record = json.loads(HANDS.read_text().splitlines()[0])
    record["result"]["stake"] = 99
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1 and result.stdout.startswith(
        "invalid: record 1: the recorded result"
    )


def test_simulate_a_thousand_games() -> None:
    result = CliRunner().invoke(cli, ["simulate", "--games", "1000", "--seed", "1", "--json"])
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["games"] == 1000
    roles = report["win_rate_by_role"]
    assert roles["landlord"] + roles["peasants"] == pytest.approx(1.0)
    assert report["spring_taken"] <= report["spring_available_at_first_lead"]
    assert report["springs"] >= report["spring_taken"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(first_bidder=3), "the first bidder is seat 0, 1 or 2, not 3"),
        (
            lambda r: r.update(seed="7"),
            "not a game record: missing or wrong seed '7': a whole number",
        ),
        (lambda r: r["auction"][0].update(seat=True), "seat True: a whole number"),
        (
            lambda r: r.update(format="other"),
            "not a game record: it needs format 'cpsolver-game', version 1",
        ),
        (
            lambda r: r["rules"].update(name="rlcard"),
            (
                "the record was made under the rules 'rlcard' (bedbf32deade5785), not 'standard' "
                "(bedbf32deade5785): replay it with --rules rlcard"
            ),
        ),
    ],
)
def test_records_with_impossible_values_are_refused(change: object, message: str) -> None:
    record = json.loads(HANDS.read_text().splitlines()[1])
    change(record)  # type: ignore[operator]
    with pytest.raises(IllegalActionError) as caught:
        replay(record)
    assert message in str(caught.value)


def test_a_seat_out_of_range_cannot_bid() -> None:
    game = Game.deal(3, first_bidder=0)
    with pytest.raises(IllegalActionError, match="it is seat 0's turn to bid, not seat -1's"):
        game.make_bid(-1, 1)


def test_replay_of_an_empty_file_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert (result.exit_code, result.stderr) == (2, f"Error: {path}: no game records in it\n")


def test_cards_with_two_readings_can_be_played_and_replayed() -> None:
    """Under DouZero's rules 333444555666 reads three ways; the game picks one, the same every time."""
    from cpsolver.io.rulefiles import load_rules

    rules = load_rules("douzero")
    game = Game.deal(1, 0, rules)
    game.make_bid(0, 3)
    chain = Hand.parse("333444555666")
    game.hands[0] = chain + Hand.parse("789")
    led = game.play(0, chain)
    assert led is not None and led.kind.value == "triplet_sequence"


def test_q_plays_a_queen_and_only_quit_quits() -> None:
    script = ["pass"] + ["Q", "q", "pass"] * 100
    result = CliRunner().invoke(
        cli, ["play", "--seed", "7", "--seat", "1"], input="\n".join(script) + "\n"
    )
    assert result.exit_code == 0
    assert result.output.count("Goodbye") == 1
    assert "went out" in result.output or "thrown in" in result.output


def test_simulate_when_every_hand_is_thrown_in() -> None:
    result = CliRunner().invoke(cli, ["simulate", "--games", "1", "--seed", "14"])
    assert result.exit_code == 0 and "win rate by role: landlord n/a" in result.output


@pytest.mark.parametrize("passes", [0, 1, 3, 8, 30])
def test_quitting_mid_hand_records_the_hand_so_far_unfinished(tmp_path: Path, passes: int) -> None:
    # issue 27: quitting wrote nothing. Any number of answers, then quit: the hand in play
    # is recorded as far as it went, marked unfinished, and replay and show say so in a line.
    records = tmp_path / "hands.jsonl"
    script = ["pass"] * passes + ["quit"]
    done = CliRunner().invoke(
        cli,
        ["play", "--seed", str(passes), "--seat", "0", "--record", str(records)],
        input="\n".join(script) + "\n",
    )
    assert done.exit_code == 0, done.output
    written = [json.loads(line) for line in records.read_text().splitlines()]
    last = written[-1]
    assert last["unfinished"] is True and last["result"] is None
    assert all("unfinished" not in record for record in written[:-1])
    with pytest.raises(IllegalActionError, match="an unfinished hand"):
        replay(last)
    assert replay(last, unfinished=True).phase in ("auction", "play")
    shown = CliRunner().invoke(cli, ["replay", str(records)])
    assert shown.exit_code == 0
    assert re.fullmatch(
        rf"hand {len(written)} \(seed \d+\): an unfinished hand \(left (in the auction|after "
        r"1 play or pass|after \d+ plays and passes)\), not scored",
        shown.stdout.splitlines()[-1],
    ), shown.stdout
    as_json = CliRunner().invoke(cli, ["replay", str(records), "--json"])
    assert json.loads(as_json.stdout)["replayed"][-1]["unfinished"] is True
    drawn = CliRunner().invoke(cli, ["show", str(records)])
    assert drawn.exit_code == 0 and "an unfinished hand" in drawn.stdout
    assert "Traceback" not in drawn.output
