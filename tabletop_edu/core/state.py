"""The game protocol: one base class that every engine in the package follows.

A game is a `GameState` subclass that deals in `_setup`, says whose turn it is, lists and validates legal
actions, plays them, and tells each seat what it may know (`_facts`). Everything else is shared here and so
behaves the same in every game: applying actions atomically, the event log and its visibility, views,
records (rules + seed + actions) and replay, cloning.

All randomness comes from `self.rng`, a `random.Random` seeded from `seed` and owned by the state: the same
seed and the same actions give the same game, event for event.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import random
import re
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any, ClassVar, Generic, TypeVar

from .actions import Action
from .errors import IllegalAction, RecordError, RulesError, Term, quote, quote_repr
from .events import FROZEN_TYPES, NO_DATA, Event, FrozenDict, Seat, SeatLog, Source, freeze, freeze_data, log_for
from .rules import rules_from_dict, rules_to_dict
from .hooks import html_of, state_class_of
from .view import View

RulesT = TypeVar("RulesT")
#: Builds an Event from its fields in one call, skipping NamedTuple's keyword handling (see `emit`).
_new_event = tuple.__new__

StateT = TypeVar("StateT", bound="GameState[Any]")

RECORD_FORMAT = 1
#: Seeds are below 2**64: any record's seed can be written back as JSON text (not a number of 5,000 digits).
MAX_SEED = 2**64
#: The longest player name a game accepts (renderers cut long names on screen; the class server takes 24):
#: a record holding a 100 MB name is refused before anything is built from it.
MAX_PLAYER_NAME = 1000
RECORD_KEYS = ("format", "game", "players", "seed", "rules", "actions")


def _shape(value: Any) -> Any:
    """The types inside a field value, containers included: ("red", 3) and ("red", True) differ."""
    kind = type(value)
    if kind is tuple or kind is list:
        return kind, tuple([_shape(item) for item in value])
    return kind


@functools.lru_cache(maxsize=None)
def _field_names(action_class: type) -> tuple[str, ...]:
    """The fields of an action class, in order: fixed per class, so read once (not at every action)."""
    return tuple(spec.name for spec in dataclasses.fields(action_class))


def _field_types(action: Action) -> tuple[Any, ...]:
    return tuple([_shape(getattr(action, name)) for name in _field_names(type(action))])  # type: ignore[arg-type]


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same state as `rng`, for clones: a plain `random.Random` is copied
    without being seeded first (seeding reads the system's entropy and costs more than the copy itself)."""
    if type(rng) is not random.Random:
        return copy.deepcopy(rng)
    twin = random.Random.__new__(random.Random)
    twin.setstate(rng.getstate())
    return twin


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle `items` in place exactly as `rng.shuffle(items)` does: the same permutation from the same draws
    of the generator, so a seed keeps dealing the same games. `random.Random.shuffle` asks for each draw through
    two method calls; a deal shuffles a whole deck at every new game, so here they are written out, which
    halves its cost. A generator of another class (a scripted one, a subclass) shuffles its own way."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):  # `Random.shuffle`, with `Random._randbelow_with_getrandbits` inlined
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _foreign_only(given: Any, read: Any) -> bool:
    """Whether two shapes differ only where the given value holds a type from outside Python's builtins (a
    numpy integer): such a value is played as the plain value read back. A bool for an int, 1.0 for 1 or a
    list for a tuple is a wrong type, refused."""
    if type(given) is tuple and type(read) is tuple and len(given) == len(read) == 2 and given[0] is read[0] \
            and type(given[1]) is tuple:
        return len(given[1]) == len(read[1]) and all(map(_foreign_only, given[1], read[1]))
    return given == read or (isinstance(given, type) and given.__module__ != "builtins")


