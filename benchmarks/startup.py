"""How long a light command takes, start to finish, as a user runs it.

    python benchmarks/startup.py [--runs 15] [--tree DIR ...] [--uncached]

Times whole processes (``python -m cpsolver ...``, interpreter start-up
included) for the commands that should start fast: ``--help``, ``classify``,
``plays``, ``deal``, ``verify`` of a spring proof, ``solve --engine search``
and ``endgame`` on published puzzle #5 (two hands; the compiled core's solve
is about 0.01 s of it), plus ``python -c pass`` as the floor. Each command
runs ``--runs`` times and the median is reported, in ms. With several
``--tree`` source trees (for example a checkout of an older commit: ``git
worktree add /tmp/before <commit>``), every tree's run of a command is
interleaved with the others', so the trees are compared under the same load;
the last column is the ratio of the first tree to the last.

Each process reads its modules' bytecode, as an installed package's are read:
the children write and read it in a folder of their own
(``PYTHONPYCACHEPREFIX``, so no tree is written to), even where
``PYTHONDONTWRITEBYTECODE`` is set, and every command runs once untimed first.
``--uncached`` leaves the environment as it is: where that variable is set
and a tree has no ``__pycache__``, each process compiles every module of the
package it imports from source, tens of ms more.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

COMMANDS: list[tuple[str, list[str]]] = [
    ("python -c pass (floor)", []),
    ("--help", ["--help"]),
    ("classify 33", ["classify", "33"]),
    ("plays HAND", ["plays", "KKK 2 99 3"]),
    ("deal --count 1", ["deal", "--count", "1"]),
    ("verify spring proof", ["verify", "{proof}"]),
    ("solve --engine search", ["solve", "{spring}", "--engine", "search"]),
    ("endgame puzzle #5", ["endgame", "--hand", "2AKT96554", "--hand", "BKJT8854"]),
]


def _command(tree: Path, args: list[str], proof: Path) -> list[str]:
    if not args:
        return [sys.executable, "-c", "pass"]
    spring = tree / "examples" / "spring.txt"
    filled = [a.format(proof=proof, spring=spring) for a in args]
    return [sys.executable, "-m", "cpsolver", *filled]


def _env(tree: Path, bytecode: Path | None) -> dict[str, str]:
    """The children's environment: ``tree`` first on the path, bytecode kept in ``bytecode``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    if bytecode is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode)
    return env


def _cpu_of_children() -> float:
    try:
        import resource  # POSIX only; elsewhere the CPU column is left out
    except ImportError:
        return float("nan")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _seconds(command: list[str], tree: Path, bytecode: Path | None) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command``."""
    cpu = _cpu_of_children()
    started = time.perf_counter()
    # cwd too: ``python -m`` puts the working folder first on the path.
    subprocess.run(
        command,
        cwd=tree,
        env=_env(tree, bytecode),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - started, _cpu_of_children() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--tree", type=Path, action="append", help="a source tree (default: this one)"
    )
    parser.add_argument(
        "--uncached",
        action="store_true",
        help="leave the environment as it is (no bytecode folder of the benchmark's own)",
    )
    args = parser.parse_args()
    trees = [t.resolve() for t in args.tree] if args.tree else [HERE]
    with tempfile.TemporaryDirectory() as folder:
        bytecode = None if args.uncached else Path(folder) / "bytecode"
        proofs = {}
        for number, tree in enumerate(trees):
            proofs[tree] = Path(folder) / f"proof{number}.json"
            subprocess.run(
                [sys.executable, "-m", "cpsolver", "solve", str(tree / "examples/spring.txt"),
                 "--proof", str(proofs[tree])],
                cwd=tree, env=_env(tree, bytecode), stdout=subprocess.DEVNULL, check=True,
            )  # fmt: skip
            for _, command in COMMANDS:  # once untimed: the bytecode written, the files cached
                _seconds(_command(tree, command, proofs[tree]), tree, bytecode)
        times: dict[tuple[str, Path], list[tuple[float, float]]] = {}
        for _ in range(args.runs):
            for label, command in COMMANDS:
                for tree in trees:
                    seconds = _seconds(_command(tree, command, proofs[tree]), tree, bytecode)
                    times.setdefault((label, tree), []).append(seconds)
    header = "| command | " + " | ".join(f"{t.name} wall / CPU (ms)" for t in trees)
    header += " | ratio (wall) |" if len(trees) > 1 else " |"
    how = "as the environment has it" if args.uncached else "from bytecode"
    print(f"median of {args.runs} runs, whole process, modules {how}, {os.cpu_count()} cores")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(header)
    print("|---" * (len(trees) + 1 + (len(trees) > 1)) + "|")
    for label, _ in COMMANDS:
        walls = [statistics.median(w for w, _ in times[(label, t)]) * 1000 for t in trees]
        cpus = [statistics.median(c for _, c in times[(label, t)]) * 1000 for t in trees]
        row = f"| {label} | " + " | ".join(f"{w:.0f} / {c:.0f}" for w, c in zip(walls, cpus))
        row += f" | {walls[0] / walls[-1]:.1f}x |" if len(trees) > 1 else " |"
        print(row)


if __name__ == "__main__":
    main()
