"""Rule sets as data: every parameter the rule texts fix, in one value.

The standard set (docs/RULES.md) lives in ``models/standard.toml``; a user's own
file with other values changes the plays, the beating and the move generator
without touching their code. The core reads no file: :mod:`cpsolver.io.rulefiles`
reads the TOML and hands its data to :meth:`RuleSet.from_data`, and the bundled
sets come precompiled in :data:`COMPILED`, so :func:`standard_rules` needs no file.

>>> rules = standard_rules()
>>> rules.name, rules.single_min_length, rank_symbol(rules.highest_chain_rank)
('standard', 5, 'A')
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from cpsolver.rules.cards import RANK_SYMBOLS, TWO, Rank, rank_symbol
from cpsolver.rules.errors import RulesError

QUADPLEX_SHAPES = ("singles", "pairs")
_UNHASHED = ("name", "description", "digest")


@dataclass(frozen=True, slots=True, eq=True)
class RuleSet:
    """The parameters of the thirteen combinations (see ``models/standard.toml``)."""

    name: str
    description: str
    single_min_length: int
    pair_min_length: int
    triplet_min_length: int
    highest_chain_rank: Rank
    most_singles_of_a_rank: int
    most_singles_extending_the_chain: int
    pairs_distinct: bool
    both_jokers_as_kickers: bool
    quadplex_shapes: tuple[str, ...]
    digest: str = ""

    def __hash__(self) -> int:
        # Rule sets key the caches of every hot path; hashing all fields each time is slow.
        return hash((self.name, self.digest))

    @classmethod
    def from_data(cls, data: dict[str, Any], source: str = "<rules>") -> RuleSet:
        """Validate a rule set's parsed fields (a TOML file's tables); errors name ``source``."""
        reader = _FieldReader(data, source)
        rules = cls(
            name=reader.take("name", str),
            description=reader.take("description", str),
            single_min_length=reader.take("sequences.single_min_length", int),
            pair_min_length=reader.take("sequences.pair_min_length", int),
            triplet_min_length=reader.take("sequences.triplet_min_length", int),
            highest_chain_rank=_chain_rank(reader.take("sequences.highest_rank", str), source),
            most_singles_of_a_rank=reader.take("kickers.most_singles_of_a_rank", int),
            most_singles_extending_the_chain=reader.take(
                "kickers.most_singles_extending_the_chain", int
            ),
            pairs_distinct=reader.take("kickers.pairs_distinct", bool),
            both_jokers_as_kickers=reader.take("kickers.both_jokers", bool),
            quadplex_shapes=tuple(reader.take("quadplex.shapes", list)),
        )
        # The digest covers what the rules say, not how the file says it: a new
        # comment or description must not orphan the proofs made under them.
        fields = {f: getattr(rules, f) for f in RuleSet.__dataclass_fields__ if f not in _UNHASHED}
        rules = dataclasses.replace(
            rules,
            digest=hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16],
        )
        reader.reject_unknown()
        rules._check(source)
        return rules

    def _check(self, source: str) -> None:
        if not self.name.strip() or not self.name.isprintable():
            # Every proof made under the rules carries the name, and names them by it.
            raise RulesError(f"{source}: name = {self.name!r}: a rule set needs a printable name")
        chain_ranks = self.highest_chain_rank + 1
        for field, length in (
            ("sequences.single_min_length", self.single_min_length),
            ("sequences.pair_min_length", self.pair_min_length),
            ("sequences.triplet_min_length", self.triplet_min_length),
        ):
            if not 2 <= length <= chain_ranks:
                raise RulesError(
                    f"{source}: {field} = {length} is impossible: a sequence up to "
                    f"{rank_symbol(self.highest_chain_rank)} has 2 to {chain_ranks} ranks"
                )
        for field, most in (
            ("kickers.most_singles_of_a_rank", self.most_singles_of_a_rank),
            ("kickers.most_singles_extending_the_chain", self.most_singles_extending_the_chain),
        ):
            if not 1 <= most <= 4:
                raise RulesError(
                    f"{source}: {field} = {most} is impossible: a rank has 1 to 4 cards"
                )
        if self.most_singles_extending_the_chain > self.most_singles_of_a_rank:
            raise RulesError(
                f"{source}: kickers.most_singles_extending_the_chain = "
                f"{self.most_singles_extending_the_chain} is more than "
                f"kickers.most_singles_of_a_rank = {self.most_singles_of_a_rank}"
            )
        for shape in self.quadplex_shapes:
            if shape not in QUADPLEX_SHAPES:
                raise RulesError(
                    f"{source}: quadplex.shapes: unknown shape {shape!r} "
                    f"(known: {', '.join(QUADPLEX_SHAPES)})"
                )
        if len(set(self.quadplex_shapes)) != len(self.quadplex_shapes):
            raise RulesError(f"{source}: quadplex.shapes lists a shape twice")


def _chain_rank(symbol: str, source: str) -> Rank:
    """Rule "sequences stay within 3..A": the top rank a chain may reach."""
    rank = RANK_SYMBOLS.find(symbol.upper()) if len(symbol) == 1 else -1
    if not 0 <= rank <= TWO:
        raise RulesError(
            f"{source}: sequences.highest_rank = {symbol!r} is impossible: "
            f"it must be one of {RANK_SYMBOLS[: TWO + 1]} (jokers are never in a sequence)"
        )
    return rank


class _FieldReader:
    """Takes dotted fields out of parsed TOML, checking presence and type."""

    def __init__(self, data: dict[str, Any], source: str) -> None:
        self._data = data
        self._source = source
        self._taken: set[str] = set()

    def take(self, dotted: str, kind: type) -> Any:
        node: Any = self._data
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                raise RulesError(f"{self._source}: missing field {dotted!r}")
            node = node[part]
        # bool is an int subclass: "5 = true" must not pass as a length.
        if not isinstance(node, kind) or (kind is int and isinstance(node, bool)):
            raise RulesError(
                f"{self._source}: field {dotted!r} must be {kind.__name__}, "
                f"got {type(node).__name__} {node!r}"
            )
        if isinstance(node, list) and not all(isinstance(item, str) for item in node):
            raise RulesError(f"{self._source}: field {dotted!r} must be a list of strings")
        self._taken.add(dotted)
        return node

    def reject_unknown(self) -> None:
        for dotted in _leaf_fields(self._data):
            if dotted not in self._taken:
                raise RulesError(f"{self._source}: unknown field {dotted!r}")


def _leaf_fields(data: dict[str, Any], prefix: str = "") -> list[str]:
    fields = []
    for key, value in data.items():
        if isinstance(value, dict):
            fields.extend(_leaf_fields(value, f"{prefix}{key}."))
        else:
            fields.append(f"{prefix}{key}")
    return fields


def bundled(name: str) -> RuleSet | None:
    """A bundled rule set by name, from :data:`COMPILED`; None if none has that name."""
    for fields in COMPILED.values():
        if fields["name"] == name:
            return RuleSet(**{**fields, "quadplex_shapes": tuple(fields["quadplex_shapes"])})
    return None


@cache
def standard_rules() -> RuleSet:
    """The rule set of docs/RULES.md, as the packaged ``models/standard.toml`` says."""
    found = bundled("standard")
    assert found is not None, "COMPILED always holds the standard set"
    return found


# The bundled rule sets, parsed ahead and keyed by the hash of their file's text
# (``cpsolver.io.rulefiles.write_compiled_rules()`` rewrites this table; a test
# fails while it is stale, and an edited file is parsed afresh). A dict here, not a module of
# its own, because importing one more module costs a fresh process 0.3 ms.
# --- compiled rules: start ---
COMPILED: dict[str, dict[str, Any]] = {
    "608904f3a062c777c75dc731a9cd6c2f0bc0c1af796b224e27631f45234bd5b6": {
        "name": "douzero",
        "description": "DouZero 1.1.0: single kickers are any cards outside the core, both jokers included",
        "single_min_length": 5,
        "pair_min_length": 3,
        "triplet_min_length": 2,
        "highest_chain_rank": 11,
        "most_singles_of_a_rank": 4,
        "most_singles_extending_the_chain": 4,
        "pairs_distinct": True,
        "both_jokers_as_kickers": True,
        "quadplex_shapes": ["singles", "pairs"],
        "digest": "d927daa21c3ca4ae",
    },
    "8ce5c807aa3b98057086ce621edb20e4e24b5f8b8d6ee0cd88a4c57ef58f0fb6": {
        "name": "rlcard",
        "description": "RLCard 1.2.0: single kickers may repeat a rank (at most 3, at most 2 beside the chain)",
        "single_min_length": 5,
        "pair_min_length": 3,
        "triplet_min_length": 2,
        "highest_chain_rank": 11,
        "most_singles_of_a_rank": 3,
        "most_singles_extending_the_chain": 2,
        "pairs_distinct": True,
        "both_jokers_as_kickers": False,
        "quadplex_shapes": ["singles", "pairs"],
        "digest": "a25915f1bf89ed2c",
    },
    "3dbc889d52d4a8ff443da7f7c7d08e385df283f1e2e18558ffaf38da41a2993e": {
        "name": "standard",
        "description": "docs/RULES.md: the English and German rule texts, with the decisions written down there",
        "single_min_length": 5,
        "pair_min_length": 3,
        "triplet_min_length": 2,
        "highest_chain_rank": 11,
        "most_singles_of_a_rank": 1,
        "most_singles_extending_the_chain": 1,
        "pairs_distinct": True,
        "both_jokers_as_kickers": False,
        "quadplex_shapes": ["singles", "pairs"],
        "digest": "bedbf32deade5785",
    },
}
# --- compiled rules: end ---