def player_names(players: int | Sequence[str], low: int, high: int, game: str) -> tuple[str, ...]:
    """Seat names from a count ("Seat 0", ...) or a list of names, checked against the game's limits."""
    if type(players) is int and low <= players <= high:
        return _seat_names(players)  # the usual case, at every new game: the names are made once per count
    if isinstance(players, bool) or not isinstance(players, (int, Sequence)) or isinstance(players, str):
        raise RulesError(f"players must be a number or a list of names, not {quote(players)}.")
    count = players if isinstance(players, int) else len(players)
    if not low <= count <= high:  # before any name is made: new_game(10**9) must not build a billion names
        shown = count if abs(count) < 10**6 else "so many"
        raise RulesError(f"{game} is played by {low} to {high} players, not {shown}.")
    names = tuple(f"Seat {i}" for i in range(players)) if isinstance(players, int) else tuple(players)
    for name in names:
        if isinstance(name, str) and len(name) > MAX_PLAYER_NAME:
            raise RulesError(f"A player name has at most {MAX_PLAYER_NAME} characters, not {len(name)}.")
        if isinstance(name, str) and any(unicodedata.category(char) == "Cc" for char in name):
            raise RulesError(f"A player name cannot hold control characters: {quote(name)}.")
    if any(not isinstance(name, str) or not name.strip() for name in names) or len(set(names)) != len(names):
        raise RulesError(f"Player names must be distinct, non-empty texts, not {quote(list(names))}.")
    return names


@functools.lru_cache(maxsize=64)
def _seat_names(count: int) -> tuple[str, ...]:
    return tuple(f"Seat {i}" for i in range(count))


