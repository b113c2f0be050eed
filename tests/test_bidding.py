"""Bidding with the spring odds: the bots, the auction hint, and simulate's report."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.game.bidding import MOST_PLAYS_ESTIMATED, fewest_plays, odds_bid, spring_odds
from cpsolver.game.bots import Bot, strength
from cpsolver.game.engine import Game
from cpsolver.rules.cards import Hand
from cpsolver.rules.ruleset import standard_rules

CHAIN_HAND = Hand.parse("333444555666 789TJ")  # no 2, no joker, no bomb: weak by strength alone


def game_with(hand: Hand) -> Game:
    rest = list((Hand.deck() - hand).ranks())
    hands = [hand, Hand.from_ranks(rest[:17]), Hand.from_ranks(rest[17:34])]
    game = Game(0, 0, hands, Hand.from_ranks(rest[34:]), standard_rules())
    game.original = list(hands)
    return game


def test_a_weak_looking_hand_with_spring_chances_is_bid_up() -> None:
    game = game_with(CHAIN_HAND)
    assert strength(CHAIN_HAND) < 2.5  # would pass on strength
    odds = spring_odds(CHAIN_HAND)
    assert odds >= 0.10
    assert Bot(0).choose_bid(game) == odds_bid(odds) == 3


def test_the_estimate_is_seeded_by_the_hand_and_skips_long_hands() -> None:
    assert spring_odds(CHAIN_HAND) == spring_odds(Hand.parse("J T 9 8 7 666 555 444 333"))
    scattered = Hand.parse("3 5 7 9 J K 2 44 66 88 QQ AA")
    assert fewest_plays(scattered) > MOST_PLAYS_ESTIMATED and spring_odds(scattered) == 0.0


def test_odds_bid_thresholds() -> None:
    assert [odds_bid(p) for p in (0.0, 0.019, 0.02, 0.099, 0.1, 1.0)] == [0, 0, 2, 2, 3, 3]


def test_simulate_reports_bids_against_the_odds() -> None:
    result = CliRunner().invoke(cli, ["simulate", "--games", "30", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    by_bid = report["by_bid"]
    assert sum(row["hands"] for row in by_bid.values()) == report["games"] - report["thrown_in"]
    assert sum(row["springs"] for row in by_bid.values()) == report["springs"]
    assert all(0 <= row["mean_spring_odds"] <= 1 for row in by_bid.values())
    text = CliRunner().invoke(cli, ["simulate", "--games", "30", "--seed", "2"]).output
    assert "the landlord's estimated spring odds" in text


def test_the_auction_hint_shows_the_spring_odds() -> None:
    script = ["hint", "pass"] + ["pass"] * 200
    result = CliRunner().invoke(
        cli, ["play", "--seed", "4", "--seat", "0"], input="\n".join(script) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert "hint: spring odds about" in result.output
