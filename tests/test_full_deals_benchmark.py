"""benchmarks/full_deals.py: the landlord's share of open full deals, as a user's batch gives it.

The script runs ``cpsolver deal`` and ``cpsolver batch --local-cluster``; its
figures count the undecided deals (bounds over all deals) besides the share
of the decided ones; the README and the open-hands page show its results
file as rendered, never typed in.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import full_deals

SETTINGS = {"count": 5, "seed": 1, "timeout": 2.0, "local_cluster": 1}


def _records(winners: list[int | None]) -> list[dict[str, Any]]:
    return [
        {
            "id": f"d{i}",
            "winner": w,
            "cpu_seconds": 0.05 if w is not None else 2.0,
            "status": "unknown" if w is None else "solved",
        }
        for i, w in enumerate(winners)
    ]


def test_the_bounds_count_the_undecided_and_the_share_counts_the_decided() -> None:
    results = full_deals.summary(_records([0, 0, 1, None, None]), SETTINGS)
    assert (results["landlord"], results["peasants"], results["undecided"]) == (2, 1, 2)
    assert results["bounds_of_all"] == [2 / 5, 4 / 5]
    assert results["share_of_decided"] == pytest.approx(2 / 3)
    low, high = results["interval_of_decided"]
    assert 0 < low < 2 / 3 < high < 1
    assert results["decided_within"] == [[0.1, 3], [1.0, 3], [2.0, 3]]
    text = full_deals.block(results)
    assert "at least 40.0% and at most 80.0%" in text
    assert "| undecided within 2 s (wall clock) | 2 |" in text


def test_nothing_decided_gives_no_share_and_says_so() -> None:
    results = full_deals.summary(_records([None, None]), SETTINGS)
    assert results["share_of_decided"] is None and results["bounds_of_all"] == [0.0, 1.0]
    assert "at least" not in full_deals.block(results)


def test_the_script_runs_the_users_commands_on_a_dask_cluster(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    page = tmp_path / "page.md"
    page.write_text(f"before\n{full_deals.START}\nold\n{full_deals.END}\nafter\n")
    done = subprocess.run(
        [sys.executable, "benchmarks/full_deals.py", "--count", "3", "--timeout", "1",
         "--local-cluster", "1", "--work", str(tmp_path / "work"), "--json", str(out),
         "--page", str(page)],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text())
    assert results["deals"] == 3
    assert results["landlord"] + results["peasants"] + results["undecided"] == 3
    lines = (tmp_path / "work" / "results.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["id"] for line in lines) == [f"full-2026-{i}" for i in range(3)]
    text = page.read_text()
    assert text.startswith("before\n") and text.endswith("after\n") and "old" not in text
    assert "cpsolver batch deals.jsonl --question endgame --local-cluster 1 --timeout 1" in text


@pytest.mark.parametrize("page", ["README.md", "docs/open-hands.md"])
def test_the_pages_show_the_figure_as_measured(page: str) -> None:
    """Stale? python benchmarks/full_deals.py --from benchmarks/results/full_deals.json --page README.md
    --page docs/open-hands.md"""
    results = json.loads((ROOT / "benchmarks" / "results" / "full_deals.json").read_text())
    text = (ROOT / page).read_text()
    assert full_deals.rewritten(text, results) == text
    assert results["deals"] >= 1000 and results["local_cluster"] >= 2
