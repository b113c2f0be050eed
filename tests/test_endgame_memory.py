"""The open-hand search under a memory cap: it evicts, stays exact, and says so.

The resident size is faked (always just over the cap, or far over it), so
the tests decide every eviction themselves, whatever else the process holds.
The budget's policy is tested on the Python search, whose gauge reads these
tests count on (it also reads inside long splits); the compiled core's
evictions are tested in ``test_compiled_core.py``.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from typing import Any

import pytest

from cpsolver.endgame import answer, compiled, solve
from cpsolver.endgame.budget import MemoryBudget
from cpsolver.endgame.proof import build_strategy_proof
from cpsolver.io.positiongen import random_position
from cpsolver.rules.movegen import plays
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import standard_rules
from cpsolver.verify.strategy import check_strategy

CAP = 100 * 1024 * 1024


def _just_over() -> MemoryBudget:
    """A budget whose process is always a byte over the cap: it evicts each time the table refills."""
    return MemoryBudget(CAP, resident=lambda: CAP + 1, every=1, fewest=40)


def _positions(count: int) -> list[Position]:
    """Two- and three-player positions of a few thousand nodes, some mid-trick."""
    rng = random.Random(2812)
    three, two = ((5, 7), (5, 7), (4, 6)), ((6, 9), (6, 9))
    return [random_position(rng, three if k % 2 else two, 0.3) for k in range(count)]


@pytest.mark.parametrize("position", _positions(16), ids=str)
def test_under_eviction_the_same_winner_the_same_moves_and_a_proof_that_verifies(
    position: Position,
) -> None:
    rules = standard_rules()
    free = solve(position, rules, all_moves=True, memory=None)
    capped = solve(position, rules, all_moves=True, memory=_just_over())
    assert capped.winner == free.winner
    assert sorted(map(str, capped.moves)) == sorted(map(str, free.moves))
    document = json.loads(json.dumps(build_strategy_proof(capped, rules)))
    assert check_strategy(document, position, rules) is None
    assert free.stats["evictions"] == 0


def test_eviction_happens_and_is_counted() -> None:
    """Over the generated positions, the capped searches did evict (else the test above tests nothing)."""
    evictions = [
        solve(position, memory=_just_over(), core="python").stats["evictions"]
        for position in _positions(16)
    ]
    assert sum(1 for count in evictions if count) >= 12


def test_a_cap_that_eviction_cannot_keep_gives_unknown_for_memory() -> None:
    """Memory that grows whatever the table holds: stop with 'unknown', never thrash or die."""
    reads = itertools.count(8)
    growing = MemoryBudget(CAP, resident=lambda: next(reads) * CAP // 8, every=1, fewest=40)
    # A search long enough for the gauge to pass the cap before it ends (1,639 nodes uncapped).
    result = solve(_positions(16)[15], memory=growing, core="python")
    assert result.winner is None and result.stats["stopped"] == "memory"


def test_memory_over_the_cap_but_not_growing_only_evicts() -> None:
    """Freed memory stays with the process: a flat resident size over the cap is no reason to stop."""
    flat = MemoryBudget(CAP, resident=lambda: 4 * CAP, every=1, fewest=40)
    position = _positions(2)[1]
    result = solve(position, memory=flat)
    assert result.winner == solve(position, memory=None).winner
    assert result.stats["evictions"] > 0


def test_no_resident_size_means_a_budget_in_entries() -> None:
    """Where the OS does not say, the cap becomes a count of entries, and is kept."""
    budget = MemoryBudget(400 * 100, resident=lambda: None, every=1, fewest=40)
    position = _positions(4)[3]
    result = solve(position, memory=budget)
    assert result.winner == solve(position, memory=None).winner
    assert budget.entries == 100


def test_the_default_cap_holds_on_a_small_position() -> None:
    """With the real gauge and the default cap, a small position never reaches the cap."""
    result = solve(Position.parse(["KK 3", "QQ 4"]))
    assert result.stats["evictions"] == 0 and result.stats["peak_memory_mb"] > 0


def _growing(after: int) -> MemoryBudget:
    """A budget whose process is flat for ``after`` reads, then doubles at each: a stop at one node."""
    reads = itertools.count()
    return MemoryBudget(
        CAP, resident=lambda: CAP << max(0, next(reads) - after), every=1, fewest=10**9
    )


def test_a_stopped_search_says_which_first_moves_it_had_settled_and_they_are_right() -> None:
    """Under a limit a position gave 'unknown' and nothing else; now the settled first moves,
    checked. Stopped this early (at the third read of the gauge), some searches stop before
    the first moves are ordered, and ordering them for the answer meets the cap again: the
    moves not settled are then listed in the legal order, with no error."""
    settled = 0
    for position, after in itertools.product(_positions(48), (3, 5, 10)):
        stopped = solve(position, memory=_growing(after), core="python")
        if stopped.winner is not None:
            continue
        assert "known_first_moves" in stopped.as_dict()
        for move, winner in stopped.known.items():
            play = (
                None
                if move == "pass"
                else next(p for p in plays(position.hands[position.turn]) if str(p) == move)
            )
            after = position.after(play)
            truth = position.side_of(position.turn) if after is None else solve(after).winner
            assert winner == truth, (position, move)
            settled += 1
    assert settled >= 5


# Reading the strategy out keeps to the limits: on a full deal it took 21 s after a 12 s
# search, and 2.4 GB against a 1 GiB cap.

LEVEL_50 = Position.parse(["RAQQJJT999844", "B22AAT886633"])  # 13,096 strategy nodes


@pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")
@pytest.mark.parametrize("limit", ["time", "memory"])
def test_a_strategy_too_big_for_the_limits_left_comes_back_without_its_line(
    monkeypatch: pytest.MonkeyPatch, limit: str
) -> None:
    """The verdict and the winning move stay (they are proven); the line and strategy go."""
    over = False
    read_out = answer.Strategy

    def reading_out(search: Any, root: Any, limited: bool = False) -> Any:
        nonlocal over
        if limited and limit == "time":
            search.deadline = time.perf_counter() - 1  # the search took all the time there was
        over = limited and limit == "memory"  # the search left no memory for the walk
        return read_out(search, root, limited)

    monkeypatch.setattr(answer, "Strategy", reading_out)
    budget = MemoryBudget(2**30, resident=lambda: 2**40 if over else 0, every=1, fewest=10**9)
    result = solve(LEVEL_50, time_limit=600, memory=budget, core="compiled")
    assert (result.winner, [str(m) for m in result.moves]) == (0, ["8"])
    assert result.line == [] and result.strategy is None
    assert result.stats["strategy_stopped"] == limit and "strategy_nodes" not in result.stats


def test_a_strategy_read_out_within_the_limits_is_whole_and_proves_the_verdict() -> None:
    """The same walk, limited, when the limits leave room: the full strategy, and its proof verifies."""
    result = solve(LEVEL_50, time_limit=600)
    assert result.stats["strategy_nodes"] == 13_096 and "strategy_stopped" not in result.stats
    assert check_strategy(build_strategy_proof(result, standard_rules()), LEVEL_50) is None


@pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")
@pytest.mark.parametrize(
    ("limit", "option"), [("time limit", "--timeout"), ("memory cap", "--memory")]
)
def test_the_command_gives_the_verdict_and_says_why_there_is_no_line_nor_proof(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, limit: str, option: str
) -> None:
    """Each limit the strategy's reading out meets is named, and the option that raises it."""
    from click.testing import CliRunner

    from cpsolver.cli import cli

    read_out = answer.Strategy

    def late(search: Any, root: Any, limited: bool = False) -> Any:
        if limited and option == "--timeout":
            search.deadline = time.perf_counter() - 1
        elif limited:
            search._core.bound(1_000)  # the walk's memo is held to the table's bound
        return read_out(search, root, limited)

    monkeypatch.setattr(answer, "Strategy", late)
    proof = tmp_path / "proof.json"
    hands = ["--hand", "RAQQJJT999844", "--hand", "B22AAT886633", "--proof", str(proof)]
    done = CliRunner().invoke(cli, ["endgame", *hands])
    assert done.exit_code == 0, done.output
    assert "hand 0 to move wins with 8" in done.output
    assert f"(no line: the winning strategy is too big to read out within the {limit})" in (
        done.output
    )
    assert not proof.exists()
    assert (
        f"no proof written: the winning strategy is too big to read out within the {limit}; "
        f"a larger {option} may hold it"
    ) in done.output


@pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")
def test_the_walks_memo_is_held_to_the_tables_bound() -> None:
    """Deal #4 of the full-deal benchmark: its 8.6M-node strategy stopped at the 1 GiB cap (peak
    0.95 GB) where reading it out had peaked at 2.4 GB. Here: a cap whose table bound (12,287
    entries) is below level 50's 13,096 strategy nodes, and no other gauge."""
    assert compiled.table_bound(2 * 2**20) == 12_287
    budget = MemoryBudget(2 * 2**20, resident=lambda: 0)
    result = solve(LEVEL_50, time_limit=600, memory=budget, core="compiled")
    assert (result.winner, [str(m) for m in result.moves]) == (0, ["8"])
    assert result.stats["strategy_stopped"] == "memory" and result.line == []
    roomy = solve(LEVEL_50, time_limit=600, memory=MemoryBudget(8 * 2**20, resident=lambda: 0))
    assert roomy.stats["strategy_nodes"] == 13_096


@pytest.mark.parametrize("core", ["python", *(["compiled"] if compiled.available() else [])])
def test_results_too_cheap_to_keep_are_searched_again_when_asked_for(core: str) -> None:
    """The table keeps a result only if it took three nodes or more, and always the root's;
    ``entry`` of a state left out searches it again and gives what the brute force gives."""
    from endgame_reference import winner

    from cpsolver.endgame.answer import new_search
    from cpsolver.endgame.solver import state_of

    rng = random.Random(3)
    left_out = 0
    for _ in range(6):
        position = random_position(rng, ((3, 5), (3, 5), (3, 5)), 0.5)
        search = new_search(position.players, core=core)
        root = state_of(search, position)
        search.wins(*root)
        assert search.lookup(root) is not False
        assert search.table_size < search.nodes
        for move in search.legal(root):
            child = search.successor(root, move)
            if child is None or search.lookup(child) is not False:
                continue
            left_out += 1
            entry = search.entry(child)
            mover = 0 if child[1] == 0 else 1
            after = position.after(None if move == -1 else search.play(move))
            assert after is not None
            truth = winner(after.hands, after.turn, after.table, after.by)
            assert (entry is not None) == (truth == mover), (position, move)
    assert left_out > 0
