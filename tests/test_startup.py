"""Light commands start without the heavy libraries (the speed itself is benchmarks/startup.py).

Each command runs in a fresh interpreter, as the console script runs it, and
reports which modules it imported; none of HEAVY may be among them, and a
plain endgame answer loads none of the modules only its other outputs need.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = (
    "ortools",
    "pysat",
    "jsonschema",
    "rich",
    "dask",
    "distributed",
    "rlcard",
    "numpy",
    "pandas",
    "fastapi",
    "starlette",
    "uvicorn",
)

PROBE = """
import json, sys
sys.argv = ["cpsolver", *json.loads(sys.argv[1])]
try:
    from cpsolver.cli import main
    main()
except SystemExit:
    pass
finally:
    sys.stdout = sys.__stdout__
    print("\\n" + json.dumps(sorted(sys.modules)))
"""


def imported_by(*args: str, cwd: Path = ROOT) -> set[str]:
    """The top-level modules a fresh ``cpsolver ARGS`` imported."""
    return {name.split(".")[0] for name in modules_of(*args, cwd=cwd)}


def modules_of(*args: str, cwd: Path = ROOT) -> set[str]:
    """Every module (``cpsolver.cli.drawings``, ``tomllib``) a fresh ``cpsolver ARGS`` imported."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(list(args))],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.fixture(scope="module")
def spring_proof(tmp_path_factory: pytest.TempPathFactory) -> Path:
    proof = tmp_path_factory.mktemp("proof") / "proof.json"
    subprocess.run(
        [sys.executable, "-m", "cpsolver", "solve", "examples/spring.txt", "--proof", str(proof)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return proof


LIGHT = [
    ["--help"],
    ["--version"],
    ["classify", "33"],
    ["plays", "KKK 2 99 3", "--beats", "QQQ A"],
    ["deal", "--count", "2"],
    ["solve", "examples/spring.txt", "--engine", "search"],
    ["solve", "examples/no_spring.txt", "--json"],
    ["rules"],
]


@pytest.mark.parametrize("args", LIGHT, ids=[" ".join(args) for args in LIGHT])
def test_a_light_command_imports_no_heavy_module(args: list[str]) -> None:
    assert imported_by(*args) & set(HEAVY) == set()


def test_verify_of_a_spring_proof_imports_nothing_heavy(spring_proof: Path) -> None:
    # The proof's form is checked by cpsolver.verify.schema, not jsonschema.
    assert imported_by("verify", str(spring_proof)) & set(HEAVY) == set()


def test_the_probe_sees_a_heavy_import_when_there_is_one() -> None:
    """The check can fail: a CP-SAT solve does import OR-Tools."""
    assert "ortools" in imported_by("solve", "examples/spring.txt", "--engine", "cpsat")


# What an endgame answer in text needs none of: process pools and Dask (only for
# --workers or a cluster), the crosscheck report, the pictures and the proof
# writer (--svg, --html, --proof), tomllib (the bundled rules come precompiled),
# and tempfile and gzip (only for a file written whole). Each was once imported at start-up.
NOT_FOR_AN_ANSWER = (
    "cpsolver.scale.parallel",
    "multiprocessing",
    "concurrent.futures",
    "dask",
    "cpsolver.crosscheck.report",
    "statistics",
    "cpsolver.cli.drawings",
    "cpsolver.pictures",
    "cpsolver.endgame.proof",
    "tomllib",
    "tempfile",
    "gzip",
)


def test_an_endgame_answer_loads_only_what_it_answers_with() -> None:
    loaded = modules_of("endgame", "--hand", "2AKT96554", "--hand", "BKJT8854")
    assert "cpsolver.endgame.answer" in loaded  # the probe saw the command run
    assert loaded & set(NOT_FOR_AN_ANSWER) == set()


def test_the_endgame_probe_sees_what_an_option_loads(tmp_path: Path) -> None:
    """The check can fail: --svg and --proof do load the pictures and the proof writer."""
    svg, proof = tmp_path / "position.svg", tmp_path / "proof.json"
    args = ["--hand", "KK 3", "--hand", "QQ 4", "--svg", str(svg), "--proof", str(proof)]
    loaded = modules_of("endgame", *args)
    assert {"cpsolver.cli.drawings", "cpsolver.endgame.proof", "tempfile"} <= loaded
