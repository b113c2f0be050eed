"""The open-hand solver against a brute-force minimax, its proofs against the strategy checker."""

from __future__ import annotations

import json

import pytest
from endgame_reference import winner, winning_moves
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsolver.endgame import PASS, Position, solve
from cpsolver.endgame.proof import build_strategy_proof
from cpsolver.endgame.solver import NO_TABLE, Search, pack
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.cards import DECK_COUNTS, Deal, Hand
from cpsolver.rules.movegen import plays
from cpsolver.rules.plays import Play
from cpsolver.rules.ruleset import standard_rules
from cpsolver.spring.engines import solve_with
from cpsolver.spring.result import Verdict
from cpsolver.verify.strategy import check_strategy

DECK = [r for r, count in enumerate(DECK_COUNTS) for _ in range(count)]


@st.composite
def positions(draw: st.DrawFn, players: int | None = None, most: int = 5) -> Position:
    """Small positions of two or three hands, some in the middle of a trick."""
    players = players or draw(st.sampled_from((2, 3)))
    sizes = [draw(st.integers(1, most)) for _ in range(players)]
    cards = draw(st.permutations(DECK))
    hands, start = [], 0
    for size in sizes:
        hands.append(Hand.from_ranks(cards[start : start + size]))
        start += size
    turn = draw(st.integers(0, players - 1))
    table: Play | None = None
    by = None
    if draw(st.booleans()):
        rest = Hand.from_ranks(cards[start : start + 8])
        choices = plays(rest)
        if choices:
            table = draw(st.sampled_from(choices))
            by = draw(st.sampled_from([p for p in range(players) if p != turn]))
    return Position(tuple(hands), turn, table, by)


def _reference(position: Position) -> int:
    return winner(position.hands, position.turn, position.table, position.by)


def _proved(position: Position, rules_name: str = "standard") -> None:
    """Solve, then check the strategy proof with the checker, through JSON."""
    rules = load_rules(rules_name)
    result = solve(position, rules)
    document = json.loads(json.dumps(build_strategy_proof(result, rules)))
    assert check_strategy(document, position, rules) is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_winner_matches_brute_force(position: Position) -> None:
    result = solve(position)
    assert result.winner == _reference(position)
    assert result.mover_wins == (result.winner == position.side_of(position.turn))
    assert bool(result.moves) == result.mover_wins


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(most=7), st.booleans())
def test_without_the_strategy_the_verdict_and_moves_are_the_same(
    position: Position, all_moves: bool
) -> None:
    """strategy=False skips reading the strategy out (batches, splits, advice), nothing else."""
    whole = solve(position, all_moves=all_moves)
    bare = solve(position, all_moves=all_moves, strategy=False)
    assert (bare.winner, bare.moves) == (whole.winner, whole.moves)
    assert bare.winner == _reference(position)
    assert bare.line == [] and bare.strategy is None and "strategy_nodes" not in bare.stats
    assert whole.line and whole.strategy is not None
    # The search to the verdict is the same; reading the strategy out may search further.
    assert bare.stats["search_nodes"] == bare.stats["nodes"] == whole.stats["search_nodes"]
    assert whole.stats["search_nodes"] <= whole.stats["nodes"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(most=4))
def test_every_winning_move_is_found_and_none_else(position: Position) -> None:
    result = solve(position, all_moves=True)
    expected = winning_moves(position.hands, position.turn, position.table, position.by)
    found = {None if m is PASS else m for m in result.moves}
    assert found == set(expected)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(most=6))
def test_every_proof_verifies(position: Position) -> None:
    _proved(position)


@pytest.mark.parametrize("rules_name", ["rlcard", "douzero"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(most=5))
def test_other_rule_sets(position: Position, rules_name: str) -> None:
    rules = load_rules(rules_name)
    expected = winner(position.hands, position.turn, position.table, position.by, rules)
    assert solve(position, rules).winner == expected
    _proved(position, rules_name)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(players=3, most=8))
def test_landlord_on_lead_wins_whenever_he_has_a_spring(position: Position) -> None:
    """Where the questions coincide: a spring is a win; the open-hand solver may find more."""
    lead = Position(position.hands, 0)
    deal = Deal(*lead.hands)
    spring = solve_with("search", deal).verdict is Verdict.SPRING
    if spring:
        assert solve(lead).winner == 0


def test_same_answer_every_time() -> None:
    position = Position.parse(["2AKT96554", "BKJT8854"])
    first, second = solve(position), solve(position)
    assert first.as_dict()["moves"] == second.as_dict()["moves"]
    assert first.line == second.line


def test_line_ends_with_the_winner_out() -> None:
    position = Position.parse(["KK 3", "QQ 4"])
    result = solve(position)
    hands = list(position.hands)
    for player, move in result.line:
        if move is not PASS:
            assert isinstance(move, Play)
            hands[player] = hands[player] - move.cards
    assert not hands[result.line[-1][0]]
    assert result.line[-1][0] == 0


def test_a_player_who_cannot_answer_passes_without_a_node() -> None:
    search = Search(3)
    hands = tuple(pack(Hand.parse(h)) for h in ("22", "3", "4"))
    two = search.index(Play.parse("2"))
    # Neither peasant can beat the 2: the landlord leads again.
    assert search.past_forced_passes((hands, 1, two, 0)) == (hands, 0, NO_TABLE, -1)
    # The second peasant can (a joker): the search stops there.
    joker = (hands[0], hands[1], pack(Hand.parse("R")))
    assert search.past_forced_passes((joker, 1, two, 0)) == (joker, 2, two, 0)
    # A player who can answer, or one on lead, is left where it is.
    assert search.past_forced_passes((joker, 2, two, 0)) == (joker, 2, two, 0)
    assert search.past_forced_passes((hands, 1, NO_TABLE, -1)) == (hands, 1, NO_TABLE, -1)
    # The compiled core skips the same passes: both search the same nodes to the same verdict.
    position = Position((Hand.parse("22"), Hand.parse("3"), Hand.parse("4")), 1, Play.parse("2"), 0)
    assert solve(position, core="python").stats["nodes"] == solve(position).stats["nodes"]


def test_time_limit_gives_unknown() -> None:
    position = Position.parse(["RAQQJJT999844", "B22AAT886633"])
    result = solve(position, time_limit=1e-9)
    assert result.winner is None and result.mover_wins is None and not result.moves


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("KK5543", "225543", 0),
        ("RA54333", "B222KQ", 0),
        ("2KKTT77554", "AA8", 1),
        ("RKKQJT9876633", "AAKQJT987", 0),
    ],
)
def test_published_puzzles(first: str, second: str, expected: int) -> None:
    """The four smallest of the public table (WZ403809264/doudizhu_solver), with proofs."""
    position = Position.parse([first, second])
    assert solve(position).winner == expected
    _proved(position)


def test_level_50_first_player_wins_with_the_single_8_only() -> None:
    """The 'expert level 50' puzzle: brute force and the solver agree the 8 is the one winning move."""
    position = Position.parse(["RAQQJJT999844", "B22AAT886633"])
    result = solve(position, all_moves=True)
    assert result.winner == 0
    assert [str(m) for m in result.moves] == ["8"]
    rules = standard_rules()
    assert check_strategy(build_strategy_proof(result, rules), position, rules) is None
