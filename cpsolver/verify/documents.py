"""The documents ``cpsolver verify`` reads (proofs, certificates, strategies), each by its schema.

The schemas (``schemas/*.schema.json``) describe them for anyone; the checkers
read a document through :func:`read_proof` and refuse one made under other rules
through :func:`rules_mismatch`.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from cpsolver.io.reading import InputError, loads_json
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.ruleset import RuleSet
from cpsolver.verify.schema import first_error

# The schema of each document format that `cpsolver verify` reads.
_SCHEMAS = {"cpsolver-certificate": "certificate", "cpsolver-strategy": "strategy-header"}


class ProofFormatError(CpsolverError):
    """A proof document that is not JSON of the proof schema; says where it breaks."""


@cache
def schema(name: str) -> dict[str, Any]:
    """A packaged JSON Schema: ``proof``, ``certificate`` or ``strategy``.

    ``strategy-header`` is the strategy schema with its nodes left to the
    checker, which reads them by hand: a proof of ten thousand nodes would
    otherwise spend nine tenths of its checking time in the schema.
    """
    if name == "strategy-header":
        header: dict[str, Any] = json.loads(json.dumps(schema("strategy")))
        header["properties"]["nodes"]["items"] = {"type": "object"}
        return header
    folder = resources.files("cpsolver.verify") / "schemas"
    found: dict[str, Any] = json.loads((folder / f"{name}.schema.json").read_text(encoding="utf-8"))
    return found


@cache
def _strategy_shell() -> dict[str, Any]:
    """The strategy header with no test of its nodes: see :func:`_schema_for`."""
    shell: dict[str, Any] = json.loads(json.dumps(schema("strategy-header")))
    del shell["properties"]["nodes"]["items"]
    return shell


def _schema_for(document: Any, name: str) -> dict[str, Any]:
    """Schema ``name``, or one that finds the same first error in ``document`` sooner.

    The strategy header's one test of each node, that it is an object, cost a
    large proof more than the rest of its header: it is left out when every
    node passes it (or the nodes are no list), as it could then find nothing.
    """
    if name == "strategy-header" and isinstance(document, dict):
        nodes = document.get("nodes")
        if not isinstance(nodes, list) or all(isinstance(node, dict) for node in nodes):
            return _strategy_shell()
    return schema(name)


def validate(document: Any, name: str) -> None:
    """Raise :class:`ProofFormatError` naming the first place ``document`` breaks schema ``name``."""
    error = first_error(document, _schema_for(document, name))
    if error is not None:
        path, message = error
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        raise ProofFormatError(f"{name}{where}: {message}")


def rules_mismatch(document: dict[str, Any], rules: RuleSet, what: str) -> str | None:
    """Why a ``what`` (proof, certificate, strategy) made under other rules is refused, or None."""
    claimed = document["rules"]
    if (claimed["name"], claimed["digest"]) != (rules.name, rules.digest):
        return (
            f"the {what} was made under the rules {claimed['name']!r} "
            f"({claimed['digest']}), not {rules.name!r} ({rules.digest}): "
            f"check it with --rules {claimed['name']} if those are the rules you mean"
        )
    return None


class NotAProofError(CpsolverError):
    """Input that is some other document (a deal, a position, a game record): bad input, not a bad proof."""


def not_a_proof(document: Any) -> str | None:
    """What ``document`` is instead of a proof — ``a deal``, ``a position``, ... — or None.

    None for anything that claims no other kind: such a document is checked as
    a proof, and its schema says where it breaks.

    >>> not_a_proof({"landlord": "3", "peasants": ["4", "5"]}), not_a_proof({"format": "x"})
    ('a deal', None)
    """
    if not isinstance(document, dict):
        return None
    kind = document.get("format")
    if kind == "cpsolver-game":  # cpsolver.game's RECORD_FORMAT (the checkers may not import it)
        return "a game record"
    if kind is not None:
        return None
    if "actions" in document:
        return "a game analysis"
    if "hands" in document:
        return "a position"
    if "landlord" in document or "peasants" in document:
        return "a deal"
    return None


def read_proof(text: str | Any) -> dict[str, Any]:
    """Parse a proof, certificate or strategy document and check it against its schema.

    ``text`` may be the JSON already parsed (through the reading layer), so
    that a large strategy is not read twice. A deal, position or game record
    is :class:`NotAProofError`: the wrong input, which no schema message would
    make plain.
    """
    if isinstance(text, (str, bytes)):
        try:
            document = loads_json(text, "proof")
        except InputError as error:
            raise ProofFormatError(str(error)) from None
    else:
        document = text
    other = not_a_proof(document)
    if other is not None:
        raise NotAProofError(f"this is {other}, not a proof, certificate or strategy")
    kind = document.get("format") if isinstance(document, dict) else None
    validate(document, _SCHEMAS.get(str(kind), "proof"))
    # (A strategy's nodes are checked by hand as they are walked: see verify_strategy.)
    result: dict[str, Any] = document
    return result
