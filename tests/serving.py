"""What the board's tests share: ``cpsolver serve`` on 127.0.0.1 and a free port, and requests to it.

The server runs as its own process (``python -m cpsolver serve --port 0``), in
a session of its own so that it and its workers can be found and killed; its
address is the line it prints. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest

START_SECONDS = 30.0


def browser() -> tuple[Any, str]:
    """Playwright's sync API and Debian's Chromium, or the calling module skipped, saying which is missing."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the browser tests need Playwright (pip install playwright)"
    )
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(chromium):
        pytest.skip(
            "the browser tests need Chromium (apt-get install chromium)", allow_module_level=True
        )
    return sync_api, chromium


# Headless Chromium as root on a machine with no network beyond its registries:
# no sandbox, no GPU, none of the background connections it would try at start.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextlib.contextmanager
def board(env: dict[str, str] | None = None) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A running board: its base URL (``http://127.0.0.1:PORT``) and its process.

    ``env`` adds to the server's environment (the reading layer's caps, say).
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "cpsolver", "serve", "--host", "127.0.0.1", "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, **(env or {})},
    )
    try:
        assert process.stderr is not None
        ready, _, _ = select.select([process.stderr], [], [], START_SECONDS)
        assert ready, "the board printed no address"
        line = process.stderr.readline().decode()
        assert line.startswith("the board: http://127.0.0.1:"), line
        base = line.split()[2].rstrip("/")
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{base}/openapi.json", timeout=5).close()
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the board did not answer")
        yield base, process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        if process.stderr is not None:
            process.stderr.close()


def request(
    url: str, body: bytes | str | None = None, timeout: float = 60, method: str | None = None
) -> tuple[int, Any]:
    """(status, parsed JSON or text) of a GET, or of a POST when ``body`` is given."""
    data = body.encode() if isinstance(body, str) else body
    headers = {"content-type": "text/plain"} if data is not None else {}
    sent = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(sent, timeout=timeout) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def timeless(answer: Any) -> Any:
    """An answer without what differs from run to run: seconds and memory in its statistics."""
    if isinstance(answer, dict):
        return {
            key: timeless(value)
            for key, value in answer.items()
            if key not in ("seconds", "search_seconds", "peak_memory_mb")
        }
    if isinstance(answer, list):
        return [timeless(value) for value in answer]
    return answer


def workers(session: int) -> list[int]:
    """The board's worker processes alive in ``session`` (the server's), from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as file:
                fields = file.read().rsplit(b")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                command = file.read()
        except OSError:
            continue
        # fields[0] is the state (field 3), fields[3] the session (field 6); zombies are gone.
        if int(fields[3]) == session and fields[0] != b"Z" and b"cpsolver.serve.worker" in command:
            found.append(int(entry))
    return found


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    """Whether ``condition`` came true within ``seconds`` (looked at every tenth of a second)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()
