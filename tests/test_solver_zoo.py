"""A zoo of misbehaving external solvers against protocol 2: each reported, nothing lost, nobody left behind."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

from cpsolver.crosscheck.spring import CommandSolver, EngineSolver, Solver, crosscheck
from cpsolver.io.dealgen import generate
from cpsolver.rules.ruleset import standard_rules

RULES = standard_rules()
PYTHON = sys.executable
# A correct protocol-2 solver's core: our own search engine, answering by id.
HEADER = """\
import json, os, subprocess, sys, time
from cpsolver.io.dealformat import deal_from_dict
from cpsolver.spring.search import solve

def answer(request):
    deal = deal_from_dict({k: request[k] for k in ("landlord", "peasants")})
    result = solve(deal)
    return {"id": request["id"], "verdict": result.verdict.value,
            "plan": [str(step.play) for step in result.plan]}

def send(value):
    sys.stdout.write(value if isinstance(value, str) else json.dumps(value) + "\\n")
    sys.stdout.flush()
"""


def ours() -> list[Solver]:
    return [EngineSolver("search", RULES, None)]


def zoo(tmp_path: Path, name: str, body: str, timeout: float = 5.0) -> CommandSolver:
    script = tmp_path / f"{name}.py"
    script.write_text(HEADER + body)
    return CommandSolver(f"{PYTHON} {script}", timeout)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is dead, only not yet reaped
        return stat.read().split(") ", 1)[1][0] != "Z"


def check(
    solver: CommandSolver, count: int = 6, kind: str = "endgame", **options: float
) -> dict[str, object]:
    try:
        summary = crosscheck(generate(kind, count, seed=4), [*ours(), solver], RULES, **options)
    finally:
        solver.close()
    assert summary.deals == count  # nothing lost: every deal was judged
    return summary.as_dict()


def test_a_double_answer_is_stale_not_the_next_deals_answer(tmp_path: Path) -> None:  # B13
    # The second answer, a wrong one, comes after the right one: under protocol 1
    # it was taken for the next deal's answer (false disagreements).
    solver = zoo(
        tmp_path,
        "twice",
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    send(answer(request))\n"
        "    wrong = 'no_spring' if answer(request)['verdict'] == 'spring' else 'spring'\n"
        "    send({'id': request['id'], 'verdict': wrong})\n",
    )
    summary = check(solver)
    assert (summary["disagreements"], summary["invalid_proofs"]) == (0, 0)
    assert summary["protocols"] == {"external": 2}
    problems = summary["solver_problems"]
    assert isinstance(problems, list) and len(problems) >= 4
    assert all(re.search(r"\d+ stale lines? discarded", p["problem"]) for p in problems)


def test_a_spammer_that_never_reads_gets_nothing_accepted(tmp_path: Path) -> None:  # B13
    solver = zoo(
        tmp_path,
        "spam",
        "while True:\n    send({'id': 'endgame-4-0', 'verdict': 'unknown'})\n    time.sleep(0.01)\n",
        timeout=0.3,
    )
    summary = check(solver, count=4)
    problems = summary["solver_problems"]
    assert isinstance(problems, list)
    # Only the first deal's id is ever echoed; the others time out, their stale lines reported.
    assert summary["unknowns"] <= 1
    assert sum("no answer within 0.3 s" in p["problem"] for p in problems) >= 3


@pytest.mark.parametrize(
    ("name", "body", "problem"),
    [
        (
            "latin1",
            "for line in sys.stdin:\n    send('{\"verdict\": \"caf\\xe9\"}\\n'.encode('latin-1').decode('utf-8', 'surrogateescape'))\n",
            "not UTF-8 text",
        ),
        (
            "deep",
            "for line in sys.stdin:\n    send('[' * 100000 + '\\n')\n",
            "nested deeper than 64 levels",
        ),
        (
            "huge_int",
            "for line in sys.stdin:\n    send('{\"id\": ' + '9' * 5000 + '}\\n')\n",
            "more than 4300 digits",
        ),
        (
            "huge_line",
            "for line in sys.stdin:\n    send('x' * 2_000_000 + '\\n')\n",
            "over the 1 MiB limit for a line",
        ),
        ("garbage", "for line in sys.stdin:\n    send('hello\\n')\n", "broken JSON"),
        ("crash", "sys.stdin.readline()\nos._exit(9)\n", "crashed (exit code 9)"),
        ("silent", "for line in sys.stdin:\n    time.sleep(60)\n", "no answer within 0.5 s"),
    ],
)
def test_each_misbehaviour_is_a_problem_for_that_deal_only(
    tmp_path: Path, name: str, body: str, problem: str
) -> None:
    if name == "latin1":  # raw bytes, not text: write them to the binary stdout
        body = 'for line in sys.stdin:\n    sys.stdout.buffer.write(b\'{"verdict": "caf\\xe9"}\\n\'); sys.stdout.flush()\n'
    # Only the silent one needs a short timeout (a start, imports included, counts against it).
    summary = check(zoo(tmp_path, name, body, timeout=0.5 if name == "silent" else 10), count=3)
    problems = summary["solver_problems"]
    assert isinstance(problems, list) and len(problems) == 3
    assert all(problem in p["problem"] for p in problems), problems
    assert summary["agreements"] == 3  # our engines still checked every deal


def test_children_that_outlive_the_solver_are_killed_with_its_group(tmp_path: Path) -> None:  # B11
    pids = tmp_path / "pids"
    solver = zoo(
        tmp_path,
        "parent",
        "for line in sys.stdin:\n"
        "    child = subprocess.Popen(['sleep', '300'])\n"
        f"    open({str(pids)!r}, 'a').write(f'{{child.pid}}\\n')\n"
        "    send(answer(json.loads(line)))\n"
        "    if child.pid % 2:\n"
        "        os._exit(0)  # and sometimes it dies, leaving the child behind\n",
    )
    check(solver, count=6)
    children = [int(pid) for pid in pids.read_text().split()]
    assert len(children) >= 3  # a deal sent as it dies is answered by no one, and spawns none
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in children)


def test_a_version_1_solver_still_works_and_is_flagged(tmp_path: Path) -> None:
    solver = zoo(
        tmp_path,
        "v1",
        "for line in sys.stdin:\n"
        "    reply = answer(json.loads(line))\n"
        "    del reply['id']\n"
        "    send(reply)\n",
    )
    summary = check(solver)
    assert summary["agreements"] == 6 and summary["solver_problems"] == []
    assert summary["protocols"] == {"external": 1}


def test_shrinking_stops_at_its_budget(tmp_path: Path) -> None:  # B13
    # A slow liar: every shrinking step waits for it; the budget cuts the shrinking short.
    solver = zoo(
        tmp_path,
        "slow_liar",
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    time.sleep(0.1)\n"
        "    right = answer(request)['verdict']\n"
        "    send({'id': request['id'], 'verdict': 'spring' if right == 'no_spring' else 'no_spring'})\n",
    )
    started = time.monotonic()
    summary = check(solver, count=2, kind="full", shrink_budget=0.3)
    assert summary["disagreements"] == 2 and summary["shrinks_cut_short"] == 2
    assert time.monotonic() - started < 20  # without the budget: minutes
