"""The reading and writing layers, fuzzed: every reader is total (only CpsolverError) and bounded."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import IO, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsolver.crosscheck.external import parse_answer
from cpsolver.game.engine import replay
from cpsolver.io.dealformat import DealFormatError, parse_corpus_line, parse_deal, read_corpus_lines
from cpsolver.io.reading import (
    MAX_DEPTH,
    InputError,
    lines_of,
    loads_json,
    loads_toml,
    read_at_most,
    read_pieces,
    read_text,
)
from cpsolver.io.rulefiles import read_rules_text, rules_from_toml
from cpsolver.io.writing import OutputError, safe_name, write_text
from cpsolver.rules.errors import CpsolverError
from cpsolver.verify.documents import read_proof

HUGE_INT = "1" * 5000  # past Python's 4,300-digit conversion limit: B1
DEEP = "[" * 5000 + "]" * 5000  # past the recursion limit: B2
HOSTILE = [
    HUGE_INT,
    "-" + HUGE_INT,
    DEEP,
    "[" * 100_000,
    "{" + '"a":' * 3,
    '{"a": ' * 200 + "1" + "}" * 200,
    "1e999999",
    "NaN",
    '"\\ud800"',
    "\x00",
    "",
    "[1, 2",
]
json_text = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=200),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=30,
    ).map(json.dumps),
)
fuzz = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fuzz
@given(json_text)
def test_json_is_read_or_refused_with_input_error_only(text: str) -> None:
    try:
        loads_json(text, "fuzz")
    except InputError as error:
        assert str(error).startswith("fuzz: ") and "\n" not in str(error)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HUGE_INT, "fuzz: a JSON integer of more than 4300 digits"),
        (DEEP, "fuzz: JSON nested deeper than 64 levels"),
        ("[" * 65 + "]" * 65, "fuzz: JSON nested deeper than 64 levels"),
    ],
)
def test_the_json_limits(text: str, message: str) -> None:
    with pytest.raises(InputError, match=f"^{message}$"):
        loads_json(text, "fuzz")
    assert loads_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "fuzz") is not None


@fuzz
@given(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=200)))
def test_every_deal_and_corpus_reader_raises_only_cpsolver_errors(text: str) -> None:
    for read in (lambda: parse_deal(text, "x"), lambda: parse_corpus_line(text, 3)):
        try:
            read()
        except CpsolverError as error:
            assert "\n" not in str(error)


@fuzz
@given(json_text)
def test_proofs_replays_and_answers_raise_only_their_errors(text: str) -> None:
    try:
        read_proof(text)
    except CpsolverError:
        pass
    try:
        value: Any = loads_json(text, "fuzz")
    except InputError:
        return
    try:
        parse_answer(value)
    except ValueError:
        pass
    if isinstance(value, dict):
        with pytest.raises(CpsolverError):
            replay(value)


RECORD = {
    "format": "cpsolver-game",
    "version": 1,
    "rules": {"name": "standard", "digest": rules_from_toml(*read_rules_text("standard")).digest},
    "seed": 1,
    "first_bidder": 0,
    "auction": [],
    "actions": [],
}


def test_a_record_without_its_deal_is_refused_not_a_key_error() -> None:  # B3
    with pytest.raises(CpsolverError, match="not a game record: missing or wrong 'deal'"):
        replay(dict(RECORD))


STANDARD_TOML = read_rules_text("standard")[0]


@fuzz
@given(
    st.one_of(
        st.sampled_from(
            [
                f"x = {HUGE_INT}",
                "x = " + "[" * 5000 + "]" * 5000,
                "x = " + "[" * 70 + "]" * 70,
                "x = 1" + "0" * 200,
                STANDARD_TOML.replace("= 5", f"= {HUGE_INT}", 1),
                STANDARD_TOML.replace("= 5", "= 1" + "0" * 150, 1),
            ]
        ),
        st.text(max_size=200),
    )
)
def test_rules_files_raise_only_rules_errors(text: str) -> None:
    try:
        rules_from_toml(text, "mine.toml")
    except CpsolverError as error:
        assert str(error).startswith("mine.toml: ")


def test_toml_limits() -> None:
    with pytest.raises(InputError, match="more than 4300 digits"):
        loads_toml(f"x = {HUGE_INT}", "t")
    with pytest.raises(InputError, match="nested deeper"):
        loads_toml("x = " + "[" * 5000 + "]" * 5000, "t")


@fuzz
@given(st.lists(st.binary(max_size=40), max_size=20))
def test_lines_are_numbered_and_bad_ones_reported_while_reading_goes_on(
    pieces: list[bytes],
) -> None:
    data = b"\n".join(pieces)
    os.environ["CPSOLVER_LIMIT_LINE"] = "16"
    try:
        got = list(lines_of(io.BytesIO(data), "s"))
    finally:
        del os.environ["CPSOLVER_LIMIT_LINE"]
    raw_lines = data.split(b"\n")
    for number, item in got:
        raw = raw_lines[number - 1]
        if isinstance(item, InputError):
            assert f"s: line {number}: " in str(item)
            assert len(raw) + 1 > 16 or b"\xff" in raw or raw.decode(errors="replace") != raw
        else:
            assert item.rstrip("\n") == raw.decode()
    assert [n for n, _ in got] == [n for n, raw in enumerate(raw_lines, 1) if raw.strip()][
        : len(got)
    ]


def test_a_line_with_no_end_stops_the_reading_with_one_error() -> None:
    os.environ["CPSOLVER_LIMIT_LINE"] = "10"
    try:
        reading = lines_of(io.BytesIO(b"x" * 10_000), "endless")
        number, first = next(reading)
        assert number == 1 and "over the 10 bytes limit for a line" in str(first)
        with pytest.raises(InputError, match="without a line break; stopped"):
            next(reading)
    finally:
        del os.environ["CPSOLVER_LIMIT_LINE"]


def test_corpus_lines_that_cannot_be_read_become_errors() -> None:
    entries = list(
        read_corpus_lines(
            [(1, InputError("c: line 1: not UTF-8 text")), (2, '{"landlord": "3", "x": 1}')]
        )
    )
    assert all(isinstance(e, DealFormatError) for e in entries)
    assert next(str(e) for e in entries) == "c: line 1: not UTF-8 text"


def test_read_text_caps_and_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 2000)
    monkeypatch.setenv("CPSOLVER_LIMIT_DEAL", "1000")
    with pytest.raises(InputError, match="big.txt: over the 1000 bytes limit for a deal"):
        read_text(str(big), "deal")
    with pytest.raises(InputError, match="over the 1 MiB limit"):
        read_text("/dev/zero", "rules")  # B5: a bounded read, not memory until it runs out
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\nok\n\xff\n")
    with pytest.raises(InputError, match=r"bad.txt: line 3: not UTF-8 text"):
        read_text(str(bad), "deal")
    with pytest.raises(InputError, match="is a folder"):
        read_text(str(tmp_path), "deal")
    monkeypatch.setenv("CPSOLVER_LIMIT_DEAL", "lots")
    with pytest.raises(InputError, match="CPSOLVER_LIMIT_DEAL='lots': give a positive number"):
        read_text(str(big), "deal")


def _stream(kind: str, data: bytes, folder: Path) -> IO[bytes]:
    """``data`` as a file, a pipe, or a stream in memory."""
    if kind == "file":
        path = folder / "data"
        path.write_bytes(data)
        return open(path, "rb")
    if kind == "pipe":
        reader, writer = os.pipe()
        os.write(writer, data)  # small enough for the pipe's buffer
        os.close(writer)
        return open(reader, "rb")
    return io.BytesIO(data)


@pytest.mark.parametrize("kind", ["file", "pipe", "memory"])
def test_a_cap_raised_past_any_memory_reads_only_what_is_there(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The size error says to raise the cap; raised to a terabyte, for a proof of gigabytes,
    reading sets aside what the input holds (``read(cap + 1)`` asked for a terabyte at once,
    and failed with a MemoryError whatever the file's size). A cap still cuts the input."""
    data = bytes(range(256)) * 12
    for most, expected in ((1 << 40, data), (1000, data[:1000]), (len(data), data)):
        with _stream(kind, data, tmp_path) as stream:
            assert read_at_most(stream, most) == expected
    proof = tmp_path / "proof.json"
    proof.write_text('{"format": "none"}')
    monkeypatch.setenv("CPSOLVER_LIMIT_PROOF", str(1 << 40))
    assert read_text(str(proof), "proof") == '{"format": "none"}'


