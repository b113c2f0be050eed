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

from cpsolver.endgame import compiled, shares, tree
from cpsolver.endgame.answer import new_search, solve
from cpsolver.endgame.proof import strategy_proof_text
from cpsolver.endgame.solver import state_of
from cpsolver.endgame.tree import OPEN, PASS, PROVEN, REFUTED, WIDTHS, OverBudget, State, Tree
from cpsolver.io.positiongen import random_position
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play
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


def _asked_in_pieces(
    search: Tree,
    state: State,
    prover: int,
    width: int,
    budget: int,
    order: int = tree.ORDER_DEFAULT,
) -> int:
    """A narrow question asked ``budget`` nodes at a time, resumed until it ends."""
    resume = False
    while True:
        found = search._ask(state, (prover, order), width, budget, resume)
        if found is not None:
            return found
        resume = True


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    three=st.booleans(),
    prover=st.integers(0, 1),
    width=st.integers(1, 4),
    budget=st.integers(1, 300),
    order=st.sampled_from((tree.ORDER_DEFAULT, tree.ORDER_LEFT_PASSES)),
)
def test_a_question_stopped_short_and_resumed_answers_as_one_asked_whole(
    seed: int, three: bool, prover: int, width: int, budget: int, order: int
) -> None:
    """In either move order, on both cores alike, node for node."""
    position = _small(seed, three)
    whole = new_search(position.players, core="python")
    expected = whole.proves(*state_of(whole, position), prover, width, False, order)
    nodes = set()
    for core in CORES:
        search = new_search(position.players, core=core)
        root = state_of(search, position)
        assert _asked_in_pieces(search, root, prover, width, budget, order) == expected
        nodes.add(search.nodes)
    assert len(nodes) == 1


@pytest.mark.parametrize("core", CORES)
def test_a_resumed_question_walks_again_little_of_what_it_had_walked(core: str) -> None:
    """Asked 2,000 nodes at a time, a 12/10/10 position's narrow questions cost about what
    they cost asked whole: what a stopped question had left open is not searched again."""
    rng = random.Random(5)
    for _ in range(3):
        position = random_position(rng, ((12, 12), (10, 10), (10, 10)), 0.0)
        for prover in (0, 1):
            whole = new_search(3, core=core)
            expected = whole.proves(*state_of(whole, position), prover, 3)
            pieces = new_search(3, core=core)
            root = state_of(pieces, position)
            assert _asked_in_pieces(pieces, root, prover, 3, 2_000) == expected
            assert pieces.nodes <= 1.1 * whole.nodes + 2_000, (position, prover)


@pytest.mark.parametrize("core", CORES)
def test_a_question_past_its_budget_stops_short_and_the_search_goes_on(core: str) -> None:
    position = Position.parse(["3 4 5 7 9 J K A", "3 4 6 8 T Q", "6 7 8 Q A 2"])
    search = new_search(3, core=core)
    root = state_of(search, position)
    search.node_limit = search.nodes + 1_000
    with pytest.raises(OverBudget):
        search.proves(*root, 1, 10**6)
    search.node_limit = None
    fresh = new_search(3, core=core)
    assert search.decide(root)[0] == fresh.wins(*root)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), three=st.booleans())
def test_deciding_with_questions_stopped_short_gives_the_brute_force_verdict_on_both_cores(
    seed: int, three: bool
) -> None:
    """With the least budget at 64 nodes, narrow questions stop short and resume all the time."""
    position = _small(seed, three)
    mover = position.side_of(position.turn)
    found = set()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shares, "LEAST_BUDGET", 64)
        for core in CORES:
            search = new_search(position.players, core=core)
            mover_wins, width = search.decide(state_of(search, position))
            assert (mover if mover_wins else 1 - mover) == _truth(position)
            found.add((mover_wins, width, search.nodes))
    assert len(found) == 1


