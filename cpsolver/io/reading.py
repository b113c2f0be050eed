"""One way in: every input cpsolver reads passes through here, bounded and total.

Each kind of input has a size cap (:data:`LIMITS`, in bytes, overridable with
the environment variable ``CPSOLVER_LIMIT_<KIND>``, e.g.
``CPSOLVER_LIMIT_PROOF=200000000``). Text must be UTF-8: anything else is an
error naming the line, never a silent replacement. JSON is parsed with a
limit on integer digits and on nesting depth, so no document can raise
anything but :class:`InputError`. Every failure names its source (a path,
``stdin``, or a label such as ``the external solver``) and, where it has one,
the line.

Like :mod:`cpsolver.rules.errors`, this module imports nothing else of ours, so
every layer (the rules core included) may read through it.

>>> loads_json('{"a": [1, 2]}', "example")
{'a': [1, 2]}
>>> loads_json("[" * 100 + "]" * 100, "example")
Traceback (most recent call last):
...
cpsolver.io.reading.InputError: example: JSON nested deeper than 64 levels
"""

from __future__ import annotations

import json
import os
import shlex
import stat
import sys
import zlib
from collections.abc import Generator, Iterator
from typing import IO, Any, TypeGuard

from cpsolver.rules.errors import CpsolverError

KiB = 1 << 10
MiB = 1 << 20

LIMITS: dict[str, int] = {
    "cards": 64 * KiB,  # a CARDS argument's file: a hand is at most 54 cards
    "deal": 1 * MiB,  # a deal file
    "rules": 1 * MiB,  # a rules TOML file
    "proof": 64 * MiB,  # a proof or certificate (certificates are at most ~40 KB in practice)
    "record": 64 * MiB,  # game records: one JSON object or JSON lines
    "line": 1 * MiB,  # one line of a corpus or of the line protocol
    # One line of a batch's output: a result carries its corpus line's id (up to a
    # line, several times longer once escaped), and an error record may quote it.
    "result": 16 * MiB,
    # Not bytes: the clause visits a certificate's check may make by full unit
    # propagation (cpsolver.verify.rup.STEPS); hinted lemmas cost only their hints.
    "rup_steps": 5_000_000,
}
_UNITS = {"rup_steps": "clause visits"}
_NOUNS = {"cards": "card file", "rules": "rules file", "record": "record file"}
_PIECE = 1 << 20  # how much of a pipe read_at_most reads at a time
MAX_DEPTH = 64  # JSON nesting; our deepest documents (proofs) nest 6 levels
# Digits of a JSON or TOML integer: Python's own conversion limit, enforced by the C
# parsers at no cost (a check of our own costs a Python call per integer).
MAX_DIGITS = sys.int_info.default_max_str_digits


class InputError(CpsolverError):
    """Input that cannot be read: too big, not UTF-8, not JSON or TOML, too deep; names where."""


def limit(kind: str) -> int:
    """The size cap of ``kind`` in bytes, from ``CPSOLVER_LIMIT_<KIND>`` or :data:`LIMITS`."""
    variable = f"CPSOLVER_LIMIT_{kind.upper()}"
    value = os.environ.get(variable)
    if value is None:
        return LIMITS[kind]
    if not value.isdigit() or int(value) == 0:
        raise InputError(
            f"{variable}={value!r}: give a positive number of {_UNITS.get(kind, 'bytes')}"
        )
    return int(value)


def describe_size(size: int) -> str:
    """``1 MiB``, ``64 KiB`` or ``100 bytes``.

    >>> describe_size(2 * MiB), describe_size(64 * KiB), describe_size(100)
    ('2 MiB', '64 KiB', '100 bytes')
    """
    for unit, name in ((MiB, "MiB"), (KiB, "KiB")):
        if size % unit == 0:
            return f"{size // unit} {name}"
    return f"{size} bytes"


def _too_big(source: str, kind: str, cap: int, where: str = "") -> InputError:
    return InputError(
        f"{source}:{where} over the {describe_size(cap)} limit for a {_NOUNS.get(kind, kind)} "
        f"(set CPSOLVER_LIMIT_{kind.upper()} to raise it)"
    )


