"""The Speed page's paragraph on the speed of the odds is what benchmarks/odds.py renders."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import odds


def test_the_odds_speed_paragraph_is_rendered_from_the_benchmark_results() -> None:
    page = odds.SPEED_PAGE.read_text()
    figures = odds.json.loads(odds.RESULTS.read_text())
    # Stale? Run `python benchmarks/odds.py speed` (both kinds), `pre-auction`, then `section`.
    assert odds.SECTION_START + odds.paragraph(figures) + "\n" + odds.SECTION_END in page
    assert odds.SPEED_PAGE.name == "speed.md" and odds.SPEED_PAGE.parent.name == "docs"
