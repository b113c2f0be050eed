"""What a batch says when it ends (issue 27): duplicates, error records, a resume's totals, unknowns, memory.

Corpora are generated (seeded), the duplicates and bad lines placed at random.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.io.corpus import corpus_key
from cpsolver.io.dealformat import deal_as_dict
from cpsolver.io.dealgen import generate


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def batch(corpus: Path, out: Path, *more: str) -> tuple[int, str, str]:
    return run("batch", str(corpus), "-o", str(out), "--workers", "1", "--engine", "search", *more)


def deal_lines(count: int, seed: int) -> list[str]:
    return [
        json.dumps({"id": e.id, **deal_as_dict(e.deal)}) for e in generate("endgame", count, seed)
    ]


def results(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def with_duplicates(seed: int) -> tuple[list[str], list[dict[str, Any]]]:
    """A corpus whose lines repeat earlier ids at random places; the duplicates batch must report."""
    rng = random.Random(seed)
    lines = deal_lines(12, seed)
    expected: list[dict[str, Any]] = []
    for _ in range(rng.randint(1, 4)):
        copied = rng.randrange(len(lines))
        first = next(n for n, line in enumerate(lines, 1) if line == lines[copied])
        lines.insert(rng.randint(copied + 1, len(lines)), lines[copied])
        expected.append({"id": json.loads(lines[copied])["id"], "first_line": first})
    # The line each duplicate ended up at, in corpus order.
    seen: dict[str, int] = {}
    found = []
    for number, line in enumerate(lines, 1):
        deal_id = json.loads(line)["id"]
        if deal_id in seen:
            found.append({"id": deal_id, "line": number, "first_line": seen[deal_id]})
        else:
            seen[deal_id] = number
    assert sorted(d["id"] for d in found) == sorted(d["id"] for d in expected)
    return lines, found


@pytest.mark.parametrize("seed", range(4))
def test_a_duplicate_id_is_solved_once_warned_and_resumed_alike(tmp_path: Path, seed: int) -> None:
    lines, duplicates = with_duplicates(seed)
    corpus, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    corpus.write_text("\n".join(lines) + "\n")
    code, stdout, stderr = batch(corpus, out, "--json")
    assert code == 0, stderr
    assert json.loads(stdout)["duplicates"] == duplicates
    warning = stderr.splitlines()
    assert len(warning) == 1 and warning[0].startswith(f"Warning: {len(duplicates)} line")
    first_ids = [r["id"] for r in results(out)]
    assert sorted(first_ids) == sorted(set(first_ids))  # one result an id
    assert len(first_ids) == len(lines) - len(duplicates)
    # A kill partway (a prefix of OUT kept), then the resume: still one result an id,
    # each the first line's, and the duplicates reported the same way again.
    kept = random.Random(seed).randrange(len(first_ids))
    out.write_text("".join(json.dumps(r) + "\n" for r in results(out)[:kept]))
    code, stdout, stderr = batch(corpus, out, "--json")
    assert code == 0, stderr
    report = json.loads(stdout)
    assert report["duplicates"] == duplicates
    assert (report["skipped_already_done"], report["solved"]) == (kept, len(first_ids) - kept)
    again = results(out)
    assert sorted(r["id"] for r in again) == sorted(first_ids)
    firsts = {d["first_line"] for d in duplicates}
    assert {r["line"] for r in again} >= firsts  # each id answered at its first line


def test_ids_of_other_types_are_not_duplicates(tmp_path: Path) -> None:
    deal = json.loads(deal_lines(1, 9)[0])
    lines = [json.dumps({**deal, "id": found}) for found in ("5", 5, None)]
    corpus, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    corpus.write_text("\n".join(["{}", "{}", "{}", "{}", *lines]) + "\n")  # line 7: no id
    code, stdout, _ = batch(corpus, out, "--json")
    assert code == 2  # the four {} lines are no deals
    assert json.loads(stdout)["duplicates"] == []
    assert len({corpus_key(r, r["line"]) for r in results(out)}) == 7


def test_error_records_are_listed_by_id_and_line(tmp_path: Path) -> None:
    rng = random.Random(27)
    lines = deal_lines(6, 27)
    bad = ["{broken", '{"id": "cards", "landlord": "3Z", "peasants": ["4", "5"]}']
    for index in range(7):
        lines.insert(rng.randint(0, len(lines)), bad[index % 2].replace("cards", f"cards-{index}"))
    corpus, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    corpus.write_text("\n".join(lines) + "\n")
    wrong = [
        {"id": str(n) if line.startswith("{broken") else json.loads(line)["id"], "line": n}
        for n, line in enumerate(lines, 1)
        if 'peasants": ["4"' in line or line.startswith("{broken")
    ]
    code, stdout, _ = batch(corpus, out, "--json")
    assert code == 2
    assert json.loads(stdout)["error_records"] == wrong  # all of them, by line
    out.unlink()
    code, stdout, _ = batch(corpus, out)
    listed = [line for line in stdout.splitlines() if line.startswith("  error record: ")]
    assert listed == [
        "  error record: "
        + (
            f"line {w['line']}"
            if w["id"] == str(w["line"])
            else f'line {w["line"]} (id "{w["id"]}")'
        )
        for w in wrong[:5]
    ]
    assert "  ... and 2 more error records (--json lists them all)" in stdout.splitlines()


def test_a_resume_gives_this_runs_work_and_all_out_holds(tmp_path: Path) -> None:
    corpus, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    lines = deal_lines(10, 4)
    corpus.write_text("\n".join([*lines[:6], "{broken"]) + "\n")
    _, stdout, _ = batch(corpus, out, "--json")
    first = json.loads(stdout)
    corpus.write_text("\n".join([*lines[:6], "{broken", *lines[6:]]) + "\n")  # 4 lines more
    code, stdout, _ = batch(corpus, out, "--json")
    second = json.loads(stdout)
    assert code == 2  # the earlier run's error record still counts
    assert (second["solved"], second["errors"], second["skipped_already_done"]) == (4, 0, 7)
    total = second["total"]
    assert (total["results"], total["solved"], total["errors"]) == (11, 10, 1)
    assert sum(total["verdicts"].values()) == 10
    assert total["error_records"] == first["error_records"] == [{"id": "7", "line": 7}]
    code, stdout, _ = batch(corpus, out)
    text = stdout.splitlines()
    assert text[0].startswith("solved 0 deals (none) in ")
    verdicts = ", ".join(f"{n} {v}" for v, n in total["verdicts"].items())
    assert text[1] == (
        f"{out} now holds 11 results: 10 deals solved ({verdicts}); 1 error record; 0 unknowns"
    )


def test_the_text_summary_gives_unknowns_and_peak_memory(tmp_path: Path) -> None:
    corpus, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    corpus.write_text("\n".join(deal_lines(3, 1)) + "\n")
    code, stdout, _ = batch(corpus, out)
    assert code == 0
    head = stdout.splitlines()[0]
    assert re.fullmatch(
        r"solved 3 deals \(.*\) in [0-9.]+ s, [0-9.]+ deals/s; 0 error records; 0 unknowns; "
        r"0 already done; peak memory [0-9.]+ MB",
        head,
    ), head
