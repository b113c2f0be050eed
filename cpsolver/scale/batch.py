"""Batches: every deal of a JSON-lines corpus solved, streamed, resumable and in parallel.

Either question: the spring question of each deal, or (``question="endgame"``)
who wins each open-hand position with best play (:mod:`cpsolver.scale.endgame_batch`).

Input is read line by line and handed out in small chunks, a bounded number
at a time, so memory stays flat however long the corpus. Each result is one
JSON line, appended and flushed as its chunk completes. Rerunning the same
command after a crash first repairs a torn last line, then skips the ids the
output already holds: every input id ends with exactly one result. A line
that is no deal becomes an error record and the batch goes on. An id that
comes again later in the corpus is solved once, at its first line: the later
lines are passed over and reported as duplicates, in every run alike, so a
resume neither repeats nor loses them.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import IO, Any

from cpsolver.endgame.budget import DEFAULT_MEMORY
from cpsolver.io.corpus import corpus_key
from cpsolver.io.dealformat import DealFormatError, parse_corpus_line
from cpsolver.io.memory import peak_memory_mb
from cpsolver.io.reading import InputError, is_whole, limit, loads_json
from cpsolver.io.rulefiles import rules_from_toml
from cpsolver.io.writing import OutputError, output_error, write_line
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.ruleset import RuleSet
from cpsolver.scale.endgame_batch import is_endgame_mismatch, outcome, solve_position_line
from cpsolver.scale.interrupts import held_interrupts
from cpsolver.scale.parallel import Runner, chunked
from cpsolver.spring.cpsat.strategies import Strategy
from cpsolver.spring.engines import solve_with

CHUNK = 16  # deals per task: big enough to hide the hand-over, small enough to lose little
FSYNC_EVERY = 1.0  # seconds between forced writes to disk


@dataclass(frozen=True)
class BatchOptions:
    """How to solve each deal. The rule set travels as its TOML text, so remote workers need no files."""

    engine: str = "cpsat"
    objective: str = "spring"
    strategy: Strategy = "eager"
    rules_toml: str = ""
    rules_source: str = "standard.toml"
    timeout: float | None = None
    question: str = "spring"  # or "endgame": who wins each position (a deal: the landlord leads)
    memory: int | None = DEFAULT_MEMORY  # bytes, the endgame search's cap in each worker
    core: str = "auto"  # the endgame search's core (cpsolver.endgame.answer.core_name)


@cache
def _rules(text: str, source: str) -> RuleSet:
    return rules_from_toml(text, source)


def line_id(line: str | CpsolverError, number: int) -> Any:
    """The id a line's result carries: its ``"id"`` as the line types it, or else its line number."""
    data = _data(line)
    found = data.get("id") if isinstance(data, dict) else None
    return str(number) if found is None else found


def line_key(line: str | CpsolverError, number: int) -> str:
    """The line's key among the ids done (:func:`cpsolver.io.corpus.corpus_key`)."""
    return corpus_key(_data(line), number)


def _data(line: str | CpsolverError) -> Any:
    """The line's JSON, or None if it has none."""
    if isinstance(line, CpsolverError):
        return None
    try:
        return loads_json(line, "line")
    except InputError:
        return None


def solve_line(number: int, line: str | CpsolverError, options: BatchOptions) -> dict[str, Any]:
    """The result record of one corpus line; a line that is no deal gives an error record."""
    if isinstance(line, CpsolverError):  # unreadable: too long, not UTF-8
        return {"id": line_id(line, number), "line": number, "error": str(line)}
    rules = _rules(options.rules_toml, options.rules_source)
    if options.question == "endgame":
        return solve_position_line(
            number,
            line,
            rules,
            options.timeout,
            line_id(line, number),
            options.memory,
            options.core,
        )
    try:
        entry = parse_corpus_line(line, number)
    except DealFormatError as error:
        return {"id": line_id(line, number), "line": number, "error": str(error)}
    started = time.perf_counter()
    result = solve_with(
        options.engine, entry.deal, rules, options.timeout, options.strategy, options.objective
    )
    record: dict[str, Any] = {"id": line_id(line, number), "line": number, **result.as_dict()}
    record["plan"] = [step["cards"] for step in record["plan"]]
    record["engine"] = options.engine
    record["seconds"] = round(time.perf_counter() - started, 6)
    del record["stats"]
    if entry.expected is not None:
        record["expected"] = entry.expected
    return record


def solve_chunk(
    chunk: list[tuple[int, str | CpsolverError]], options: BatchOptions
) -> list[dict[str, Any]]:
    """The records of a chunk of (line number, line): the unit of work a worker gets."""
    return [solve_line(number, line, options) for number, line in chunk]


