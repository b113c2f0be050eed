"""A peasant alone (``cpsolver.endgame.alone``): where one peasant beats the landlord in the
two-player game, its partner always passing, the peasants win the three-player one.

The lemma is held to the brute-force minimax of ``endgame_reference`` (which
shares no code with the solver) on generated positions under every bundled
rule set, the two-player game written here from its statement; the question
the search asks is held to the same brute force, stopped and resumed as the
search asks it; and solves the question decides (made to ask it at once) give
the brute-force verdict, proofs the checker accepts, and the same nodes on
both cores.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import endgame_reference
import pytest
from endgame_reference import winner, winning_moves
from hypothesis import given, settings
from hypothesis import strategies as st
from test_outranked import _loose, _rules

from cpsolver.endgame import alone, compiled
from cpsolver.endgame.alone import AloneQuestion
from cpsolver.endgame.answer import new_search, solve
from cpsolver.endgame.proof import strategy_proof_text
from cpsolver.endgame.searchcore import PASS
from cpsolver.endgame.solver import state_of
from cpsolver.io.positiongen import random_position
from cpsolver.rules.cards import Hand
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import standard_rules
from cpsolver.verify.strategy import check_strategy

RULE_SETS = ("standard", "douzero", "rlcard")


@pytest.fixture(autouse=True)
def _reference_forgotten() -> Iterator[None]:
    """The brute force's memo emptied after each test: the Python core's memory cap reads
    the process's memory, and what a test worker keeps counts against later tests."""
    yield
    endgame_reference._winner.cache_clear()


CORES = ["python", *(["compiled"] if compiled.available() else [])]

Game = tuple[tuple[Hand, ...], int, Play | None, int | None]


def _duel(position: Position, peasant: int) -> Game | None:
    """The two-player game of the landlord (hand 0) against ``peasant`` (hand 1), its partner
    passing from here on; None where the partner made the play on the table or is on lead."""
    partner = 3 - peasant
    if position.by == partner or (position.turn == partner and position.table is None):
        return None
    if position.turn == partner:
        after = position.after(None)
        assert after is not None
        position = after
    number = {0: 0, peasant: 1}
    by = None if position.by is None else number[position.by]
    return (position.hands[0], position.hands[peasant]), number[position.turn], position.table, by


def _outcomes(position: Position, rules_name: str) -> list[tuple[int, int]]:
    """For each peasant whose question applies: who wins its duel, and who wins the game."""
    rules = _rules(rules_name)
    found = []
    for peasant in (1, 2):
        duel = _duel(position, peasant)
        if duel is not None:
            game = winner(position.hands, position.turn, position.table, position.by, rules)
            found.append((winner(*duel, rules), game))
    return found


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULE_SETS))
def test_a_peasant_who_beats_the_landlord_alone_wins_with_its_partner(
    seed: int, rules: str
) -> None:
    for duel, game in _outcomes(_loose(seed, 3), rules):
        assert duel == 0 or game == 1


def test_the_lemma_is_held_to_many_duels_the_peasant_wins_and_a_landlords_win_says_nothing() -> (
    None
):
    """Over many positions: the peasants win every game whose duel a peasant wins; and some
    games the peasants win have no duel a peasant wins (so the search never reads a
    landlord's duel as the landlord's game)."""
    duels_won = games_won_otherwise = 0
    for seed in range(400):
        outcomes = _outcomes(_loose(seed, 3), "standard")
        duels_won += sum(duel == 1 for duel, _ in outcomes)
        if outcomes and all(duel == 0 for duel, _ in outcomes) and outcomes[0][1] == 1:
            games_won_otherwise += 1
    assert duels_won > 40 and games_won_otherwise > 5, (duels_won, games_won_otherwise)


@pytest.mark.parametrize("core", CORES)
def test_the_question_answers_as_brute_force_does_stopped_and_resumed(core: str) -> None:
    """Asked 64 nodes at a time, each question of a small position answers as its duel's
    brute force does; where the peasant wins, the state's result is kept, its move one of
    the brute force's winning moves (or the partner's pass)."""
    rules = standard_rules()
    asked = won = 0
    for seed in range(100):
        position = _loose(seed, 3)
        search = new_search(3, rules, core=core)
        state = state_of(search, position)
        for question in AloneQuestion.of(search, state):
            duel = _duel(position, question.peasant)
            assert duel is not None
            answer, _ = _asked_in_pieces(question)
            asked += 1
            assert answer == (winner(*duel, rules) == 1), position
            if not answer:
                continue
            won += 1
            kept = search.lookup(state)
            if position.turn == 0:
                assert kept is None, position
            elif position.turn == question.passive:
                assert kept == PASS, position
            else:
                move = None if kept == PASS else search.play(kept)  # type: ignore[arg-type]
                best = winning_moves(position.hands, position.turn, position.table, position.by)
                assert move in best, position
    assert asked > 120 and won > 20, (asked, won)


