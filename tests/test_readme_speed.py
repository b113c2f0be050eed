"""The README's "Speed" section is what benchmarks/speed_section.py renders from the results."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import speed_section


def test_the_speed_section_is_rendered_from_the_benchmark_results() -> None:
    readme = speed_section.README.read_text()
    # Stale? Run the benchmarks with --json, then python benchmarks/speed_section.py.
    assert speed_section.rewritten(readme) == readme