@dataclass
class Done:
    """What earlier runs left in the output: the ids done, their verdicts, errors and mismatches."""

    ids: set[str] = field(default_factory=set)
    errors: int = 0
    unknowns: int = 0
    mismatches: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    error_records: list[dict[str, Any]] = field(default_factory=list)  # {"id", "line"} each

    @property
    def results(self) -> int:
        """The results OUT held: solved deals and error records."""
        return sum(self.verdicts.values()) + self.errors


def done_ids(path: Path) -> Done:
    """What an earlier run already wrote to ``path``, after cutting off a torn last line.

    The file is read a line at a time and only the ids are kept, so memory is
    one line, whatever the file's size. A line that is not one of our results
    — not JSON, no id, or over the result cap (:func:`cpsolver.io.reading.limit`
    of ``"result"``) — stays where it is, and its deal is solved again.
    """
    done = Done()
    if not path.exists():
        return done
    cap = limit("result")
    with path.open("r+b") as file:
        whole = 0  # where the last complete line ends
        while raw := file.readline(cap + 1):
            if raw.endswith(b"\n"):
                _count_result(done, raw, path)
            elif len(raw) <= cap or not _skip_rest_of_line(file, cap):
                break  # the run died mid-line: the fragment is cut off below
            whole = file.tell()
        if whole < os.fstat(file.fileno()).st_size:
            file.truncate(whole)
    return done


def _count_result(done: Done, raw: bytes, path: Path) -> None:
    """Count one line of a batch's output; a line that is not one of our results is passed over."""
    try:
        record = loads_json(raw, str(path))
    except InputError:
        return
    if not isinstance(record, dict) or "id" not in record:
        return  # not one of ours; it stays, and the deal is solved again
    done.ids.add(corpus_key(record, record.get("line")))
    if "error" in record:
        done.errors += 1
        done.error_records.append({"id": record["id"], "line": record.get("line")})
        return
    done.unknowns += record.get("verdict") == "unknown" or record.get("status") == "unknown"
    done.mismatches += is_mismatch(record)
    if "verdict" in record or "status" in record:
        done.verdicts[outcome(record)] += 1


def _skip_rest_of_line(file: IO[bytes], cap: int) -> bool:
    """Read past the rest of an over-long line, ``cap`` bytes at a time; False if it is torn."""
    while rest := file.readline(cap):
        if rest.endswith(b"\n"):
            return True
    return False


def is_mismatch(record: dict[str, Any]) -> bool:
    """Whether a result contradicts its corpus line's ``expected`` verdict (unknown never does)."""
    if "status" in record:  # the endgame question's record
        return is_endgame_mismatch(record)
    expected, verdict = record.get("expected"), record.get("verdict")
    return expected is not None and verdict not in (None, "unknown") and verdict != expected


@dataclass
class BatchSummary:
    """Counts by verdict (each side's wins, for the endgame question), errors, speed, the slowest."""

    verdicts: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    error_records: list[dict[str, Any]] = field(default_factory=list)  # {"id", "line"} each
    duplicates: list[dict[str, Any]] = field(default_factory=list)  # {"id", "line", "first_line"}
    mismatches: list[Any] = field(default_factory=list)  # ids
    skipped: int = 0
    seconds: float = 0.0
    slowest: list[tuple[float, Any]] = field(default_factory=list)  # (seconds, id)
    interrupted: bool = False

    @property
    def solved(self) -> int:
        """Deals solved in this run (error records not counted)."""
        return sum(self.verdicts.values())

    def add(self, record: dict[str, Any]) -> None:
        """Count one result record."""
        if "error" in record:
            self.errors += 1
            self.error_records.append({"id": record["id"], "line": record["line"]})
            return
        self.verdicts[outcome(record)] += 1
        if is_mismatch(record):
            self.mismatches.append(record["id"])
        # By seconds alone: ids may be of any JSON type, and need not compare.
        slowest = [*self.slowest, (record["seconds"], record["id"])]
        self.slowest = sorted(slowest, key=lambda pair: pair[0], reverse=True)[:5]

    def as_dict(self, done: Done | None = None) -> dict[str, Any]:
        """The JSON form printed by ``cpsolver batch --json``: this run's work, and OUT's in ``total``.

        ``done`` is what earlier runs left in OUT; ``total`` adds this run to it.
        Error records are listed by id and line (sorted by line), all of them.
        """
        done = done or Done()
        verdicts = self.verdicts + done.verdicts
        return {
            "solved": self.solved,
            "verdicts": dict(sorted(self.verdicts.items())),
            "errors": self.errors,
            "error_records": sorted(self.error_records, key=_by_line),
            "duplicates": self.duplicates,
            "unknowns": self.verdicts["unknown"],
            "mismatches": len(self.mismatches),
            "mismatched_ids": self.mismatches[:20],
            "skipped_already_done": self.skipped,
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(self.solved / self.seconds, 1) if self.seconds else None,
            "slowest": [{"id": deal_id, "seconds": seconds} for seconds, deal_id in self.slowest],
            "interrupted": self.interrupted,
            "peak_memory_mb": peak_memory_mb(),
            "total": {
                "results": self.solved + self.errors + done.results,
                "solved": sum(verdicts.values()),
                "verdicts": dict(sorted(verdicts.items())),
                "errors": self.errors + done.errors,
                "error_records": sorted([*done.error_records, *self.error_records], key=_by_line),
                "unknowns": self.verdicts["unknown"] + done.unknowns,
                "mismatches": len(self.mismatches) + done.mismatches,
            },
        }


