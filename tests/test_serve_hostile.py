"""The board under hostile input: every endpoint answers 4xx or a time-out, and the server stays up.

Oversized bodies (against caps lowered through the environment, as the
reading layer allows), malformed and non-UTF-8 input, JSON nested without
end, a solve that would never end (its time limit ends it), a client that
goes away mid-solve (its worker is killed) and more solves than workers.
"""

from __future__ import annotations

import socket
import sys
import time
import urllib.parse
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi", reason="the board needs the serve extra (fastapi, uvicorn)")
pytest.importorskip("uvicorn", reason="the board needs the serve extra (fastapi, uvicorn)")
if not sys.platform.startswith("linux"):
    pytest.skip("the worker count is read from /proc", allow_module_level=True)

from serving import board, request, wait_for, workers

CAPS = {
    "CPSOLVER_LIMIT_DEAL": "10000",
    "CPSOLVER_LIMIT_PROOF": "100000",
    "CPSOLVER_LIMIT_RECORD": "100000",
    "CPSOLVER_LIMIT_CARDS": "1000",
}
# A whole deal, open-handed: far more than a second's search.
FULL = {
    "landlord": "34455666778999QKKAA2",
    "peasant1": "3334578889TJJQKAB",
    "peasant2": "4567TTTJJQQKA222R",
}
POSTS = ("/api/solve", "/api/verify", "/api/analyse", "/api/read")


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    with board(CAPS) as (url, process):
        yield url, process.pid
        assert process.poll() is None, "the board went down"


def still_up(base: str) -> None:
    status, answer = request(f"{base}/api/endgame?hands=KK3,QQ4&turn=0")
    assert status == 200 and answer["winner"] == 0


@pytest.mark.parametrize("path", POSTS)
def test_oversized_bodies_are_413(server: tuple[str, int], path: str) -> None:
    base, _ = server
    status, answer = request(f"{base}{path}", b"x" * 200_001)
    assert status == 413, answer
    assert "limit for a" in answer["error"]
    still_up(base)


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize(
    "body",
    [b"", b"\xff\xfe\x00", b"{", b"[1, 2", b'{"format": "cpsolver-strategy"}', b"null"],
)
def test_malformed_bodies_are_400(server: tuple[str, int], path: str, body: bytes) -> None:
    base, _ = server
    status, answer = request(f"{base}{path}", body)
    assert status == 400 or (status == 200 and path == "/api/verify"), (status, answer)
    if status == 400:
        assert "\n" not in answer["error"] and answer["error"]
    else:
        assert answer["valid"] is False  # a strategy that says nothing is checked, and fails
    still_up(base)


@pytest.mark.parametrize("path", POSTS)
def test_json_nested_without_end_is_400(server: tuple[str, int], path: str) -> None:
    base, _ = server
    status, answer = request(f"{base}{path}", "[" * 4_000 + "]" * 4_000)
    assert status == 400, answer
    still_up(base)


@pytest.mark.parametrize(
    "query",
    [
        "",
        "hands=KK3",
        "hands=KK3,QQ4,55,66",
        "hands=KK3,QQ4&turn=x",
        "hands=KK3,QQ4&turn=99999999",
        "hands=KK3,QQ4&table=Q",
        "hands=KK3,QQ4&timeout=abc",
        "hands=KK3,QQ4&timeout=nan",
        "hands=KK3,QQ4&timeout=1e9",
        "hands=KK3,QQ4&timeout=-1",
        "hands=KK3,QQ4&moves=" + ",".join(["pass"] * 500),
        "hands=" + "3" * 2000 + ",4",  # over the card cap (1000 bytes here): 413
        "hands=KK3,QQ4&landlord=3",
        "landlord=3&peasant1=4",
        "hands=%FF%FE,4",
    ],
)
@pytest.mark.parametrize("path", ["/api/endgame", "/api/position", "/api/picture", "/api/odds"])
def test_malformed_parameters_are_4xx(server: tuple[str, int], path: str, query: str) -> None:
    base, _ = server
    if path == "/api/odds":
        query = query.replace("hands=", "landlord=", 1)
    if "timeout=" in query and path in ("/api/position", "/api/picture"):
        return  # no time limit to ask for: nothing malformed there
    status, answer = request(f"{base}{path}?{query}")
    if path == "/api/odds" and status == 200:  # some hands are fine odds questions
        return
    assert 400 <= status < 500, (status, answer)
    assert isinstance(answer, dict) and "\n" not in answer["error"], answer
    still_up(base)


def test_a_solve_without_end_stops_at_its_time_limit(server: tuple[str, int]) -> None:
    base, session = server
    started = time.monotonic()
    status, answer = request(
        f"{base}/api/endgame?{urllib.parse.urlencode({**FULL, 'timeout': '1'})}", timeout=30
    )
    elapsed = time.monotonic() - started
    assert status in (200, 504), answer
    if status == 200:  # the CLI's answer for a time limit reached: no verdict
        assert answer["winner"] is None and "known_first_moves" in answer
    assert elapsed < 1 + 5 + 5  # the limit, the worker's grace, slack
    assert wait_for(lambda: not workers(session), 10)
    still_up(base)


def _start_solve(base: str) -> socket.socket:
    """A raw request for a long solve, left waiting for its answer."""
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    query = urllib.parse.urlencode({**FULL, "timeout": "120"})
    connection = socket.create_connection((host, int(port)), timeout=10)
    connection.sendall(f"GET /api/endgame?{query} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    return connection


def test_a_client_that_goes_away_ends_its_solve(server: tuple[str, int]) -> None:
    base, session = server
    connection = _start_solve(base)
    try:
        assert wait_for(lambda: len(workers(session)) == 1, 15), "no worker started"
        still_up(base)  # the server answers while a solve runs
    finally:
        connection.close()
    assert wait_for(lambda: not workers(session), 15), "the worker outlived its client"
    still_up(base)


def test_more_solves_than_workers_are_told_busy(server: tuple[str, int]) -> None:
    base, session = server
    connections = [_start_solve(base) for _ in range(2)]
    try:
        assert wait_for(lambda: len(workers(session)) == 2, 15)
        status, answer = request(f"{base}/api/endgame?hands=KK3,QQ4&turn=0")
        assert status == 503 and "busy" in answer["error"]
    finally:
        for connection in connections:
            connection.close()
    assert wait_for(lambda: not workers(session), 15)
    still_up(base)


def test_a_request_for_another_host_name_is_refused(server: tuple[str, int]) -> None:
    """A page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) is not answered."""
    base, _ = server
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(b"GET /api/endgame?hands=KK3,QQ4 HTTP/1.1\r\nHost: evil.example\r\n\r\n")
        answer = connection.recv(200).decode()
    assert answer.startswith("HTTP/1.1 400"), answer
    still_up(base)