def _read_both(path: Path, kind: str, piece: int) -> tuple[Any, Any]:
    """read_text's answer and read_pieces', each the text or the error's message."""
    answers = []
    for read in (
        lambda: read_text(str(path), kind).encode(),
        lambda: b"".join(read_pieces(str(path), kind, piece)),
    ):
        try:
            answers.append(read())
        except InputError as error:
            answers.append(str(error))
    return answers[0], answers[1]


@pytest.mark.parametrize("piece", [1, 7, 4096])
def test_pieces_are_read_text_in_pieces_with_its_bounds_and_errors(
    piece: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plain and gzip files, whole, over the cap before and after unpacking, cut short,
    broken: read a piece at a time, the same bytes or the same one-line error; no piece
    larger than asked."""
    import gzip

    text = json.dumps({"format": "cpsolver-strategy", "nodes": list(range(300))}).encode()
    packed = gzip.compress(text, mtime=0)
    files = {
        "plain.json": text,
        "packed.json.gz": packed,
        "cut.json.gz": packed[: len(packed) // 2],
        "header.json.gz": packed[:5],
        "broken.json.gz": packed[:20] + bytes(40) + packed[60:],
        "empty.json": b"",
        "member.json.gz": packed + b"after the end",
    }
    for cap in (1 << 20, len(text) - 1, len(packed) - 1):
        monkeypatch.setenv("CPSOLVER_LIMIT_PROOF", str(cap))
        for name, data in files.items():
            path = tmp_path / name
            path.write_bytes(data)
            whole, pieces = _read_both(path, "proof", piece)
            assert whole == pieces, (name, cap)
            if isinstance(whole, bytes):
                assert all(len(p) <= piece for p in read_pieces(str(path), "proof", piece))
    with pytest.raises(InputError, match="is a folder"):
        next(read_pieces(str(tmp_path), "proof"))
    with pytest.raises(InputError, match="cannot read"):
        next(read_pieces(str(tmp_path / "missing"), "proof"))


@given(st.lists(st.text(max_size=30), max_size=30))
def test_file_names_from_ids_stay_in_the_folder_and_are_unique(ids: list[str]) -> None:
    taken: set[str] = set()
    names = [safe_name(deal_id, taken) for deal_id in ids]
    assert len({name.lower() for name in names}) == len(names)
    for name in names:
        assert "/" not in name and "\x00" not in name and not name.startswith(".")
        assert Path(name).name == name and name.endswith(".txt")


def test_whole_files_are_replaced_at_once_and_failures_are_one_line(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old")
    write_text(str(target), "new")
    assert target.read_text() == "new" and os.listdir(tmp_path) == ["out.txt"]
    with pytest.raises(OutputError, match="^cannot write /dev/full: No space left on device$"):
        write_text("/dev/full", "x" * 100_000)
    with pytest.raises(OutputError, match="cannot write .*/no/such/x: No such file or directory"):
        write_text(str(tmp_path / "no" / "such" / "x"), "x")
    with pytest.raises(OutputError, match="is a folder"):
        write_text(str(tmp_path), "x")