class _Scripted(Tree):
    """A tree whose narrow questions cost and answer what a script says: decide's schedule alone.

    ``script[(prover, width)]`` is (nodes, answer) in the search's order;
    ``second[(prover, width)]`` in the second order (10 nodes and OPEN where it is silent).
    A question past its budget stops short there, and one resumed goes on from where it
    stopped. ``asked`` lists (prover, width, resume) of the first order's questions,
    ``asked_second`` of the second's.
    """

    def __init__(
        self,
        script: dict[tuple[int, int], tuple[int, int]],
        second: dict[tuple[int, int], tuple[int, int]] | None = None,
    ) -> None:
        self.players = 3
        self.side = [0, 1, 1]
        self.script = script
        self.second = second or {}
        self.nodes = 0
        self.done: dict[tuple[int, int, int], int] = {}
        self.asked: list[tuple[int, int, bool]] = []
        self.asked_second: list[tuple[int, int, bool]] = []
        self.limits: list[int | None] = []  # the node limit each question was asked under

    def proves(
        self,
        hands: tuple[int, ...],
        turn: int,
        table: int,
        by: int,
        prover: int,
        width: int,
        resume: bool = False,
        order: int = tree.ORDER_DEFAULT,
    ) -> int:
        first = order == tree.ORDER_DEFAULT
        (self.asked if first else self.asked_second).append((prover, width, resume))
        if first:
            self.limits.append(self.node_limit)
            cost, answer = self.script[(prover, width)]
        else:
            cost, answer = self.second.get((prover, width), (10, OPEN))
        done = self.done.get((prover, width, order), 0) if resume else 0
        if self.node_limit is not None and cost - done > self.node_limit - self.nodes:
            self.done[(prover, width, order)] = done + self.node_limit - self.nodes
            self.nodes = self.node_limit
            raise OverBudget
        self.nodes += cost - done
        return answer

    def wins(self, hands: tuple[int, ...], turn: int, table: int, by: int) -> bool:
        raise AssertionError("decided before the full search")


def test_a_costly_question_of_the_losing_side_is_stopped_short_and_the_winner_decides() -> None:
    """The landlord's width-3 question would cost two hundred times the peasants' questions
    that decide: it stops at its share of what theirs cost and is never finished."""
    script = {(side, w): (10, OPEN) for side in (0, 1) for w in WIDTHS}
    script[(1, 2)] = (20_000, OPEN)
    script[(0, 3)] = (10_000_000, OPEN)
    script[(1, 3)] = (30_000, OPEN)
    script[(1, 4)] = (50_000, PROVEN)
    search = _Scripted(script)
    state: State = ((1, 1, 1), 1, -1, -1)  # a peasant to move after the landlord's lead
    assert search.decide(state, split=False) == (True, 4)
    assert (0, 3, False) in search.asked and search.done[(0, 3, tree.ORDER_DEFAULT)] < 10_000_000
    assert search.nodes < 2 * (20_000 + 30_000 + 50_000)


def test_the_side_to_move_spends_its_share_before_the_other_is_asked_again() -> None:
    """MOVER_SHARE nodes to one: the mover's costly width-2 question runs in pieces, and the
    other side's, asked between them, has cost about its share when the mover's decides."""
    script = {(side, w): (10, OPEN) for side in (0, 1) for w in WIDTHS}
    script[(0, 2)] = (1_000_000, PROVEN)
    script[(1, 2)] = (10_000_000, OPEN)
    search = _Scripted(script)
    assert search.decide(((1, 1, 1), 0, -1, -1), split=False) == (True, 2)
    other = search.done[(1, 2, tree.ORDER_DEFAULT)]
    assert 1_000_000 / (2 * shares.MOVER_SHARE) <= other <= 2 * 1_000_000 / shares.MOVER_SHARE


