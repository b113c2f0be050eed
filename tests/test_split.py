"""One position over several workers: each first move solved apart gives the solver's own answer."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from endgame_reference import winner

from cpsolver.cli import cli
from cpsolver.endgame import compiled, solve
from cpsolver.endgame.answer import new_search
from cpsolver.io.positionformat import position_as_dict
from cpsolver.io.positiongen import random_position
from cpsolver.io.rulefiles import read_rules_text
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import standard_rules
from cpsolver.scale import split as splitting
from cpsolver.scale.parallel import DaskRunner, InProcess, LocalPool
from cpsolver.scale.sharing import Sharing
from cpsolver.scale.split import first_moves, solve_split

RULES = standard_rules()
TEXT = read_rules_text("standard")
SMALL = ["34567TTJQK", "5899JQA2", "3668KKA"]  # three hands, eleven first moves
# Deal #9 of the benchmark's full deals: undecided on one core after five minutes.
DEAL_9 = ["4577889TTJJQQQKAA2BR", "333346667TJQKKAA2", "445556788999TJK22"]


def _positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    three, two = ((3, 6), (3, 6), (3, 6)), ((4, 8), (4, 8))
    return [random_position(rng, three if k % 2 else two, 0.4) for k in range(count)]


@pytest.fixture(scope="module")
def pool() -> Iterator[LocalPool]:
    runner = LocalPool(2)
    yield runner
    runner.close()


@pytest.mark.parametrize("where", ["here", "pool"])
def test_every_winning_first_move_is_the_solvers_own(where: str, pool: LocalPool) -> None:
    runner = InProcess() if where == "here" else pool
    for position in _positions(24, 8):
        alone = solve(position, RULES, all_moves=True)
        split = solve_split(position, RULES, TEXT, runner, all_moves=True)
        assert split.winner == alone.winner
        assert sorted(split.moves) == sorted(map(str, alone.moves))
        assert split.decided == split.total == split.stats["root_moves"]


def test_without_all_it_stops_at_a_winning_move(pool: LocalPool) -> None:
    for position in _positions(16, 9):
        alone = solve(position, RULES, all_moves=True)
        split = solve_split(position, RULES, TEXT, pool)
        assert split.winner == alone.winner
        winning = set(map(str, alone.moves))
        assert (len(split.moves) == 1 and split.moves[0] in winning) == bool(winning)


def test_without_all_the_workers_get_the_moves_the_search_tries_in_its_order() -> None:
    # The landlord alone never needs to kick the K while the lone 5 stays in hand.
    position = Position.parse(["4445K", "QQ", "JJ"])
    legal = [str(move) for move in first_moves(position, RULES, all_moves=True)]
    tried = [str(move) for move in first_moves(position, RULES)]
    assert "444K" in legal and "444K" not in tried
    assert set(tried) < set(legal) and tried[0] == "4445"


def test_the_moves_left_out_never_change_the_verdict() -> None:
    rng = random.Random(5)
    fewer = 0
    for _ in range(40):
        position = random_position(rng, ((6, 9), (5, 8), (5, 8)), 0.3)
        left_out = len(first_moves(position, RULES, all_moves=True)) - len(
            first_moves(position, RULES)
        )
        fewer += left_out > 0
        split = solve_split(position, RULES, TEXT, InProcess())
        assert split.winner == solve(position, RULES).winner
        assert split.total == split.stats["root_moves"]
    assert fewer >= 10  # the moves left out are tried, not a rare case


def test_a_deadline_past_leaves_the_verdict_unknown_unless_a_move_wins_at_once() -> None:
    position = Position.parse(["3334445567778899TTTJJQKA22R", "345566678899TJJQQQKKKAAA22B"])
    split = solve_split(position, RULES, TEXT, InProcess(), time_limit=1e-9)
    assert split.winner is None and split.decided == 0


def test_the_command_over_two_workers_and_its_bad_options() -> None:
    run = CliRunner().invoke
    result = run(cli, ["endgame", "--hand", "KK 3", "--hand", "QQ 4", "--workers", "2", "--all"])
    assert result.exit_code == 0 and result.output.startswith("the first player (hand 0) wins")
    assert "first moves decided in" in result.output and "tasks" in result.output
    result = run(
        cli, ["endgame", "--hand", "KK 3", "--hand", "QQ 4", "--workers", "2", "--proof", "p.json"]
    )
    assert result.exit_code == 2 and "--proof needs one search" in result.output


def _children(position: Position, run: str) -> list[tuple[splitting._Child, Position]]:
    """The workers' tasks of one run, each with the position after its move."""
    return [
        (
            splitting._Child(position_as_dict(after, RULES), *TEXT, None, None, "auto", run),
            after,
        )
        for play in first_moves(position, RULES, all_moves=True)
        if (after := position.after(play)) is not None
    ]


