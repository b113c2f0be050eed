"""Proofs written gzip-compressed (``--proof FILE.json.gz``) and read back by every reader, within the caps."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from cpsolver.io.writing import OutputError, write_pieces, write_text
from cpsolver.rules.ruleset import standard_rules
from cpsolver.verify.answer import verify_file_quickly
from cpsolver.verify.compiled import available as checker_available

ROOT = Path(__file__).resolve().parents[1]


def cpsolver(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cpsolver", *args],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


@pytest.mark.parametrize(
    "command",
    [
        ["endgame", "examples/level50.txt"],
        ["endgame", "--landlord", "568JQ", "--peasant1", "4TQKB", "--peasant2", "37JA2"],
        ["solve", "examples/spring.txt"],
    ],
    ids=["two players", "three players", "spring"],
)
def test_a_gzipped_proof_is_the_proof_compressed_and_verifies(
    tmp_path: Path, command: list[str]
) -> None:
    plain, packed = tmp_path / "proof.json", tmp_path / "proof.json.gz"
    for path in (plain, packed):
        assert cpsolver(*command, "--proof", str(path)).returncode in (0, 1)
    assert packed.read_bytes()[:2] == b"\x1f\x8b"
    unpacked = json.loads(gzip.decompress(packed.read_bytes()))
    written = json.loads(plain.read_text())
    # Two runs: the same proof, but for the statistics' times.
    assert {**unpacked, "stats": None} == {**written, "stats": None}
    for path in (plain, packed):
        done = cpsolver("verify", str(path), "--json")
        assert done.returncode == 0 and json.loads(done.stdout)["valid"], done.stderr
    assert cpsolver("show", str(packed)).returncode == 0


def test_the_same_document_compresses_to_the_same_bytes(tmp_path: Path) -> None:
    """No time stamp in the gzip header: a proof rewritten unchanged is the same file."""
    text = (ROOT / "examples" / "spring.json").read_text()
    first, second = tmp_path / "a.json.gz", tmp_path / "b.json.gz"
    for path in (first, second):
        write_text(str(path), text)
    assert first.read_bytes() == second.read_bytes()
    assert gzip.decompress(first.read_bytes()).decode() == text


def test_a_file_written_in_pieces_is_their_text_and_replaces_the_old_one_only_whole(
    tmp_path: Path,
) -> None:
    """A proof of gigabytes is compressed as it is made; a write that fails half-way
    leaves the old file as it was, and nothing beside it."""
    pieces = [f'"piece {i}",' * 100 for i in range(50)]
    for name in ("text.json", "text.json.gz"):
        path = tmp_path / name
        write_pieces(str(path), lambda write: [write(piece) for piece in pieces])
        data = path.read_bytes()
        assert (gzip.decompress(data) if name.endswith(".gz") else data).decode() == "".join(pieces)

        def half(write: Callable[[str], object]) -> None:
            write(pieces[0])
            raise OSError("no space left on device")

        with pytest.raises(OutputError, match="no space left"):
            write_pieces(str(path), half)
        assert path.read_bytes() == data
        assert not list(tmp_path.glob(".*.tmp"))


def test_a_gzip_bomb_is_refused_at_the_cap_without_unpacking_it(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b" " * (3 << 20)))  # 3 MiB of spaces in a few KB
    done = cpsolver("verify", str(bomb), env={"CPSOLVER_LIMIT_PROOF": str(1 << 20)})
    assert done.returncode == 2
    expected = (
        f"Error: {bomb}: unpacks to over the 1 MiB limit for a proof "
        "(set CPSOLVER_LIMIT_PROOF to raise it)"
    )
    assert done.stderr.strip().splitlines() == [expected]


@pytest.mark.parametrize("cut", [10, 200])
def test_a_truncated_or_broken_gzip_file_is_one_line_and_exit_2(tmp_path: Path, cut: int) -> None:
    whole = gzip.compress(
        json.dumps({"format": "cpsolver-strategy", "x": os.urandom(999).hex()}).encode()
    )
    assert len(whole) > cut
    broken = tmp_path / "cut.json.gz"
    broken.write_bytes(whole[:cut])
    done = cpsolver("verify", str(broken))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "gzip" in done.stderr


@pytest.mark.skipif(not checker_available(), reason="the compiled checker was not built")
def test_a_strategy_file_is_verified_a_piece_at_a_time_and_any_other_read_whole(
    tmp_path: Path,
) -> None:
    """verify reads a strategy laid out as written a piece at a time (a proof of gigabytes is
    never held whole); laid out otherwise, or not valid, it is read whole as before, and the
    answer is the same."""
    rules = standard_rules()
    plain, packed = tmp_path / "proof.json", tmp_path / "proof.json.gz"
    for path in (plain, packed):
        assert cpsolver("endgame", "examples/level50.txt", "--proof", str(path)).returncode == 0
    document = json.loads(plain.read_text())
    compact, broken = tmp_path / "compact.json", tmp_path / "broken.json"
    compact.write_text(json.dumps(document))
    broken.write_text(plain.read_text().replace('"rank":"8"', '"rank":"9"', 1))
    for path, streamed in ((plain, True), (packed, True), (compact, False), (broken, False)):
        quick = verify_file_quickly(str(path), None, rules)
        assert (quick is not None) == streamed, path
        done = cpsolver("verify", str(path), "--json")
        answer = json.loads(done.stdout)
        assert answer["valid"] == (path != broken) and done.returncode == (path == broken)
        if quick is not None:
            assert quick.as_dict() == answer
    assert json.loads(cpsolver("verify", str(broken), "--json").stdout)["failure"].startswith(
        "node"
    )
    # The position first, the proof second: given the other way round, the same usage error.
    position, small = tmp_path / "position.txt", tmp_path / "small.json"
    position.write_text("hand0: KK3\nhand1: QQ4\n")
    assert cpsolver("endgame", str(position), "--proof", str(small)).returncode == 0
    assert cpsolver("verify", str(position), str(small)).returncode == 0
    swapped = cpsolver("verify", str(small), str(position))
    assert swapped.returncode == 2 and "give the DEAL first" in swapped.stderr


def test_a_proof_from_a_pipe_is_read_once_whole(tmp_path: Path) -> None:
    """A named pipe (as `verify <(zcat proof.json.gz)` gives) cannot be read twice: it is
    never tried a piece at a time, whatever it holds."""
    strategy, spring = tmp_path / "strategy.json", tmp_path / "spring.json"
    assert cpsolver("endgame", "examples/level50.txt", "--proof", str(strategy)).returncode == 0
    assert cpsolver("solve", "examples/spring.txt", "--proof", str(spring)).returncode == 0
    for proof in (spring, strategy):
        pipe = tmp_path / f"{proof.stem}.pipe"
        os.mkfifo(pipe)
        verify = subprocess.Popen(
            [sys.executable, "-m", "cpsolver", "verify", str(pipe), "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        with open(pipe, "w") as writer:  # waits for verify to open it
            writer.write(proof.read_text())
        out, err = verify.communicate(timeout=120)
        assert verify.returncode == 0 and json.loads(out)["valid"], err


def test_out_of_memory_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A proof of gigabytes on a machine that cannot hold its nodes: an error, not a trace."""
    from click.testing import CliRunner

    from cpsolver.cli import cli

    def exhausted(*args: object) -> None:
        raise MemoryError

    proof = tmp_path / "proof.json"
    assert cpsolver("endgame", "examples/level50.txt", "--proof", str(proof)).returncode == 0
    monkeypatch.setattr("cpsolver.verify.answer.check_pieces_quickly", exhausted)
    monkeypatch.setattr("cpsolver.verify.answer.check_quickly", exhausted)
    done = CliRunner().invoke(cli, ["verify", str(proof)])
    assert done.exit_code == 2, done.output
    expected = (
        "Error: out of memory: the input, or the work it asks for, is more than this "
        "process may hold"
    )
    assert done.output.strip().splitlines() == [expected]
