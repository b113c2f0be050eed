"""The compiled core against its reference, the Python search: the same search, step for step.

The C search mirrors the Python one (generation order, move ordering,
shortcuts, table keys), so on every position both must give the same
verdict, the same winning moves, the same node count, the same strategy
size and principal line, and proofs that verify. Positions are generated
under every bundled rule set and a user's own TOML. Where the compiled core
was not built these tests skip; ``test_a_build_without_a_compiler_…`` builds
the package so and checks the Python search takes over.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.endgame import compiled
from cpsolver.endgame.answer import CoreError, EndgameResult, core_name, solve
from cpsolver.endgame.budget import MemoryBudget
from cpsolver.endgame.compiled import CompiledSearch
from cpsolver.endgame.proof import build_strategy_proof, strategy_proof_text
from cpsolver.endgame.solver import Search, state_of
from cpsolver.io.positiongen import random_position
from cpsolver.io.rulefiles import parse_rules_toml
from cpsolver.rules.movegen import generator
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, bundled
from cpsolver.verify.strategy import check_strategy

ROOT = Path(__file__).resolve().parents[1]
needs_core = pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")

# A user's rule set unlike every bundled one: short chains, repeated kickers, no quadplex pairs.
USER_RULES = """
name = "loose"
description = "a user's own: short chains, kickers may repeat, both jokers as kickers"
[sequences]
single_min_length = 3
pair_min_length = 2
triplet_min_length = 2
highest_rank = "K"
[kickers]
most_singles_of_a_rank = 3
most_singles_extending_the_chain = 2
pairs_distinct = false
both_jokers = true
[quadplex]
shapes = ["singles"]
"""


def _rule_sets() -> list[RuleSet]:
    found = [bundled(name) for name in ("standard", "rlcard", "douzero")]
    return [r for r in found if r is not None] + [parse_rules_toml(USER_RULES, "loose.toml")]


RULE_SETS = _rule_sets()


def _positions(rules: RuleSet, count: int, seed: str) -> list[Position]:
    """Two- and three-player positions of up to a few thousand nodes, half of them mid-trick."""
    rng = random.Random(f"{seed}-{rules.name}")
    two, three = ((3, 10), (3, 10)), ((2, 8), (2, 7), (2, 7))
    return [random_position(rng, three if k % 2 else two, 0.5, rules) for k in range(count)]


def _both(position: Position, rules: RuleSet, **options: object) -> tuple[EndgameResult, ...]:
    return tuple(
        solve(position, rules, all_moves=True, core=core, **options)  # type: ignore[arg-type]
        for core in ("python", "compiled")
    )


def _summary(result: EndgameResult) -> tuple[object, ...]:
    stats = result.stats
    return (
        result.winner,
        [str(m) for m in result.moves],
        [(p, str(m)) for p, m in result.line],
        stats["nodes"],
        stats["strategy_nodes"],
    )


@needs_core
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_both_cores_search_the_same_nodes_to_the_same_answers(rules: RuleSet) -> None:
    for position in _positions(rules, 40, "same"):
        python, built = _both(position, rules, memory=None)
        assert built.stats["core"] == "compiled" and python.stats["core"] == "python"
        assert _summary(built) == _summary(python), position


def _children_then_the_root(
    search: Search | CompiledSearch, position: Position, keep_all: bool
) -> list[object]:
    """Each child asked of first (its own question, or with ``keep_all`` its strategy kept
    whole), then the root, whose search meets those children again: answers and node counts."""
    root = state_of(search, position)
    seen: list[object] = []
    for move in search.legal(root):
        child = search.successor(root, move)
        if child is None:
            continue
        if keep_all:
            seen.append((search.settle(child), search.nodes))
        else:
            seen.append((search.proves(*child, 0, 1), search.wins(*child), search.nodes))
    seen.append((search.proves(*root, 1, 2), search.wins(*root), search.nodes))
    return seen


@needs_core
@pytest.mark.parametrize("keep_all", [False, True])
def test_states_asked_of_first_and_met_again_are_counted_alike_on_both_cores(
    keep_all: bool,
) -> None:
    """The compiled core tries a node's shortcuts before its look-ups, except where a cheap
    result may be kept: a question's own state, or anywhere once keep_all has kept one. The
    children asked of first (many won by a shortcut, so kept only as a question's own state,
    or kept by keep_all) are met again here, node for node as the Python search meets them."""
    rng = random.Random(f"cheap-roots-{keep_all}")
    for k in range(120):
        sizes = ((2, 7), (2, 6), (2, 6)) if k % 2 else ((2, 8), (2, 8))
        position = random_position(rng, sizes, 0.5)
        python = _children_then_the_root(Search(position.players), position, keep_all)
        built = _children_then_the_root(CompiledSearch(position.players), position, keep_all)
        assert built == python, position


def _entry_named(search: Search | CompiledSearch, entry: object) -> object:
    """A table entry with its plays named, so that the two cores' numberings compare."""
    if isinstance(entry, tuple):
        return tuple(str(search.play(move)) for move in entry)
    if isinstance(entry, bool) or entry is None:
        return entry
    assert isinstance(entry, int)
    return "pass" if entry < 0 else str(search.play(entry))


