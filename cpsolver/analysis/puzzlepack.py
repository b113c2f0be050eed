"""Puzzle packs: one JSON line a puzzle, with its solution, its measures and its proof; and their re-check.

A pack line is a position line (``{"id", "hands", "turn", "table"}``, which
``endgame``, ``show``, ``batch`` and ``crosscheck`` read) with the
``expected`` winner and a ``"puzzle"`` object:

- ``grade`` and ``only_moves`` (their number), as :mod:`cpsolver.analysis.puzzles` counts them;
- ``first_move``, the one winning first move, and ``line``, the principal line;
- ``verdicts``: every legal first move and the side that wins after it
  (the evidence that every other first move loses);
- ``nodes``, ``line_length`` and ``traps`` (the greedy traps): the measures of difficulty;
- ``proof``: the winning side's strategy, the document ``cpsolver endgame
  --proof`` writes, either embedded (``{"zlib_base64": ...}``: the JSON,
  compressed with zlib and written in base64, as proofs of 13-card hands
  run to megabytes of JSON) or in a file of its own (``{"file": PATH}``, PATH
  relative to the pack's folder), which ``cpsolver verify`` checks as it is.

:func:`recheck` re-verifies a line: the position solved afresh, every first
move's verdict, the grade and measures recounted, and the proof walked by
the checker of :mod:`cpsolver.verify`, which shares no code with the solver.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import zlib
from dataclasses import dataclass
from typing import Any

from cpsolver.analysis.puzzles import Puzzle, PuzzleError, check
from cpsolver.endgame.proof import build_strategy_proof
from cpsolver.io.positionformat import ENTRY_KEYS, position_as_dict, position_from_dict
from cpsolver.io.reading import ZLIB, decode, inflated, loads_json, read_text
from cpsolver.io.words import counted
from cpsolver.io.writing import write_text
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet
from cpsolver.verify.documents import read_proof
from cpsolver.verify.strategy import check_strategy_walked

EMBEDDED = 256 * 1024  # characters of an embedded proof at most: past it, --proofs DIR


class PackError(CpsolverError):
    """A puzzle that cannot be written as asked (a proof too big to embed)."""


def proof_document(puzzle: Puzzle, rules: RuleSet) -> dict[str, Any]:
    """The strategy proof of a checked puzzle, its statistics cut to what does not vary by run."""
    assert puzzle.result is not None
    document = build_strategy_proof(puzzle.result, rules)
    stats = document["stats"]
    document["stats"] = {key: stats[key] for key in ("core", "nodes", "strategy_nodes")}
    return document


def pack_line(
    name: str,
    puzzle: Puzzle,
    rules: RuleSet,
    proofs: str | None = None,
    pack_folder: str = ".",
) -> dict[str, Any]:
    """The pack line of a puzzle named ``name``; with ``proofs``, its proof is written there.

    Without ``proofs`` the proof is embedded, compressed; one over
    :data:`EMBEDDED` characters is a :class:`PackError` that says to give a folder.
    """
    document = proof_document(puzzle, rules)
    text = json.dumps(document, separators=(",", ":"))
    if proofs is None:
        embedded = base64.b64encode(zlib.compress(text.encode(), 9)).decode("ascii")
        if len(embedded) > EMBEDDED:
            raise PackError(
                f"{name}: the proof is {len(embedded)} characters compressed, too big for a "
                "line: give --proofs DIR to write proofs to files"
            )
        proof: dict[str, str] = {"zlib_base64": embedded}
    else:
        path = os.path.join(proofs, f"{name}.json")
        write_text(path, text + "\n")  # whole or not at all, a failure in one line
        proof = {"file": os.path.relpath(path, pack_folder)}
    position = puzzle.position
    return {
        "id": name,
        **position_as_dict(position, rules),
        "expected": {"winner": position.side_of(position.turn)},
        "puzzle": {**facts(puzzle), "proof": proof},
    }


def facts(puzzle: Puzzle) -> dict[str, Any]:
    """What a pack line says of a puzzle, its proof aside; :func:`recheck` recounts each."""
    return {
        "grade": puzzle.grade,
        "first_move": puzzle.first_moves[0],
        "only_moves": len(puzzle.only_moves),
        "nodes": puzzle.nodes,
        "line_length": puzzle.line_length,
        "traps": puzzle.traps,
        "verdicts": puzzle.verdicts,
        "line": [f"{hand}:{move}" for hand, move in puzzle.line],
    }


@dataclass(frozen=True)
class Recheck:
    """One pack line re-verified: its id, the first problem found (None: it holds), proof size."""

    id: str
    problem: str | None
    grade: str | None = None
    walked: int = 0
    summary: str = ""  # the puzzle in a line, when it holds

    def as_dict(self) -> dict[str, Any]:
        """The JSON of one line of ``cpsolver puzzle check PACK --json``."""
        return {
            "id": self.id,
            "ok": self.problem is None,
            "problem": self.problem,
            "grade": self.grade,
            "proof_positions": self.walked,
            "summary": self.summary,
        }


def is_pack_line(data: Any) -> bool:
    """Whether a parsed JSON line is a pack line (it carries a ``puzzle`` with a proof)."""
    return isinstance(data, dict) and isinstance(data.get("puzzle"), dict)


def recheck(
    data: dict[str, Any],
    rules: RuleSet,
    pack_folder: str = ".",
    time_limit: float | None = None,
    number: int = 0,
) -> Recheck:
    """Re-verify one pack line (parsed): soundness, verdicts, grade and measures, the proof."""
    name = str(data.get("id", f"line {number}"))
    try:
        position = position_from_dict(data, rules, ENTRY_KEYS)
        claimed = data["puzzle"]
        reference = claimed.get("proof")
    except (CpsolverError, KeyError, TypeError, AttributeError) as error:
        return Recheck(name, f"not a pack line: {error}")
    try:
        proof = _read_proof(reference, pack_folder)
    except CpsolverError as error:
        return Recheck(name, f"unreadable proof: {error}")
    try:
        puzzle = check(position, rules, time_limit)
    except PuzzleError as error:
        return Recheck(name, f"no puzzle: {error}")
    problem = _compare(puzzle, claimed)
    if problem is not None:
        return Recheck(name, problem, puzzle.grade)
    failure, walked = _check_proof(proof, position, puzzle, rules)
    return Recheck(name, failure, puzzle.grade, walked, _summary(puzzle))


def _summary(puzzle: Puzzle) -> str:
    """The puzzle in a line: the hands, who moves (over what), the answer and the measures."""
    position = puzzle.position
    table = "" if position.table is None else f" over {position.table} by hand {position.by}"
    return (
        f"{' / '.join(str(hand) for hand in position.hands)}, hand {position.turn} to move"
        f"{table}: {puzzle.first_moves[0]} wins; grade {puzzle.grade} "
        f"({counted(len(puzzle.only_moves), 'only move')}), "
        f"{counted(puzzle.line_length, 'ply', 'plies')}, "
        f"{counted(len(puzzle.traps), 'greedy trap')}"
    )


def _compare(puzzle: Puzzle, claimed: dict[str, Any]) -> str | None:
    """The first claim of the line the fresh solve contradicts."""
    if not puzzle.sound:
        return f"not sound: {len(puzzle.first_moves)} winning first moves ({', '.join(puzzle.first_moves)})"
    found = facts(puzzle)
    if claimed.get("first_move") != found["first_move"]:
        return f"wrong first move: the line says {claimed.get('first_move')}, the winning one is {found['first_move']}"
    if claimed.get("grade") != found["grade"]:
        return (
            f"wrong grade: the line says {claimed.get('grade')}, but its "
            f"{found['only_moves']} only moves make it {found['grade']}"
        )
    for key in ("verdicts", "only_moves", "line_length", "traps"):
        if claimed.get(key) != found[key]:
            return f"wrong {key}: the line says {claimed.get(key)}, the solver finds {found[key]}"
    return None


def _check_proof(
    proof: Any, position: Position, puzzle: Puzzle, rules: RuleSet
) -> tuple[str | None, int]:
    """The proof checked by the checker, and its first move shown to be the puzzle's."""
    try:
        document = read_proof(proof)
    except CpsolverError as error:
        return f"forged proof: {error}", 0
    failure, walked = check_strategy_walked(document, position, rules)
    if failure is not None:
        return f"forged proof: {failure}", walked
    if document["winner"] != position.side_of(position.turn):
        return "forged proof: it proves the other side's win", walked
    root = document["nodes"][document["root"]]
    first = root["move"]["cards"] if "move" in root else root["spring"][0]["cards"]
    if first != puzzle.first_moves[0]:
        return f"forged proof: it opens with {first}, not {puzzle.first_moves[0]}", walked
    return None, walked


def _read_proof(reference: Any, pack_folder: str) -> Any:
    """The proof a line names: decoded where embedded, read where it is a file."""
    if not isinstance(reference, dict):
        raise PackError('its \'proof\' is {"zlib_base64": TEXT} or {"file": PATH}')
    if "file" in reference:
        name = str(reference["file"])
        # A pack names its own proofs: a file beside it, never a path out of its folder.
        if os.path.isabs(name) or os.pardir in name.replace("\\", "/").split("/"):
            raise PackError(f"its proof file {name!r} is not in the pack's folder")
        path = os.path.join(pack_folder, name)
        return loads_json(read_text(path, "proof"), path)
    try:
        packed = base64.b64decode(str(reference["zlib_base64"]), validate=True)
    except (KeyError, binascii.Error) as error:
        raise PackError(f"its embedded proof does not decode ({error})") from None
    text = inflated(packed, "its embedded proof", "proof", ZLIB)
    return loads_json(decode(text, "its embedded proof"), "embedded proof")


__all__ = [
    "EMBEDDED",
    "PackError",
    "Recheck",
    "facts",
    "is_pack_line",
    "pack_line",
    "proof_document",
    "recheck",
]