def test_the_peasants_second_order_decides_where_their_first_runs_long() -> None:
    """The peasants' width-2 question costs ten million nodes in the search's order and a
    hundred thousand in the second, asked whenever it is furthest behind its share (a
    quarter of the first's), in pieces a quarter of the first's: it decides while the first
    has spent more than it, but not many times more."""
    script = {(side, w): (10, OPEN) for side in (0, 1) for w in WIDTHS}
    script[(1, 2)] = (10_000_000, OPEN)
    script[(0, 6)] = (10_000_000, OPEN)  # the landlord still asking: every question budgeted
    second = {(1, 2): (100_000, PROVEN)}
    search = _Scripted(script, second)
    assert search.decide(((1, 1, 1), 1, -1, -1), split=False) == (True, 2)
    assert search.asked_second[-1][:2] == (1, 2)
    first = search.done[(1, 2, tree.ORDER_DEFAULT)]
    assert 100_000 <= first <= 2 * 100_000 / shares.SECOND_ORDER_SHARE
    assert search.nodes < 1_000_000


def test_the_peasants_two_orders_keep_their_shares_once_the_landlord_is_out_of_widths() -> None:
    """With the landlord's questions all asked, the peasants' second order is still held to
    its share: its costly width-2 question stops short while the first order's decides."""
    script = {(side, w): (1_000, OPEN) for side in (0, 1) for w in WIDTHS}
    script[(1, 1)] = (100_000, OPEN)
    script[(1, 2)] = (500_000, PROVEN)
    second = {(1, 2): (10_000_000, OPEN)}
    search = _Scripted(script, second)
    assert search.decide(((1, 1, 1), 1, -1, -1), split=False) == (True, 2)
    assert search.asked[-1] == (1, 2, True)
    assert search.nodes < 2 * (100_000 + 500_000)


def test_an_order_that_decides_moves_for_fewer_nodes_keeps_the_share() -> None:
    """OrderRecord over a split: the order deciding more moves for each node spent keeps
    the side's whole share, the other the ratio of their rates (LEAST_WEIGHT at least)."""
    first, second = tree.ORDER_DEFAULT, tree.ORDER_LEFT_PASSES
    record = shares.OrderRecord()
    assert record.weights() == {first: 1.0, second: shares.SECOND_ORDER_SHARE}
    record.spent[second] += 3_000_000
    record.decided[second] += 6  # 6.25 moves in 4 million nodes, the first 1 in 1 million
    weights = record.weights()
    assert weights[second] == 1.0 and weights[first] == pytest.approx(1 / 1.5625)
    record.spent[first] += 9_000_000
    record.decided[first] += 99  # 100 in 10 million
    weights = record.weights()
    assert weights[first] == 1.0 and weights[second] == pytest.approx(
        max(shares.LEAST_WEIGHT, 6.25 / 4 / 10)
    )
    record.spent[second] += 96_000_000  # 6.25 in 100 million: a hundredth of the first's rate
    assert record.weights() == {first: 1.0, second: shares.LEAST_WEIGHT}
    assert shares.LEAST_WEIGHT > 1 / 100


@pytest.mark.parametrize("weight", [1.0, shares.SECOND_ORDER_SHARE, 1 / 16])
def test_an_order_asks_in_pieces_as_large_as_its_share(weight: float) -> None:
    """The first order's width-2 question decides in a million nodes, the second's never:
    the second, asked in pieces its weight of the first's, has spent about that much of
    it by then; the record is told what each order cost and which decided."""
    script = {(side, w): (10, OPEN) for side in (0, 1) for w in WIDTHS}
    script[(1, 2)] = (1_000_000, PROVEN)
    script[(0, 6)] = (10_000_000, OPEN)  # the landlord still asking: every question budgeted
    second = {(1, 2): (10_000_000, OPEN)}
    search = _Scripted(script, second)
    record = shares.OrderRecord()
    record.weights = lambda: {tree.ORDER_DEFAULT: 1.0, tree.ORDER_LEFT_PASSES: weight}  # type: ignore[method-assign]
    state: State = ((1, 1, 1), 1, -1, -1)
    assert search._decided(state, False, True, record) == (True, 2)
    spent = search.done[(1, 2, tree.ORDER_LEFT_PASSES)]
    assert weight * 1_000_000 / 2 <= spent <= 2 * weight * 1_000_000 + shares.LEAST_BUDGET
    assert record.decided[tree.ORDER_DEFAULT] == 2  # the prior's one, and this one
    assert spent <= record.spent[tree.ORDER_LEFT_PASSES] <= spent + 100  # width 1: 10 nodes
    assert record.spent[tree.ORDER_DEFAULT] >= 1_000_000