def test_a_worker_keeps_one_search_for_the_moves_of_a_run_and_frees_it_at_the_end() -> None:
    position = Position.parse(SMALL)
    first, second = _children(position, "run one"), _children(position, "run two")
    kept = []
    for child, after in first:
        assert splitting._solve_child(child)[0] == solve(after, RULES, strategy=False).winner
        assert splitting._kept is not None and splitting._kept.run == "run one"
        kept.append(splitting._kept.search)
    assert len(first) > 2 and all(search is kept[0] for search in kept)
    splitting._solve_child(second[0][0])  # another run: a search of its own
    assert splitting._kept is not None and splitting._kept.search is not kept[0]
    solve_split(position, RULES, TEXT, InProcess(), all_moves=True)
    assert splitting._kept is None  # the run's end frees it


def test_a_search_stopped_at_its_deadline_is_not_kept() -> None:
    easy, _ = _children(Position.parse(SMALL), "stopped")[0]
    splitting._solve_child(easy)
    assert splitting._kept is not None and splitting._kept.run == "stopped"
    deal = Position.parse(DEAL_9)
    hard = splitting._Child(
        position_as_dict(deal, RULES),
        *TEXT,
        time.time() + 0.3,
        None,
        "auto",
        "stopped",
    )
    assert splitting._solve_child(hard)[0] is None
    assert splitting._kept is None


def test_a_task_finding_the_kept_search_busy_searches_with_one_of_its_own() -> None:
    position = Position.parse(SMALL)
    splitting.forget_search()
    with splitting._kept_lock:  # another task of the same worker holds it
        results = [splitting._solve_child(child) for child, _ in _children(position, "busy")]
    assert splitting._kept is None
    landlord_wins = any(winner == 0 for winner, _, _, _ in results)
    assert solve(position, RULES).winner == (0 if landlord_wins else 1)


def test_on_a_dask_cluster_the_verdicts_are_the_solvers_and_the_workers_are_freed() -> None:
    runner = DaskRunner(workers=2)
    try:
        for position in _positions(6, 10):
            alone = solve(position, RULES, all_moves=True)
            split = solve_split(position, RULES, TEXT, runner, all_moves=True)
            assert split.winner == alone.winner
            assert sorted(split.moves) == sorted(map(str, alone.moves))
        held = runner._client.run(
            lambda: __import__("cpsolver.scale.split", fromlist=["_kept"])._kept is None
        )
        assert held and all(held.values())
    finally:
        runner.close()


class _Stopping(InProcess):
    """Solves the first ``solved`` tasks; the rest stop at once, as past their deadline."""

    def __init__(self, solved: int) -> None:
        self.solved = solved

    def run(self, function, chunks, lost=None, per_worker=1):  # type: ignore[no-untyped-def]
        for number, chunk in enumerate(chunks):
            yield function(chunk) if number < self.solved else (None, 0, chunk.branch, -1)


