"""Fair agents decide from what their seat sees: hidden hands dealt otherwise change nothing."""

from __future__ import annotations

import copy
import random

import pytest

from cpsolver.game.agents import make_agent
from cpsolver.game.bots import Bot
from cpsolver.game.engine import Game
from cpsolver.game.evaluate import seeded_deals, start_game
from cpsolver.game.view import sample_hands, view_of
from cpsolver.rules.cards import Hand
from cpsolver.rules.ruleset import standard_rules


def positions(count: int, seed: int) -> list[Game]:
    """Positions at every turn of bot games on seeded deals (copies, to be changed freely)."""
    found = []
    rules = standard_rules()
    for number, deal in enumerate(seeded_deals(seed, count)):
        game = start_game(deal, number, rules)
        bots = [Bot(seat, rules) for seat in range(3)]  # the quick bot: positions, not decisions
        while game.phase == "play":
            found.append(copy.deepcopy(game))
            play = bots[game.turn].choose_play(game)
            game.play(game.turn, play.cards if play else None)
    return found


def hidden_redealt(game: Game, rng: random.Random) -> Game:
    """The same position with the cards the seat to act cannot see dealt out again."""
    other = copy.deepcopy(game)
    other.hands = sample_hands(view_of(game, game.turn), rng)
    return other


POSITIONS = positions(3, seed=11)


def test_redealing_keeps_what_the_seat_sees() -> None:
    rng = random.Random(1)
    for game in POSITIONS[::5]:
        other = hidden_redealt(game, rng)
        assert view_of(other, game.turn) == view_of(game, game.turn)
        assert sum((h for h in other.hands), Hand.empty()) == sum(
            (h for h in game.hands), Hand.empty()
        )


@pytest.mark.parametrize("name", ["cpsolver", "cpsolver-heuristic", "random", "rlcard"])
def test_fair_agents_ignore_hidden_hands(name: str) -> None:
    rng = random.Random(2)
    for game in POSITIONS:
        agent = make_agent(name, game.turn)
        expected = agent.choose_play(game)
        assert agent.choose_play(hidden_redealt(game, rng)) == expected


def test_the_open_analyst_does_look() -> None:
    # The test above has teeth: the all-seeing bot changes its mind on some position.
    rng = random.Random(3)
    changed = 0
    for game in positions(30, seed=5)[::2]:
        if game.turn != game.landlord or not game.leading:
            continue
        agent = make_agent("cpsolver-open", game.turn)
        expected = agent.choose_play(game)
        changed += any(agent.choose_play(hidden_redealt(game, rng)) != expected for _ in range(4))
    assert changed


@pytest.mark.parametrize("name", ["cpsolver", "cpsolver-heuristic", "random", "rlcard"])
def test_fair_bids_ignore_hidden_hands(name: str) -> None:
    rng = random.Random(4)
    for seed in range(12):
        game = Game.deal(seed, first_bidder=seed % 3)
        if seed % 2:
            game.make_bid(game.turn, 1)
        view = view_of(game, game.turn)
        agent = make_agent(name, game.turn)
        expected = agent.choose_bid(game)
        for _ in range(3):
            other = copy.deepcopy(game)
            other.hands = sample_hands(view, rng)
            other.bottom = Hand.deck() - sum(other.hands, Hand.empty())
            assert view_of(other, game.turn) == view
            assert agent.choose_bid(other) == expected