def _by_line(record: dict[str, Any]) -> int:
    """An error record's line number, for sorting (a foreign record without one goes first)."""
    line = record.get("line")
    return line if is_whole(line) else 0


Numbered = tuple[int, str | CpsolverError]


def pending_lines(
    lines: Iterable[str | Numbered], done: set[str], summary: BatchSummary
) -> Iterator[Numbered]:
    """(line number, line or its reading error) of every line whose id is not done yet.

    ``lines`` are plain lines (numbered here from 1), or already numbered by
    :func:`cpsolver.io.reading.read_lines`. A line whose id an earlier line of
    the corpus had is passed over and listed in ``summary.duplicates``,
    whether or not the first is done: each id has one result, its first
    line's, on the first run and on every resume alike.
    """
    # The first line of each typed id. A line without one is keyed by its number,
    # never twice, so it costs nothing here: only a corpus of ids grows this.
    first: dict[str, int] = {}
    for index, item in enumerate(lines, 1):
        number, line = item if isinstance(item, tuple) else (index, item)
        if isinstance(line, str) and not line.strip():
            continue
        key = line_key(line, number)
        if not key.startswith("line "):
            if key in first:
                summary.duplicates.append(
                    {"id": line_id(line, number), "line": number, "first_line": first[key]}
                )
                continue
            first[key] = number
        if done and key in done:
            summary.skipped += 1
            continue
        yield number, line


def run_batch(
    lines: Iterable[str | Numbered],
    output: IO[str],
    options: BatchOptions,
    runner: Runner,
    done: set[str],
    progress: Callable[[int], None] = lambda n: None,
    path: str = "the output",
) -> BatchSummary:
    """Solve every pending (line number, line) with ``runner``, appending records as they come.

    Ctrl-C (or SIGTERM, when the command line maps it so) stops the run with
    every finished record written; the summary says ``interrupted``.
    """
    summary = BatchSummary()
    started = time.perf_counter()
    synced = started
    work = chunked(pending_lines(lines, done, summary), CHUNK)
    try:
        for records in runner.run(_Task(options), work, _lost_chunk):
            with held_interrupts():  # what the summary counts is what the output holds
                write_line(output, "".join(json.dumps(record) + "\n" for record in records), path)
                for record in records:
                    summary.add(record)
            if time.perf_counter() - synced > FSYNC_EVERY:
                _sync(output)
                synced = time.perf_counter()
            progress(len(records))
    except KeyboardInterrupt:
        summary.interrupted = True
    try:
        _sync(output)
    except OSError as error:
        raise output_error(path, error) from None
    summary.seconds = time.perf_counter() - started
    return summary


def _lost_chunk(chunk: list[tuple[int, str | CpsolverError]], reason: str) -> list[dict[str, Any]]:
    """Error records for a chunk no worker could finish (it kept killing them)."""
    return [
        {"id": line_id(line, number), "line": number, "error": f"not solved: {reason}"}
        for number, line in chunk
    ]


def lock_output(path: Path) -> IO[str]:
    """OUT opened for appending and locked: a second batch on the same OUT is refused.

    The lock is the kernel's (``flock``), so it ends with the process however it ends.
    """
    try:
        stream = path.open("a", encoding="utf-8")
    except OSError as error:
        raise output_error(str(path), error) from None
    try:
        import fcntl  # POSIX only: on Windows, two batches on one OUT are not kept apart
    except ImportError:
        return stream
    try:
        fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        stream.close()
        raise OutputError(
            f"{path} is being written by another cpsolver batch; "
            "wait for it to finish, or give another output"
        ) from None
    return stream


def _sync(output: IO[str]) -> None:
    """Force a file's lines to disk; a pipe or a terminal (``-o -``) has nothing to force."""
    if stat.S_ISREG(os.fstat(output.fileno()).st_mode):
        os.fsync(output.fileno())


@dataclass(frozen=True)
class _Task:
    """``solve_chunk`` with its options bound: a picklable callable for any runner."""

    options: BatchOptions

    def __call__(self, chunk: list[tuple[int, str | CpsolverError]]) -> list[dict[str, Any]]:
        return solve_chunk(chunk, self.options)
