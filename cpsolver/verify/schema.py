"""The JSON Schema checks of cpsolver's own documents, without jsonschema.

``cpsolver verify`` reads a proof in a few milliseconds, but importing
jsonschema alone took a hundred, most of a light command's start-up. The
packaged schemas use a small part of draft 2020-12, so this module checks
exactly that part, with jsonschema's meaning (booleans are not numbers,
``1.0`` is an integer, the shallowest error is the one reported) and its
wording. A keyword outside that part is refused when a schema is loaded, so a
schema cannot grow a check this module silently skips. ``tests/test_schemacheck.py``
holds it to jsonschema on generated documents.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

# Keywords that only describe; they never fail a document.
_ANNOTATIONS = frozenset({"$schema", "$defs", "title", "description"})
_CHECKED = frozenset(
    {
        "type",
        "const",
        "enum",
        "required",
        "properties",
        "additionalProperties",
        "items",
        "minItems",
        "maxItems",
        "minLength",
        "pattern",
        "minimum",
        "maximum",
        "$ref",
        "oneOf",
        "anyOf",
    }
)

Path = tuple[str | int, ...]
Error = tuple[Path, str]


class UnsupportedSchema(ValueError):
    """A schema uses a keyword this checker does not implement."""


def _is_type(instance: Any, name: str) -> bool:
    if name == "object":
        return isinstance(instance, dict)
    if name == "array":
        return isinstance(instance, list)
    if name == "string":
        return isinstance(instance, str)
    if name == "boolean":
        return isinstance(instance, bool)
    if name == "null":
        return instance is None
    if isinstance(instance, bool):
        return False
    if name == "number":
        return isinstance(instance, int | float)
    if name == "integer":
        return isinstance(instance, int) or (isinstance(instance, float) and instance.is_integer())
    raise UnsupportedSchema(f"unknown type {name!r}")


def _equal(one: Any, other: Any) -> bool:
    """JSON equality: ``true`` is not ``1``, ``1`` is ``1.0``."""
    if isinstance(one, bool) or isinstance(other, bool):
        return isinstance(one, bool) and isinstance(other, bool) and one == other
    if isinstance(one, dict) and isinstance(other, dict):
        return one.keys() == other.keys() and all(_equal(one[k], other[k]) for k in one)
    if isinstance(one, list) and isinstance(other, list):
        return len(one) == len(other) and all(map(_equal, one, other))
    comparable = type(one) is type(other) or {type(one), type(other)} <= {int, float}
    return comparable and one == other


def _too_short(least: int, instance: Any) -> str:
    if least == 1:
        return f"{instance!r} should be non-empty"
    return f"{instance!r} is too short"


def check_schema(schema: Any) -> None:
    """Raise :class:`UnsupportedSchema` if ``schema`` uses a keyword not checked here."""
    if isinstance(schema, list):
        for part in schema:
            check_schema(part)
        return
    if not isinstance(schema, dict):
        return
    unknown = set(schema) - _ANNOTATIONS - _CHECKED
    if unknown:
        raise UnsupportedSchema(f"keywords not supported: {', '.join(sorted(unknown))}")
    for key in ("items", "additionalProperties"):
        check_schema(schema.get(key))
    for key in ("oneOf", "anyOf"):
        check_schema(schema.get(key, []))
    for key in ("properties", "$defs"):
        for part in schema.get(key, {}).values():
            check_schema(part)


class _Checker:
    def __init__(self, root: dict[str, Any]) -> None:
        check_schema(root)
        self.root = root

    def resolve(self, reference: str) -> Any:
        prefix = "#/$defs/"
        if not reference.startswith(prefix):
            raise UnsupportedSchema(f"only local $defs references are supported, not {reference!r}")
        return self.root["$defs"][reference[len(prefix) :]]

    def valid(self, instance: Any, schema: Any) -> bool:
        return next(self.errors(instance, schema, ()), None) is None

    def errors(self, instance: Any, schema: Any, path: Path) -> Iterator[Error]:
        if schema is True:
            return
        if schema is False:
            yield path, f"False schema does not allow {instance!r}"
            return
        for key, value in schema.items():
            yield from self.keyword(key, value, instance, schema, path)

    def keyword(
        self, key: str, value: Any, instance: Any, schema: dict[str, Any], path: Path
    ) -> Iterator[Error]:
        if key == "$ref":
            yield from self.errors(instance, self.resolve(value), path)
        elif key == "type":
            names = [value] if isinstance(value, str) else value
            if not any(_is_type(instance, name) for name in names):
                yield path, f"{instance!r} is not of type {', '.join(map(repr, names))}"
        elif key == "const":
            if not _equal(instance, value):
                yield path, f"{value!r} was expected"
        elif key == "enum":
            if not any(_equal(instance, choice) for choice in value):
                yield path, f"{instance!r} is not one of {value!r}"
        elif key in ("oneOf", "anyOf"):
            matched = sum(self.valid(instance, part) for part in value)
            if matched == 0:
                yield path, f"{instance!r} is not valid under any of the given schemas"
            elif key == "oneOf" and matched > 1:
                yield path, f"{instance!r} is valid under each of {value!r}"
        elif isinstance(instance, dict):
            yield from self.object_keyword(key, value, instance, schema, path)
        elif isinstance(instance, list):
            if key == "items":
                for index, item in enumerate(instance):
                    yield from self.errors(item, value, (*path, index))
            elif key == "minItems" and len(instance) < value:
                yield path, _too_short(value, instance)
            elif key == "maxItems" and len(instance) > value:
                yield path, f"{instance!r} is too long"
        elif isinstance(instance, str):
            if key == "minLength" and len(instance) < value:
                yield path, _too_short(value, instance)
            elif key == "pattern" and re.search(value, instance) is None:
                yield path, f"{instance!r} does not match {value!r}"
        elif _is_type(instance, "number"):
            if key == "minimum" and instance < value:
                yield path, f"{instance!r} is less than the minimum of {value!r}"
            elif key == "maximum" and instance > value:
                yield path, f"{instance!r} is greater than the maximum of {value!r}"

    def object_keyword(
        self, key: str, value: Any, instance: dict[str, Any], schema: dict[str, Any], path: Path
    ) -> Iterator[Error]:
        if key == "required":
            for name in value:
                if name not in instance:
                    yield path, f"{name!r} is a required property"
        elif key == "properties":
            for name, part in value.items():
                if name in instance:
                    yield from self.errors(instance[name], part, (*path, name))
        elif key == "additionalProperties":
            extra = sorted(name for name in instance if name not in schema.get("properties", {}))
            if value is False and extra:
                were = "was" if len(extra) == 1 else "were"
                listed = ", ".join(map(repr, extra))
                yield path, f"Additional properties are not allowed ({listed} {were} unexpected)"
            elif value is not False:
                for name in extra:
                    yield from self.errors(instance[name], value, (*path, name))


def first_error(document: Any, schema: dict[str, Any]) -> Error | None:
    """The shallowest place ``document`` breaks ``schema`` (the first such, as jsonschema picks), or None."""
    best: Error | None = None
    for error in _Checker(schema).errors(document, schema, ()):
        if best is None or len(error[0]) < len(best[0]):
            best = error
            if not best[0]:
                break
    return best