def _nearby_states(
    search: Search, root: tuple[tuple[int, ...], int, int, int], rng: random.Random
) -> list[tuple[tuple[int, ...], int, int, int]]:
    """States on random lines from ``root``, and each with one card moved to another hand."""
    found = []
    for _ in range(12):
        state: tuple[tuple[int, ...], int, int, int] | None = root
        while state is not None:
            hands, turn, table, by = state
            found.append(state)
            giver, taker = rng.sample(range(len(hands)), 2)
            held = [rank for rank in range(15) if (hands[giver] >> (4 * rank)) & 0xF]
            if len(held) > 1 or (hands[giver] >> (4 * held[0])) & 0xF > 1:
                moved = list(hands)
                card = 1 << (4 * rng.choice(held))
                moved[giver] -= card
                moved[taker] += card
                found.append((tuple(moved), turn, table, by))
            state = search.successor(state, rng.choice(search.legal(state)))
    return found


@needs_core
def test_the_compiled_table_holds_exactly_the_states_the_python_table_holds() -> None:
    """The compiled table keys a state in three words, each hand squeezed to three bits a
    rank and the third hand spread over all three: no two states may share a key. After both
    cores settle a position (every result kept), every state on random lines from it, and
    each with a card moved to another hand, is held by the compiled table exactly where the
    Python table holds it, with the same entry."""
    rng = random.Random("squeezed-keys")
    held = 0
    for _ in range(40):
        position = random_position(rng, ((2, 9), (2, 8), (2, 8)), 0.5)
        python, built = Search(3), CompiledSearch(3)
        root = state_of(python, position)
        python.settle(root)
        built.settle(state_of(built, position))
        for hands, turn, table, by in _nearby_states(python, root, rng):
            state = (hands, turn, table if table < 0 else built.index(python.play(table)), by)
            expected = _entry_named(python, python.lookup((hands, turn, table, by)))
            assert _entry_named(built, built.lookup(state)) == expected, (position, state)
            held += expected is not False
    assert held >= 500


@needs_core
def test_a_won_state_is_settled_narrowly_to_the_same_winning_move_on_both_cores() -> None:
    """A strategy's walk searches a won state the table lacks narrowest first (settle_won):
    on fresh searches of both cores, the same nodes, a move whose position the mover's side
    wins (a fresh full search says so), and every result kept."""
    rng = random.Random("settle-won")
    settled = 0
    for k in range(80):
        sizes = ((1, 7), (1, 6), (1, 6)) if k % 2 else ((1, 8), (1, 8))
        position = random_position(rng, sizes, 0.5)
        reference = Search(position.players)
        state = state_of(reference, position)
        if not reference.wins(*state):
            continue
        found = []
        for search in (Search(position.players), CompiledSearch(position.players)):
            state = state_of(search, position)
            search.settle_won(state)
            entry = search.lookup(state)
            assert entry is not False and entry is not None, position
            move = entry[0] if isinstance(entry, tuple) else entry
            child = search.successor(state, move)
            side = search.side[state[1]]
            if child is not None:
                hands, turn, table, by = search.past_forced_passes(child)
                fresh = Search(position.players)  # plays numbered afresh
                if table >= 0:
                    table = fresh.index(search.play(table))
                assert fresh.wins(hands, turn, table, by) == (fresh.side[turn] == side), position
            found.append((str(search.play(move)) if move >= 0 else "pass", search.nodes))
        assert found[0] == found[1], position
        settled += 1
    assert settled >= 20


