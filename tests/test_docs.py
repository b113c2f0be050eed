"""docs/RULES.md: its decisions point at code and tests that exist; ``cpsolver rules``.

Every link in the table "Where each decision lives" must name a file that
exists, every code name in a row must appear in one of the row's files, and
every test named must be defined in the tests. References to the rules point
to docs/, never to a folder outside the repository.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.cli.rules import differences
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.ruleset import standard_rules

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs" / "RULES.md"
TEST_SOURCES = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("*.py"))


def _decision_rows() -> list[str]:
    text = RULES_MD.read_text(encoding="utf-8")
    table = text.split("## Where each decision lives", 1)[1]
    return [line for line in table.splitlines() if line.startswith("| ") and "---" not in line][1:]


ROWS = _decision_rows()


def test_the_table_covers_the_decisions() -> None:
    assert len(ROWS) >= 15


@pytest.mark.parametrize("row", ROWS, ids=[row.split("|")[1].strip()[:40] for row in ROWS])
def test_each_decision_names_code_and_tests_that_exist(row: str) -> None:
    _, decision, code, tests, _ = row.split("|")
    files = [RULES_MD.parent / link for link in re.findall(r"\]\(([^)]+)\)", code)]
    assert files, f"{decision}: no file linked"
    for path in files:
        assert path.resolve().exists(), f"{decision}: {path} does not exist"
    sources = "".join(p.read_text(encoding="utf-8") for p in files if p.is_file())
    names = re.findall(r"`([^`]+)`", re.sub(r"\[`[^`]+`\]", "", code))
    names += re.findall(r'rule "([^"]+)"', code)
    assert names, f"{decision}: no code name"
    for name in names:
        assert name in sources, f"{decision}: {name!r} is not in {[p.name for p in files]}"
    named_tests = re.findall(r"`(test_\w+)`", tests)
    assert named_tests, f"{decision}: no test named"
    for test in named_tests:
        assert re.search(rf"^def {test}\(", TEST_SOURCES, re.MULTILINE), (
            f"{decision}: no test {test}"
        )


def test_the_rule_texts_are_in_the_repository() -> None:
    texts = sorted(p.name for p in (ROOT / "docs" / "rule-texts").iterdir())
    assert texts == ["arabic.txt", "english.txt", "german.txt"]
    links = re.findall(r"\]\((rule-texts/[^)]*)\)", RULES_MD.read_text(encoding="utf-8"))
    assert all((RULES_MD.parent / link).exists() for link in links) and len(links) >= 3


def test_every_reference_to_the_rules_points_into_docs() -> None:
    stale = []
    for folder in ("cpsolver", "models", "tests", "benchmarks", "examples"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".toml", ".md", ".txt") and path.is_file():
                text = path.read_text(encoding="utf-8", errors="replace")
                if path.name != "test_docs.py" and (
                    "shared/seeds" in text or "shared/RULES" in text
                ):
                    stale.append(str(path.relative_to(ROOT)))
                beside = (ROOT / "docs") in path.resolve().parents  # a page of the manual
                bare = re.search(r"(?<![\w/])RULES\.md", text)
                if bare and not beside and path.name != "test_docs.py":
                    stale.append(str(path.relative_to(ROOT)))
    assert stale == []


def test_rules_prints_the_summary_and_the_bundled_differences() -> None:
    result = CliRunner().invoke(cli, ["rules"])
    assert result.exit_code == 0
    assert result.stdout.startswith("Dou Dizhu rules as cpsolver implements them")
    assert "kickers.both_jokers = true (standard: false)" in result.stdout  # douzero
    assert "kickers.most_singles_of_a_rank = 3 (standard: 1)" in result.stdout  # rlcard


def test_rules_json_for_one_set_agrees_with_the_rule_files() -> None:
    result = CliRunner().invoke(cli, ["rules", "--rules", "rlcard", "--json"])
    report = json.loads(result.stdout)["rule_sets"]
    assert list(report) == ["rlcard"]
    rlcard, standard = load_rules("rlcard"), standard_rules()
    assert report["rlcard"]["digest"] == rlcard.digest
    changed = report["rlcard"]["differences"]
    assert changed["kickers.most_singles_of_a_rank"] == {
        "standard": standard.most_singles_of_a_rank,
        "rlcard": rlcard.most_singles_of_a_rank,
    }
    assert set(changed) == set(differences(rlcard, standard))


def test_differences_of_a_set_of_ones_own(tmp_path: Path) -> None:
    text = (ROOT / "models/standard.toml").read_text(encoding="utf-8")
    mine = tmp_path / "mine.toml"
    mine.write_text(
        text.replace('name = "standard"', 'name = "mine"').replace(
            "single_min_length = 5", "single_min_length = 4"
        ),
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["rules", "--rules", str(mine)])
    assert "  mine: " in result.stdout
    assert "sequences.single_min_length = 4 (standard: 5)" in result.stdout
    assert differences(standard_rules(), standard_rules()) == {}


def test_the_manuals_command_table_lists_every_command() -> None:
    """The table of commands omitted odds, evaluate, botzone, douzero-deals and showdown."""
    import re
    from pathlib import Path

    from cpsolver.cli import cli

    page = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `cpsolver ([a-z-]+)", page, re.MULTILINE))
    commands = set(cli.list_commands(cli.make_context("cpsolver", [], resilient_parsing=True)))
    assert listed == commands, commands ^ listed


def test_the_readme_lists_every_page_of_the_manual_in_order() -> None:
    """The README had no table of contents; its list of pages cannot drift from the manual's."""
    import re
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    contents = readme.split("## Where to read on\n", 1)[1]
    listed = re.findall(r"^- \[.+?\]\(docs/([\w.-]+\.md)\)$", contents, re.MULTILINE)
    config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = [next(iter(entry.values())) for entry in config["nav"]]
    assert nav[0] == "index.md"
    assert listed == nav[1:]
    pages = sorted(path.name for path in (root / "docs").glob("*.md"))
    assert sorted(nav) == pages, set(nav) ^ set(pages)  # no page left out of the site
