"""The sdist and the wheel carry what the README promises; one version everywhere.

Builds both with ``python -m build`` (in isolated environments, as a user's
pip would) from a copy of the working tree, then reads the archives.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import cpsolver
from cpsolver.cli import cli
from cpsolver.endgame import compiled
from cpsolver.verify import compiled as compiled_checker

ROOT = Path(__file__).resolve().parents[1]
SKIP = shutil.ignore_patterns(
    ".venv",
    ".git",
    "__pycache__",
    "build",
    "dist",
    "*.egg-info",
    ".hypothesis",
    ".pytest_cache",
    "*.so",
)
IN_THE_WHEEL = [
    "cpsolver/models/standard.toml",
    "cpsolver/models/rlcard.toml",
    "cpsolver/models/douzero.toml",
    "cpsolver/verify/schemas/proof.schema.json",
    "cpsolver/verify/schemas/certificate.schema.json",
    "cpsolver/docs/RULES.md",
    "cpsolver/docs/spring.md",
    "cpsolver/docs/rule-texts/english.txt",
    "cpsolver/py.typed",
]
IN_THE_SDIST = [
    "cpsolver/endgame/_core.c",  # the compiled core and its parts: a source install builds them
    "cpsolver/endgame/core_c/search.h",
    "cpsolver/verify/_strategy.c",  # the compiled strategy checker and its parts
    "cpsolver/verify/strategy_c/reader.h",
    "LICENSE",
    "CHANGELOG.md",
    "README.md",
    "docs/RULES.md",
    "docs/spring.md",
    "docs/pictures/deal.svg",
    "mkdocs.yml",
    "scripts/mkdocs_hooks.py",
    "examples/spring.txt",
    "models/standard.toml",
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    source = tmp_path_factory.mktemp("source") / "cpsolver"
    shutil.copytree(ROOT, source, ignore=SKIP, symlinks=True)
    out = source / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out)],
        cwd=source,
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    with zipfile.ZipFile(wheel) as archive:
        wheel_names = archive.namelist()
        metadata = next(n for n in wheel_names if n.endswith(".dist-info/METADATA"))
        wheel_metadata = archive.read(metadata).decode()
    with tarfile.open(sdist) as archive:
        sdist_names = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    return {
        "wheel": wheel_names,
        "sdist": sdist_names,
        "metadata": wheel_metadata.splitlines(),
        "wheel_name": [wheel.name],
    }


@pytest.mark.parametrize("name", IN_THE_WHEEL)
def test_the_wheel_carries(built: dict[str, list[str]], name: str) -> None:
    assert name in built["wheel"]


@pytest.mark.parametrize("name", IN_THE_SDIST)
def test_the_sdist_carries(built: dict[str, list[str]], name: str) -> None:
    assert name in built["sdist"]


def test_the_wheel_has_the_one_version_and_the_metadata(built: dict[str, list[str]]) -> None:
    assert f"-{cpsolver.__version__}-" in built["wheel_name"][0]
    assert f"Version: {cpsolver.__version__}" in built["metadata"]
    assert any(line.startswith("Classifier: ") for line in built["metadata"])
    assert any("MIT" in line for line in built["metadata"] if line.startswith("License"))
    assert any(name.endswith("licenses/LICENSE") for name in built["wheel"])


def test_version_option_prints_the_package_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    core = "compiled" if compiled.available() else "python"
    checker = "compiled" if compiled_checker.available() else "python"
    assert result.stdout == (
        f"cpsolver, version {cpsolver.__version__} "
        f"(open-hand search: the {core} core; strategy checker: the {checker} one)\n"
    )
    assert re.fullmatch(r"\d+\.\d+\.\d+", cpsolver.__version__)


def test_the_wheel_carries_every_module_of_the_package(built: dict[str, list[str]]) -> None:
    """A subpackage missing from pyproject's list passes every in-tree test, then fails installed."""
    package = Path(cpsolver.__file__).parent
    modules = sorted(
        str(path.relative_to(package.parent))
        for path in package.rglob("*.py")
        if "__pycache__" not in path.parts and not path.is_symlink()
    )
    missing = [name for name in modules if name not in built["wheel"]]
    assert not missing