@pytest.mark.parametrize("all_moves", [False, True], ids=["tried", "all"])
def test_stopped_it_says_which_first_moves_were_settled_and_which_not(all_moves: bool) -> None:
    losing = [
        position
        for position in _positions(40, 12)
        if solve(position, RULES).winner != position.side_of(position.turn)
        and len(first_moves(position, RULES)) >= 4
    ]
    assert len(losing) >= 3
    for position in losing[:3]:
        split = solve_split(position, RULES, TEXT, _Stopping(2), all_moves=all_moves)
        assert split.winner is None and split.decided == 2 + split.stats["carried"] == len(
            split.known
        )
        for move, side in split.known.items():
            play = next(p for p in first_moves(position, RULES, True) if str(p) == move)
            after = position.after(play)
            assert after is not None and solve(after, RULES).winner == side
        order = [str(p) for p in first_moves(position, RULES)]
        ranked = [move for move in order if move in split.unresolved]
        assert split.unresolved[: len(ranked)] == ranked  # the search's order, the rest after
        assert set(split.unresolved) | set(split.known) == {
            str(p) for p in first_moves(position, RULES, all_moves)
        }
        answer = split.result().as_dict()
        assert answer["known_first_moves"] == split.known
        assert answer["most_promising"] == split.unresolved[0]


def test_the_command_over_workers_out_of_time_names_the_moves_not_settled() -> None:
    flags = [f for hand in DEAL_9 for f in ("--hand", hand)] + ["--workers", "2", "--timeout", "1"]
    result = CliRunner().invoke(cli, ["endgame", *flags])
    assert result.exit_code == 3, result.output
    assert "not settled: " in result.output and "the most promising" in result.output
    answer = json.loads(CliRunner().invoke(cli, ["endgame", *flags, "--json"]).output)
    assert answer["winner"] is None and answer["unresolved_first_moves"]
    assert answer["most_promising"] == answer["unresolved_first_moves"][0]


class _OutOfOrder(InProcess):
    """Up to ``in_flight`` tasks at once, finished in a random order (the first given out,
    with ``slow_first``, only once nothing else is left): as workers finish, a hard move last."""

    def __init__(self, seed: int, in_flight: int = 3, slow_first: bool = False) -> None:
        self.rng = random.Random(seed)
        self.in_flight = in_flight
        self.slow_first = slow_first

    def run(self, function, chunks, lost=None, per_worker=1):  # type: ignore[no-untyped-def]
        source = iter(chunks)
        flight: list = []
        slow = next(source, None) if self.slow_first else None
        while True:
            while len(flight) < self.in_flight and (chunk := next(source, None)) is not None:
                flight.append(chunk)
            if not flight:
                if slow is None:
                    return
                flight, slow = [slow], None
            yield function(flight.pop(self.rng.randrange(len(flight))))


@pytest.mark.parametrize("all_moves", [False, True], ids=["tried", "all"])
def test_moves_after_an_unsettled_one_settle_it_as_its_own_search_would(all_moves: bool) -> None:
    deeper = 0
    rng = random.Random(21)
    for number in range(30):
        position = random_position(rng, ((4, 8), (3, 7), (3, 7)), 0.3)
        alone = solve(position, RULES, all_moves=True)
        runner = _OutOfOrder(number, slow_first=number % 2 == 0)
        split = solve_split(position, RULES, TEXT, runner, all_moves=all_moves)
        assert split.winner == alone.winner
        if all_moves:
            assert sorted(split.moves) == sorted(map(str, alone.moves))
        else:
            assert set(split.moves) <= set(map(str, alone.moves))
        for move, side in split.known.items():  # each settled first move, whoever settled it
            play = next(p for p in first_moves(position, RULES, True) if splitting._name(p) == move)
            after = position.after(play)
            assert side == (alone.winner if after is None else solve(after, RULES).winner)
        deeper += split.stats["tasks"] > split.stats["root_moves"]
    assert deeper >= 10  # free workers went below the root's moves, not a rare case


