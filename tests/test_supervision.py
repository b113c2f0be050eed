"""Supervised processes: kills, interrupts and dead workers lose nothing and leave nothing behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import alive, children, corpus, in_group, lines_in, start, start_batch, wait_for


def ids_in(out: Path) -> list[str]:
    """The ids of OUT's whole lines (a kill may have torn the last), sorted."""
    lines = out.read_text().splitlines(keepends=True)
    return sorted(str(json.loads(line)["id"]) for line in lines if line.endswith("\n"))


def resume(source: Path, out: Path, *runner: str) -> dict[str, object]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cpsolver",
            "batch",
            str(source),
            "-o",
            str(out),
            "--json",
            *(runner or ("--workers", "2")),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    summary: dict[str, object] = json.loads(done.stdout)
    return summary


def assert_nothing_left(group: int, workers: list[int]) -> None:
    """Within 10 s, none of ``workers`` and nothing in process group ``group`` is alive.

    Pool workers leave the batch's process group (Ctrl-C is the batch's to
    handle), Dask's stay in it: look for both, and so for any started late.
    Whatever is found is killed, so a failure leaves nothing behind either.
    """
    try:
        assert wait_for(
            lambda: not any(alive(pid) for pid in workers) and not in_group(group), 10
        ), "workers outlived it"
    finally:
        for pid in {*filter(alive, workers), *in_group(group)}:
            os.kill(pid, signal.SIGKILL)


RUNNERS = pytest.mark.parametrize(
    "runner", [["--workers", "2"], ["--local-cluster", "2"]], ids=["pool", "dask"]
)


@RUNNERS
def test_sigkill_of_the_parent_ends_its_workers_and_the_resume_loses_nothing(
    tmp_path: Path, runner: list[str]
) -> None:  # B11
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    ids = corpus(source, 1000)
    batch = start_batch(source, out, *runner)
    assert wait_for(lambda: lines_in(out) >= 100, 120)
    workers = children(batch.pid)
    assert len(workers) >= 2  # two workers (and multiprocessing's resource tracker)
    batch.kill()  # the parent alone: nobody tells the workers
    batch.wait()
    assert_nothing_left(batch.pid, workers)
    written = ids_in(out)
    assert 100 <= len(written) < 1000 and len(set(written)) == len(written)
    summary = resume(source, out, *runner)
    assert summary["skipped_already_done"] == len(written)
    assert ids_in(out) == sorted(ids)  # nothing lost, nothing twice


@pytest.mark.slow
@RUNNERS
def test_sigkilled_again_and_again_it_leaves_nothing_and_loses_nothing(
    tmp_path: Path, runner: list[str]
) -> None:  # B11
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    ids = corpus(source, 5000)
    for _ in range(4):
        batch = start_batch(source, out, *runner)
        target = lines_in(out) + 150
        assert wait_for(lambda target=target: lines_in(out) >= target, 180)
        workers = children(batch.pid)
        batch.kill()
        batch.wait()
        assert_nothing_left(batch.pid, workers)
    assert len(ids_in(out)) < 5000, "every kill must land part-way"
    resume(source, out, *runner)
    assert ids_in(out) == sorted(ids)


def test_a_killed_pool_worker_is_replaced_and_its_chunk_retried(tmp_path: Path) -> None:  # B12
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    ids = corpus(source, 1000)
    batch = start_batch(source, out, "--workers", "2")
    assert wait_for(lambda: lines_in(out) >= 100, 120)
    victims = [pid for pid in children(batch.pid) if "resource_tracker" not in _cmdline(pid)]
    os.kill(victims[0], signal.SIGKILL)
    stdout, stderr = batch.communicate(timeout=300)
    assert batch.returncode == 0, stderr
    assert "Traceback" not in stderr
    assert json.loads(stdout)["errors"] == 0
    assert ids_in(out) == sorted(ids)  # every id exactly once


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read().decode(errors="replace")
    except OSError:
        return ""


@pytest.mark.parametrize(
    "how",
    [signal.SIGINT, pytest.param(signal.SIGTERM, marks=pytest.mark.slow)],
    ids=["sigint", "sigterm"],
)
def test_an_interrupted_batch_writes_its_summary_exits_130_and_resumes(
    tmp_path: Path, how: signal.Signals
) -> None:
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    ids = corpus(source, 1000)
    batch = start_batch(source, out, "--workers", "2")
    assert wait_for(lambda: lines_in(out) >= 100, 120)
    workers = children(batch.pid)
    batch.send_signal(how)
    stdout, stderr = batch.communicate(timeout=60)
    assert batch.returncode == 130, stderr
    summary = json.loads(stdout)
    assert summary["interrupted"] is True and summary["solved"] >= 100
    assert "Traceback" not in stderr
    assert wait_for(lambda: not any(alive(pid) for pid in workers), 10)
    assert lines_in(out) == summary["solved"]  # what the summary counts is what was written
    resume(source, out)
    assert ids_in(out) == sorted(ids)


