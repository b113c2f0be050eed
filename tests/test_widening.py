"""Widening (``Tree.proves``, ``Tree.decide``): what a narrow search settles is exact, on both cores.

The verdicts are held to the brute-force minimax of ``endgame_reference``,
which shares no code with the solver: the root's, and every position the
narrow search left settled in the table (each one a later search trusts).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from endgame_reference import winner
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.endgame import compiled, tree
from cpsolver.endgame.answer import new_search, solve
from cpsolver.endgame.proof import strategy_proof_text
from cpsolver.endgame.solver import state_of
from cpsolver.endgame.tree import OPEN, PASS, PROVEN, REFUTED, WIDTHS, Tree
from cpsolver.io.positiongen import random_position
from cpsolver.rules.movegen import generator
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import standard_rules
from cpsolver.verify.strategy import check_strategy

ROOT = Path(__file__).resolve().parents[1]
CORES = ["python", *(["compiled"] if compiled.available() else [])]
needs_core = pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")


def _small(seed: int, three: bool) -> Position:
    """A position the brute force settles in well under a second, half of them mid-trick."""
    sizes = ((1, 5), (1, 5), (1, 5)) if three else ((1, 7), (1, 7))
    return random_position(random.Random(seed), sizes, 0.5)


def _truth(position: Position) -> int:
    return winner(position.hands, position.turn, position.table, position.by)


def _settled_positions(
    search: Tree, root: Position, most: int = 400
) -> list[tuple[Position, bool]]:
    """Positions reachable from ``root`` that the table settled, with the verdict it holds."""
    found, seen, frontier = [], {root}, [root]
    moves = generator()
    while frontier and len(seen) < most:
        position = frontier.pop()
        settled = search.settled(state_of(search, position))
        if settled is not None:
            found.append((position, settled))
        for play in moves.moves(position.hands[position.turn], position.table):
            after = position.after(play)
            if after is not None and after not in seen:
                seen.add(after)
                frontier.append(after)
    return found


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    three=st.booleans(),
    core=st.sampled_from(CORES),
    prover=st.integers(0, 1),
    width=st.integers(1, 4),
)
def test_a_narrow_search_proves_and_refutes_only_what_brute_force_agrees_with(
    seed: int, three: bool, core: str, prover: int, width: int
) -> None:
    position = _small(seed, three)
    search = new_search(position.players, core=core)
    found = search.proves(*state_of(search, position), prover, width)
    truth = _truth(position)
    if found == PROVEN:
        assert truth == prover
    elif found == REFUTED:
        assert truth != prover
    else:
        assert found == OPEN
    # Whatever it left in the table, open or not, later searches read as exact.
    for settled, mover_wins in _settled_positions(search, position):
        mover = settled.side_of(settled.turn)
        assert _truth(settled) == (mover if mover_wins else 1 - mover), settled


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), three=st.booleans(), core=st.sampled_from(CORES))
def test_a_width_past_every_move_leaves_nothing_open(seed: int, three: bool, core: str) -> None:
    """With every move tried, the narrow search is the full one: it proves or refutes."""
    position = _small(seed, three)
    truth = _truth(position)
    for prover in (0, 1):
        search = new_search(position.players, core=core)
        found = search.proves(*state_of(search, position), prover, 10**6)
        assert found == (PROVEN if truth == prover else REFUTED)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), three=st.booleans(), core=st.sampled_from(CORES))
def test_deciding_by_widening_gives_the_brute_force_verdict(
    seed: int, three: bool, core: str
) -> None:
    position = _small(seed, three)
    search = new_search(position.players, core=core)
    mover_wins, width = search.decide(state_of(search, position))
    mover = position.side_of(position.turn)
    assert (mover if mover_wins else 1 - mover) == _truth(position)
    assert width is None or width in WIDTHS


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), core=st.sampled_from(CORES))
def test_deciding_move_by_move_gives_the_brute_force_verdict_and_a_proof(
    seed: int, core: str
) -> None:
    """Split from the first width on: every three-player position decided move by move, its
    own entry stored after, so the strategy read from the table is a proof the checker accepts."""
    position = _small(seed, three=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tree, "SPLIT_PAST", 0)
        result = solve(position, strategy=True, core=core)
    assert result.winner == _truth(position)
    tried = result.stats["split"]
    assert 1 <= tried <= len(generator().moves(position.hands[position.turn], position.table))
    assert result.strategy is not None
    proof = json.loads(strategy_proof_text(result, standard_rules()))
    assert check_strategy(proof, position, standard_rules()) is None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), core=st.sampled_from(CORES))
def test_a_split_decides_the_moves_in_the_search_order_up_to_the_first_that_wins(
    seed: int, core: str
) -> None:
    """Each move before the first winning one settled in the table as a loss for the mover,
    as the brute force has it, the winning one as a win, and there the split stops."""
    position = _small(seed, three=True)
    search = new_search(position.players, core=core)
    root = state_of(search, position)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tree, "SPLIT_PAST", 0)
        mover_wins, _ = search.decide(root)
    mover = position.side_of(position.turn)
    decided = search.tried_moves(root)[: search.split_moves]
    assert decided and search.settled(root) == mover_wins
    for number, move in enumerate(decided, 1):
        child = search.successor(root, move)
        if child is None:  # the move empties the mover's hand: a win, and the last decided
            assert number == len(decided) and mover_wins
            continue
        after = position.after(search.play(move) if move != PASS else None)
        assert after is not None
        child_mover_wins = search.settled(child)
        wins_for_mover = child_mover_wins == (search.side[child[1]] == mover)
        assert wins_for_mover == (_truth(after) == mover)
        assert wins_for_mover == (number == len(decided) and mover_wins)


@pytest.mark.parametrize("core", CORES)
def test_two_player_positions_are_never_split(core: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tree, "SPLIT_PAST", 0)
        result = solve(Position.parse(["3559QK2", "TTJK"]), core=core)
    assert result.stats["split"] == 0 and result.winner == 0


@pytest.mark.parametrize("core", CORES)
def test_an_open_node_is_open_for_its_question_only(core: str) -> None:
    """Left open at width 1, the root is searched again, and won, at width 2 by the same search."""
    position = Position.parse(
        ["3559QK2", "TTJK"]
    )  # the orderer's first lead loses, its second wins
    search = new_search(2, core=core)
    root = state_of(search, position)
    assert search.proves(*root, 0, 1) == OPEN
    assert search.settled(root) is None
    assert search.proves(*root, 0, 2) == PROVEN
    assert search.settled(root) is True and _truth(position) == 0


@pytest.mark.parametrize("core", CORES)
def test_a_move_the_opponents_must_pass_to_is_read_past_the_passes(core: str) -> None:
    """The search stores no position of a forced pass: a finished search still knows every
    first move's result, those after which nobody can answer (9, J, 2, 22) too, as the brute
    force has them."""
    position = Position.parse(["22 3 5 7 9 J", "4 6 8", "T Q K"])
    search = new_search(3, core=core)
    root = state_of(search, position)
    assert search.wins(*root) is False
    known = search.move_winners(root)
    assert sorted(known) == sorted(search.legal(root))
    for move, side in known.items():
        after = position.after(search.play(move))
        assert after is not None and side == _truth(after)


def test_the_stats_say_which_width_decided() -> None:
    result = solve(Position.parse(["KK 3", "QQ 4"]))
    assert result.stats["width"] == 1 and result.winner == 0


@needs_core
@pytest.mark.parametrize("three", [False, True])
def test_both_cores_search_the_same_nodes_to_the_same_narrow_verdicts(three: bool) -> None:
    rng = random.Random(11 if three else 7)
    sizes = ((6, 10), (5, 9), (5, 9)) if three else ((8, 13), (8, 13))
    for _ in range(12):
        position = random_position(rng, sizes, 0.5)
        searches = [new_search(position.players, core=core) for core in ("python", "compiled")]
        for width in (1, 2, 3):
            for prover in (0, 1):
                found = [s.proves(*state_of(s, position), prover, width) for s in searches]
                assert found[0] == found[1], (position, prover, width)
                assert searches[0].nodes == searches[1].nodes, (position, prover, width)


def test_the_open_hands_page_shows_the_widening_benchmark_as_measured() -> None:
    """The table on docs/open-hands.md is benchmarks/widening.py's, from its results file."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import widening

    page = (ROOT / "docs" / "open-hands.md").read_text()
    results = json.loads((ROOT / "benchmarks" / "results" / "widening.json").read_text())
    # Stale? python benchmarks/widening.py --json benchmarks/results/widening.json --page docs/open-hands.md
    assert widening.rewritten(page, results) == page
    assert {row["group"] for row in results["rows"]} >= {"three players, 12/10/10"}
