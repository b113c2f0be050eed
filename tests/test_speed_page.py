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


def test_the_open_hand_tables_are_rendered_from_their_results() -> None:
    """docs/speed.md's open-hand tables are benchmarks/endgame.py's, from its results file."""
    import endgame

    results = speed_section.RESULTS / "endgame.jsonl"
    options = endgame.parse_options(["--render", "--results", str(results)])
    tables = endgame.markdown(endgame.load(options.results), options)
    page = speed_section.PAGE.read_text()
    # Stale? python benchmarks/endgame.py --render --results FILE --page docs/speed.md
    assert endgame.on_page(page, tables) == page
    assert "yunyan" in tables and "Three-player full deals" in tables