def test_the_schedule_asks_the_question_furthest_behind_its_share_until_all_are_asked() -> None:
    """The side to move first (a tie), then whichever is furthest behind its share, each
    budgeted by the other side's spending times its share against theirs; a question left
    open moves to its next width, one stopped short keeps it; none once all are asked."""
    first, second = tree.ORDER_DEFAULT, tree.ORDER_LEFT_PASSES
    schedule = shares.Schedule(0, True, shares.OrderRecord(), (1, 2))
    assert schedule.next() == ((0, first), 1, shares.LEAST_BUDGET)
    schedule.asked((0, first), 16 * 100_000, OPEN)
    # The landlord's share is MOVER_SHARE (16) of the peasants' first order's, and the second
    # order's a quarter of the first's: the first may spend 100,000 nodes, the second 25,000.
    assert schedule.next() == ((1, first), 1, 100_000)
    schedule.asked((1, first), 50_000, None)
    assert schedule.stopped_short[(1, first)]
    assert schedule.next() == ((1, second), 1, 25_000)
    schedule.asked((1, second), 100, OPEN)
    assert schedule.next() == ((1, second), 2, 25_000)
    schedule.asked((1, second), 30_000, PROVEN)
    assert schedule.record.spent == {first: 50_000, second: 30_100}
    assert schedule.record.decided[second] == shares.SECOND_ORDER_SHARE + 1
    schedule.step = dict.fromkeys(schedule.step, 2)
    assert schedule.next() is None


def test_two_players_are_asked_in_one_order() -> None:
    script = {(side, w): (10, OPEN) for side in (0, 1) for w in WIDTHS}
    script[(0, 3)] = (10, PROVEN)
    search = _Scripted(script)
    search.players, search.side = 2, [0, 1]
    assert search.decide(((1, 1), 0, -1, -1), split=False) == (True, 3)
    assert search.asked_second == []


def test_with_the_other_side_out_of_widths_a_question_has_no_budget() -> None:
    script = {(side, w): (10, OPEN) for side in (0, 1) for w in WIDTHS}
    script[(0, 6)] = (10_000_000, REFUTED)
    search = _Scripted(script)
    assert search.decide(((1, 1, 1), 0, -1, -1), split=False) == (False, 6)
    last_of_other = max(i for i, (side, _, _) in enumerate(search.asked) if side == 1)
    assert search.asked[last_of_other][1] == WIDTHS[-1]
    assert search.asked[-1][:2] == (0, 6) and search.limits[-1] is None
    assert all(limit is not None for limit in search.limits[: last_of_other + 1])


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
    """The search stores no position of a forced pass: a finished search still knows the
    first moves' results, those after which nobody can answer (K, 2) too, as the brute force
    has them. A position settled in one node is not kept, and is not known: after the 22 the
    landlord leads again and loses, as the table holds it does with its 3 raised to a 4."""
    position = Position.parse(["22 3 5 7 9 K", "4 6 8", "T Q J"])
    search = new_search(3, core=core)
    root = state_of(search, position)
    assert search.wins(*root) is False
    known = search.move_winners(root)
    unknown = [search.play(move) for move in search.legal(root) if move not in known]
    assert unknown == [Play.parse("22")]
    assert {Play.parse("K"), Play.parse("2")} <= {search.play(move) for move in known}
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