@needs_core
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_the_compiled_cores_proofs_verify_and_equal_the_references(rules: RuleSet) -> None:
    for position in _positions(rules, 12, "proofs"):
        python, built = _both(position, rules, memory=None)
        proof = build_strategy_proof(built, rules)
        assert check_strategy(proof, position, rules) is None, position
        reference = build_strategy_proof(python, rules)
        assert json.dumps(proof["nodes"]) == json.dumps(reference["nodes"])
        # The file's text: the nodes written in C, line for line those Python writes.
        text, reference_text = (strategy_proof_text(r, rules) for r in (built, python))
        nodes = '  "nodes": [\n'
        assert text.partition(nodes)[2] == reference_text.partition(nodes)[2] != ""


@needs_core
@pytest.mark.parametrize(
    "symbols", ["3456789TJQKA2B", '3456789TJQKA2B"', "3456789TJQKA2B\\", "3456789TJQKA2B "]
)
def test_the_c_proof_writer_spells_hands_only_in_symbols_that_need_no_escaping(
    symbols: str,
) -> None:
    """One printable ASCII character a rank, no quote or backslash: else JSON would break."""
    result = solve(Position.parse(["KK 3", "QQ 4"]), core="compiled")
    assert result.strategy is not None
    search, root = result.strategy.search, result.strategy.root
    with pytest.raises(ValueError, match="symbols"):
        search.strategy_text(root, symbols, lambda move: '"cards":"x"', lambda piece: None)


@needs_core
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_plays_and_answers_are_the_move_generators_in_its_order(rules: RuleSet) -> None:
    """The C generator against the rules core's, over random hands and tables, order included;
    and the C test of whether any answer exists, which lists none, against the answers."""
    moves = generator(rules)
    search = CompiledSearch(3, rules)
    rng = random.Random(f"generate-{rules.name}")
    for position in _positions(rules, 60, "generate"):
        for hand in position.hands:
            packed = sum(c << (4 * r) for r, c in enumerate(hand.counts))
            assert [search.play(m) for m in search.plays(packed)] == moves.plays(hand)
            for table in rng.sample(moves.plays(hand), min(5, len(moves.plays(hand)))):
                for other in position.hands:
                    other_packed = sum(c << (4 * r) for r, c in enumerate(other.counts))
                    found = [
                        search.play(m) for m in search.answers(other_packed, search.index(table))
                    ]
                    assert found == moves.answers(other, table)
                    assert search.answerable(other_packed, search.index(table)) == bool(found)


@needs_core
def test_under_a_tiny_table_bound_the_answers_stay_exact() -> None:
    """The C table evicting itself thousands of times: same verdicts and moves, proofs that verify."""
    rules = RULE_SETS[0]
    for position in _positions(rules, 16, "bound"):
        reference = Search(position.players, rules)
        root = state_of(reference, position)
        search = CompiledSearch(position.players, rules)
        search._core.bound(40)
        built_root = state_of(search, position)
        assert search.wins(*built_root) == reference.wins(*root)
        assert sorted(
            map(str, map(search.play, filter((-1).__ne__, search.winning_moves(built_root))))
        ) == sorted(
            map(str, map(reference.play, filter((-1).__ne__, reference.winning_moves(root))))
        )
    assert search.evictions[0] > 0


def _states_by_key(
    python: Search, built: CompiledSearch, position: Position
) -> dict[object, object]:
    """One compiled state for each key of the Python table, found by walking both games in step.

    Only the children of a stored position are walked: a position searched in too
    few nodes to be stored has no stored position below it.
    """
    found: dict[object, object] = {}
    frontier = [(state_of(python, position), state_of(built, position))]
    while frontier:
        mine, theirs = frontier.pop()
        key = python.key(mine)
        if key not in python.table or key in found:
            continue
        found[key] = theirs
        moves, built_moves = python.legal(mine), built.legal(theirs)
        assert [str(python.play(m)) if m >= 0 else "pass" for m in moves] == [
            str(built.play(m)) if m >= 0 else "pass" for m in built_moves
        ]
        for move, built_move in zip(moves, built_moves):
            after, built_after = python.successor(mine, move), built.successor(theirs, built_move)
            if after is not None and built_after is not None:
                frontier.append(
                    (python.past_forced_passes(after), built.past_forced_passes(built_after))
                )
    return found


