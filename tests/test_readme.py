"""Every example in README.md and the manual (docs/*.md) runs, and prints what the page shows.

How an example is picked up (to add one, just write it in the README or a page of
``docs/``; every ``*.md`` there is read):

- A fenced block whose language is ``console`` is a console example. Each line
  starting with ``$ `` is a command; the lines after it, up to the next
  ``$ `` line or the end of the block, are what it prints (stdout and stderr
  together, as a terminal shows them). Each block is one test: its commands
  run in order, with bash, in a fresh temporary folder holding a copy of
  ``examples/`` and ``models/``, so a block can make a file and use it in a
  later command, and blocks never depend on each other. ``cpsolver`` and
  ``python`` are this interpreter's.
- A fenced ``python`` block runs with sybil's Python evaluator; the blocks of
  one page share one namespace, in order.
- Other blocks (``sh``, ``json``, indented text) are not run.

How output is compared: both the page's text and the real output are first
normalised by ``VOLATILE`` below (timings, rates, versions: anything that
changes from run to run), then compared as doctest does with ELLIPSIS: ``...``
stands for any text, including whole lines, so a long output may be cut to
its first lines and a ``...`` line. Trailing spaces are ignored. To make a new
kind of field volatile, add a (pattern, replacement) pair to ``VOLATILE``;
keep the pages' own figures realistic, they are what a reader sees.

An example must run in a few seconds; this whole module is part of CI.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sybil import Document, Example
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
COMMAND_TIMEOUT_S = 120

# (pattern, replacement) applied to a page's text and to the real output alike.
VOLATILE: list[tuple[str, str]] = [
    (r"\b\d+(\.\d+)? (s|ms)\b", r"<N> \2"),  # durations: 0.008 s, 2.3 ms
    (r"\b\d+(\.\d+)? ms median\b", "<N> ms median"),
    (r"\b\d+(\.\d+)? deals/s\b", "<N> deals/s"),  # rates
    (r'"(seconds|cpu_seconds|total_s|median_ms|deals_per_second)": [0-9.e-]+', r'"\1": <N>'),
    (r'"ortools_version": "[^"]*"', '"ortools_version": <V>'),
    (r"\b(peak memory|peak_rss_mb)\b(\W+)[0-9.]+", r"\1\2<N>"),
]

_CHECKER = doctest.OutputChecker()
_FLAGS = doctest.ELLIPSIS


def normalise(text: str) -> str:
    """Text with every volatile field replaced, and trailing spaces dropped."""
    for pattern, replacement in VOLATILE:
        text = re.sub(pattern, replacement, text)
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def split_session(source: str) -> list[tuple[str, str]]:
    """The (command, expected output) pairs of a console block."""
    pairs: list[tuple[str, str]] = []
    for line in source.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], ""))
        elif pairs:
            command, expected = pairs[-1]
            pairs[-1] = (command, expected + line + "\n")
        elif line.strip():
            raise ValueError(f"console block: output before the first command: {line!r}")
    return pairs


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    env["PYTHONUNBUFFERED"] = "1"  # stdout and stderr interleave as on a terminal
    env["COLUMNS"] = "100"
    env.pop("FORCE_COLOR", None)
    env["NO_COLOR"] = "1"
    return env


def run_console(example: Example) -> str | None:
    """Run a console block's commands in a fresh folder; a message for the first mismatch."""
    workdir = Path(example.namespace["tmp_path"]) / f"line{example.line}"
    workdir.mkdir()
    for folder in ("examples", "models"):
        shutil.copytree(ROOT / folder, workdir / folder)
    for command, expected in split_session(example.parsed):
        done = subprocess.run(
            ["bash", "-c", command],
            check=False,
            cwd=workdir,
            env=_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=COMMAND_TIMEOUT_S,
        )
        want, got = normalise(expected), normalise(done.stdout)
        if not expected.strip() and not got.strip():
            continue
        if not _CHECKER.check_output(want, got, _FLAGS):
            return (
                f"$ {command}\n(exit {done.returncode})\n--- the page shows:\n{want}"
                f"--- it prints:\n{got}"
            )
    return None


def _examples(page: Path) -> list[Example]:
    """The console and Python examples of one page, in order."""
    document = Document.parse(
        str(page), CodeBlockParser("console", evaluator=run_console), PythonCodeBlockParser()
    )
    return list(document)


EXAMPLES_BY_PAGE = {page.relative_to(ROOT).as_posix(): _examples(page) for page in PAGES}
EXAMPLES = [
    pytest.param(example, id=f"{name}:{example.line}")
    for name, examples in EXAMPLES_BY_PAGE.items()
    for example in examples
]


@pytest.mark.parametrize("example", EXAMPLES)
def test_readme_example(example: Example, tmp_path: Path) -> None:
    example.namespace["tmp_path"] = tmp_path
    example.evaluate()


def _consoles(examples: list[Example]) -> list[Example]:
    return [example for example in examples if example.region.evaluator is run_console]


def test_the_readme_has_examples_of_both_kinds() -> None:
    readme = EXAMPLES_BY_PAGE["README.md"]
    assert len(_consoles(readme)) >= 5
    every = [example for examples in EXAMPLES_BY_PAGE.values() for example in examples]
    assert len(every) > len(_consoles(every))  # and the library's Python


def test_every_page_of_the_manual_is_read() -> None:
    """The pages the examples came from were in README.md alone; the manual's are run too."""
    assert "docs/spring.md" in EXAMPLES_BY_PAGE and "docs/library.md" in EXAMPLES_BY_PAGE
    for name in ("docs/library.md", "docs/analyse.md"):  # the Python examples
        assert any(e.region.evaluator is not run_console for e in EXAMPLES_BY_PAGE[name]), name
    with_consoles = {name for name, examples in EXAMPLES_BY_PAGE.items() if _consoles(examples)}
    pages = {"cli", "spring", "why-not", "open-hands", "odds", "game", "bots", "analyse", "show"}
    pages |= {"batches", "crosscheck", "rule-sets", "proofs"}
    assert {f"docs/{page}.md" for page in pages} <= with_consoles


def test_the_second_setup_command_is_what_ci_runs() -> None:
    """The README's test command is, word for word, the last line of .ci/run."""
    setup = re.search(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    assert setup is not None, "the README opens with a sh block of two set-up commands"
    install_and_run, install_and_test = setup.group(1).strip().splitlines()
    ci_command = (ROOT / ".ci/run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert install_and_test == ci_command
    assert install_and_run.startswith(install_and_test.split(" && pip install")[0])
    assert "cpsolver solve examples/" in install_and_run


def test_normalise_hides_timings_and_keeps_counts() -> None:
    line = "(cpsat/eager: 40 options, 1 rounds, 0.008 s) 251.3 deals/s"
    assert normalise(line) == "(cpsat/eager: 40 options, 1 rounds, <N> s) <N> deals/s\n"


def test_split_session() -> None:
    assert split_session("$ a\nout\n\n$ b\n") == [("a", "out\n\n"), ("b", "")]
