"""The second move order of the narrow questions: the landlord's next player passing first."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_kickers import CORES

from cpsolver.endgame import compiled
from cpsolver.endgame.answer import new_search
from cpsolver.endgame.compiled import CompiledSearch
from cpsolver.endgame.solver import Search, state_of
from cpsolver.endgame.tree import (
    OPEN,
    ORDER_DEFAULT,
    ORDER_LEFT_PASSES,
    PASS,
    PROVEN,
    REFUTED,
    State,
    Tree,
)
from cpsolver.io.positiongen import random_position
from cpsolver.rules.position import Position

needs_core = pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")


def _after_the_landlords_lead(search: Tree) -> tuple[State, State]:
    """Player 1 to answer the landlord's single 3, then player 2 to answer it."""
    position = Position.parse(["3 5 K", "4 9 A", "6 T 2"], turn=0)
    root = state_of(search, position)
    three = next(m for m in search.legal(root) if str(search.play(m)) == "3")
    first = search.successor(root, three)
    assert first is not None
    second = search.successor(first, PASS)
    assert second is not None and first[1] == 1 and second[1] == 2
    return first, second


def test_only_the_landlords_next_player_passes_first_in_the_second_order() -> None:
    search = Search(3)
    first, second = _after_the_landlords_lead(search)
    assert search.tried_moves(first)[-1] == PASS and search.tried_moves(second)[-1] == PASS
    search.order = ORDER_LEFT_PASSES
    assert search.tried_moves(first)[0] == PASS  # it leaves the landlord's play to its partner
    assert search.tried_moves(second)[-1] == PASS  # the last to answer still passes last


def test_two_players_have_one_order() -> None:
    search = Search(2)
    root = state_of(search, Position.parse(["3 5", "4 9"], turn=0))
    answering = search.successor(root, next(iter(search.legal(root))))
    assert answering is not None
    search.order = ORDER_LEFT_PASSES
    assert search.tried_moves(answering)[-1] == PASS


def _positions(count: int, seed: str) -> list[Position]:
    rng = random.Random(seed)
    return [random_position(rng, ((2, 8), (2, 7), (2, 7)), 0.5) for _ in range(count)]


def _questions(search: Tree, position: Position) -> list[object]:
    """Every narrow question of the position, in both orders, with its node count so far."""
    state = state_of(search, position)
    found: list[object] = []
    for order in (ORDER_DEFAULT, ORDER_LEFT_PASSES):
        for prover in (0, 1):
            for width in (1, 2):
                found.append((search.proves(*state, prover, width, False, order), search.nodes))
    return found


@pytest.mark.parametrize("core", CORES)
def test_a_question_in_either_order_that_decides_agrees_with_the_full_search(core: str) -> None:
    for position in _positions(60, "orders-exact"):
        exact = Search(3)
        winner_side = exact.side[position.turn] if exact.wins(*state_of(exact, position)) else None
        search = new_search(3, core=core)
        state = state_of(search, position)
        mover = search.side[state[1]]
        for order in (ORDER_DEFAULT, ORDER_LEFT_PASSES):
            for prover in (0, 1):
                for width in (1, 2, 6):
                    found = search.proves(*state, prover, width, False, order)
                    assert search.order == ORDER_DEFAULT  # a question leaves the order as it was
                    if found == OPEN:
                        continue
                    prover_wins = found == PROVEN
                    mover_wins = prover_wins == (prover == mover)
                    assert mover_wins == (winner_side == mover), (position, order, prover, width)
                    assert found in (PROVEN, REFUTED)


@needs_core
def test_both_cores_ask_the_second_order_node_for_node() -> None:
    for position in _positions(60, "orders-cores"):
        assert _questions(CompiledSearch(3), position) == _questions(Search(3), position), position


@pytest.mark.parametrize("core", CORES)
def test_an_unknown_order_is_refused(core: str) -> None:
    search = new_search(3, core=core)
    state = state_of(search, _positions(1, "orders-bad")[0])
    with pytest.raises(ValueError):
        search.proves(*state, 0, 1, False, 2)


def _record_orders(search: Tree, seen: set[int]) -> None:
    """Record in ``seen`` the move order of every narrow question ``search`` asks."""
    ask = search._ask

    def asked(state: State, question: tuple[int, int], *rest: Any) -> int | None:
        seen.add(question[1])
        return ask(state, question, *rest)

    search._ask = asked  # type: ignore[method-assign]


@pytest.mark.parametrize("core", CORES)
def test_decided_without_the_second_order_its_questions_are_in_one_order_and_agree(
    core: str,
) -> None:
    rng = random.Random("orders-one")
    seen: dict[bool, set[int]] = {False: set(), True: set()}
    for _ in range(30):
        position = random_position(rng, ((6, 9), (5, 8), (5, 8)), 0.3)
        exact = Search(3)
        mover_wins = exact.wins(*state_of(exact, position))
        for second_order in (False, True):
            search = new_search(3, core=core)
            _record_orders(search, seen[second_order])
            decided = search.decide(state_of(search, position), second_order=second_order)
            assert decided[0] == mover_wins, position
    assert seen == {False: {ORDER_DEFAULT}, True: {ORDER_DEFAULT, ORDER_LEFT_PASSES}}
