"""Rules objects: frozen dataclasses whose every field is a documented, checked rule option.

A game's `Rules` subclasses `GameRules` and declares each option with `option(default, ...)`, giving the
bounds a value must keep. Construction checks every field against its type annotation (a bool is not a
number, 1.0 is not 1) and its bounds, so that no rules object can make an engine fail later or exhaust
memory: a wrong value is refused at once with a `RulesError` naming the option.

A record stores the rules as a plain dict; `rules_from_dict` turns it back into the dataclass, restoring
tuples that JSON wrote as lists, and refuses unknown options instead of ignoring them.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar, Union

from .errors import RulesError

R = TypeVar("R")

#: The longest sequence any option may hold (deck lists, value tables): bounds memory whatever the record says.
MAX_ITEMS = 64


def option(default: Any, *, low: int | None = None, high: int | None = None,
           choices: tuple[Any, ...] | None = None, length: tuple[int, int] | None = None) -> Any:
    """A rule option: its default and the bounds every value must keep.

    - `low`, `high`: bounds for every whole number in the value (also inside tuples), inclusive.
    - `choices`: the allowed values of a text (or of every text inside the value).
    - `length`: (shortest, longest) for a tuple value; any tuple is at most `MAX_ITEMS` long anyway.
    """
    return dataclasses.field(default=default, metadata={"low": low, "high": high, "choices": choices,
                                                        "length": length})


@dataclasses.dataclass(frozen=True)
class GameRules:
    """Base of every game's `Rules`: checks all fields at construction, then the game's own `check()`."""

    def __post_init__(self) -> None:
        hints = _type_hints(type(self))  # type: ignore[arg-type]
        for spec in dataclasses.fields(self):
            value = getattr(self, spec.name)
            _check_type(spec.name, value, hints[spec.name])
            _check_bounds(spec.name, value, spec.metadata)
        self.check()

    def check(self) -> None:
        """Cross-field constraints of the game (raise `RulesError`); each field alone is already checked."""


@functools.lru_cache(maxsize=None)
def _type_hints(rules_class: type) -> dict[str, Any]:
    return typing.get_type_hints(rules_class)


def _describe(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a 5,000-digit number or deep nesting cannot be written: name its type
        text = f"<{type(value).__name__} that cannot be written>"
    return text if len(text) <= 60 else text[:57] + "..."


def _check_type(name: str, value: Any, hint: Any) -> None:
    if not _fits(value, hint, depth=0):
        raise RulesError(f"Rule option {name} must be {_type_name(hint)}, not {_describe(value)} "
                         f"({type(value).__name__}).")


def _fits(value: Any, hint: Any, depth: int) -> bool:
    """Whether `value` has exactly the type `hint` (bool is not int, float is not int, list is not tuple)."""
    if depth > 8:
        return False
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        return any(_fits(value, option_hint, depth + 1) for option_hint in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint in (int, str, bool):
        return type(value) is hint
    if hint is float:
        return type(value) in (int, float)
    if origin is typing.Literal:
        return any(type(value) is type(choice) and value == choice for choice in typing.get_args(hint))
    if origin is tuple:
        if type(value) is not tuple or len(value) > MAX_ITEMS:
            return False
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(item, args[0], depth + 1) for item in value)
        return len(value) == len(args) and all(_fits(item, arg, depth + 1) for item, arg in zip(value, args))
    raise TypeError(f"rule options of type {hint!r} are not supported")  # a programming error of the game


def _type_name(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        return " or ".join(_type_name(arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return "None"
    if hint in (int, str, bool, float):
        return {"int": "a whole number", "str": "a text", "bool": "True or False", "float": "a number"}[hint.__name__]
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(arg) for arg in typing.get_args(hint))
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a tuple of {_type_name(args[0])} items"
        return "a tuple (" + ", ".join(_type_name(arg) for arg in args) + ")"
    return str(hint)


def _leaves(value: Any) -> list[Any]:
    if type(value) is tuple:
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def _check_bounds(name: str, value: Any, metadata: Mapping[str, Any]) -> None:
    low, high, choices, length = (metadata.get(key) for key in ("low", "high", "choices", "length"))
    if length is not None and type(value) is tuple and not length[0] <= len(value) <= length[1]:
        size = f"exactly {length[0]}" if length[0] == length[1] else f"{length[0]} to {length[1]}"
        raise RulesError(f"Rule option {name} holds {size} items, not {len(value)}.")
    for leaf in _leaves(value):
        if type(leaf) is int and ((low is not None and leaf < low) or (high is not None and leaf > high)):
            bounds = f"from {low} to {high}" if low is not None and high is not None else \
                f"at least {low}" if low is not None else f"at most {high}"
            raise RulesError(f"Rule option {name} takes whole numbers {bounds}, not {_describe(leaf)}.")
        if type(leaf) is str and choices is not None and leaf not in choices:
            raise RulesError(f"Rule option {name} is one of {', '.join(map(repr, choices))}, not {_describe(leaf)}.")


def rules_to_dict(rules: Any) -> dict[str, Any]:
    """The rule options as a JSON-ready dict."""
    return dataclasses.asdict(rules)


def _tuplify(value: Any, depth: int = 0) -> Any:
    if depth > 8:
        raise RulesError("Rule options are nested too deeply.")
    if isinstance(value, list):
        return tuple(_tuplify(item, depth + 1) for item in value)
    return value


def rules_from_dict(rules_class: type[R], data: Any) -> R:
    """Rebuild a `Rules` dataclass from `rules_to_dict` output (JSON lists become tuples again)."""
    if not isinstance(data, Mapping):
        raise RulesError(f"Rules are written as a mapping of option names to values, not {_describe(data)}.")
    known = {f.name for f in dataclasses.fields(rules_class)}  # type: ignore[arg-type]
    unknown = set(data) - known
    if unknown:
        names = sorted(_describe(key) for key in unknown)[:5]
        raise RulesError(f"Unknown rule option(s) {', '.join(names)}; the options are {sorted(known)}.")
    return rules_class(**{key: _tuplify(value) for key, value in data.items()})
