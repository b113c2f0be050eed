"""``batch --question endgame``: the same winners as the solver one by one and as crosscheck,
resumable after SIGKILL, on the pool and on Dask, with its bad inputs refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from processes import killed_partway

from cpsolver.endgame import solve
from cpsolver.io.dealformat import deal_as_dict
from cpsolver.io.dealgen import generate as generate_deals
from cpsolver.io.positioncorpus import (
    PositionEntry,
    detect_question,
    position_entry_as_dict,
    read_position_corpus,
)
from cpsolver.io.positiongen import generate
from cpsolver.io.rulefiles import read_rules_text
from cpsolver.rules.position import Position, side_name
from cpsolver.rules.ruleset import standard_rules
from cpsolver.scale.batch import BatchOptions, run_batch
from cpsolver.scale.parallel import InProcess

RULES = standard_rules()


def cpsolver(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "cpsolver", *args]
    return subprocess.run(
        command, input=stdin, check=False, capture_output=True, text=True, timeout=600
    )


def write_corpus(path: Path, count: int, seed: int = 5) -> list[PositionEntry]:
    """Half two-player, half three-player positions, each line as ``deal --kind`` writes it."""
    entries = [*generate("position2", count // 2, seed), *generate("position3", count // 2, seed)]
    path.write_text("".join(json.dumps(position_entry_as_dict(e)) + "\n" for e in entries))
    return entries


def records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def same_winners_as_one_by_one_and_as_crosscheck(tmp_path: Path, count: int) -> None:
    source = tmp_path / "in.jsonl"
    entries = write_corpus(source, count)
    out = tmp_path / "out.jsonl"
    done = cpsolver("batch", str(source), "-o", str(out), "--workers", "2", "--json", "--quiet")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["question"] == "endgame" and summary["solved"] == count
    winners = {str(r["id"]): r["winner"] for r in records(out)}
    assert len(winners) == count
    for entry in entries:
        alone = solve(entry.position, RULES)
        assert winners[entry.id] == alone.winner, entry.id
    named = Counter(f"won by {side_name(winners[e.id], e.position.players)}" for e in entries)
    assert summary["verdicts"] == dict(named)
    sides = [sum(w == side for w in winners.values()) for side in (0, 1)]
    assert 0 < sides[0] < count, "a corpus where one side always wins tells little"
    # crosscheck, given the batch's winners as labels, must agree with every one of them.
    labelled = tmp_path / "labelled.jsonl"
    labelled.write_text(
        "".join(
            json.dumps(position_entry_as_dict(PositionEntry(0, e.id, e.position, winners[e.id])))
            + "\n"
            for e in entries
        )
    )
    check = cpsolver("crosscheck", str(labelled), "--json", "--quiet", "--no-proof-check")
    assert check.returncode == 0, check.stdout + check.stderr
    report = json.loads(check.stdout)
    assert report["agreements"] == count and report["disagreements"] == 0


def test_the_same_winners_as_the_solver_one_by_one_and_as_crosscheck(tmp_path: Path) -> None:
    same_winners_as_one_by_one_and_as_crosscheck(tmp_path, 200)


@pytest.mark.slow
def test_the_same_winners_over_a_thousand_positions(tmp_path: Path) -> None:
    same_winners_as_one_by_one_and_as_crosscheck(tmp_path, 1000)


def test_a_wrong_expected_winner_is_a_mismatch_and_exit_1(tmp_path: Path) -> None:
    entries = list(generate("position2", 6, 11))
    truth = [solve(e.position, RULES).winner for e in entries]
    assert None not in truth
    wrong = PositionEntry(0, entries[0].id, entries[0].position, 1 - truth[0])  # type: ignore[operator]
    right = [PositionEntry(0, e.id, e.position, w) for e, w in zip(entries[1:], truth[1:])]
    source = tmp_path / "in.jsonl"
    source.write_text(
        "".join(json.dumps(position_entry_as_dict(e)) + "\n" for e in [wrong, *right])
    )
    done = cpsolver("batch", str(source), "-o", "-", "--workers", "1", "--json", "--quiet")
    assert done.returncode == 1, done.stderr
    summary = json.loads(done.stderr)
    assert summary["mismatches"] == 1 and summary["mismatched_ids"] == [entries[0].id]
    assert all(r["expected"]["winner"] in (0, 1) for r in map(json.loads, done.stdout.splitlines()))


def test_the_records_and_the_summary_in_process(tmp_path: Path) -> None:
    entries = list(generate("position3", 8, 2))
    text, source = read_rules_text("standard")
    out = (tmp_path / "out.jsonl").open("w")
    lines = [json.dumps(position_entry_as_dict(e)) for e in entries] + ['{"hands": 3}']
    options = BatchOptions(rules_toml=text, rules_source=source, question="endgame")
    summary = run_batch(lines, out, options, InProcess(), set())
    out.close()
    got = records(tmp_path / "out.jsonl")
    assert [r["id"] for r in got] == [e.id for e in entries] + ["9"]
    for record, entry in zip(got, entries):
        assert set(record) == {
            "id",
            "line",
            "winner",
            "moves",
            "nodes",
            "seconds",
            "cpu_seconds",
            "status",
            "players",
        }
        alone = solve(entry.position, RULES)
        assert record["winner"] == alone.winner and record["status"] == "solved"
        mover_side = entry.position.side_of(entry.position.turn)
        assert (record["moves"] != []) == (alone.winner == mover_side)
        assert record["moves"] == [str(m) for m in alone.moves]
    assert "error" in got[-1] and "hands" in got[-1]["error"]
    assert summary.errors == 1 and summary.solved == 8


def test_deal_lines_are_the_landlord_to_lead_with_a_per_position_timeout(tmp_path: Path) -> None:
    deals = list(generate_deals("full", 2, 0))
    small = Position.parse(["3", "4"], 0)
    lines = [json.dumps({"id": e.id, **deal_as_dict(e.deal)}) for e in deals]
    lines.append(json.dumps({"id": "small", "hands": [str(h) for h in small.hands]}))
    corpus = "\n".join(lines) + "\n"
    # The first line is a deal: auto would ask the spring question, so it is forced.
    # The Python core: the compiled one decides some full deals within the limit.
    done = cpsolver(
        "batch", "-", "-o", "-", "--question", "endgame", "--timeout", "0.3",
        "--workers", "1", "--json", "--quiet", "--core", "python", stdin=corpus,
    )  # fmt: skip
    assert done.returncode == 3, done.stderr  # some position ran out of time
    got = {r["id"]: r for r in map(json.loads, done.stdout.splitlines())}
    for entry in deals:
        assert got[entry.id]["status"] == "unknown" and got[entry.id]["winner"] is None
        assert got[entry.id]["seconds"] < 3
    assert got["small"] == {**got["small"], "winner": 0, "moves": ["3"], "status": "solved"}
    summary = json.loads(done.stderr)
    assert summary["verdicts"] == {"won by the first player (hand 0)": 1, "unknown": 2}


def test_the_question_is_detected_from_the_first_readable_line() -> None:
    position, deal = '{"hands": ["3", "4"]}', '{"landlord": "3", "peasants": ["4", "5"]}'
    for first, question in [(position, "endgame"), (deal, "spring")]:
        found, lines = detect_question(iter([(1, ""), (2, first), (3, deal)]))
        assert found == question and [n for n, _ in lines] == [1, 2, 3]
    assert detect_question(iter([]))[0] == "spring"
    entries = list(read_position_corpus([deal]))
    assert isinstance(entries[0], PositionEntry) and entries[0].position.players == 3


@pytest.mark.parametrize(
    "runner", [["--workers", "2"], ["--local-cluster", "2"]], ids=["pool", "dask"]
)
def test_killed_with_sigkill_then_resumed_every_position_exactly_once(
    tmp_path: Path, runner: list[str]
) -> None:
    source = tmp_path / "in.jsonl"
    entries = [*generate("position2", 3000, 8)]
    source.write_text("".join(json.dumps(position_entry_as_dict(e)) + "\n" for e in entries))
    out = tmp_path / "out.jsonl"
    written = killed_partway(out, 200, "batch", str(source), "-o", str(out), *runner, "--quiet")
    assert 200 <= written < 3000, "the kill must land part-way"
    resumed = cpsolver("batch", str(source), "-o", str(out), *runner, "--json", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["skipped_already_done"] >= 200
    assert summary["skipped_already_done"] + summary["solved"] == 3000
    lines = out.read_text().splitlines()
    assert all(line.startswith("{") and line.endswith("}") for line in lines)  # no torn line
    got = [str(json.loads(line)["id"]) for line in lines]
    assert sorted(got) == sorted(e.id for e in entries)  # every id exactly once
    winners = {str(json.loads(line)["id"]): json.loads(line)["winner"] for line in lines}
    for entry in entries[::100]:
        assert winners[entry.id] == solve(entry.position, RULES).winner


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--question", "chess"], "'chess' is not one of 'auto', 'spring', 'endgame'"),
        (["--question", "endgame", "--engine", "cpsat"], "--engine is for the spring question"),
        (["--objective", "fewest-plays"], "--objective is for the spring question"),
        (["--timeout", "0"], "0.0 is not a positive number of seconds"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    source = tmp_path / "in.jsonl"
    write_corpus(source, 2)
    done = cpsolver("batch", str(source), "-o", str(tmp_path / "out.jsonl"), *args)
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and message in errors[0], done.stderr


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"id": "x", "hands": ["3"], "colour": 1}', "may not carry the key 'colour'"),
        ('{"id": "x", "hands": ["3", "4"], "expected": {"winner": 2}}', "'expected' must be"),
        ('{"id": "x", "hands": ["3", "4"], "turn": 5}', "line 2: turn 5: there is no hand 5"),
        ("not json", "line 2"),
    ],
)
def test_bad_position_lines_are_error_records_and_exit_2(line: str, message: str) -> None:
    corpus = '{"id": "ok", "hands": ["3", "4"]}\n' + line + "\n"
    done = cpsolver("batch", "-", "-o", "-", "--workers", "1", "--quiet", stdin=corpus)
    assert done.returncode == 2, done.stderr
    got = [json.loads(r) for r in done.stdout.splitlines()]
    assert got[0]["winner"] == 0 and message in got[1]["error"]