def test_a_free_worker_takes_the_moves_after_the_unsettled_move_given_out_first() -> None:
    position = Position.parse(SMALL)
    orders = new_search(3, RULES)
    sharing = Sharing(lambda at: splitting._tried(orders, at))
    roots = [
        sharing.add_root_move(str(play), position.after(play), 0)
        for play in first_moves(position, RULES)
    ]
    for root in roots:
        sharing.give(root)
    sharing.settle(roots[0], 1)
    stolen = sharing.steal()
    assert stolen is not None and stolen.parent is roots[1] and stolen.depth == 1
    after = roots[1].position
    assert after is not None and roots[1].children is not None
    assert [child.position for child in roots[1].children] == [
        after.after(play) for play in first_moves(after, RULES)
    ]
    # Its moves all lose for the side to move there: the first move is settled by them.
    mover = after.side_of(after.turn)
    for child in roots[1].children:
        sharing.settle(child, 1 - mover)
    assert roots[1].winner == 1 - mover
    assert all(not child.live() for child in roots[1].children)
    stolen = sharing.steal()
    assert stolen is not None and stolen.parent is roots[2]


def test_a_run_that_ended_stops_its_late_tasks_and_keeps_no_search() -> None:
    position = Position.parse(SMALL)
    (child, _), *_ = _children(position, "ended")
    splitting._solve_child(child)
    assert splitting._kept is not None
    kept = splitting._kept.search
    splitting.forget_search("another run")  # not this run's search: kept
    assert splitting._kept is not None and splitting._kept.search is kept
    splitting.forget_search("ended")
    assert splitting._kept is None and kept.deadline == 0.0  # a task still on it stops
    splitting._solve_child(child)  # a late task of the run: answers, keeps nothing
    assert splitting._kept is None


def test_a_first_move_that_empties_the_hand_wins_without_a_task() -> None:
    position = Position.parse(["KK", "QQ 4"])
    split = solve_split(position, RULES, TEXT, _Stopping(0), all_moves=False)
    assert split.winner == 0 and split.moves == ["KK"] and split.stats["tasks"] == 0
    split = solve_split(position, RULES, TEXT, InProcess(), all_moves=True)
    alone = solve(position, RULES, all_moves=True)
    assert split.winner == 0 and sorted(split.moves) == sorted(map(str, alone.moves))
    assert split.stats["tasks"] == split.stats["root_moves"] - 1  # KK asked of no worker


CORES = ["python", *(["compiled"] if compiled.available() else [])]


@pytest.mark.parametrize("core", CORES)
def test_no_worker_solves_a_lone_play_that_a_lower_ones_refutation_carries_to(core: str) -> None:
    """The landlord's lone queen loses as its lone jack does, the jack's refutation beating it
    too: settled without a task, as one search's split leaves it (the verdict brute force's)."""
    position = Position.parse(["34466JQKK", "57779J2", "3589QQA2"])
    split = solve_split(position, RULES, TEXT, InProcess(), core=core)
    assert split.winner == 1 == winner(position.hands, 0, None, None, RULES)
    assert split.stats["carried"] == 1 and split.known["Q"] == 1
    assert split.decided == split.total == split.stats["tasks"] + 1


@pytest.mark.skipif(not compiled.available(), reason="minutes on the Python core")
@pytest.mark.parametrize("all_moves", [False, True])
def test_the_first_moves_carried_lose_as_their_own_searches_say(all_moves: bool) -> None:
    """Every first move the workers settle, carried or searched, has the verdict a search of the
    position after it gives; some are carried."""
    rng, carried = random.Random("split-carry"), 0
    for _ in range(30):
        position = random_position(rng, ((9, 11), (7, 9), (7, 9)), 0.0)
        split = solve_split(position, RULES, TEXT, InProcess(), all_moves=all_moves)
        assert split.winner == solve(position, RULES, strategy=False).winner, position
        plays = {str(play): play for play in first_moves(position, RULES, all_moves=True)}
        for move, side in split.known.items():
            after = position.after(plays[move])
            assert after is None or solve(after, RULES, strategy=False).winner == side, (
                position,
                move,
            )
        carried += split.stats["carried"]
    assert carried >= 2
