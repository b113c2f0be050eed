"""The manual's Speed page (docs/speed.md) is what benchmarks/speed_section.py renders from the results."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import speed_section


def test_the_speed_page_is_rendered_from_the_benchmark_results() -> None:
    page = speed_section.PAGE.read_text()
    # Stale? Run the benchmarks with --json, then python benchmarks/speed_section.py.
    assert speed_section.rewritten(page) == page


def test_the_speed_page_is_the_manuals() -> None:
    assert speed_section.PAGE == Path(__file__).resolve().parents[1] / "docs" / "speed.md"
    assert speed_section.START in speed_section.PAGE.read_text()
