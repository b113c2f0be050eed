"""Random positions, position corpora, and cross-checking endgame solvers (ours and others')."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from endgame_reference import winner as reference_winner

from cpsolver.cli import cli
from cpsolver.crosscheck.endgame import crosscheck_positions, judge, move_failure, shrink_position
from cpsolver.crosscheck.solvers import (
    CommandEndgameSolver,
    EndgameAnswer,
    EndgameSolver,
    OurSolver,
    parse_endgame_answer,
)
from cpsolver.endgame import solve
from cpsolver.io.positioncorpus import (
    PositionCorpusError,
    PositionEntry,
    parse_position_line,
    position_entry_as_dict,
    read_position_corpus,
)
from cpsolver.io.positionformat import parse_position
from cpsolver.io.positiongen import generate, parse_position_sizes
from cpsolver.rules.cards import DECK_COUNTS
from cpsolver.rules.plays import classify
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import standard_rules

RULES = standard_rules()
EXAMPLE = Path(__file__).parents[1] / "examples" / "external_endgame_solver.py"
TOY = f"{sys.executable} {EXAMPLE}"
WRONG = f"{TOY} --wrong"
# Hand-made cases where a bomb must answer: a solver that never answers with
# one (--wrong) gets the first two wrong, and names a losing move in the third.
BOMB = '{"id": "bomb", "hands": ["AA3", "55554"], "turn": 0}'
MID = '{"id": "mid", "hands": ["KK3", "Q7777", "44"], "turn": 1, "table": {"cards": "A", "by": 0}}'
LOSING_MOVE = '{"id": "move", "hands": ["BR", "8888"], "turn": 0}'
LABELLED = '{"hands": ["KK3", "QQ4"], "expected": {"winner": 0}}'


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def entries(*lines: str) -> list[PositionEntry | PositionCorpusError]:
    return list(read_position_corpus(lines, RULES))


# -- generated positions -------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "sizes"), [("position2", ((1, 14), (3, 13))), ("position3", ((1, 8), (2, 2), (5, 8)))]
)
def test_generated_positions_are_valid_and_as_asked(kind: str, sizes: tuple) -> None:
    found = list(generate(kind, 300, seed=11, sizes=sizes))
    assert [entry.id for entry in found] == [f"{kind}-11-{i}" for i in range(300)]
    tables: Counter[str] = Counter()
    for entry in found:
        position = entry.position
        assert position.players == len(sizes)
        for hand, (low, high) in zip(position.hands, sizes):
            assert low <= len(hand) <= high
        total = [sum(counts) for counts in zip(*(h.counts for h in position.hands))]
        if position.table is not None:
            assert position.by != position.turn
            assert classify(position.table.cards) == position.table  # a legal play
            total = [a + b for a, b in zip(total, position.table.cards.counts)]
            tables[position.table.kind.value] += 1
        assert all(n <= limit for n, limit in zip(total, DECK_COUNTS))  # disjoint cards
    mid = sum(tables.values())
    assert 100 < mid < 200  # about half, by default
    assert len(tables) >= 4  # not only singles: pairs, triplets, sequences...
    assert {entry.position.turn for entry in found} == set(range(len(sizes)))


def test_generated_positions_are_reproducible_and_prefixes_of_each_other() -> None:
    first = [e.position for e in generate("position3", 40, seed=3)]
    again = [e.position for e in generate("position3", 10, seed=3)]
    other = [e.position for e in generate("position3", 10, seed=4)]
    assert first[:10] == again
    assert first[:10] != other
    on_lead = [e.position for e in generate("position3", 40, seed=3, mid_trick=0.0)]
    assert all(p.table is None for p in on_lead)
    # The hands and the player to move do not depend on the share of mid-trick positions.
    assert [(p.hands, p.turn) for p in on_lead] == [(p.hands, p.turn) for p in first]
    assert all(e.position.table is not None for e in generate("position2", 20, 3, mid_trick=1.0))


def test_position_sizes_are_read_and_refused_with_reasons() -> None:
    assert parse_position_sizes("14,13", 2) == ((14, 14), (13, 13))
    assert parse_position_sizes(" 1-8, 1-8 ,8", 3) == ((1, 8), (1, 8), (8, 8))
    for text, players, reason in [
        ("14", 2, "give 2 sizes"),
        ("1,2", 3, "give 3 sizes"),
        ("0,3", 2, "must be at least 1"),
        ("5-3,3", 2, "low to high"),
        ("x,3", 2, "is not a size"),
        ("30,30", 2, "more cards than one deck holds"),
    ]:
        with pytest.raises(ValueError, match=reason):
            parse_position_sizes(text, players)


# -- position corpora ----------------------------------------------------------


def test_corpus_lines_round_trip_and_carry_ids_and_expected_winners() -> None:
    for entry in generate("position3", 50, seed=2):
        line = json.dumps(position_entry_as_dict(entry))
        assert parse_position_line(line, 1) == PositionEntry(1, entry.id, entry.position)
    labelled = parse_position_line('{"hands": ["3", "4"], "expected": {"winner": 1}}', 7)
    assert (labelled.id, labelled.expected) == ("7", 1)
    assert position_entry_as_dict(labelled)["expected"] == {"winner": 1}
    # A deal is the three-player position, the landlord to lead; a spring means he wins.
    deal = parse_position_line(
        '{"landlord": "KK", "peasants": ["3", "4"], "expected": "spring"}', 1
    )
    assert (deal.position, deal.expected) == (Position.parse(["KK", "3", "4"]), 0)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{", "line 3: broken JSON"),
        ('{"hands": ["3"]}', "line 3: a position has two or three hands, not 1"),
        ('{"hands": ["3", "4"], "turn": 2}', "line 3: turn 2: there is no hand 2"),
        ('{"hands": ["3", "4"], "expected": {"winner": 2}}', "line 3: 'expected' must be"),
        ('{"hands": ["3", "4"], "expected": "spring!"}', "line 3: 'expected' must be"),
        (
            '{"hands": ["3", "4"], "colour": 1}',
            "line 3: a position line may not carry the key 'colour'; it may carry: hands, turn, table, id, expected, puzzle",
        ),
        ('{"hands": ["33", "4"], "turn": 1, "table": {"cards": "34", "by": 0}}', "line 3: 34"),
    ],
)
def test_bad_corpus_lines_are_errors_naming_the_line(line: str, message: str) -> None:
    found = entries("", '{"hands": ["3", "4"]}', line, '{"hands": ["5", "6"]}')
    assert isinstance(found[1], PositionCorpusError)
    assert str(found[1]).startswith(message)
    assert [type(e) for e in found] == [PositionEntry, PositionCorpusError, PositionEntry]


# -- judging answers -----------------------------------------------------------


def test_claimed_moves_are_checked_for_legality_and_for_winning() -> None:
    lead = Position.parse(["KK 3", "QQ 4"])
    assert move_failure(lead, "KK", RULES, None) is None
    assert move_failure(lead, "3", RULES, None) is None  # 3, 4, then KK: still a win
    assert move_failure(lead, "pass", RULES, None) == "pass, on lead, is not a legal move"
    assert move_failure(lead, "AA", RULES, None) == "AA is not in hand 0 (3KK)"
    assert move_failure(lead, "K3", RULES, None) == "3K is no play under the standard rules"
    assert move_failure(lead, "Z", RULES, None).startswith("'Z' is not cards")
    answer = Position.parse(["KK 5", "AA"], turn=1, table="K", by=0)
    assert move_failure(answer, "A", RULES, None) is None
    assert move_failure(answer, "AA", RULES, None) == "AA does not beat the table play K"
    losing = Position.parse(["2 5", "A 3"], turn=1, table="K", by=0)
    assert (
        move_failure(losing, "A", RULES, None) == "A loses: the first player (hand 0) wins after it"
    )
    assert (
        move_failure(losing, "pass", RULES, None)
        == "pass loses: the first player (hand 0) wins after it"
    )


def test_judge_names_disagreements_invalid_moves_proofs_and_labels() -> None:
    position = Position.parse(["KK 3", "QQ 4"])
    ours = EndgameAnswer("cpsolver", 0, ["KK"], 0.0)
    assert judge(position, [ours, EndgameAnswer("x", 0, ["3", "K"], 0.0)], 0, RULES, None) is None
    assert judge(position, [ours, EndgameAnswer("x", None, None, 0.0)], None, RULES, None) is None
    assert judge(position, [ours, EndgameAnswer("x", 1, [], 0.0)], None, RULES, None) == (
        "disagreement",
        "cpsolver says the first player (hand 0) wins, x says the second player (hand 1) wins",
    )
    assert judge(position, [ours, EndgameAnswer("x", 0, ["QQ"], 0.0)], None, RULES, None) == (
        "invalid move",
        "x's winning move QQ is not in hand 0 (3KK)",
    )
    losing = Position.parse(["KK 5", "AA"])
    said = [EndgameAnswer("cpsolver", 1, [], 0.0), EndgameAnswer("x", 1, ["5"], 0.0)]
    assert judge(losing, said, None, RULES, None) == (
        "invalid move",
        "x says the side to move loses, yet names winning moves",
    )
    assert judge(position, [ours], 1, RULES, None) == (
        "disagreement",
        "expected the second player (hand 1) to win, cpsolver says the first player (hand 0) wins",
    )
    broken = EndgameAnswer("cpsolver", 0, ["KK"], 0.0, proof="node 3: no reply to 4")
    assert judge(position, [broken], None, RULES, None) == (
        "invalid proof",
        "cpsolver's strategy: node 3: no reply to 4",
    )


def test_external_answers_are_read_strictly() -> None:
    assert parse_endgame_answer({"winner": 0, "moves": ["KK", "pass"]}) == (0, ["KK", "pass"])
    assert parse_endgame_answer({"winner": None}) == (None, None)
    for data, reason in [
        ([], "no 'winner'"),
        ({"moves": []}, "no 'winner'"),
        ({"winner": 2}, "'winner' must be 0, 1 or null"),
        ({"winner": True}, "'winner' must be 0, 1 or null"),
        ({"winner": 0, "moves": "KK"}, "'moves' is not a list"),
        ({"winner": 0, "moves": [3]}, "a move is not cards or 'pass'"),
    ]:
        with pytest.raises(ValueError, match=reason):
            parse_endgame_answer(data)


# -- cross-checking --------------------------------------------------------------


def test_ours_agrees_with_brute_force_labels_on_small_positions() -> None:
    labelled = []
    for kind, sizes in [("position2", ((1, 4), (1, 4))), ("position3", ((1, 3),) * 3)]:
        for entry in generate(kind, 60, seed=5, sizes=sizes):
            p = entry.position
            side = reference_winner(p.hands, p.turn, p.table, p.by, RULES)
            labelled.append(PositionEntry(entry.line, entry.id, p, side))
    summary = crosscheck_positions(labelled, [OurSolver(RULES, None)], RULES, None, 10.0)
    assert summary.positions == summary.agreements == 120
    assert summary.findings == [] and summary.problems == []
    assert 0 < summary.mover_wins < 120


def test_a_correct_external_solver_agrees_on_generated_positions() -> None:
    solvers: list[EndgameSolver] = [OurSolver(RULES, None), CommandEndgameSolver(TOY, 20.0)]
    corpus = [
        *generate("position2", 40, seed=8, sizes=((1, 7), (1, 7))),
        *generate("position3", 40, seed=8, sizes=((1, 4),) * 3),
        *read_position_corpus([BOMB, MID, LOSING_MOVE]),
    ]
    try:
        summary = crosscheck_positions(corpus, solvers, RULES, None, 10.0)
    finally:
        for solver in solvers:
            solver.close()
    assert summary.problems == []
    assert (summary.positions, summary.agreements, summary.findings) == (83, 83, [])


def test_a_wrong_external_solver_is_caught_and_shrunk() -> None:
    solvers: list[EndgameSolver] = [OurSolver(RULES, None), CommandEndgameSolver(WRONG, 20.0)]
    try:
        summary = crosscheck_positions(
            read_position_corpus([BOMB, MID, LOSING_MOVE, '{"hands": ["KK3", "QQ4"]}']),
            solvers,
            RULES,
            None,
            30.0,
        )
        findings = {finding.id: finding for finding in summary.findings}
        assert (summary.agreements, summary.disagreements, summary.invalid_moves) == (1, 2, 1)
        assert sorted(findings) == ["bomb", "mid", "move"]
        assert (
            findings["move"].reason
            == "external's winning move B loses: the second player (hand 1) wins after it"
        )
        for finding in findings.values():
            small = sum(map(len, finding.position.hands))
            assert small < sum(map(len, finding.original.hands)) or finding.id == "move"
            assert small <= 6
            # The reproducer still fails the same way, and no single card can go.
            answers = [solver.answer(finding.position, "again") for solver in solvers]
            assert judge(finding.position, answers, None, RULES, None)[0] == finding.kind
        bomb = findings["bomb"]
        assert bomb.winners == {"cpsolver": 1, "external": 0}
        assert solve(bomb.position).winner == 1
    finally:
        for solver in solvers:
            solver.close()


def test_shrinking_stops_at_its_time_budget() -> None:
    position = Position.parse(["AA 3 4 6", "5555 4"])
    calls = []

    def fails(smaller: Position) -> bool:
        calls.append(smaller)
        return True

    assert shrink_position(position, fails, -1) == (position, True)
    assert calls == []
    shrunk, cut_short = shrink_position(position, fails, 60)
    assert not cut_short and [len(h) for h in shrunk.hands] == [1, 1]


def test_a_misbehaving_external_solver_is_a_problem_per_position(tmp_path: Path) -> None:
    script = tmp_path / "junk.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    first = json.loads(line)['id'].endswith('-0')\n"
        "    print('hello' if first else '{\"winner\": 7}', flush=True)\n"
    )
    solver = CommandEndgameSolver(f"{sys.executable} {script}", 5.0)
    try:
        summary = crosscheck_positions(
            generate("position2", 2, seed=1, sizes=((1, 3), (1, 3))),
            [OurSolver(RULES, None), solver],
            RULES,
            None,
            1.0,
        )
    finally:
        solver.close()
    assert [p["problem"] for p in summary.problems] == [
        "garbage: the external solver: broken JSON: Expecting value: line 1 column 1 (char 0)",
        "garbage: 'winner' must be 0, 1 or null, not 7",
    ]
    assert summary.agreements == 2 and summary.findings == []


# -- the command line ------------------------------------------------------------------


def test_deal_writes_seeded_positions() -> None:
    args = ["deal", "--kind", "position2", "--sizes", "14,13", "--count", "5", "--seed", "9"]
    code, out, _ = run(*args)
    assert code == 0 and run(*args)[1] == out
    found = list(read_position_corpus(out.splitlines()))
    assert [e.id for e in found if isinstance(e, PositionEntry)] == [
        f"position2-9-{i}" for i in range(5)
    ]
    assert all(
        isinstance(e, PositionEntry) and [len(h) for h in e.position.hands] == [14, 13]
        for e in found
    )
    code, out, _ = run("deal", "--kind", "position3", "--count", "20", "--mid-trick", "1")
    assert code == 0
    assert all(json.loads(line)["table"] is not None for line in out.splitlines())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kind", "position2", "--sizes", "1,2,3"], "give 2 sizes"),
        (["--kind", "position3", "--sizes", "1-8,1-8"], "give 3 sizes"),
        (["--kind", "position3", "--mid-trick", "1.5"], "'--mid-trick'"),
        (["--kind", "full", "--sizes", "3,3"], "--sizes is for endgame, position2 and position3"),
    ],
)
def test_deal_refuses_bad_position_options(args: list[str], message: str) -> None:
    code, _, err = run("deal", *args)
    assert code == 2 and len(err.splitlines()) == 1 and message in err


def test_crosscheck_reads_positions_and_writes_runnable_reproducers(tmp_path: Path) -> None:
    corpus = f"\n{BOMB}\n{LABELLED}"
    out_dir = tmp_path / "repro"
    args = ["crosscheck", "-", "--reproducers", str(out_dir), "--quiet"]
    code, out, _ = run(*args, stdin=corpus)
    assert code == 0 and not out_dir.exists()
    assert out.splitlines()[:3] == [
        "positions         2",
        "agreements        2",
        "disagreements     0",
    ]
    code, out, _ = run(*args, "--against", WRONG, "--json", stdin=corpus)
    report = json.loads(out)
    assert code == 1
    assert (report["question"], report["positions"], report["disagreements"]) == ("endgame", 2, 1)
    assert report["reproducers"][0]["winners"] == {"cpsolver": 1, "external": 0}
    reproducer = out_dir / "bomb.txt"
    position = parse_position(reproducer.read_text())
    assert sum(map(len, position.hands)) <= 6
    code, out, _ = run("endgame", str(reproducer), "--json")
    assert code == 1 and json.loads(out)["winner"] == 1  # the side to move loses, as ours said


def test_crosscheck_generates_positions_and_counts_bad_lines() -> None:
    code, out, _ = run(
        "crosscheck", "--generate", "position3", "--count", "3", "--seed", "2", "--json"
    )
    assert code == 0 and json.loads(out)["agreements"] == 3
    args = ["--generate", "position3", "--count", "5", "--seed", "2", "--no-proof-check"]
    code, out, _ = run("crosscheck", *args, "--json")
    assert code == 0 and json.loads(out)["agreements"] == 5
    corpus = '{"hands": ["3", "4"]}\n{"hands": ["3", "3", "3", "3", "3"]}\n'
    code, _, err = run("crosscheck", "-", "--question", "endgame", stdin=corpus)
    assert code == 2
    assert err.splitlines() == ["bad line: line 2: a position has two or three hands, not 5"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--generate", "position2", "--question", "spring"], "asks the endgame question"),
        (["--generate", "full", "--question", "endgame"], "takes --generate position2 or"),
        (["--generate", "position2", "--optima"], "--optima is for the spring question"),
        (["--generate", "position2", "--against", " "], "command is empty"),
    ],
)
def test_crosscheck_refuses_bad_endgame_options(args: list[str], message: str) -> None:
    code, _, err = run("crosscheck", "--count", "1", *args)
    assert code == 2 and len(err.splitlines()) == 1 and message in err


def test_stale_lines_are_problems_and_the_protocol_is_recorded(tmp_path: Path) -> None:
    script = tmp_path / "twice.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    answer = json.dumps({'id': request['id'], 'winner': None})\n"
        "    print(answer, flush=True)\n"
        "    print(answer, flush=True)\n"
    )
    twice = CommandEndgameSolver(f"{sys.executable} {script}", 5.0)
    toy = CommandEndgameSolver(TOY, 20.0)
    toy.name = "toy"
    try:
        summary = crosscheck_positions(
            generate("position2", 3, seed=1, sizes=((1, 3), (1, 3))),
            [OurSolver(RULES, None), twice, toy],
            RULES,
            None,
        )
    finally:
        twice.close()
        toy.close()
    assert summary.protocols == {"external": 2, "toy": 2}
    assert summary.agreements == 3  # an unknown never disagrees
    stale = [p["problem"] for p in summary.problems]
    assert stale and all(p.startswith("1 stale line discarded: ") for p in stale)


def test_ctrl_c_ends_the_run_with_the_summary_so_far() -> None:
    class Interrupting(OurSolver):
        def answer(self, position: Position, position_id: str) -> EndgameAnswer:
            if position_id.endswith("-2"):
                raise KeyboardInterrupt
            return super().answer(position, position_id)

    summary = crosscheck_positions(
        generate("position2", 5, seed=1, sizes=((1, 3), (1, 3))),
        [Interrupting(RULES, None)],
        RULES,
        None,
    )
    assert summary.interrupted and summary.positions == summary.agreements == 2
