"""The block of a page between two marker lines: what a benchmark script writes there.

A page (the README, a page of the manual) holds a benchmark's figures
between a start and an end marker; the script rewrites only that block, and
a test holds the page to what the script renders from its results file.
"""

from __future__ import annotations

import argparse
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


Results = dict[str, Any]


def page_benchmark(
    parser: argparse.ArgumentParser,
    measure: Callable[[argparse.Namespace], Results],
    table: Callable[[Results], str],
    rewritten: Callable[[str, Results], str],
    argv: list[str] | None = None,
) -> None:
    """The command line of a benchmark with one table on a page: ``parser``'s own options, then
    ``--seed``, ``--json``, ``--from`` and ``--page``.

    It measures (or renders the ``--from`` results file, measuring nothing), writes the
    results to ``--json``, rewrites the table on ``--page``, and prints the table.
    """
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, help="write the measurements here")
    parser.add_argument("--from", dest="source", type=Path, help="render this results file")
    parser.add_argument("--page", type=Path, help="rewrite this page's table")
    options = parser.parse_args(argv)
    if options.source is not None:
        results = json.loads(options.source.read_text())
    else:
        results = measure(options)
    if options.json is not None:
        options.json.write_text(json.dumps(results, indent=1) + "\n")
    if options.page is not None:
        options.page.write_text(rewritten(options.page.read_text(), results))
    print(table(results))
