"""The board's JSON API answers what the CLI's --json prints for the same input, and refuses as it does.

One server for the module (``cpsolver serve`` on 127.0.0.1, a free port); the
CLI runs in-process with click's runner. Statistics that differ from run to
run (seconds, memory) are left out of the comparison.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi", reason="the board needs the serve extra (fastapi, uvicorn)")
pytest.importorskip("uvicorn", reason="the board needs the serve extra (fastapi, uvicorn)")

from serving import board, request, timeless

from cpsolver.cli import cli

EXAMPLES = Path(__file__).parents[1] / "examples"


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with board() as (url, _):
        yield url


def cli_json(*args: str) -> tuple[int, Any, str]:
    """(exit code, parsed stdout or None, stderr) of ``cpsolver ARGS``."""
    result = CliRunner().invoke(cli, list(args))
    out = json.loads(result.stdout) if result.stdout.strip() else None
    return result.exit_code, out, result.stderr


def endgame_url(
    base: str, hands: list[str], turn: int = 0, table: str | None = None, by: int | None = None
) -> str:
    query = {"hands": ",".join(hands), "turn": str(turn)}
    if table is not None:
        query |= {"table": table, "by": str(by)}
    return f"{base}/api/endgame?{urllib.parse.urlencode(query)}"


@pytest.mark.parametrize(
    ("hands", "turn", "table", "by"),
    [
        (["KK3", "QQ4"], 0, None, None),
        (["KK 5 3", "AA 4"], 0, None, None),
        (["KKK 2 5", "AA 7", "QQQ 3 6"], 1, "5", 0),
        (["568JQ", "4TQKB", "37JA2"], 0, None, None),
    ],
)
def test_endgame_answers_as_endgame_json_all(
    base: str, hands: list[str], turn: int, table: str | None, by: int | None
) -> None:
    args = [a for hand in hands for a in ("--hand", hand)] + ["--turn", str(turn)]
    if table is not None:
        args += ["--table", table, "--by", str(by)]
    code, expected, _ = cli_json("endgame", *args, "--all", "--json")
    assert code in (0, 1)
    status, answer = request(endgame_url(base, hands, turn, table, by))
    assert status == 200
    assert timeless(answer) == timeless(expected)


def test_a_deal_in_the_url_is_the_landlord_to_lead(base: str) -> None:
    seats = {"landlord": "568JQ", "peasant1": "4TQKB", "peasant2": "37JA2"}
    _code, expected, _ = cli_json(
        "endgame",
        *(a for seat, cards in seats.items() for a in (f"--{seat}", cards)),
        "--all",
        "--json",
    )
    status, answer = request(f"{base}/api/endgame?{urllib.parse.urlencode(seats)}")
    assert status == 200 and timeless(answer) == timeless(expected)


@pytest.mark.parametrize("deal", ["spring.txt", "no_spring.txt", "spring.json"])
def test_solve_answers_as_solve_json(base: str, deal: str) -> None:
    _code, expected, _ = cli_json("solve", str(EXAMPLES / deal), "--json")
    status, answer = request(f"{base}/api/solve", (EXAMPLES / deal).read_text())
    assert status == 200
    assert timeless(answer) == timeless(expected)


def test_verify_answers_as_verify_json(base: str, tmp_path: Path) -> None:
    proofs = []
    for deal in ("spring.txt", "no_spring.txt"):
        path = tmp_path / f"{deal}.proof.json"
        CliRunner().invoke(cli, ["solve", str(EXAMPLES / deal), "--proof", str(path)])
        proofs.append(path)
    strategy = tmp_path / "strategy.json"
    CliRunner().invoke(
        cli, ["endgame", "--hand", "KK 5 3", "--hand", "AA 4", "--proof", str(strategy)]
    )
    proofs.append(strategy)
    broken = json.loads(strategy.read_text())
    broken["winner"] = 1 - broken["winner"]
    proofs.append(tmp_path / "broken.json")
    proofs[-1].write_text(json.dumps(broken))
    for path in proofs:
        _code, expected, _ = cli_json("verify", str(path), "--json")
        status, answer = request(f"{base}/api/verify", path.read_text())
        assert status == 200, answer
        assert answer == expected, path.name
    assert expected["valid"] is False  # the broken one fails, in both


@pytest.mark.parametrize(
    ("cli_args", "path", "body"),
    [
        (["endgame", "--hand", "KK3", "--hand", "QZ4"], "/api/endgame?hands=KK3,QZ4", None),
        (
            [
                "endgame",
                "--hand",
                "KK",
                "--hand",
                "33",
                "--hand",
                "44",
                "--turn",
                "1",
                "--table",
                "55",
                "--by",
                "1",
            ],
            "/api/endgame?hands=KK,33,44&turn=1&table=55&by=1",
            None,
        ),
        (["solve", "DEAL"], "/api/solve", "landlord: 3Z\npeasant1: 4\npeasant2: 5\n"),
        (["verify", "DEAL"], "/api/verify", "landlord: 3\npeasant1: 4\npeasant2: 5\n"),
        (["verify", "DEAL"], "/api/verify", "{"),
        (["verify", "DEAL"], "/api/verify", "[1, 2]"),
    ],
)
def test_errors_are_4xx_with_the_cli_line(
    base: str, tmp_path: Path, cli_args: list[str], path: str, body: str | None
) -> None:
    source = tmp_path / "input.txt"
    if body is not None:
        source.write_text(body)
    args = [str(source) if a == "DEAL" else a for a in cli_args]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    line = result.stderr.removeprefix("Error: ").rstrip("\n")
    status, answer = request(f"{base}{path}", body)
    assert 400 <= status < 500
    # The same line, but for the name of the input: the file for the CLI, "request" here.
    assert answer["error"] == line.replace(str(source), "request")


def test_position_gives_the_legal_moves_and_the_url(base: str) -> None:
    status, view = request(f"{base}/api/position?hands=KK3,QQ4&turn=0&moves=KK,pass")
    assert status == 200
    assert view["query"] == {"hands": "3,4QQ", "turn": "0"}
    assert [m["move"] for m in view["moves"]] == ["3"]
    assert view["moves"][0]["next"] is None  # the last card: the hand is over
    status, picture = request(f"{base}/api/picture?hands=KK3,QQ4")
    assert status == 200 and picture.startswith("<svg")
    status, refused = request(f"{base}/api/position?hands=KK3,QQ4&moves=Q")
    assert status == 400 and refused["error"] == "moves: move 1 (Q) is not legal here"


def test_a_file_is_read_as_show_reads_it(base: str) -> None:
    status, view = request(f"{base}/api/read", (EXAMPLES / "position3.json").read_text())
    assert status == 200
    assert view["query"] == {"hands": "5KKK2,7AA,36QQQ", "turn": "1", "table": "5", "by": "0"}
    status, view = request(f"{base}/api/read", (EXAMPLES / "spring.txt").read_text())
    assert status == 200 and view["names"] == ["landlord", "peasant 1", "peasant 2"]


def test_odds_answer_as_odds_samples_json(base: str) -> None:
    hand = "568888999TTTQKAA22BR"
    _code, expected, _ = cli_json("odds", hand, "--samples", "2000", "--seed", "0", "--json")
    status, answer = request(f"{base}/api/odds?landlord={hand}&timeout=60")
    assert status == 200 and timeless(answer) == timeless(expected)


def test_openapi_describes_every_endpoint(base: str) -> None:
    status, document = request(f"{base}/openapi.json")
    assert status == 200
    paths = set(document["paths"])
    assert {
        "/api/endgame",
        "/api/solve",
        "/api/verify",
        "/api/position",
        "/api/odds",
        "/api/analyse",
        "/api/read",
        "/api/picture",
    } <= paths
    names = {p["name"] for p in document["paths"]["/api/endgame"]["get"]["parameters"]}
    assert {"hands", "turn", "table", "by", "timeout"} <= names


def test_the_page_and_its_modules_are_served(base: str) -> None:
    status, page = request(f"{base}/?hands=KK3,QQ4&turn=0")
    assert status == 200 and '<script type="module" src="/static/board.js">' in page
    for module in ("board.js", "api.js", "ui.js", "play.js", "proof.js", "record.js", "board.css"):
        status, _ = request(f"{base}/static/{module}")
        assert status == 200, module


def test_serve_refuses_an_address_in_use() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: cannot listen on 127.0.0.1:{port}: ")
    assert result.stderr.count("\n") == 1


def test_the_worker_loads_no_web_library() -> None:
    """A solve's process holds the library, not the server's frameworks."""
    import subprocess
    import sys

    probe = (
        "import sys, cpsolver.serve.worker; "
        "print(sorted(m for m in ('fastapi', 'starlette', 'uvicorn') if m in sys.modules))"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert found.stdout.strip() == "[]"
