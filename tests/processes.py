"""What the tests that start, kill and resume cpsolver share: seeded corpora, runs, waiting, /proc.

Used by test_batch.py and test_supervision.py: a run of ``python -m cpsolver``
in a process group of its own (so what it leaves behind can be found), the
lines its output holds so far, and the processes still alive.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cpsolver.io.dealformat import deal_as_dict
from cpsolver.io.dealgen import generate


def corpus(path: Path, count: int, kind: str = "planted", seed: int = 3) -> list[str]:
    """Write a seeded corpus of ``count`` deals to ``path``; their ids, in order."""
    entries = list(generate(kind, count, seed))
    path.write_text(
        "".join(json.dumps({"id": e.id, **deal_as_dict(e.deal)}) + "\n" for e in entries)
    )
    return [e.id for e in entries]


def start(*args: str, **popen: Any) -> subprocess.Popen[str]:
    """``cpsolver ARGS`` started in a process group of its own, output captured unless told."""
    popen.setdefault("stdout", subprocess.PIPE)
    popen.setdefault("stderr", subprocess.PIPE)
    return subprocess.Popen(
        [sys.executable, "-m", "cpsolver", *args], text=True, start_new_session=True, **popen
    )


def start_batch(source: Path, out: Path, *options: str) -> subprocess.Popen[str]:
    """A quiet ``batch SOURCE -o OUT --json`` under way."""
    return start("batch", str(source), "-o", str(out), "--quiet", "--json", *options)


def killed_partway(out: Path, lines: int, *args: str) -> int:
    """Run ``cpsolver ARGS`` until ``out`` holds ``lines`` lines, then SIGKILL its whole group.

    Returns the lines ``out`` holds after the kill (a torn last one not counted).
    """
    process = start(*args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: lines_in(out) >= lines, 120)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    return lines_in(out)


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    """Whether ``condition`` came true within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def lines_in(out: Path) -> int:
    """The whole lines ``out`` holds so far (0 before it exists)."""
    return out.read_text().count("\n") if out.exists() else 0


def _stat(pid: int | str) -> list[str] | None:
    """The fields of a process's /proc stat after its name (state first), or None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(") ", 1)[1].split()
    except OSError:
        return None


def alive(pid: int) -> bool:
    """Whether ``pid`` runs still (a zombie has ended)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def _live() -> dict[int, list[str]]:
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(entry)
            if fields is not None and fields[0] != "Z":
                found[int(entry)] = fields
    return found


def children(pid: int) -> list[int]:
    """Every live descendant of ``pid``."""
    parents = {child: int(fields[1]) for child, fields in _live().items()}
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        kids = [child for child, ppid in parents.items() if ppid == parent]
        found += kids
        frontier += kids
    return found


def in_group(group: int) -> list[int]:
    """Every live process of process group ``group``."""
    return [pid for pid, fields in _live().items() if int(fields[2]) == group]