def test_an_interrupted_crosscheck_prints_the_summary_so_far(tmp_path: Path) -> None:
    started = tmp_path / "started"
    solver = tmp_path / "solver.py"  # says when the run is under way, then answers "unknown"
    solver.write_text(
        "import json, sys\n"
        f"open({str(started)!r}, 'w').close()\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps({'id': json.loads(line)['id'], 'verdict': 'unknown'}), flush=True)\n"
    )
    process = start(
        "crosscheck",
        "--generate",
        "planted",
        "--count",
        "100000",
        "--json",
        "--against",
        f"{sys.executable} {solver}",
    )
    assert wait_for(started.exists, 60)
    time.sleep(1)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    summary = json.loads(stdout)
    assert summary["interrupted"] is True and 0 < summary["deals"] < 100000
    assert summary["protocols"] == {"external": 2}


def test_a_dask_cluster_without_workers_fails_with_a_clear_message(tmp_path: Path) -> None:  # B12
    from dask.distributed import LocalCluster

    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    corpus(source, 20)
    with LocalCluster(n_workers=0, dashboard_address=None) as cluster:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "cpsolver",
                "batch",
                str(source),
                "-o",
                str(out),
                "--scheduler",
                cluster.scheduler_address,
            ],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "CPSOLVER_NO_WORKERS_TIMEOUT": "2"},
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "Error: the Dask cluster has had no workers for 2 s; stopped "
        "(the results so far are kept; rerun to resume)"
    )


@pytest.mark.slow
def test_dask_workers_killed_mid_run_lose_nothing(tmp_path: Path) -> None:  # B12
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    ids = corpus(source, 1000)
    batch = start_batch(source, out, "--local-cluster", "2")
    for _ in range(3):
        assert wait_for(lambda: lines_in(out) >= 100, 120)
        workers = [pid for pid in children(batch.pid) if "distributed" in _cmdline(pid)]
        for pid in workers[-2:]:  # the worker processes (the nannies restart them)
            os.kill(pid, signal.SIGKILL)
        time.sleep(2)
    _stdout, stderr = batch.communicate(timeout=600)
    assert batch.returncode == 0, stderr
    assert ids_in(out) == sorted(ids)


def test_sigkill_of_crosscheck_ends_the_external_solver_and_its_children(
    tmp_path: Path,
) -> None:  # B11
    pids = tmp_path / "pids"
    solver = tmp_path / "solver.py"  # answers "unknown", and starts a long sleeper of its own
    solver.write_text(
        "import json, os, subprocess, sys\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)'])\n"
        f"with open({str(pids)!r}, 'w') as file:\n"
        "    file.write(f'{os.getpid()} {child.pid}\\n')\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps({'id': json.loads(line)['id'], 'verdict': 'unknown'}), flush=True)\n"
        "child.wait()  # on EOF it lingers with its child, as a careless solver would\n"
    )
    process = start(
        "crosscheck",
        "--generate",
        "planted",
        "--count",
        "100000",
        "--quiet",
        "--against",
        f"{sys.executable} {solver}",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert wait_for(lambda: pids.exists() and pids.read_text().endswith("\n"), 60)
    started = [int(pid) for pid in pids.read_text().split()]
    assert all(alive(pid) for pid in started)
    try:
        process.kill()  # cpsolver alone: nobody tells the solver or its child
        process.wait()
        assert wait_for(lambda: not any(alive(pid) for pid in started), 10), "they outlived it"
    finally:
        for pid in filter(alive, started):  # leave nothing behind, even when failing
            os.kill(pid, signal.SIGKILL)


def test_a_pool_worker_starts_where_there_are_no_process_groups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # Windows has no os.setpgrp: the pool must still start its workers
    from cpsolver.scale import parallel

    watched: list[int] = []
    monkeypatch.delattr(os, "setpgrp")
    monkeypatch.setattr(parallel, "exit_with_parent", watched.append)
    parallel._worker_start(1234)
    assert watched == [1234]
