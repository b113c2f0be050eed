"""Rule set files: the bundled ones by name, a user's TOML by path, read through the reading layer.

The core's :class:`~cpsolver.rules.ruleset.RuleSet` reads no file; this module
reads the text, parses the TOML and hands the data in. The bundled files come
precompiled (:data:`~cpsolver.rules.ruleset.COMPILED`, keyed by a hash of their
text, so an edited file is parsed afresh): importing ``tomllib`` and parsing
would cost a fresh process milliseconds before its first play.
"""

from __future__ import annotations

import dataclasses
import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from cpsolver.io.reading import InputError, loads_toml, read_text
from cpsolver.rules.errors import RulesError
from cpsolver.rules.ruleset import COMPILED, RuleSet

# The bundled rule files, found beside the package: importlib.resources would
# cost milliseconds on the first call, which every fresh process pays.
_MODELS = Path(__file__).resolve().parents[1] / "models"
_RULESET_SOURCE = Path(__file__).resolve().parents[1] / "rules" / "ruleset.py"
_COMPILED_START = "\n# --- compiled rules: start ---\n"
_COMPILED_END = "\n# --- compiled rules: end ---\n"


def text_key(text: str) -> str:
    """The key of a rule file's text in :data:`~cpsolver.rules.ruleset.COMPILED`."""
    return hashlib.sha256(text.encode()).hexdigest()


def rules_from_toml(text: str, source: str = "<rules>") -> RuleSet:
    """Parse and validate a rule set file's text; errors name ``source``.

    A bundled file's text, as it is, is found precompiled instead of parsed.
    """
    known = COMPILED.get(text_key(text))
    if known is not None:
        return RuleSet(**{**known, "quadplex_shapes": tuple(known["quadplex_shapes"])})
    return parse_rules_toml(text, source)


def parse_rules_toml(text: str, source: str = "<rules>") -> RuleSet:
    """:func:`rules_from_toml` without the precompiled shortcut: always parse the text."""
    try:
        data = loads_toml(text, source)
    except InputError as error:
        raise RulesError(str(error)) from None
    return RuleSet.from_data(data, source)


def bundled_rule_names() -> list[str]:
    """The names of the rule sets shipped in ``models/``."""
    return sorted(
        p.name.removesuffix(".toml") for p in _MODELS.iterdir() if p.name.endswith(".toml")
    )


def read_rules_text(name_or_path: str) -> tuple[str, str]:
    """The TOML text of a bundled rule set (by name) or of a file (by path), and its source label."""
    if "/" not in name_or_path and "\\" not in name_or_path:
        try:
            with open(_MODELS / f"{name_or_path}.toml", encoding="utf-8") as file:
                return file.read(), f"{name_or_path}.toml"
        except (OSError, ValueError):  # ValueError: a NUL in the name
            pass  # no bundled rule set of that name: a path, then
    path = Path(name_or_path)
    if path.is_dir():
        raise RulesError(f"{path}: is a folder, not a rules file")
    if not path.exists():  # a device or a pipe (/dev/stdin) is read like a file
        raise RulesError(
            f"no rule set named {name_or_path!r} and no such file "
            f"(bundled: {', '.join(bundled_rule_names())})"
        )
    try:
        return read_text(str(path), "rules"), str(path)
    except InputError as error:
        raise RulesError(str(error)) from None


@cache
def load_rules(name_or_path: str) -> RuleSet:
    """A bundled rule set by name (``standard``), or a TOML file by path."""
    return rules_from_toml(*read_rules_text(name_or_path))


def compiled_rules() -> dict[str, dict[str, Any]]:
    """What :data:`~cpsolver.rules.ruleset.COMPILED` must hold for the bundled files as they are.

    ``write_compiled_rules()`` rewrites it; a test fails while it is stale
    (and a stale entry is never used: its key is the hash of the old text).
    """
    found = {}
    for name in bundled_rule_names():
        text = (_MODELS / f"{name}.toml").read_text(encoding="utf-8")
        fields = dataclasses.asdict(parse_rules_toml(text, f"{name}.toml"))
        fields["quadplex_shapes"] = list(fields["quadplex_shapes"])
        found[text_key(text)] = fields
    return found


def write_compiled_rules() -> None:
    """Rewrite :data:`~cpsolver.rules.ruleset.COMPILED` (its module's end) from the bundled files."""
    source = _RULESET_SOURCE.read_text(encoding="utf-8")
    start = source.index(_COMPILED_START) + len(_COMPILED_START)
    end = source.index(_COMPILED_END)
    lines = [f"    {key!r}: {fields!r},\n" for key, fields in compiled_rules().items()]
    table = "COMPILED: dict[str, dict[str, Any]] = {\n" + "".join(lines) + "}"
    _RULESET_SOURCE.write_text(source[:start] + table + source[end:], encoding="utf-8")