class GameState(ABC, Generic[RulesT]):
    """A game in progress: the omniscient state. Seats see it only through `view(seat)`."""

    #: The game package ("tabletop_edu.mafia_de_cuba"), used to find renderers and to load records.
    game: ClassVar[str]
    #: The game's name for people.
    title: ClassVar[str]
    rules_class: ClassVar[type[Any]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    def __init__(self, players: int | Sequence[str], *, seed: int | None = None,
                 rules: RulesT | None = None) -> None:
        self.players: tuple[str, ...] = player_names(players, self.min_players, self.max_players, self.title)
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
            raise RulesError(f"A seed is a whole number from 0 to 2**64 - 1, not {quote_repr(seed)}.")
        self.seed: int = seed
        if rules is None:
            rules = self.rules_class()
        elif not isinstance(rules, self.rules_class):
            raise RulesError(f"rules must be a {self.rules_class.__name__}, not {type(rules).__name__}.")
        self.rules: RulesT = rules
        self.rng = random.Random(seed)
        self.history: list[tuple[Seat, str]] = []
        self.events: list[Event] = []
        self._step = 0
        self._setup()
        self._update_turn()

    # ----------------------------------------------------------------- what each game defines

    @abstractmethod
    def _setup(self) -> None:
        """Deal and prepare the table with `self.rng`, emitting set-up events (step 0)."""

    @abstractmethod
    def _whose_turn(self) -> Seat | tuple[Seat, ...] | None:
        """The seat to act, a tuple of seats acting secretly at once, or None when the game is over.

        Worked out once after the set-up and after each action (`_update_turn`), since players, bots and
        `apply` read it several times per action.
        """

    @abstractmethod
    def legal_actions(self, player: Seat | None = None) -> list[Action]:
        """The actions `player` may take now (default: the single seat to act); [] if it may not act."""

    @abstractmethod
    def _validate(self, seat: Seat, action: Action) -> None:
        """Raise `IllegalAction` saying why `seat` may not play `action` now. Must not change anything."""

    @abstractmethod
    def _play(self, seat: Seat, action: Action) -> None:
        """Carry out a validated action, emitting events with `emit`."""

    @abstractmethod
    def _facts(self, seat: Seat | None) -> dict[str, Any]:
        """What `seat` may know now (None: a spectator), as plain values documented by the game."""

    @classmethod
    @abstractmethod
    def world_from_view(cls: type[StateT], view: View, rng: random.Random) -> StateT:
        """A full state consistent with `view`, built from the view and `rng` alone: a determinization.

        The world has a fresh seed drawn from `rng`, events and history rebuilt from the view's log, and
        every part the view does not show drawn from `rng`; nothing comes from the true game, so a bot or a
        search given worlds learns nothing its seat could not know. `world.view(view.seat) == view` holds.
        """

    @classmethod
    @abstractmethod
    def parse_action(cls, text: str) -> Action:
        """Read an action from its text notation; raise `IllegalAction` for text that names none."""

    @property
    @abstractmethod
    def winners(self) -> tuple[Seat, ...]:
        """The winning seats once the game is over (empty before)."""

    @property
    @abstractmethod
    def max_steps(self) -> int:
        """A documented upper bound on the number of actions of any game with these players and rules."""

    # ----------------------------------------------------------------- shared behaviour

    def _update_turn(self) -> None:
        """Remember whose turn it is; called after the set-up and after every action (games that change
        their state outside `apply`, like a resample dealing a new layout, call it too)."""
        current = self._whose_turn()
        self._current = current
        self._acting: tuple[Seat, ...] = () if current is None else (  # type: ignore[assignment]
            current if type(current) is tuple else (current,))

    @property
    def current_player(self) -> Seat | tuple[Seat, ...] | None:
        """The seat to act, a tuple of seats acting secretly at once, or None when the game is over."""
        return self._current

    @property
    def acting_seats(self) -> tuple[Seat, ...]:
        """The seats that may act now, as a tuple (empty at the end)."""
        return self._acting

    @property
    def is_over(self) -> bool:
        return self._current is None

    def returns(self) -> list[float]:
        """1 for each winner and 0 for the others once over; all 0 before. Games may refine it."""
        won = set(self.winners) if self.is_over else set()
        return [1.0 if seat in won else 0.0 for seat in range(len(self.players))]

    def _acting_seat(self, player: Seat | None) -> Seat:
        """The seat an action is for, when `apply` was not simply given a seat that is to act: the default
        seat, or a clear refusal."""
        current = self._current
        if current is None:
            raise IllegalAction.because("refused.game_over")
        seats = current if isinstance(current, tuple) else (current,)
        if player is None:
            if len(seats) > 1:
                raise IllegalAction.because("refused.together", seats=tuple(seats))
            return seats[0]
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(self.players):
            raise IllegalAction.because("refused.no_seat", seat=quote_repr(player), count=len(self.players))
        if player not in seats:
            named = [Term("refused.seat_named", name=self.players[s], seat=s) for s in seats]
            waiting = functools.reduce(lambda first, second: Term("refused.or", first=first, second=second), named)
            raise IllegalAction.because("refused.not_turn", name=self.players[player], waiting=waiting)
        return player

    def apply(self, action: Action | str, *, player: Seat | None = None) -> list[Event]:
        """Play `action` (or its text) for `player` (default: the seat to act) and return the new events.

        An illegal action raises `IllegalAction` and leaves the state exactly as it was. An action value is
        read back from its own text first, so a value built with wrong-typed fields (`Peek(1.0)`,
        `Hide(True)`) is refused before anything changes, and the record always keeps text that replays.
        """
        current = self._current
        if type(player) is int and (player == current or type(current) is tuple and player in current):
            seat = player  # the usual case, checked here: this runs at every step of every game
        else:
            seat = self._acting_seat(player)
        return self.apply_checked(self._checked(seat, action), player=seat)

    def apply_checked(self, move: Action, *, player: Seat) -> list[Event]:
        """Play `move`, an action value `checked_action` returned for `player` at this very step of this state,
        without reading or validating it again, and return the new events. For a server that checks a move
        when it arrives and plays it once stored: anything else calls `apply`, which checks."""
        events, history = self.events, self.history
        first_new = len(events)
        self._step = len(history) + 1
        self._play(player, move)
        self._update_turn()
        history.append((player, move.__dict__.get("_notation") or str(move)))  # the text `str` keeps on the value
        return events[first_new:]

    def check(self, action: Action | str, *, player: Seat | None = None) -> str:
        """The text `apply` would record for `action` now, or `IllegalAction` saying why: nothing changes.
        For a server that stores a move before it plays it (and tells anyone of it)."""
        return action_text(self.checked_action(action, player=player))

    def checked_action(self, action: Action | str, *, player: Seat | None = None) -> Action:
        """The action value `apply` would play for `action` (or its text) now, read and validated once, or
        `IllegalAction` saying why: nothing changes. `apply_checked` plays it at this step without a second check."""
        return self._checked(self._acting_seat(player), action)

    def _checked(self, seat: Seat, action: Action | str) -> Action:
        """The action value `seat` plays for `action`, read and validated, or `IllegalAction`."""
        try:
            # a value the game handed out is known canonical: the check `_canonical` starts with, inlined
            move = action if isinstance(action, Action) and action.__dict__.get("_canonical") else \
                self._canonical(action)
            self._validate(seat, move)
        except IllegalAction:
            raise
        except Exception as error:  # noqa: BLE001 - a move is refused, never a crash (check_game reports the cause)
            raise IllegalAction.because("refused.unreadable", action=quote(_text_of(action)), title=self.title,
                                        kind=type(error).__name__, error=quote(_text_of(error))) from error
        return move

    def _canonical(self, action: Action | str) -> Action:
        """The action value the text of `action` reads as: the only form `apply` plays and records.

        Values handed out by the game itself (its legal-action menus reuse them) are read back once and then
        known to be canonical."""
        if not isinstance(action, Action):
            return self.parse_action(action)
        known = action.__dict__
        if known.get("_canonical"):
            return action
        try:
            text = str(action)
        except IllegalAction:
            raise
        except Exception as error:  # noqa: BLE001 - a malformed value (a 5,000-digit number), not an engine bug
            raise IllegalAction.because("refused.unwritable", action=quote(action),
                                        kind=type(error).__name__) from None
        move = self.parse_action(text)
        if type(move) is not type(action) or move != action:
            raise IllegalAction.because("refused.reads_as", action=quote_repr(action), text=quote(text),
                                        move=quote_repr(move))
        given, read = _field_types(action), _field_types(move)
        if given != read:
            if not all(map(_foreign_only, given, read)):
                raise IllegalAction.because("refused.field_types", action=quote_repr(action), text=quote(text))
            return move  # equal values of other types (a numpy integer): play the plain value read back
        known["_canonical"] = True
        return action

    def emit(self, kind: str, text: str, *, actor: Seat | None = None, source: Source | None = None,
             observers: Sequence[Seat] | frozenset[Seat] | None = None, redacted: str | None = None,
             redacted_data: Mapping[str, Any] | None = None, **data: Any) -> Event:
        """Record an event of the current step; `observers=None` makes it public. Its details are frozen:
        seats receive events in their views, and nothing they do to them can reach the game."""
        return self.emit_event(kind, text, actor, source,
                               observers if observers is None or type(observers) is frozenset
                               else frozenset(observers), redacted, data,
                               NO_DATA if redacted_data is None else redacted_data)

    def emit_event(self, kind: str, text: str, actor: Seat | None, source: Source | None,
                   observers: frozenset[Seat] | None, redacted: str | None, data: Mapping[str, Any],
                   redacted_data: Mapping[str, Any] = NO_DATA) -> Event:
        """`emit` with every field in order and the details as one mapping: the same event, without the cost of
        keyword arguments (a third of an event's), for the events an engine makes at nearly every step. Details
        given as a `FrozenDict` are kept as they are: like `freeze`, the core takes a FrozenDict as read-only all
        the way down (an engine builds one from plain values, or shares a constant one)."""
        details: Mapping[str, Any] = NO_DATA
        if type(data) is FrozenDict:
            details = data
        elif data:  # `freeze_data`, inlined
            plain = FROZEN_TYPES
            for item in data.values():
                if type(item) not in plain:
                    details = freeze(data)
                    break
            else:
                details = FrozenDict(data)
        if redacted_data is not NO_DATA and type(redacted_data) is not FrozenDict:
            redacted_data = freeze_data(redacted_data)
        event = _new_event(Event, (self._step, kind, text, actor, source, observers, redacted, details, redacted_data))
        self.events.append(event)
        return event

    def log(self, player: Seat | None) -> tuple[Event, ...]:
        """The events as `player` (None: a spectator) observed them."""
        return log_for(self.events, player)

    def view(self, player: Seat | None, log: SeatLog | None = None) -> View:
        """What `player` may know: its secrets, public facts and its own observations (None: spectator).
        `log`: that seat's log kept from its earlier views of this game (a server drawing a table every step)."""
        if player is not None and not (isinstance(player, int) and 0 <= player < len(self.players)):
            raise IllegalAction.because("refused.no_seat", seat=quote_repr(player), count=len(self.players))
        if log is not None and log.seat != player:
            raise ValueError(f"The log kept for seat {log.seat!r} is not the log of seat {player!r}.")
        if log is None:
            return View(self.game, player, self.players, self.current_player, self.is_over, self._facts(player),
                        self.log(player), self.rules)
        events = log.of(self.events)  # first: a log handed another game forgets the copies it kept of its facts
        return View.of_copies(self.game, player, self.players, self.current_player, self.is_over,
                              log.facts(self._facts(player)), events, self.rules)

    def resample(self: StateT, player: Seat | None, rng: random.Random) -> StateT:
        """A full state drawn from those consistent with `view(player)` (a determinization), computed from
        that view and `rng` alone (`world_from_view`): two states `player` cannot tell apart give the same
        world for the same rng."""
        return self.world_from_view(self.view(player), rng)

    def clone(self: StateT) -> StateT:
        """An independent copy: playing on it never changes this state."""
        return copy.deepcopy(self)

    # ----------------------------------------------------------------- records and replay

    def record(self) -> dict[str, Any]:
        """Everything needed to replay this game: game, players, seed, rules and actions."""
        return {"format": RECORD_FORMAT, "game": self.game, "players": list(self.players), "seed": self.seed,
                "rules": rules_to_dict(self.rules), "actions": [list(entry) for entry in self.history]}

    def to_json(self) -> str:
        return json.dumps(self.record())

    @classmethod
    def from_record(cls: type[StateT], record: Mapping[str, Any]) -> StateT:
        """Replay a record: the same events, in the same order, as the original game.

        Anything wrong with the record raises `RecordError`, naming the field, or the step and its action."""
        if not isinstance(record, Mapping):
            raise RecordError(f"A record is a mapping with the keys {', '.join(RECORD_KEYS)}, "
                              f"not {quote_repr(record)}.")
        missing = [key for key in RECORD_KEYS if key not in record]
        if missing:
            raise RecordError(f"The record has no {', '.join(missing)}.")
        unknown = sorted(quote(key) for key in record if key not in RECORD_KEYS)[:5]
        if unknown:
            raise RecordError(f"The record has unknown field(s) {', '.join(unknown)}.")
        if type(record["format"]) is not int or record["format"] != RECORD_FORMAT:
            raise RecordError(f"format: this version reads records of format {RECORD_FORMAT}, not "
                              f"{quote_repr(record['format'])}.")
        if record["game"] != cls.game:
            raise RecordError(f"game: this record is of {quote_repr(record['game'])}, not of {cls.game!r}.")
        players, actions = record["players"], record["actions"]
        if not isinstance(players, list) or len(players) > cls.max_players:
            raise RecordError(f"players: a list of {cls.min_players} to {cls.max_players} names, not "
                              f"{quote_repr(players)}.")
        if not isinstance(actions, list):
            raise RecordError(f"actions: a list of [seat, action] pairs, not {quote_repr(actions)}.")
        seed = record["seed"]
        if type(seed) is not int or not 0 <= seed < MAX_SEED:  # a missing seed would deal a new game each load
            raise RecordError(f"seed: a record's seed is a whole number from 0 to 2**64 - 1, not {quote_repr(seed)}.")
        try:
            player_names(players, cls.min_players, cls.max_players, cls.title)
        except RulesError as error:
            raise RecordError(f"players: {error}") from None
        try:
            rules = rules_from_dict(cls.rules_class, record["rules"])
            state = cls(players, seed=seed, rules=rules)
        except (RulesError, TypeError) as error:
            raise RecordError(f"The record does not make a game of {cls.title}: {error}") from None
        if len(actions) > state.max_steps:
            raise RecordError(f"actions: {len(actions)} actions, more than any game of {cls.title} with these "
                              f"players and rules lasts ({state.max_steps}).")
        for step, entry in enumerate(actions, start=1):
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str)):
                raise RecordError(f"step {step}: an action is written [seat, text], not {quote_repr(entry)}.")
            seat, text = entry
            if type(seat) is not int or not 0 <= seat < len(state.players):
                raise RecordError(f"step {step}: the seat of an action is a number from 0 to {len(state.players) - 1}, "
                                  f"not {quote_repr(seat)}.")
            try:
                state.apply(text, player=seat)
            except IllegalAction as error:
                raise RecordError(f"step {step}: seat {quote_repr(seat)} playing {quote(text)}: {error}") from None
        return state

    @classmethod
    def from_json(cls: type[StateT], text: str) -> StateT:
        return cls.from_record(_read_json(text))

    def fingerprint(self) -> str:
        """A text that changes whenever anything of the state changes (used to prove atomicity)."""
        def plain(value: Any) -> Any:
            if isinstance(value, random.Random):
                return repr(value.getstate())
            if isinstance(value, dict):
                return {repr(k): plain(v) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return [plain(item) for item in value]
            if isinstance(value, (set, frozenset)):
                return sorted(repr(item) for item in value)
            return repr(value)
        return json.dumps(plain(vars(self)), sort_keys=True)

    # ----------------------------------------------------------------- display

    def __str__(self) -> str:
        status = "over, won by " + ", ".join(self.players[s] for s in self.winners) if self.is_over \
            else f"to play: {self.acting_seats}"
        return f"{self.title} with {len(self.players)} players, seed {self.seed}, {len(self.history)} actions, {status}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_json({self.to_json()!r})"

    def _repr_html_(self) -> str:
        """The omniscient table, for a teacher: the game's own rendering if it has one (through the hook the
        rendering floor fills: the core draws nothing)."""
        return html_of(self)

    def generic_html(self, log: bool = True) -> str:
        """A plain table of everything about the state and its whole log, for games without their own renderer."""
        facts = "".join(f"<tr><th>{escape(str(k))}</th><td>{escape(str(v))}</td></tr>"
                        for k, v in self._facts_omniscient().items())
        items = "".join(f"<li>{escape(event.text)}</li>" for event in self.events)
        listing = f"<ol class='tabletop-log'>{items}</ol>" if log else ""
        return f"<div class='tabletop-state'><b>{escape(str(self))}</b><table>{facts}</table>{listing}</div>"

    def _facts_omniscient(self) -> dict[str, Any]:
        """Everything about the table, for the omniscient display; games may override."""
        facts = self._facts(None)
        for seat in range(len(self.players)):
            facts[f"seat {seat}"] = self._facts(seat)
        return facts


def action_text(move: Action) -> str:
    """The text a record keeps for an action value (its notation, as `str` wrote it)."""
    return str(move.__dict__.get("_notation") or str(move))


def _text_of(value: Any) -> str:
    """`str(value)` for an error message, or a placeholder when even that fails (an action whose text cannot
    be written is exactly what such a message reports)."""
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - the message must not fail where the move did
        return f"<{type(value).__name__} that cannot be written>"


def _read_json(text: Any) -> Any:
    """The value a record's JSON text holds, or a `RecordError` saying why it holds none."""
    if not isinstance(text, (str, bytes)):
        raise RecordError(f"A record is JSON text or a mapping, not {type(text).__name__}.")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        reason = "it is nested too deeply" if isinstance(error, RecursionError) else str(error)
        raise RecordError(f"The record is not readable JSON: {reason}.") from None


def load(record: str | Mapping[str, Any]) -> GameState[Any]:
    """Replay a record of any game (JSON text or dict), finding the game from the record itself.

    Any malformed record raises `RecordError` naming the field, or the step and its action."""
    data = record if isinstance(record, Mapping) else _read_json(record)
    if not isinstance(data, Mapping):
        raise RecordError(f"A record is a mapping with the keys {', '.join(RECORD_KEYS)}, not {quote_repr(data)}.")
    state_class = _game_state_class(data.get("game"))
    state: GameState[Any] = state_class.from_record(data)
    return state


def _game_state_class(game: Any) -> type[GameState[Any]]:
    """The state class of the game a record names, as the registry knows it (only installed or registered games
    load; the core asks through `hooks.state_class_of`, since it imports no game and no registry)."""
    if not isinstance(game, str) or not re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*", game):
        raise RecordError(f"game: {quote_repr(game)} is not the name of a game.")
    try:
        state_class = state_class_of(game)
    except (ImportError, ValueError) as error:
        raise RecordError(f"game: {quote(game)} could not be loaded: {error}") from None
    if state_class is None:
        raise RecordError(f"game: there is no game {quote(game)}.")
    return state_class