@needs_core
def test_an_eviction_cut_in_place_leaves_every_kept_entry_found() -> None:
    """The table cut where it stands: every entry kept is still found, unchanged, and none lost.

    Both cores search the same nodes and keep the same keys, so the Python table
    lists the C table's keys; a state of each is found by walking both games.
    """
    rules = RULE_SETS[0]
    rng = random.Random(2612)
    sizes = (((7, 10), (7, 10)), ((5, 8), (4, 7), (4, 7)))
    for position in (random_position(rng, sizes[k % 2], 0.5, rules) for k in range(12)):
        python, built = Search(position.players, rules), CompiledSearch(position.players, rules)
        python.wins(*state_of(python, position))
        built.wins(*state_of(built, position))
        assert built.table_size == len(python.table)
        states = _states_by_key(python, built, position)
        assert len(states) == len(python.table)
        before = {key: built.lookup(state) for key, state in states.items()}
        assert all(entry is not False for entry in before.values())
        size = built.table_size
        for keep in (size // 2, size // 5, 3, 0):
            built._core.evict(keep)
            after = {key: built.lookup(state) for key, state in states.items()}
            kept = {key: entry for key, entry in after.items() if entry is not False}
            assert len(kept) == built.table_size <= max(keep, 1)
            assert all(before[key] == entry for key, entry in kept.items())


@needs_core
def test_under_the_memory_caps_evictions_the_answers_stay_exact() -> None:
    """The Python budget's evictions (a fake gauge, over the cap two reads in three) reach the C table."""
    rules = RULE_SETS[0]
    for position in _positions(rules, 12, "evict"):
        reads = itertools.count()
        # A cap whose C table bound (262,143 entries) leaves the strategy's walk room:
        # the fake gauge alone makes the evictions.
        budget = MemoryBudget(
            64 * 2**20,
            resident=lambda reads=reads: 10**12 if next(reads) % 3 else 0,
            every=1,
            fewest=20,
        )
        built = solve(position, rules, all_moves=True, memory=budget, core="compiled")
        python = solve(position, rules, all_moves=True, memory=None, core="python")
        assert (built.winner, sorted(map(str, built.moves))) == (
            python.winner,
            sorted(map(str, python.moves)),
        )
        assert check_strategy(build_strategy_proof(built, rules), position, rules) is None
        written = json.loads(strategy_proof_text(built, rules))
        assert check_strategy(written, position, rules) is None


# Two seconds of search (a seeded 17+17 position of benchmarks/endgame.py): far past the
# deadlines below on any machine, and a few first moves settled by 0.3 s.
HARD = ["344456778TJJQQ22R", "3334566789TQQKKAA"]
# A seeded full deal no search here has decided in a minute.
FULL_DEAL = ["444678999TJJQQQKAA2R", "335667788TJKKKAA2", "3345556789TTJQ22B"]


@needs_core
def test_memory_that_eviction_cannot_keep_gives_unknown_for_memory_on_the_compiled_core() -> None:
    """The gauge growing at every read, whatever is evicted: 'unknown', stopped for memory."""
    reads = itertools.count(8)
    cap = 100 * 1024 * 1024
    # Reads come every 64 nodes, each adding up to 64 entries: a floor of 200 is reachable.
    growing = MemoryBudget(cap, resident=lambda: next(reads) * cap // 8, every=1, fewest=200)
    position = Position.parse(HARD)
    result = solve(position, memory=growing, core="compiled")
    assert result.winner is None and result.stats["stopped"] == "memory"


@needs_core
def test_an_eviction_keeping_more_than_the_table_holds_allocates_for_what_it_holds() -> None:
    """A budget of 10^9 entries over a small table: no table of 10^9 slots is made (MemoryError)."""
    position = _positions(RULE_SETS[0], 2, "keep")[1]
    huge = MemoryBudget(1, resident=lambda: 10**12, every=1, fewest=10**9)
    result = solve(position, memory=huge, core="compiled")
    assert result.winner == solve(position, memory=None, core="python").winner


@needs_core
def test_a_stopped_compiled_search_says_which_first_moves_it_had_settled_and_they_are_right() -> (
    None
):
    position = Position.parse(HARD)
    # The whole search takes about a third of a second of CPU here: the first of these limits
    # that stops it with first moves settled is checked (the machines differ in speed).
    for limit in (0.05, 0.1, 0.2):
        stopped = solve(position, time_limit=limit, core="compiled")
        if stopped.winner is None and stopped.known:
            break
    else:
        pytest.fail("no limit stopped the search with first moves settled")
    for move, winner in stopped.known.items():
        play = next((p for p in generator().plays(position.hands[0]) if str(p) == move), None)
        after = position.after(play)
        truth = 0 if after is None else solve(after, time_limit=20).winner
        assert truth in (None, winner), move


@needs_core
def test_the_compiled_cap_counts_the_searchs_own_bytes_not_the_processs() -> None:
    """A process already holding more than the cap (earlier work) must not starve the search."""
    position = Position.parse(["RAQQJJT999844", "B22AAT886633"])
    held = bytearray(96 * 1024 * 1024)  # resident: touched page by page
    for at in range(0, len(held), 4096):
        held[at] = 1
    roomy = solve(position, memory=64 * 1024 * 1024, core="compiled")
    assert roomy.winner == 0 and roomy.stats["evictions"] == 0
    # Its own bytes do count: a cap below them evicts, and the answer stays exact.
    tight = solve(position, all_moves=True, memory=4 * 1024 * 1024, core="compiled")
    assert tight.stats["evictions"] > 0
    assert (tight.winner, [str(m) for m in tight.moves]) == (0, ["8"])
    del held


@needs_core
def test_a_deadline_stops_the_compiled_search_with_what_it_had_settled() -> None:
    position = Position.parse(HARD)
    result = solve(position, time_limit=0.05, core="compiled")
    assert result.winner is None and result.stats["stopped"] == "time"
    assert result.stats["core"] == "compiled"


def test_the_open_hands_page_shows_the_cores_benchmark_as_measured() -> None:
    """The node-rate table on docs/open-hands.md is benchmarks/cores.py's, from its results file."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import cores

    page = (ROOT / "docs" / "open-hands.md").read_text()
    results = json.loads((ROOT / "benchmarks" / "results" / "cores.json").read_text())
    # Stale? python benchmarks/cores.py --json benchmarks/results/cores.json --page docs/open-hands.md
    assert cores.rewritten(page, results) == page
    assert all(row["compiled"] > 0 for row in results["rows"])


@pytest.mark.parametrize("core", ["python", *(["compiled"] if compiled.available() else [])])
def test_a_stopped_search_names_the_unsettled_first_moves_and_the_one_it_was_trying(
    core: str,
) -> None:
    """Every first move is settled or listed unsettled, in the search's order, the first the most promising."""
    for hands in (HARD, FULL_DEAL):
        position = Position.parse(hands)
        result = solve(position, time_limit=0.1, memory=None, core=core)
        assert result.winner is None
        legal = {
            str(m) if m is not None else "pass"
            for m in generator().moves(position.hands[position.turn], position.table)
        }
        assert set(result.known) | set(result.unresolved) == legal
        assert not set(result.known) & set(result.unresolved)
        document = result.as_dict()
        assert document["most_promising"] == result.promising == result.unresolved[0]


@pytest.mark.skipif(
    os.environ.get("CPSOLVER_PURE") is not None
    or (shutil.which("cc") is None and shutil.which("gcc") is None),
    reason="no C compiler here, or the pure build was asked for",
)
def test_where_a_compiler_is_the_tests_run_the_compiled_core() -> None:
    """Else every test of it skips: a non-editable install leaves this folder without the core."""
    assert compiled.available(), (
        "the compiled core is not importable from this folder: "
        "pip install -e '.[test]' (or python setup.py build_ext --inplace)"
    )


def test_the_core_is_chosen_by_name() -> None:
    assert core_name("python") == "python"
    assert core_name() == ("compiled" if compiled.available() else "python")
    with pytest.raises(CoreError, match="unknown core"):
        core_name("fortran")


def test_the_cli_says_which_core_ran_and_refuses_an_unknown_one() -> None:
    runner = CliRunner()
    for core in ("python", *(["compiled"] if compiled.available() else [])):
        result = runner.invoke(
            cli, ["endgame", "--hand", "KK3", "--hand", "QQ4", "--core", core, "--json"]
        )
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["stats"]["core"] == core
    result = runner.invoke(cli, ["endgame", "--hand", "KK3", "--hand", "QQ4", "--core", "fast"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    version = runner.invoke(cli, ["--version"]).stdout
    assert f"the {core_name()} core" in version


@pytest.mark.skipif(compiled.available(), reason="only where the core is missing")
def test_asking_for_a_missing_compiled_core_is_one_line_and_exit_2() -> None:
    result = CliRunner().invoke(
        cli, ["endgame", "--hand", "KK3", "--hand", "QQ4", "--core", "compiled"]
    )
    assert result.exit_code == 2 and "was not built" in result.output


@pytest.mark.skipif(
    shutil.which("gcc") is None and shutil.which("cc") is None, reason="no compiler"
)
def test_a_build_without_a_compiler_installs_and_runs_on_the_python_core(tmp_path: Path) -> None:
    """``pip install .`` where no C compiler works: the wheel has no core, and cpsolver still answers."""
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "__pycache__", "build", "dist", "*.egg-info", "*.so"
        ),
    )
    environment = {**os.environ, "CC": "false", "LDSHARED": "false"}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-w",
            str(tmp_path / "dist"),
            str(source),
        ],
        check=True,
        capture_output=True,
        env=environment,
        timeout=300,
    )
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert not [n for n in archive.namelist() if n.endswith((".so", ".pyd"))]
        archive.extractall(tmp_path / "installed")
    # -S: no site hooks, so an editable install of this checkout (an import hook that
    # outranks PYTHONPATH) cannot stand in for the wheel; its dependencies by path.
    found = [str(tmp_path / "installed"), *site.getsitepackages()]
    run = {**os.environ, "PYTHONPATH": os.pathsep.join(found)}
    version = subprocess.run(
        [sys.executable, "-S", "-m", "cpsolver", "--version"],
        check=False,
        capture_output=True,
        text=True,
        env=run,
        cwd=tmp_path,
    )
    assert (
        "the python core" in version.stdout and "strategy checker: the python one" in version.stdout
    )
    answer = subprocess.run(
        [
            sys.executable,
            "-S",
            "-m",
            "cpsolver",
            "endgame",
            "--hand",
            "KK3",
            "--hand",
            "QQ4",
            "--json",
        ],
        check=False,
        capture_output=True,
        text=True,
        env=run,
        cwd=tmp_path,
    )
    assert answer.returncode == 0 and json.loads(answer.stdout)["stats"]["core"] == "python"
    # Its proofs verify on the Python checker.
    proven = [sys.executable, "-S", "-m", "cpsolver", "endgame", "--hand", "KK3", "--hand", "QQ4"]
    subprocess.run([*proven, "--proof", "proof.json"], check=True, env=run, cwd=tmp_path)
    verified = subprocess.run(
        [sys.executable, "-S", "-m", "cpsolver", "verify", "proof.json", "--json"],
        check=False,
        capture_output=True,
        text=True,
        env=run,
        cwd=tmp_path,
    )
    assert verified.returncode == 0 and json.loads(verified.stdout)["valid"]


@needs_core
def test_a_finished_search_is_freed_when_its_last_user_lets_go() -> None:
    # The core calls back into its search (the clock, the memory cap): held strongly, each
    # search was a cycle the collector could not see through the C type, so every solve
    # kept its whole table for the life of the process (puzzle make grew to 15 GB).
    import gc
    import weakref

    position = Position.parse(["RAQQJJT999844", "B22AAT886633"])
    result = solve(position, all_moves=True, core="compiled")
    assert result.strategy is not None
    search = weakref.ref(result.strategy.search)
    del result
    assert search() is None  # freed at once, by reference counting
    cycle = CompiledSearch(2)
    cycle.again = cycle  # type: ignore[attr-defined]  # a cycle through Python, as a user might make
    held = weakref.ref(cycle)
    del cycle
    gc.collect()
    assert held() is None  # and the collector sees through the core
