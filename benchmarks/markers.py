"""The block of a page between two marker lines: what a benchmark script writes there.

A page (the README, a page of the manual) holds a benchmark's figures
between a start and an end marker; the script rewrites only that block, and
a test holds the page to what the script renders from its results file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def replaced(page: str, start: str, end: str, block: str) -> str:
    """``page`` with what lies between its ``start`` and ``end`` markers made ``block``.

    >>> replaced("a\\n<s>\\nold\\n<e>\\nb\\n", "<s>", "<e>", "new")
    'a\\n<s>\\nnew\\n<e>\\nb\\n'
    """
    before, rest = page.split(start, 1)
    _, after = rest.split(end, 1)
    return f"{before}{start}\n{block}\n{end}{after}"


def publish(
    results: dict[str, Any],
    json_path: Path | None,
    page: Path | None,
    rewritten: Callable[[str, dict[str, Any]], str],
) -> None:
    """Write ``results`` as JSON to ``json_path`` and rewrite ``page`` from them (each if given)."""
    if json_path is not None:
        json_path.write_text(json.dumps(results, indent=1) + "\n")
    if page is not None:
        page.write_text(rewritten(page.read_text(), results))
