"""Rules objects: frozen dataclasses whose every field is a documented rule option.

A record stores the rules as a plain dict; `rules_from_dict` turns it back into the dataclass, restoring
tuples that JSON wrote as lists, and refuses unknown options instead of ignoring them.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from .errors import RulesError

R = TypeVar("R")


def rules_to_dict(rules: Any) -> dict[str, Any]:
    """The rule options as a JSON-ready dict."""
    return dataclasses.asdict(rules)


def _tuplify(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuplify(item) for item in value)
    if isinstance(value, dict):
        return {key: _tuplify(item) for key, item in value.items()}
    return value


def rules_from_dict(rules_class: type[R], data: dict[str, Any]) -> R:
    """Rebuild a `Rules` dataclass from `rules_to_dict` output."""
    known = {f.name for f in dataclasses.fields(rules_class)}  # type: ignore[arg-type]
    unknown = set(data) - known
    if unknown:
        raise RulesError(f"Unknown rule option(s) {sorted(unknown)}; the options are {sorted(known)}.")
    return rules_class(**{key: _tuplify(value) for key, value in data.items()})
