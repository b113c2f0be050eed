"""benchmarks/strength.py runs: its pool starts (a worker set-up that every worker died of
once left it respawning workers forever), and its table and JSON agree with the games."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(tmp_path: Path, *args: str) -> tuple[str, list[dict[str, object]]]:
    out = tmp_path / "strength.json"
    done = subprocess.run(
        [sys.executable, "benchmarks/strength.py", "--games", "2", "--workers", "1",
         "--opponents", "random", "--json", str(out), *args],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(out.read_text())


def test_the_benchmark_plays_every_deal_both_ways_and_reports_them(tmp_path: Path) -> None:
    text, reports = _run(tmp_path)
    (report,) = reports
    assert report["b"] == "random" and report["deals"] == 2
    assert report["as_landlord"]["games"] == report["as_peasants"]["games"] == 2  # type: ignore[index]
    assert "| random |" in text and "--endgame" not in text


def test_an_endgame_sweep_says_so_and_never_writes_the_page(tmp_path: Path) -> None:
    text, _ = _run(tmp_path, "--endgame", "0,0")
    assert text.rstrip().endswith("(with --endgame 0,0)")
    refused = subprocess.run(
        [sys.executable, "benchmarks/strength.py", "--endgame", "0,0", "--page", "x.md"],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert refused.returncode != 0 and "--endgame is for sweeps" in refused.stderr
