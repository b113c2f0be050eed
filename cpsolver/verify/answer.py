"""A proof read and checked, as ``cpsolver verify --json`` and the board's ``/api/verify`` give it.

One function for both: :func:`verify_text` reads the proof's text (and the
deal or position it must be for), checks it, and returns a
:class:`VerifyAnswer` whose :meth:`~VerifyAnswer.as_dict` is the JSON answer;
:func:`verify_file_quickly` first tries a strategy file a piece at a time.
Input that is no proof at all (broken JSON, a deal given as the proof) raises
:class:`~cpsolver.io.reading.InputError` with the one-line message both show.
"""

from __future__ import annotations

import os
from contextlib import closing
from dataclasses import dataclass
from typing import Any

from cpsolver.io.dealformat import parse_deal
from cpsolver.io.positionformat import parse_position
from cpsolver.io.reading import InputError, loads_json, read_pieces
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.ruleset import RuleSet
from cpsolver.verify.check import check_document
from cpsolver.verify.compiled import check_pieces_quickly, check_quickly
from cpsolver.verify.documents import NotAProofError, read_proof


@dataclass(frozen=True)
class VerifyAnswer:
    """A proof checked: the document (None when it failed to read), the first failure, positions walked.

    The document of a strategy the compiled checker found valid is its header, without the nodes.
    """

    document: dict[str, Any] | None
    failure: str | None
    walked: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The JSON form printed by ``cpsolver verify --json``."""
        return {
            "valid": self.failure is None,
            "failure": self.failure,
            **proof_summary(self.document, self.walked),
        }


def verify_file_quickly(path: str, subject: str | None, rules: RuleSet) -> VerifyAnswer | None:
    """The answer for the strategy proof in file ``path``, if the compiled checker finds it
    valid read a piece at a time, as written (a proof of gigabytes is never held whole).

    None otherwise (no compiled checker, another kind of proof, another layout, a
    failure): the caller then reads the whole text with :func:`verify_text`, which
    names the failure. The file is read through the reading layer's bounds, its
    errors raised as there. Only a regular file is read so: stdin or a pipe cannot
    be read a second time.
    """
    if not os.path.isfile(path):  # stdin, a pipe: what is read half-way is gone
        return None
    with closing(read_pieces(path, "proof")) as pieces:
        quick = check_pieces_quickly(pieces, subject, rules)
    return None if quick is None else VerifyAnswer(quick[0], None, quick[1])


def verify_text(text: str, subject: str | None, rules: RuleSet, source: str) -> VerifyAnswer:
    """Read the proof ``text`` (named ``source`` in messages) and check it against ``subject``.

    ``subject`` is the text of the deal or position the proof must be for
    (None: the one it embeds). A document that reads as a proof but fails
    its check is an answer with a failure; text that is no proof is an
    :class:`InputError`.

    A strategy goes to the compiled checker first, where it was built: it
    answers only "valid", and any other proof is read and checked here as
    before (:mod:`cpsolver.verify.compiled`).
    """
    quick = check_quickly(text, subject, rules)
    if quick is not None:
        return VerifyAnswer(quick[0], None, quick[1])
    try:
        parsed = loads_json(text, f"{source}: not a proof")
    except InputError:
        other = text_kind(text, rules)
        if other is not None:
            raise InputError(
                f"{source}: this is {other}, not a proof, certificate or strategy"
            ) from None
        raise
    if not isinstance(parsed, dict):
        raise InputError(f"{source}: not a proof: a proof is a JSON object")
    try:
        document = read_proof(parsed)  # parsed above, within the reading layer's limits: once
    except NotAProofError as error:  # the wrong input, not a proof that fails its check
        raise InputError(f"{source}: {error}") from None
    except CpsolverError as error:
        return VerifyAnswer(None, str(error))
    failure, walked = check_document(document, subject, rules)
    return VerifyAnswer(document, failure, walked)


def text_kind(text: str, rules: RuleSet) -> str | None:
    """``a deal`` or ``a position`` if ``text`` (no JSON) reads as one, else None."""
    keys = {line.split("#", 1)[0].split(":")[0].strip().lower() for line in text.splitlines()}
    # As show reads them: a turn or table line makes landlord:/peasant1: lines a position.
    is_position = any(key.startswith("hand") for key in keys) or keys & {"turn", "table"}
    try:
        if is_position:
            parse_position(text, rules)
        else:
            parse_deal(text)
    except CpsolverError:
        return None
    return "a position" if is_position else "a deal"


def proof_summary(document: Any, walked: int = 0) -> dict[str, Any]:
    """What a valid document proves; a strategy's size is the positions its check walked."""
    if document is None:
        return {}
    if document.get("format") == "cpsolver-strategy":
        return {"winner": document["winner"], "nodes": walked}
    if document.get("format") == "cpsolver-certificate":
        return {
            "verdict": "no_spring",
            "blocking": document["blocking"],
            "lemmas": len(document["proof"]),
        }
    return {"verdict": "spring", "steps": len(document["plan"])}