def decode(data: bytes, source: str, first_line: int = 1) -> str:
    """UTF-8 text, or :class:`InputError` naming the line of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = first_line + data.count(b"\n", 0, error.start)
        raise InputError(f"{source}: line {line}: not UTF-8 text") from None


_stdin_used = False


def reset_stdin() -> None:
    """Allow stdin to be read again (each command invocation starts afresh)."""
    global _stdin_used
    _stdin_used = False


def _binary_stdin() -> IO[bytes]:
    global _stdin_used
    if _stdin_used:
        raise InputError("stdin (-) can be read only once")
    _stdin_used = True
    buffer: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a text-only stdin (some test harnesses): re-encode what it gives
        import io

        return io.BytesIO(sys.stdin.read().encode("utf-8", "surrogateescape"))
    return buffer


def _open(path: str) -> IO[bytes]:
    try:
        if os.path.isdir(path):
            raise InputError(f"cannot read {path}: is a folder")
        return open(path, "rb")
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror}") from None


def source_name(path: str) -> str:
    """How messages name a path: ``stdin`` for ``-``."""
    return "stdin" if path == "-" else path


GZIP_MAGIC = b"\x1f\x8b"


GZIP = 16 + zlib.MAX_WBITS  # zlib's window bits for a gzip stream
ZLIB = zlib.MAX_WBITS  # and for a bare zlib one


def inflated(data: bytes, source: str, kind: str, wbits: int = GZIP) -> bytes:
    """The contents of compressed ``data`` (gzip, or ``ZLIB``), at most ``limit(kind)`` bytes.

    Decompressed in one bounded step: a few bytes that would unpack into
    gigabytes are refused at the cap, never unpacked whole.
    """
    cap = limit(kind)
    name = "gzip" if wbits == GZIP else "zlib"
    unpacker = zlib.decompressobj(wbits=wbits)
    try:
        found = unpacker.decompress(data, cap + 1)
    except zlib.error as error:
        raise InputError(f"{source}: broken {name} data ({error})") from None
    if len(found) > cap or unpacker.unconsumed_tail:
        raise _too_big_unpacked(source, kind, cap)
    if not unpacker.eof:
        raise InputError(f"{source}: {name} data ends early (a truncated file?)")
    return found


def read_text(path: str, kind: str) -> str:
    """The whole UTF-8 text of a file, or of stdin for ``-``, at most ``limit(kind)`` bytes.

    A gzip-compressed file (``proof.json.gz``) is read as its contents, the cap
    holding for them too.
    """
    cap = limit(kind)
    source = source_name(path)
    stream = _binary_stdin() if path == "-" else _open(path)
    try:
        data = read_at_most(stream, cap + 1)
    except OSError as error:
        raise InputError(f"cannot read {source}: {error.strerror}") from None
    finally:
        if path != "-":
            stream.close()
    if len(data) > cap:
        raise _too_big(source, kind, cap)
    if data.startswith(GZIP_MAGIC):
        data = inflated(data, source, kind)
    return decode(data, source)


def read_pieces(path: str, kind: str, piece: int = 4 * MiB) -> Generator[bytes, None, None]:
    """A file's contents, at most ``limit(kind)`` bytes, in pieces of at most ``piece``.

    For a reader that takes text as it comes (a proof of gigabytes need never
    be held whole): bounded, and unpacked where gzip-compressed, as
    :func:`read_text` reads the whole, with the same errors; the text is not
    decoded, so a reader of it must refuse what is not UTF-8 (read_text names
    the line). Not for stdin, which cannot be read a second time by a reader
    that gives up half-way.
    """
    cap = limit(kind)
    source = source_name(path)
    stream = _open(path)
    try:
        # A file too big is refused before it is unpacked, as read_text refuses it.
        size = _file_size(stream)
        if size is not None and size > cap:
            raise _too_big(source, kind, cap)
        # Two bytes at least, to tell gzip's magic number.
        data = _read(stream, source, min(max(piece, len(GZIP_MAGIC)), cap + 1))
        unpacker = zlib.decompressobj(wbits=GZIP) if data.startswith(GZIP_MAGIC) else None
        read = unpacked = 0
        while data and not (unpacker and unpacker.eof):
            read += len(data)
            if read > cap:
                raise _too_big(source, kind, cap)
            if unpacker is None:
                yield from (data[at : at + piece] for at in range(0, len(data), piece))
            else:
                while data and not unpacker.eof:
                    found = _unpack(unpacker, data, piece, source)
                    unpacked += len(found)
                    if unpacked > cap:
                        raise _too_big_unpacked(source, kind, cap)
                    data = unpacker.unconsumed_tail
                    if found:
                        yield found
            data = _read(stream, source, piece)
        if unpacker is not None and not unpacker.eof:
            raise InputError(f"{source}: gzip data ends early (a truncated file?)")
    finally:
        stream.close()


def _file_size(stream: IO[bytes]) -> int | None:
    """A regular file's size; None for anything else (a pipe, a device: counted as read;
    a stream with no descriptor, such as io.BytesIO)."""
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _read(stream: IO[bytes], source: str, most: int) -> bytes:
    try:
        return stream.read(most)
    except OSError as error:
        raise InputError(f"cannot read {source}: {error.strerror}") from None


def _unpack(unpacker: Any, data: bytes, most: int, source: str) -> bytes:
    try:
        found: bytes = unpacker.decompress(data, most)
    except zlib.error as error:
        raise InputError(f"{source}: broken gzip data ({error})") from None
    return found


def _too_big_unpacked(source: str, kind: str, cap: int) -> InputError:
    return InputError(
        f"{source}: unpacks to over the {describe_size(cap)} limit for a "
        f"{_NOUNS.get(kind, kind)} (set CPSOLVER_LIMIT_{kind.upper()} to raise it)"
    )


def read_at_most(stream: IO[bytes], most: int) -> bytes:
    """What ``stream`` holds, up to ``most`` bytes, in memory no larger than what was read.

    ``read(most)`` alone sets ``most`` bytes aside before reading: a cap raised
    to a terabyte (``CPSOLVER_LIMIT_PROOF`` for a proof of gigabytes) would
    fail for want of memory, whatever the file's size. A file's size is known,
    and read in one go; a pipe is read a piece at a time.
    """
    size = _file_size(stream)
    try:
        unread = None if size is None else size - stream.tell()
    except (OSError, ValueError):  # no position
        unread = None
    if unread is not None:
        # A byte past what it holds: a file that grew since is still read up to ``most``.
        return stream.read(min(most, max(unread, 0) + 1))
    pieces, left = [], most
    while left:
        piece = stream.read(min(left, _PIECE))
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
    return b"".join(pieces)


def read_lines(path: str) -> Iterator[tuple[int, str | InputError]]:
    """(line number, text or error) for every non-blank line of a file or stdin, streamed.

    A line over ``limit("line")`` bytes or not UTF-8 yields its error and
    reading goes on at the next line, so one bad line never stops a corpus.
    """
    stream = _binary_stdin() if path == "-" else _open(path)
    try:
        yield from lines_of(stream, source_name(path))
    finally:
        if path != "-":
            stream.close()


def lines_of(stream: IO[bytes], source: str) -> Iterator[tuple[int, str | InputError]]:
    """(line number, text or error) for every non-blank line of a binary stream."""
    cap = limit("line")
    number = 0
    while True:
        try:
            raw = stream.readline(cap + 1)
        except OSError as error:
            raise InputError(f"cannot read {source}: {error.strerror}") from None
        if not raw:
            return
        number += 1
        if len(raw) > cap and not raw.endswith(b"\n"):
            # Reported before the rest is skipped: a peer may never finish the line.
            yield number, _too_big(source, "line", cap, f" line {number}:")
            _skip_rest_of_line(stream, source, number, cap)
            continue
        if not raw.strip():
            continue
        try:
            yield number, decode(raw, source, number)
        except InputError as error:
            yield number, error


def _skip_rest_of_line(stream: IO[bytes], source: str, number: int, cap: int) -> None:
    """Read past the end of an over-long line; a line with no end in sight stops the reading."""
    for _ in range(64):
        rest = stream.readline(cap)
        if not rest or rest.endswith(b"\n"):
            return
    raise InputError(
        f"{source}: line {number}: over {describe_size(64 * cap)} without a line break; stopped"
    )


_CONTAINERS = frozenset({list, dict})


def depth(value: Any, stop: int = MAX_DEPTH + 1) -> int:
    """How deeply lists and objects nest in a JSON value, counted up to ``stop``.

    Level by level over containers only (any depth is safe, scalars cost nothing).

    >>> depth(1), depth([]), depth({"a": [[1]]})
    (0, 1, 3)
    """
    level = [value] if type(value) in _CONTAINERS else []
    found = 0
    while level and found < stop:
        found += 1
        deeper: list[Any] = []
        for item in level:
            # json.loads makes exactly lists and dicts: type() is exact, and faster than isinstance.
            children = item.values() if type(item) is dict else item
            deeper += [child for child in children if type(child) in _CONTAINERS]
        level = deeper
    return found


def is_whole(value: Any) -> TypeGuard[int]:
    """Whether a JSON value is a whole number (JSON's true and false are not, though Python's bool is an int).

    >>> is_whole(3), is_whole(True), is_whole(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def loads_json(text: str | bytes, source: str, line: int | None = None) -> Any:
    """Parse JSON with the digit and depth limits; every failure is :class:`InputError`."""
    where = f"{source}: line {line}" if line is not None else source
    if isinstance(text, bytes):
        text = decode(text, source)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        if error.msg == "Extra data" and "\n" in text.strip():
            raise InputError(
                f"{where}: several JSON documents, one a line (a corpus?), where one is read: "
                "give one line, or run 'cpsolver batch' over them all"
            ) from None
        raise InputError(f"{where}: broken JSON: {error}") from None
    except RecursionError:
        raise InputError(f"{where}: JSON nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # the only other ValueError: an integer past the conversion limit
        raise InputError(f"{where}: a JSON integer of more than {MAX_DIGITS} digits") from None
    if depth(value) > MAX_DEPTH:
        raise InputError(f"{where}: JSON nested deeper than {MAX_DEPTH} levels")
    return value


def loads_documents(text: str, source: str) -> list[Any]:
    """JSON documents from a file's text: JSON lines, or one document over several lines.

    Blank lines are skipped; an empty text gives no documents. A text that is
    neither is refused with the first line's error.
    """
    try:
        return [
            loads_json(line, source, number)
            for number, line in enumerate(text.splitlines(), 1)
            if line.strip()
        ]
    except InputError as error:
        try:  # one document over several lines
            return [loads_json(text, source)]
        except InputError:
            raise error from None


def loads_records(text: str, source: str, label: str | None = None) -> list[dict[str, Any]]:
    """JSON objects from a record file's text: one JSON document, or JSON lines.

    ``label`` names the input in the messages about its items (``source`` by default).
    """
    label = source if label is None else label
    items = loads_documents(text, source)
    if not items:
        raise InputError(f"{label}: nothing in it")
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise InputError(f"{label}: item {number} is not a JSON object")
    return items


def loads_toml(text: str, source: str) -> dict[str, Any]:
    """Parse TOML with the digit and depth limits; every failure is :class:`InputError`."""
    # Here, not at the top: tomllib costs a fresh process ~2 ms, and the bundled
    # rule sets, precompiled, never need it (cpsolver.io.rulefiles).
    import tomllib

    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"{source}: not valid TOML: {error}") from None
    except RecursionError:
        raise InputError(f"{source}: TOML nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # an integer past Python's conversion limit
        raise InputError(f"{source}: a TOML integer of more than {MAX_DIGITS} digits") from None
    if depth(value) > MAX_DEPTH:
        raise InputError(f"{source}: TOML nested deeper than {MAX_DEPTH} levels")
    return value


def command_argv(command: str, what: str) -> list[str]:
    """``command`` split as a shell would (no shell runs it); InputError names ``what``.

    >>> command_argv("python 'my bot.py' --fast", "the bot")
    ['python', 'my bot.py', '--fast']
    """
    try:
        argv = shlex.split(command)
    except ValueError as error:  # "No closing quotation", "No escaped character"
        raise InputError(f"{what} {command!r}: {str(error).lower()}") from None
    if not argv:
        raise InputError(f"{what}: the command is empty")
    return argv
