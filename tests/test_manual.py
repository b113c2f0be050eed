"""The manual (``docs/``, ``mkdocs.yml``) builds with ``mkdocs build --strict``, fetching nothing.

CI runs exactly the README's test command, so the strict build is a test here
rather than a step of its own: a broken link, a page left out of the nav, a
command reference that no longer renders, or any other MkDocs warning fails it.
The pages' examples are run by ``tests/test_readme.py``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cpsolver.cli import cli

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import mkdocs_hooks


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The manual built once for the module, strictly, into a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml")]
        + ["-d", str(out)],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    warnings = [line for line in done.stderr.splitlines() if line.startswith("WARNING")]
    assert done.returncode == 0 and not warnings, done.stderr
    return out


def test_the_manual_builds_strictly(site: Path) -> None:
    assert (site / "index.html").is_file()
    for page in (ROOT / "docs").glob("*.md"):
        name = "" if page.stem == "index" else page.stem + "/"
        assert (site / name / "index.html").is_file(), page.name


def test_the_command_reference_is_generated_from_every_command(site: Path) -> None:
    """The reference is the click commands' own help: every command, with its options."""
    html = (site / "reference" / "index.html").read_text(encoding="utf-8")
    commands = cli.list_commands(cli.make_context("cpsolver", [], resilient_parsing=True))
    for command in commands:
        assert f'id="{command}"' in html, command
    assert "--peasant-sizes" in html and "--shrink-budget" in html  # odds' and crosscheck's
    # The help as --help prints it: mkdocs-click's table style showed click 8.3's
    # "Sentinel.UNSET" for an option without a default.
    assert "Sentinel" not in html
    assert "cpsolver odds [OPTIONS] HAND" in html


def test_the_manual_fetches_nothing_from_the_network(site: Path) -> None:
    """No Google Fonts, no social cards, no script or stylesheet from another site."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["theme"]["font"] is False
    plugins = {next(iter(p)) if isinstance(p, dict) else p for p in config.get("plugins", [])}
    assert not plugins & {"social", "privacy", "optimize"}
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in html and "fonts.gstatic" not in html, page
        fetched = re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="(https?:[^"]+)"', html)
        assert not fetched, (page, fetched)


def test_links_out_of_the_site_point_at_the_repository_or_at_nothing() -> None:
    docs = ROOT / "docs"
    text = "[`x`](../examples/level50.txt), [r](spring.md), ![p](pictures/deal.svg), [s](#a)"
    assert mkdocs_hooks.rewrite_links(text, docs, docs, None) == (
        "`x`, [r](spring.md), ![p](pictures/deal.svg), [s](#a)"
    )
    assert mkdocs_hooks.rewrite_links("[t](rule-texts/)", docs, docs, "https://h/o/r/") == (
        "[t](https://h/o/r/tree/main/docs/rule-texts)"
    )
    fenced = "```\n[a](../README.md)\n```"
    assert mkdocs_hooks.rewrite_links(fenced, docs, docs, None) == fenced
