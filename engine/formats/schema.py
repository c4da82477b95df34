"""Reading parsed JSON against what a format declares: each value is taken through a typed
accessor that checks its type and range, so a reader that reads a field has checked it.

    f = Fields.of(data, "tok.json", "settings")
    split = f.choice("split", SPLITS, default="whitespace")
    merges = f.whole("merges", default=None, optional=True, high=MAX_COUNT)
    f.done()  # a key no accessor asked for is refused

A wrong value raises ``SchemaError`` naming the file, the value's place and what it must be:
``tok.json: settings.merges must be a whole number from 0 to 2,147,483,647 (it is "5")``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any, Literal, TypeGuard, cast, overload

from engine.errors import BpeLabError

# no default: the key must be there
REQUIRED = object()
# the largest count a setting or an id may hold: what the window's number fields can show
MAX_COUNT = 2**31 - 1


class SchemaError(BpeLabError):
    """A value in a file that is not what the file's format declares."""


def shown(value: object) -> str:
    """A value as the file wrote it, cut short for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False) if not isinstance(value, (bytes, set)) else repr(value)
    except ValueError:
        # Python writes no number of more than 4,300 digits
        return "a number too long to show"
    return text if len(text) <= 40 else text[:37] + "..."


def _is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> TypeGuard[int | float]:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and math.isfinite(value)
    )


def _must(source: str, name: str, must: str, value: object) -> str:
    """What is wrong with a value: where it is, what it must be, and what it is."""
    prefix = f"{source}: " if source else ""
    return f"{prefix}{name} {must} (it is {shown(value)})"


class Fields:
    """A JSON object read key by key; ``where`` names it in messages ("settings", "model")."""

    def __init__(self, data: dict[str, Any], source: str = "", where: str = ""):
        self.data = data
        self.source = source
        self.where = where
        self._read: set[str] = set()

    @classmethod
    def of(cls, value: object, source: str = "", where: str = "") -> "Fields":
        if not isinstance(value, dict):
            raise SchemaError(_must(source, where or "the file", "must be a JSON object", value))
        return cls(value, source, where)

    def name(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else f'"{key}"'

    def fail(self, key: str, must: str, value: object = REQUIRED) -> SchemaError:
        if value is REQUIRED:
            prefix = f"{self.source}: " if self.source else ""
            return SchemaError(f"{prefix}{self.name(key)} {must}")
        return SchemaError(_must(self.source, self.name(key), must, value))

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, default: object = REQUIRED) -> Any:
        """The raw value, for a reader that checks it itself (a value of several shapes)."""
        self._read.add(key)
        if key not in self.data:
            if default is REQUIRED:
                raise self.fail(key, "is missing")
            return default
        return self.data[key]

    def _value(self, key: str, default: object, optional: bool) -> tuple[Any, bool]:
        """The key's value and whether it is already the answer (the default, or an allowed None)."""
        value = self.get(key, default)
        if key not in self.data:
            return value, True
        if value is None and optional:
            return None, True
        return value, False

    # each accessor gives its type whole when the key is required or has a default of that type, and
    # that type or None when the default is None or null is allowed (optional)
    @overload
    def text(self, key: str, default: str = ..., *, optional: Literal[False] = False, nonempty: bool = False,
             must: str = "") -> str: ...
    @overload
    def text(self, key: str, default: str | None = ..., *, optional: bool = False, nonempty: bool = False,
             must: str = "") -> str | None: ...

    def text(self, key: str, default: object = REQUIRED, *, optional: bool = False, nonempty: bool = False,
             must: str = "") -> str | None:
        value, done = self._value(key, default, optional)
        if done:
            return cast("str | None", value)  # the caller's default, or an allowed None
        if not isinstance(value, str) or (nonempty and not value):
            raise self.fail(key, must or ("must be a text, not empty" if nonempty else "must be a text"), value)
        return value

    def choice(self, key: str, choices: Sequence[str], default: object = REQUIRED) -> str:
        value, done = self._value(key, default, False)
        if done:
            return cast("str", value)  # the caller's default
        if value not in choices or not isinstance(value, str):
            raise self.fail(key, f"must be one of {', '.join(choices)}", value)
        return value

    @overload
    def flag(self, key: str, default: bool = ..., *, optional: Literal[False] = False, must: str = "") -> bool: ...
    @overload
    def flag(self, key: str, default: bool | None = ..., *, optional: bool = False, must: str = "") -> bool | None: ...

    def flag(self, key: str, default: object = REQUIRED, *, optional: bool = False, must: str = "") -> bool | None:
        value, done = self._value(key, default, optional)
        if done:
            return cast("bool | None", value)  # the caller's default, or an allowed None
        if not isinstance(value, bool):
            raise self.fail(key, must or "must be true or false", value)
        return value

    @overload
    def whole(self, key: str, default: int = ..., *, low: int = 0, high: int = MAX_COUNT,
              optional: Literal[False] = False, must: str = "") -> int: ...
    @overload
    def whole(self, key: str, default: int | None = ..., *, low: int = 0, high: int = MAX_COUNT,
              optional: bool = False, must: str = "") -> int | None: ...

    def whole(self, key: str, default: object = REQUIRED, *, low: int = 0, high: int = MAX_COUNT,
              optional: bool = False, must: str = "") -> int | None:
        value, done = self._value(key, default, optional)
        if done:
            return cast("int | None", value)  # the caller's default, or an allowed None
        if not _is_whole(value) or not low <= value <= high:
            raise self.fail(key, must or f"must be a whole number from {low:,} to {high:,}", value)
        return value

    @overload
    def number(self, key: str, default: float = ..., *, low: float = -1e15, high: float = 1e15,
               optional: Literal[False] = False, must: str = "") -> float: ...
    @overload
    def number(self, key: str, default: float | None = ..., *, low: float = -1e15, high: float = 1e15,
               optional: bool = False, must: str = "") -> float | None: ...

    def number(self, key: str, default: object = REQUIRED, *, low: float = -1e15, high: float = 1e15,
               optional: bool = False, must: str = "") -> float | None:
        """A finite number within [low, high]: grading compares it with what a student types."""
        value, done = self._value(key, default, optional)
        if done:
            return cast("float | None", value)  # the caller's default, or an allowed None
        if not _is_number(value) or not low <= value <= high:
            raise self.fail(key, must or f"must be a number from {low:g} to {high:g}", value)
        return value

    def strings(self, key: str, default: object = REQUIRED, *, nonempty: bool = False,
                must: str = "") -> tuple[str, ...]:
        value, done = self._value(key, default, False)
        if done:
            return tuple(value)
        if not isinstance(value, list) or not all(isinstance(v, str) and (v or not nonempty) for v in value):
            what = "non-empty texts" if nonempty else "texts"
            raise self.fail(key, must or f"must be a list of {what}", value)
        return tuple(value)

    @overload
    def items(self, key: str, default: list[Any] = ..., *, optional: Literal[False] = False,
              must: str = "") -> list[Any]: ...
    @overload
    def items(self, key: str, default: list[Any] | None = ..., *, optional: bool = False,
              must: str = "") -> list[Any] | None: ...

    def items(self, key: str, default: object = REQUIRED, *, optional: bool = False,
              must: str = "") -> list[Any] | None:
        value, done = self._value(key, default, optional)
        if done:
            return cast("list[Any] | None", value)  # the caller's default, or an allowed None
        if not isinstance(value, list):
            raise self.fail(key, must or "must be a list", value)
        return value

    @overload
    def fields(self, key: str, default: dict[str, Any] = ..., *, optional: Literal[False] = False) -> "Fields": ...
    @overload
    def fields(self, key: str, default: dict[str, Any] | None = ..., *, optional: bool = False) -> "Fields | None": ...

    def fields(self, key: str, default: object = REQUIRED, *, optional: bool = False) -> "Fields | None":
        value, done = self._value(key, default, optional)
        if done:
            return None if value is None else Fields(value, self.source, self.name(key).strip('"'))
        if not isinstance(value, dict):
            raise self.fail(key, "must be a JSON object", value)
        return Fields(value, self.source, self.name(key).strip('"'))

    def done(self) -> None:
        """Refuse the keys no accessor read: a misspelt setting must not be ignored silently."""
        unknown = sorted(set(self.data) - self._read)
        if unknown:
            where = f" in {self.where}" if self.where else ""
            prefix = f"{self.source}: " if self.source else ""
            raise SchemaError(f"{prefix}unknown key(s){where}: {', '.join(shown(k) for k in unknown[:5])}; "
                              "remove them or check their spelling")


def whole_value(value: object, name: str, source: str = "", *, low: int = 0, high: int = MAX_COUNT) -> int:
    """One whole number that is not a field of an object (a list entry, a map's value)."""
    if not _is_whole(value) or not low <= value <= high:
        raise SchemaError(_must(source, name, f"must be a whole number from {low:,} to {high:,}", value))
    return value


def text_value(value: object, name: str, source: str = "", *, nonempty: bool = False) -> str:
    if not isinstance(value, str) or (nonempty and not value):
        raise SchemaError(_must(source, name, "must be a text" + (", not empty" if nonempty else ""), value))
    return value


def text_map(value: object, name: str, source: str = "", *, high: int = MAX_COUNT) -> dict[str, int]:
    """An object of text: whole number, such as special tokens and their ids."""
    if not isinstance(value, dict):
        raise SchemaError(_must(source, name, "must be an object of token: id", value))
    for key, i in value.items():
        whole_value(i, f"{name}[{shown(key)}]", source, high=high)
        if not key:
            raise SchemaError(f"{source}: {name} holds an empty token")
    return dict(value)
