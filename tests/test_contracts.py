"""The house's layering, as import-linter contracts in pyproject.toml: kept, and broken by a forbidden import.

The contracts replace the hand-written import tests that came before them: each
wing imports only those below it, the rules core nothing of the package and
nothing that reads or writes, the checkers nothing of the solvers, the heavy
libraries only the rooms that need them, and no package holds an import circle.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter run over the package at ``root`` (never an installed copy), as CI runs it."""
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlinter.cli import lint_imports_command; lint_imports_command()",
            "--no-cache",
        ],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def contract_names() -> dict[str, str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c["name"] for c in config["tool"]["importlinter"]["contracts"]}


def test_every_contract_is_kept() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Contracts: {len(contract_names())} kept, 0 broken." in done.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package and its contracts, to break."""
    root = tmp_path_factory.mktemp("house")
    shutil.copytree(
        ROOT / "cpsolver",
        root / "cpsolver",
        symlinks=True,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


# (file, the forbidden line added to it, the contracts it must break)
VIOLATIONS = [
    (
        "rules/plays.py",
        "from cpsolver.pictures import svg",
        {"wings", "core", "checkers", "acyclic"},
    ),
    ("rules/ruleset.py", "import tomllib", {"core"}),
    ("rules/cards.py", "from cpsolver.io import reading", {"wings", "core", "acyclic"}),
    ("verify/strategy.py", "from cpsolver.endgame import solve", {"wings", "checkers"}),
    ("verify/spring.py", "from cpsolver.spring import search", {"wings", "checkers", "acyclic"}),
    ("spring/search.py", "from cpsolver.endgame import solve", {"wings"}),
    ("spring/search.py", "import ortools", {"ortools"}),
    ("endgame/solver.py", "import pysat", {"pysat"}),
    ("odds/exact.py", "import dask", {"dask"}),
    ("io/reading.py", "import rich", {"rich"}),
    ("spring/engines.py", "import rlcard", {"rlcard"}),
    ("cli/base.py", "from cpsolver import cpsat", {"wings", "aliases"}),
    ("game/agent.py", "from cpsolver.game.agents import make_agent", {"acyclic"}),
    ("scale/watchdog.py", "from cpsolver.rules.errors import CpsolverError", {"watchdog"}),
]


@pytest.mark.parametrize(
    ("path", "line", "broken"), VIOLATIONS, ids=[f"{p}: {l}" for p, l, _ in VIOLATIONS]
)
def test_a_forbidden_import_breaks_the_contracts_that_forbid_it(
    copy: Path, path: str, line: str, broken: set[str]
) -> None:
    target = copy / "cpsolver" / path
    original = target.read_text(encoding="utf-8")
    # Inside a function, as the lazy imports are: the contracts see those too.
    target.write_text(
        original + f"\n\ndef _forbidden() -> None:\n    {line}  # noqa\n", encoding="utf-8"
    )
    try:
        done = lint(copy)
    finally:
        target.write_text(original, encoding="utf-8")
    assert done.returncode == 1, done.stdout + done.stderr
    names = contract_names()
    reported = {
        key for key, name in names.items() if f"{name} BROKEN" in " ".join(done.stdout.split())
    }
    assert reported == broken, done.stdout


def test_contributing_draws_the_layers_the_contract_holds() -> None:
    """CONTRIBUTING.md's map is checked against the contracts, so it cannot drift."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    drawn = text.split("## What may import what", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (wings,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "wings"]
    assert drawn.splitlines() == wings["layers"]
    flat = " ".join(text.split())
    for name in contract_names().values():
        assert name in flat, f"CONTRIBUTING.md does not name the contract {name!r}"
    for wing in sorted(
        p.name for p in (ROOT / "cpsolver").iterdir() if (p / "__init__.py").exists()
    ):
        assert f"`{wing}/`" in text, f"CONTRIBUTING.md's table has no row for {wing}/"


def test_no_module_stands_directly_in_the_package_but_its_face() -> None:
    modules = sorted(p.name for p in (ROOT / "cpsolver").glob("*.py"))
    assert modules == ["__init__.py", "__main__.py"]
