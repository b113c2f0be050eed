"""One way out: every file cpsolver writes goes through here.

A whole file (a proof, a CNF, a reproducer) is written to a temporary file
beside it and renamed over it once complete, so a reader never sees half of
one and a failure leaves the old file as it was. The temporary file is named
after the process writing it (``.NAME.PID-XXXX.tmp``): one left behind by a
killed cpsolver is removed by the next write of NAME. Files get the modes the
umask allows, as every tool's do. A stream (a batch's results,
game records) is appended to and flushed line by line. ``-`` means stdout.
A whole file whose name ends in ``.gz`` is written gzip-compressed (large
strategy proofs: the reading layer unpacks it again, within its caps).
Every failure — an unwritable path, a full disk — is an :class:`OutputError`
naming the path, which the command line turns into one line and exit 2. A
closed stdout pipe (``| head``) is :class:`StdoutClosed`: the reader has what
it wanted, so the command line ends quietly, as Unix tools do.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from cpsolver.rules.errors import CpsolverError


class OutputError(CpsolverError):
    """An output that cannot be written: the path and the reason."""


class StdoutClosed(OutputError):
    """Stdout is a pipe whose reader has gone (``| head``): not a failure, the end of the output."""


def output_error(path: str, error: OSError) -> OutputError:
    """The one-line error for a failed write to ``path`` (``-`` is stdout).

    A broken pipe on stdout is :class:`StdoutClosed`; on a named path (a FIFO
    given as ``-o``) it is a failure like any other, since the user asked for
    that file.
    """
    if path == "-" and isinstance(error, BrokenPipeError):
        return StdoutClosed("stdout was closed")
    where = "stdout" if path == "-" else path
    return OutputError(f"cannot write {where}: {error.strerror or error}")


def open_output(path: str, append: bool = False) -> contextlib.AbstractContextManager[IO[str]]:
    """A text stream to write ``path`` through: stdout for ``-``.

    Whole (the default): written beside the target and renamed over it when
    the block ends without error; a device or pipe (``/dev/stdout``,
    ``/dev/full``) is written directly. ``append``: the file is appended to,
    and each write should be followed by a flush (:func:`write_line` does).
    """
    return _output(path, append, binary=False)


@contextlib.contextmanager
def _output(path: str, append: bool, binary: bool) -> Iterator[IO[Any]]:
    """:func:`open_output`, of text or (``binary``) of bytes."""
    encoding = None if binary else "utf-8"
    if path == "-":
        try:
            yield sys.stdout.buffer if binary else sys.stdout
            sys.stdout.flush()
        except OSError as error:
            raise output_error(path, error) from None
        return
    try:
        if append or not _renamable(path):
            mode = ("a" if append else "w") + ("b" if binary else "")
            with open(path, mode, encoding=encoding) as stream:
                yield stream
            return
        import tempfile  # here, not at the top: ~3 ms of every start-up, for whole files only

        target = Path(path)
        _sweep(target)
        handle, temporary = tempfile.mkstemp(
            prefix=f".{target.name}.{os.getpid()}-", suffix=".tmp", dir=target.parent
        )
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes 0600; a file is the user's to share
    except IsADirectoryError:
        raise OutputError(f"cannot write {path}: is a folder") from None
    except OSError as error:
        raise output_error(path, error) from None
    try:
        with os.fdopen(handle, "wb" if binary else "w", encoding=encoding) as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except OSError as error:
        _remove(temporary)
        raise output_error(path, error) from None
    except BaseException:
        _remove(temporary)
        raise


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole (``-``: stdout); a name ending in ``.gz``, compressed."""
    write_pieces(path, lambda write: write(text))


def write_pieces(path: str, fill: Callable[[Callable[[str], object]], object]) -> None:
    """Write ``path`` whole, as :func:`write_text` does, from the pieces of text ``fill``
    hands the writer it is given: a text of gigabytes (a full deal's proof) is written,
    and compressed, as it is made, never held whole.

    A name ending in ``.gz`` is compressed at level 6, gzip's own default: on
    proofs, level 9 took four times as long for a tenth less.
    """
    if path != "-" and path.endswith(".gz"):
        import gzip  # here, not at the top: ~1 ms of every start-up, for .gz files only

        # mtime 0 and no name: the same document gives the same bytes, run after run.
        with (
            _output(path, append=False, binary=True) as stream,
            gzip.GzipFile("", "wb", 6, stream, mtime=0) as packed,
        ):
            fill(lambda piece: packed.write(piece.encode()))
        return
    with open_output(path) as stream:
        fill(stream.write)


def write_line(stream: IO[str], line: str, path: str) -> None:
    """Append one line to a streamed output and flush it, so a kill loses no finished line."""
    try:
        stream.write(line if line.endswith("\n") else line + "\n")
        stream.flush()
    except OSError as error:
        raise output_error(path, error) from None


def _renamable(path: str) -> bool:
    """Whether ``path`` may be replaced by a rename: it is absent or a regular file."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def _umask() -> int:
    """The process's umask (reading it means setting it, so it is set straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sweep(target: Path) -> None:
    """Remove the temporary files of ``target`` that a killed cpsolver left behind."""
    prefix = f".{target.name}."
    with contextlib.suppress(OSError):
        for entry in os.scandir(target.parent):
            name = entry.name
            if not (name.startswith(prefix) and name.endswith(".tmp")):
                continue
            pid = name[len(prefix) :].split("-", 1)[0]
            if pid.isdigit() and pid.isascii() and not _alive(int(pid)):
                _remove(entry.path)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one we may not signal exists too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(text: str, taken: set[str], suffix: str = ".txt", longest: int = 80) -> str:
    """A file name made from ``text`` (an id) that stays in its folder and is not in ``taken``.

    Anything but letters, digits, ``.``, ``_`` and ``-`` becomes ``_``; leading
    dots go (no hidden files, no ``..``); a name already taken gets ``-2``,
    ``-3``... The name is added to ``taken``.

    >>> taken: set[str] = set()
    >>> safe_name("../../etc/passwd", taken), safe_name("a b", taken), safe_name("a b", taken)
    ('etc_passwd.txt', 'a_b.txt', 'a_b-2.txt')
    >>> safe_name("", taken), safe_name("/abs\\x00olute", taken)
    ('deal.txt', 'abs_olute.txt')
    """
    stem = _UNSAFE.sub("_", text).lstrip("._")[:longest].rstrip("._") or "deal"
    name, number = f"{stem}{suffix}", 1
    while name.lower() in taken:
        number += 1
        name = f"{stem}-{number}{suffix}"
    taken.add(name.lower())
    return name
