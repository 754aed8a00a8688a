"""Views: what one seat may know, and nothing else.

`State.view(seat)` is the single gate from a game's hidden state to a seat (boardgame.io's player view).
A view holds the seat's own secrets, the public facts, and the seat's own past observations; bots, renderers
and widgets only ever receive views. `seat=None` is a spectator, who sees public facts only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .events import Event, Seat, read_only_copy
from .hooks import html_of, state_class_of


@dataclass(frozen=True)
class View:
    """A seat's information state.

    - `game`: the game's module ("tabletop_edu.mafia_de_cuba").
    - `seat`: whose view it is (None: a spectator).
    - `players`: the names at the table, by seat.
    - `current_player`: whose turn it is (a tuple when several seats act secretly at once; None at the end).
    - `is_over`: whether the game has ended.
    - `facts`: game-specific knowledge of this seat, documented field by field in each game's module.
    - `log`: the events as this seat observed them, in order.
    - `rules`: the game's rules (public: every seat knows them).

    A view is immutable all the way down: its facts are frozen on construction (dicts and lists inside become
    read-only copies, still equal to plain ones), and its events carry frozen details.
    """

    game: str
    seat: Seat | None
    players: tuple[str, ...]
    current_player: Seat | tuple[Seat, ...] | None
    is_over: bool
    facts: Mapping[str, Any] = field(default_factory=dict)
    log: tuple[Event, ...] = ()
    rules: Any = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "facts", read_only_copy(self.facts))
        object.__setattr__(self, "log", tuple(self.log))

    @classmethod
    def of_copies(cls, game: str, seat: Seat | None, players: tuple[str, ...],
                  current_player: Seat | tuple[Seat, ...] | None, is_over: bool, facts: Mapping[str, Any],
                  log: tuple[Event, ...], rules: Any) -> View:
        """A view of `facts` and a `log` that are already its own read-only copies (a `SeatLog` made them, shared
        with the same seat's earlier views only): not copied again."""
        view = object.__new__(cls)
        for name, value in zip(_VIEW_KEYS, (game, seat, players, current_player, is_over, facts, log, rules)):
            object.__setattr__(view, name, value)
        return view

    def seat_name(self, seat: Seat) -> str:
        return self.players[seat]

    def __str__(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat} ({self.players[self.seat]})"
        lines = [f"View of {who}"]
        lines += [f"  {key}: {value}" for key, value in self.facts.items()]
        lines += [f"  [{event.step}] {event.text}" for event in self.log]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The game's own HTML for the view (through the hook the rendering floor fills: the core draws nothing)."""
        return html_of(self)


# ------------------------------------------------------------------------------------------ views as JSON

#: How deep a view's JSON may nest (facts are a few levels deep; more is a malformed message).
MAX_JSON_DEPTH = 32
_TAGS = ("$tuple", "$set", "$dict")
_VIEW_KEYS = ("game", "seat", "players", "current_player", "is_over", "facts", "log", "rules")
_EVENT_KEYS = ("step", "kind", "text", "actor", "source", "observers", "redacted", "data", "redacted_data")


def view_to_json(view: View) -> dict[str, Any]:
    """A view as JSON-ready data (dicts, lists, texts, numbers), for a seat's program across the network
    (a student's bot): exactly the view, so `view_from_json(view_to_json(view)) == view`.

    Facts and event details keep their shapes: tuples, sets and dicts with other than text keys are written
    as `{"$tuple": [...]}`, `{"$set": [...]}`, `{"$dict": [[key, value], ...]}`; rules as `rules_to_dict`."""
    from .rules import rules_to_dict

    current = view.current_player
    return {"game": view.game, "seat": view.seat, "players": list(view.players),
            "current_player": list(current) if isinstance(current, tuple) else current,
            "is_over": view.is_over, "facts": _encode(view.facts),
            "log": [_event_to_json(event) for event in view.log],
            "rules": None if view.rules is None else _encode_plain(rules_to_dict(view.rules))}


def view_from_json(data: Any) -> View:
    """The view `view_to_json` wrote; a `ValueError` naming the field for anything else (the rules are
    rebuilt with the game's own `Rules`, which checks them)."""
    from .rules import rules_from_dict

    if not isinstance(data, Mapping) or sorted(data) != sorted(_VIEW_KEYS):
        raise ValueError(f"A view's JSON is an object with the keys {', '.join(_VIEW_KEYS)}.")
    game, seat, players, current = data["game"], data["seat"], data["players"], data["current_player"]
    if not isinstance(game, str):
        raise ValueError("game: the game's module, a text.")
    if not (isinstance(players, list) and all(isinstance(name, str) for name in players)):
        raise ValueError("players: a list of names.")
    if seat is not None and not _is_seat(seat, players):
        raise ValueError(f"seat: a seat of the table or null, not {_short(seat)}.")
    if isinstance(current, list) and all(_is_seat(item, players) for item in current):
        current = tuple(current)
    elif current is not None and not _is_seat(current, players):
        raise ValueError(f"current_player: a seat, a list of seats or null, not {_short(current)}.")
    if not isinstance(data["is_over"], bool):
        raise ValueError("is_over: true or false.")
    facts = _decode(data["facts"], "facts")
    if not isinstance(facts, dict):
        raise ValueError("facts: an object.")
    if not isinstance(data["log"], list):
        raise ValueError("log: a list of events.")
    log = tuple(_event_from_json(event, index) for index, event in enumerate(data["log"]))
    rules = data["rules"]
    if rules is not None:
        state_class = state_class_of(game)
        if state_class is None:
            raise ValueError(f"game: no installed game is {_short(game)}.")
        try:
            rules = rules_from_dict(state_class.rules_class, rules)
        except (TypeError, ValueError) as error:  # RulesError is a ValueError
            raise ValueError(f"rules: {error}") from None
    return View(game, seat, tuple(players), current, data["is_over"], facts, log, rules)


def _is_seat(value: Any, players: list[str]) -> bool:
    return type(value) is int and 0 <= value < len(players)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _event_to_json(event: Event) -> dict[str, Any]:
    return {"step": event.step, "kind": event.kind, "text": event.text, "actor": event.actor,
            "source": event.source, "observers": None if event.observers is None else sorted(event.observers),
            "redacted": event.redacted, "data": _encode(event.data), "redacted_data": _encode(event.redacted_data)}


def _event_from_json(data: Any, index: int) -> Event:
    from .events import freeze_data

    where = f"log[{index}]"
    if not isinstance(data, Mapping) or sorted(data) != sorted(_EVENT_KEYS):
        raise ValueError(f"{where}: an event is an object with the keys {', '.join(_EVENT_KEYS)}.")
    step, kind, text, actor, source, observers, redacted = (data[key] for key in _EVENT_KEYS[:7])
    if type(step) is not int or not isinstance(kind, str) or not isinstance(text, str):
        raise ValueError(f"{where}: step is a whole number, kind and text are texts.")
    if not (actor is None or type(actor) is int) or not (source is None or type(source) in (int, str)):
        raise ValueError(f"{where}: actor is a seat or null, source a seat, a text or null.")
    if not (observers is None or (isinstance(observers, list) and all(type(seat) is int for seat in observers))):
        raise ValueError(f"{where}: observers is a list of seats or null.")
    if not (redacted is None or isinstance(redacted, str)):
        raise ValueError(f"{where}: redacted is a text or null.")
    details = [_decode(data[key], f"{where}.{key}") for key in ("data", "redacted_data")]
    if not all(isinstance(detail, dict) for detail in details):
        raise ValueError(f"{where}: data and redacted_data are objects.")
    return Event(step, kind, text, actor, source, None if observers is None else frozenset(observers), redacted,
                 freeze_data(details[0]), freeze_data(details[1]))


def _encode(value: Any, depth: int = 0) -> Any:
    """A fact or an event detail as JSON data, tagging what JSON cannot say (tuples, sets, other keys)."""
    if depth > MAX_JSON_DEPTH:
        raise ValueError(f"A view nests deeper than {MAX_JSON_DEPTH} levels.")
    if value is None or type(value) in (bool, int, str):
        return value
    if type(value) is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{value} has no JSON form.")
        return value
    if isinstance(value, Mapping):
        items = [(key, _encode(item, depth + 1)) for key, item in value.items()]
        if all(isinstance(key, str) and not key.startswith("$") for key, _ in items):
            return dict(items)
        return {"$dict": [[_encode(key, depth + 1), item] for key, item in items]}
    if isinstance(value, list):
        return [_encode(item, depth + 1) for item in value]
    if isinstance(value, tuple):
        return {"$tuple": [_encode(item, depth + 1) for item in value]}
    if isinstance(value, (set, frozenset)):
        return {"$set": sorted((_encode(item, depth + 1) for item in value), key=repr)}
    raise TypeError(f"A view holds {type(value).__name__} {_short(value)}, which has no JSON form: views hold "
                    "texts, numbers, booleans, None, lists, tuples, sets and dicts.")


def _encode_plain(value: Any) -> Any:
    """Rules as `rules_to_dict` gives them, with tuples written as lists (as in records)."""
    if isinstance(value, dict):
        return {key: _encode_plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode_plain(item) for item in value]
    return value


def _decode(value: Any, where: str, depth: int = 0) -> Any:
    if depth > MAX_JSON_DEPTH:
        raise ValueError(f"{where}: nests deeper than {MAX_JSON_DEPTH} levels.")
    if value is None or type(value) in (bool, int, str, float):
        return value
    if isinstance(value, list):
        return [_decode(item, where, depth + 1) for item in value]
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: {type(value).__name__} is not JSON data.")
    tag = next(iter(value), None) if len(value) == 1 else None
    if tag not in _TAGS:
        if any(not isinstance(key, str) or key.startswith("$") for key in value):
            raise ValueError(f"{where}: keys starting with '$' are tags: $tuple, $set or $dict alone.")
        return {key: _decode(item, where, depth + 1) for key, item in value.items()}
    items = value[tag]
    if not isinstance(items, list):
        raise ValueError(f"{where}: {tag} holds a list.")
    decoded = [_decode(item, where, depth + 1) for item in items]
    if tag == "$tuple":
        return tuple(decoded)
    try:
        if tag == "$set":
            return frozenset(decoded)
        if not all(isinstance(pair, list) and len(pair) == 2 for pair in decoded):
            raise ValueError(f"{where}: $dict holds [key, value] pairs.")
        return {pair[0]: pair[1] for pair in decoded}
    except TypeError:  # an unhashable key or set item (a list)
        raise ValueError(f"{where}: {tag} holds a list or an object where a key is needed.") from None