def _asked_in_pieces(question: AloneQuestion) -> tuple[bool, int]:
    """A question's answer, asked 64 nodes at a time, and how many pieces it took."""
    answer, pieces = None, 0
    while answer is None:
        answer, pieces = question.ask(64), pieces + 1
    return answer, pieces


@pytest.mark.parametrize("core", CORES)
def test_a_question_stopped_and_resumed_answers_as_one_asked_at_once(core: str) -> None:
    """On larger positions (too large for brute force), a question asked in pieces answers
    as the same question asked at once."""
    rules, resumed = standard_rules(), 0
    for seed in range(30):
        position = random_position(random.Random(seed), ((7, 9), (6, 8), (6, 8)), 0.3)
        searches = [new_search(3, rules, core=core) for _ in range(2)]
        states = [state_of(search, position) for search in searches]
        in_pieces, at_once = (AloneQuestion.of(s, state) for s, state in zip(searches, states))
        for piecemeal, whole in zip(in_pieces, at_once):
            answer, pieces = _asked_in_pieces(piecemeal)
            assert answer == whole.ask(10**9), position
            resumed += pieces > 1
    assert resumed > 10


@pytest.fixture
def asked_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The questions asked from the search's first nodes, and given four times its nodes: so
    small positions are decided by them."""
    monkeypatch.setattr(alone, "LEAST_STEP", 1)
    monkeypatch.setattr(alone, "ALONE_SHARE", 4.0)


def _settled_alone(
    core: str, seeds: range, sizes: tuple[tuple[int, int], ...]
) -> list[tuple[Position, object]]:
    """The generated positions a solve decided by a peasant alone, with their results."""
    found = []
    for seed in seeds:
        position = random_position(random.Random(seed), sizes, 0.3)
        result = solve(position, core=core, memory=None)
        if result.stats["alone"]:
            assert result.stats["width"] == 0
            found.append((position, result))
    return found


@pytest.mark.usefixtures("asked_at_once")
@pytest.mark.parametrize("core", CORES)
def test_a_solve_a_peasant_alone_decides_gives_the_brute_force_verdict(core: str) -> None:
    decided = _settled_alone(core, range(60), ((3, 5), (3, 4), (3, 4)))
    for position, result in decided:
        expected = winner(position.hands, position.turn, position.table, position.by)
        assert result.winner == expected == 1, position  # type: ignore[attr-defined]
    assert len(decided) > 5


@pytest.mark.usefixtures("asked_at_once")
@pytest.mark.parametrize("core", CORES)
def test_the_strategy_of_a_position_a_peasant_alone_won_is_a_proof(core: str) -> None:
    """Its read-out finds every peasant's move written from the two-player strategy, the
    landlord's every reply answered, and the checker accepts it."""
    decided = _settled_alone(core, range(40), ((5, 7), (5, 6), (5, 6)))
    for position, result in decided:
        proof = json.loads(strategy_proof_text(result, standard_rules()))  # type: ignore[arg-type]
        assert check_strategy(proof, position, standard_rules()) is None, position
        assert result.line  # type: ignore[attr-defined]
    assert len(decided) > 3


@pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")
@pytest.mark.usefixtures("asked_at_once")
def test_both_cores_ask_the_same_questions_node_for_node() -> None:
    compared = 0
    for seed in range(30):
        position = random_position(random.Random(seed), ((7, 9), (6, 8), (6, 8)), 0.3)
        results = [
            solve(position, core=core, strategy=False, memory=None)
            for core in ("python", "compiled")
        ]
        for key in ("nodes", "alone", "alone_nodes"):
            assert results[0].stats[key] == results[1].stats[key], (position, key)
        assert results[0].winner == results[1].winner, position
        compared += bool(results[0].stats["alone"])
    assert compared > 3


def test_two_players_ask_no_such_question() -> None:
    search = new_search(2, standard_rules())
    position = Position.parse(["KK3", "QQ4"])
    assert AloneQuestion.of(search, state_of(search, position)) == []
    assert solve(position).stats["alone"] == 0
