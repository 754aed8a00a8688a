"""Events: what happened, who did it, and who saw what.

Every event carries its own visibility, so a seat's log, its view and every drawing of information flow are
computed from the same fact. There is no second path to hidden data: `Event.seen_by(seat)` is the only way
an event reaches a seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from operator import is_
from typing import Any, NamedTuple, NoReturn

Seat = int
Source = int | str  # a seat number, or an object of the table such as "box" or "deck"


_EMPTY_HASH = hash(frozenset())


class _NoData(Mapping[str, Any]):
    """The empty details of an event that has none: read-only, so one value is safely shared by all events."""

    def __getitem__(self, key: str) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "{}"

    def __hash__(self) -> int:  # as an empty FrozenDict's (they are equal): events stay hashable, to be memoized
        return _EMPTY_HASH

    def __reduce__(self) -> str:
        return "NO_DATA"  # copies and pickles are this same value


NO_DATA: Mapping[str, Any] = _NoData()


def _read_only(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"{type(self).__name__} is read-only: views and events are snapshots of the game.")


class FrozenDict(dict):
    """A dict that cannot change: event details and view facts, which seats and bots receive.

    A dict subclass rather than a mapping proxy, so it still equals plain dicts, writes as JSON, pickles
    (tournaments ship states to worker processes) and costs nothing to read.
    """

    __slots__ = ()
    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))


class FrozenList(list):
    """A list that cannot change (equal to the plain list with the same items)."""

    __slots__ = ()
    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = sort = reverse = \
        __iadd__ = __imul__ = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenList, (list(self),))

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self))


#: Values that are already read-only: kept as they are (a set, so the check is one hash look-up a value).
FROZEN_TYPES: frozenset[type] = frozenset({int, str, bool, float, type(None), FrozenDict, FrozenList, frozenset,
                                           _NoData})
#: Plain values a read-only copy keeps (immutable all the way down).
_IMMUTABLE: frozenset[type] = frozenset({int, str, bool, float, type(None), frozenset, _NoData})


def freeze(value: Any) -> Any:
    """`value` with every dict, list and set inside made read-only: a fresh copy, except that plain values and
    containers already frozen are kept as they are (the engines' hot path; see `read_only_copy` for what is
    handed out)."""
    kind = type(value)
    if kind in FROZEN_TYPES:
        return value
    if kind is dict or isinstance(value, Mapping):
        plain = FROZEN_TYPES
        return FrozenDict({key: item if type(item) in plain else freeze(item) for key, item in value.items()})
    if kind is list:
        if _all_plain(value):  # the usual event detail: a list of texts or numbers, copied in one call
            return FrozenList(value)
        return FrozenList([freeze(item) for item in value])
    if kind is tuple:
        return value if _all_plain(value) else tuple([freeze(item) for item in value])
    if kind in (set, frozenset):
        return frozenset(value)
    return value


class Event(NamedTuple):
    """One observable happening of a game.

    - `step`: the index of the action that produced it (0 for the set-up, i + 1 after the i-th action).
    - `kind`: a short machine name ("take", "testimony", "reveal").
    - `text`: the full description, as the observers see it.
    - `actor`: the seat that did it, or None for the game itself (dealing, scoring).
    - `source`: where the information comes from: a seat, or an object like "box"; defaults to the actor.
    - `observers`: the seats that see the full event; None means everyone (a public event).
    - `redacted`: what every other seat sees instead ("Seat 3 took something"), or None: they see nothing.
    - `data`: machine-readable details for the observers; `redacted_data` those for everyone else.

    A named tuple rather than a frozen dataclass: just as immutable, and built about three times faster, which
    matters because engines emit one or two at every step of a random game.
    """

    step: int
    kind: str
    text: str
    actor: Seat | None = None
    source: Source | None = None
    observers: frozenset[Seat] | None = None
    redacted: str | None = None
    data: Mapping[str, Any] = NO_DATA
    redacted_data: Mapping[str, Any] = NO_DATA

    @property
    def is_public(self) -> bool:
        return self.observers is None

    @property
    def origin(self) -> Source | None:
        """The node information flows from: the source if given, else the actor."""
        return self.source if self.source is not None else self.actor

    def sees_all(self, seat: Seat | None) -> bool:
        """True if `seat` (None: a spectator) sees the full event."""
        return self.observers is None or (seat is not None and seat in self.observers)

    def seen_by(self, seat: Seat | None) -> Event | None:
        """The event as `seat` sees it: itself, its redacted public form, or None if invisible."""
        if self.sees_all(seat):
            return self
        if self.redacted is None:
            return None
        return self._replace(text=self.redacted, data=self.redacted_data, redacted=None,
                             redacted_data=NO_DATA, observers=None)

    def __str__(self) -> str:
        return self.text


def read_only_copy(value: Any) -> Any:
    """`value` as a read-only copy of its own, all the way down: every dict, list and set inside, frozen ones
    included, is a fresh frozen container, so nothing in the copy is shared with `value` (plain values as they
    are). Even `dict.__setitem__(copy, ...)`, which no dict subclass can refuse, then changes only the copy:
    what views and bots are handed."""
    kind = type(value)
    if kind in _IMMUTABLE:
        return value
    if kind is FrozenList or kind is list:  # the exact types first: no look through the ABCs for each item
        if _all_plain(value, _IMMUTABLE):  # a pair like Mafia de Cuba's [seat, claim]: copied in one call
            return FrozenList(value)
        return FrozenList([item if type(item) in _IMMUTABLE else read_only_copy(item) for item in value])
    if kind is FrozenDict or kind is dict or isinstance(value, Mapping):
        return FrozenDict({key: item if type(item) in _IMMUTABLE else read_only_copy(item)
                           for key, item in value.items()})
    if isinstance(value, list):
        return FrozenList([item if type(item) in _IMMUTABLE else read_only_copy(item) for item in value])
    if kind is tuple:
        return tuple([item if type(item) in _IMMUTABLE else read_only_copy(item) for item in value])
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    return value


def log_for(events: Iterable[Event], seat: Seat | None) -> tuple[Event, ...]:
    """The events as `seat` saw them, in order: the single gate from a game's log to a seat. Each event handed
    out carries details of its own, so writing into them (even past the read-only guard, with `dict.__setitem__`)
    can reach neither the game's events nor another seat's view."""
    seen = (event.seen_by(seat) for event in events)
    return tuple(_detached(event) for event in seen if event is not None)


class SeatLog:
    """One seat's log of one game, kept from one view to the next (`GameState.view(seat, log=...)`). A game only
    ever appends to its events, so each view passes only the events new since the last one through `log_for`: a
    class server's table at step 150 of Mafia de Cuba does not copy 150 events for each of 13 seats. The views
    it serves share their earlier events with one another, the seat's own copies; never with the game or with
    another seat's views. Their facts share the same way the copies of a long list's earlier items (`facts`)."""

    def __init__(self, seat: Seat | None) -> None:
        self.seat = seat
        self._events: list[Event] | None = None  # the game's own list (a new game starts afresh)
        self._covered = 0  # how many of its events `_log` has seen
        self._log: tuple[Event, ...] = ()
        self._lists: dict[str, tuple[tuple[Any, ...], FrozenList, bool]] = {}  # `facts`: a list's items then, its
        # copy, and whether those items are frozen all the way down
        self._same: dict[str, tuple[Any, Any]] = {}  # `facts`: a frozen value handed last time, its copy

    def of(self, events: list[Event]) -> tuple[Event, ...]:
        """The seat's log of `events` (a game's own list)."""
        if events is not self._events or len(events) < self._covered:
            self._events, self._covered, self._log = events, 0, ()
            self._lists, self._same = {}, {}
        if self._covered < len(events):
            self._log += log_for(events[self._covered:], self.seat)
            self._covered = len(events)
        return self._log

    def facts(self, facts: Mapping[str, Any]) -> FrozenDict:
        """A read-only copy of the seat's `facts` (as `read_only_copy` makes) for its next view, made with its
        earlier copies. A fact the engine hands again as the very value it handed last time, frozen all the way
        down, keeps the copy made then: an engine that keeps its public facts from step to step (Mafia de Cuba's
        order, eliminated seats, tokens) costs a view nothing for them. A list of facts that only grew at its end
        since the seat's last view, its earlier items the very frozen items it held then (Mafia de Cuba's
        testimonies, 150 [seat, claim] pairs late on the floor), keeps the copies made then of those items, and
        copies its new items only. Like the log's events, those copies are the seat's own."""
        copy: dict[str, Any] = {}
        lists: dict[str, tuple[tuple[Any, ...], FrozenList, bool]] = {}
        same: dict[str, tuple[Any, Any]] = {}
        kept_values, kept_lists = self._same, self._lists
        for key, value in facts.items():
            kind = type(value)
            if kind in _IMMUTABLE:
                copy[key] = value
                continue
            then = kept_values.get(key)
            if then is not None and then[0] is value:  # the very frozen value of the seat's last view
                copy[key] = then[1]
                same[key] = then
                if key in kept_lists:
                    lists[key] = kept_lists[key]
                continue
            if kind is FrozenList or kind is list:
                items = tuple(value)  # the items now: an engine may change its own list later
                if _all_plain(items, _IMMUTABLE):  # seats, texts: copied in one call
                    copied, through = FrozenList(items), True
                else:
                    then_items, copied_then, through = kept_lists.get(key, _NOTHING_KEPT)
                    kept = len(then_items)  # the list grew at its end, its earlier items the very ones: copies kept
                    if not (kept and len(items) >= kept and all(map(is_, items, then_items))):
                        kept, copied_then, through = 0, _NOTHING_KEPT[1], True
                    copied = FrozenList([*copied_then, *[read_only_copy(item) for item in items[kept:]]])
                    if _KEPT_ITEMS.issuperset(map(type, items)):  # all frozen: the next view may share their copies
                        through = through and all(map(_frozen_through, items[kept:]))
                        lists[key] = (items, copied, through)
                    else:
                        through = False
                if kind is FrozenList and through:  # it cannot change: handed again, its copy is kept
                    same[key] = (value, copied)
            else:
                copied = read_only_copy(value)
                if kind in _FROZEN_CONTAINERS and _frozen_through(value):
                    same[key] = (value, copied)
            copy[key] = copied
        self._lists, self._same = lists, same
        return FrozenDict(copy)


#: The items of a list of facts whose copy a seat's next view may share (`SeatLog.facts`): frozen by the engine,
#: which never changes them (a plain list item might be changed in place).
_KEPT_ITEMS = frozenset({FrozenList, FrozenDict, tuple, frozenset})
_NOTHING_KEPT: tuple[tuple[Any, ...], FrozenList, bool] = ((), FrozenList(), True)
#: The containers an engine can hand as frozen facts (`SeatLog.facts` keeps its copy of one it hands again).
_FROZEN_CONTAINERS = frozenset({FrozenDict, tuple})


def _frozen_through(value: Any) -> bool:
    """Whether `value` is immutable (a frozenset included) or frozen all the way down: nothing in it can change
    (but past the guard)."""
    kind = type(value)
    if kind in _IMMUTABLE:
        return True
    if kind is FrozenList or kind is tuple:
        return all(map(_frozen_through, value))
    return kind is FrozenDict and all(map(_frozen_through, value.values()))


#: Builds an Event from its fields in one call (a handed-out copy of an event is made for every view).
_new_event = tuple.__new__


def _detached(event: Event) -> Event:
    """`event` with fresh read-only copies of its details (the same event when it has none)."""
    step, kind, text, actor, source, observers, redacted, data, redacted_data = event
    if data is NO_DATA and redacted_data is NO_DATA:
        return event
    return _new_event(Event, (step, kind, text, actor, source, observers, redacted,
                              data if data is NO_DATA else read_only_copy(data),
                              redacted_data if redacted_data is NO_DATA else read_only_copy(redacted_data)))



def _all_plain(items: Iterable[Any], plain: frozenset[type] = FROZEN_TYPES) -> bool:
    """Whether every item is already read-only (nothing inside needs a frozen copy); with `plain=_IMMUTABLE`,
    immutable all the way down (a read-only copy may share it)."""
    for item in items:
        if type(item) not in plain:
            return False
    return True


def freeze_data(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """An event's details, read-only (`NO_DATA` when there are none): the engines' hot path, kept short."""
    if not data:
        return NO_DATA
    plain = FROZEN_TYPES
    for item in data.values():  # `_all_plain`, inlined: this runs for nearly every event of every game
        if type(item) not in plain:
            return freeze(data)
    return data if type(data) is FrozenDict else FrozenDict(data)  # an engine's shared details, as they are
