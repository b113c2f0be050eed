"""Batches: same results on any runner, resume after SIGKILL, error records, per-deal timeouts."""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from processes import corpus, killed_partway

from cpsolver.io.corpus import corpus_key
from cpsolver.io.dealformat import deal_as_dict
from cpsolver.io.dealgen import generate
from cpsolver.io.rulefiles import read_rules_text
from cpsolver.rules.cards import Deal
from cpsolver.scale.batch import BatchOptions, done_ids, run_batch
from cpsolver.scale.parallel import InProcess
from cpsolver.spring.search import solve as search_solve


def batch(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "cpsolver", "batch", *args]
    return subprocess.run(command, check=False, capture_output=True, text=True, timeout=timeout)


def records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def keys(*ids: object) -> set[str]:
    """The keys of done results with these ids (and no line numbers), as resume holds them."""
    return {corpus_key({"id": found}, None) for found in ids}


def content(path: Path) -> set[str]:
    """The records without their times, as a set: what must not depend on the runner."""
    found = set()
    for record in records(path):
        record.pop("seconds", None)
        found.add(json.dumps(record, sort_keys=True))
    return found


def test_the_same_results_in_process_on_two_workers_and_on_a_local_dask_cluster(
    tmp_path: Path,
) -> None:
    source = tmp_path / "in.jsonl"
    ids = corpus(source, 120, seed=1)
    outputs = []
    for name, options in [
        ("one", ["--workers", "1"]),
        ("two", ["--workers", "2"]),
        ("dask", ["--local-cluster", "2"]),
    ]:
        out = tmp_path / f"{name}.jsonl"
        done = batch(str(source), "-o", str(out), *options, "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["solved"] == 120
        assert sorted(str(r["id"]) for r in records(out)) == sorted(ids)
        outputs.append(content(out))
    assert outputs[0] == outputs[1] == outputs[2]


@pytest.mark.parametrize(
    "runner", [["--workers", "2"], ["--local-cluster", "2"]], ids=["pool", "dask"]
)
def test_killed_with_sigkill_then_resumed_every_id_exactly_once(
    tmp_path: Path, runner: list[str]
) -> None:
    source = tmp_path / "in.jsonl"
    ids = corpus(source, 3000, seed=2)
    out = tmp_path / "out.jsonl"
    written = killed_partway(out, 300, "batch", str(source), "-o", str(out), *runner, "--quiet")
    assert 300 <= written < 3000, "the kill must land part-way"
    resumed = batch(str(source), "-o", str(out), *runner, "--json")
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["skipped_already_done"] >= 300
    lines = out.read_text().splitlines()
    assert all(line.startswith("{") and line.endswith("}") for line in lines)  # no torn line
    got = [str(json.loads(line)["id"]) for line in lines]
    assert sorted(got) == sorted(ids)  # every id exactly once


def test_a_torn_last_line_is_cut_off_and_its_deal_solved_again(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": "a", "verdict": "spring"}\n{"id": "b", "verd')
    assert done_ids(out).ids == keys("a")
    assert out.read_text() == '{"id": "a", "verdict": "spring"}\n'


def test_resume_reads_the_output_a_line_at_a_time_keeping_only_the_ids(tmp_path: Path) -> None:
    """8 MB of results with a 4 KB note each: reading them all at once would hold 8 MB or more."""
    out = tmp_path / "out.jsonl"
    note = "n" * 4096
    with out.open("w") as file:
        for number in range(2000):
            file.write(json.dumps({"id": f"d{number}", "verdict": "spring", "note": note}) + "\n")
        file.write('{"id": "torn", "note": "' + note)  # the run died mid-line
    size = out.stat().st_size
    tracemalloc.start()
    try:
        done = done_ids(out)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert done.ids == keys(*(f"d{number}" for number in range(2000)))
    assert out.stat().st_size == size - len('{"id": "torn", "note": "' + note)
    assert peak < 1_000_000, f"{peak} bytes held to read a {size}-byte output"


def test_an_output_line_over_the_result_cap_is_not_a_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not one of ours: it stays where it is and its deal is solved again, as for a broken line."""
    monkeypatch.setenv("CPSOLVER_LIMIT_RESULT", "1000")
    out = tmp_path / "out.jsonl"
    big = json.dumps({"id": "big", "verdict": "spring", "note": "x" * 5000}) + "\n"
    kept = '{"id": "a", "verdict": "spring"}\n' + big + '{"id": "c", "error": "no deal"}\n'
    for tail in ["", '{"id": "d", "ver', '{"id": "torn-and-long", "note": "' + "y" * 5000]:
        out.write_text(kept + tail)
        done = done_ids(out)
        assert (done.ids, done.errors) == (keys("a", "c"), 1)
        assert out.read_text() == kept  # a torn last line is cut off, however long


def test_bad_lines_become_error_records_and_the_rest_is_solved(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    good = [json.dumps({"id": e.id, **deal_as_dict(e.deal)}) for e in generate("endgame", 4, 5)]
    lines = [
        good[0],
        "{broken",
        good[1],
        '{"id": "bad-cards", "landlord": "3Z", "peasants": ["4", "5"]}',
        '{"id": "overlap", "landlord": "3333", "peasants": ["3", "5"]}',
        good[2],
        "",
        good[3],
    ]
    source.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    done = batch(str(source), "-o", str(out), "--workers", "1", "--json")
    assert done.returncode == 2
    summary = json.loads(done.stdout)
    assert (summary["solved"], summary["errors"]) == (4, 3)
    errors = {str(r["id"]): r for r in records(out) if "error" in r}
    assert errors["2"]["error"].startswith("line 2: broken JSON")
    assert errors["bad-cards"]["error"] == "line 4: landlord: unknown card symbol 'Z' at position 2"
    assert errors["overlap"]["error"] == "line 5: five 3s across the deal"
    again = batch(str(source), "-o", str(out), "--workers", "1", "--json")
    assert again.returncode == 2  # nothing left to solve, but the error records still count
    assert json.loads(again.stdout)["skipped_already_done"] == 7


def test_a_deal_past_the_timeout_is_unknown_and_only_that_deal(tmp_path: Path) -> None:
    """The big endgame's 10,000 plays take far longer to list and check than the budget
    (seconds); the tiny ones take a ten-thousandth of it, so a loaded machine keeps them in."""
    big = Deal.parse("333444555666777888999TTTJJJQQQKKKAAA2BR", "2", "2")
    tiny = [Deal.parse("3", "4", "5"), Deal.parse("KK", "AA", "3"), Deal.parse("2", "A", "K")]
    lines = [json.dumps({"id": f"tiny-{i}", **deal_as_dict(d)}) for i, d in enumerate(tiny)]
    lines.insert(1, json.dumps({"id": "big", **deal_as_dict(big)}))
    search_solve(tiny[0])  # warm up: the first solve of a process is slow
    text, source = read_rules_text("standard")
    options = BatchOptions("search", "spring", "eager", text, source, timeout=0.5)
    out = tmp_path / "out.jsonl"
    with out.open("a") as output:
        summary = run_batch(lines, output, options, InProcess(), set())
    verdicts = {str(r["id"]): r["verdict"] for r in records(out)}
    assert verdicts == {
        "tiny-0": "spring",
        "big": "unknown",
        "tiny-1": "spring",
        "tiny-2": "spring",
    }
    assert summary.verdicts["unknown"] == 1
