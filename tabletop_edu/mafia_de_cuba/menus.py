"""Mafia de Cuba's legal-action menus: read-only lists built once and shared by every state that may play them.

A menu depends on little (the box, the table, the questions left), so each is built once per key and handed out
as the same `Menu` again and again, holding the same action values: `apply` reads each value back from its text
only once per process, and a floor's menu (a thousand testimonies at twelve players) is never copied. What the
seats may say depends only on public data (the game's tokens, its diamonds, the seats), so one `_TableTalk` per
kind of table keeps every seat's testimonies.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NoReturn

from ..core import Action, FrozenList, Seat
from .actions import Accuse, Ask, Floor, Hide, Hold, Pass, Saw, SetAside, Shoot, Silent, Suspect, TakeFromBox, Took
from .rules import TOKEN_ORDER


class Menu(FrozenList):
    """A legal-action menu: a read-only list built once and handed out again and again (no copy per step, and
    the same action values every time, so `apply` reads each one back from its text only once per process)."""

    __slots__ = ()

    def _shared(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("Legal actions are shared between game states, so they cannot be changed: copy them "
                        "first, e.g. `options = list(state.legal_actions())`, then shuffle or sort the copy.")

    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = sort = reverse = \
        __iadd__ = __imul__ = _shared

    def __reduce__(self) -> tuple[Any, ...]:
        return (Menu, (list(self),))


_VOTES = Menu([Hold()])
_VOTES_OF_THE_CLEANER = Menu([Hold(), Shoot()])
_PASS, _SILENT = Pass(), Silent()


@lru_cache(maxsize=None)
def _ask(target: Seat, kind: str) -> Ask:
    """One value per question (a game has at most 11 x 3)."""
    return Ask(target, kind)


@lru_cache(maxsize=None)
def _accuse_value(target: Seat) -> Accuse:
    return Accuse(target)


@lru_cache(maxsize=None)
def _suspect(target: Seat) -> Suspect:
    return Suspect(target)


@lru_cache(maxsize=64)
def _hide_menu(max_hidden: int) -> Menu:
    return Menu(Hide(k) for k in range(max_hidden + 1))


@lru_cache(maxsize=64)
def _set_aside_menu(present: tuple[str, ...]) -> Menu:
    return Menu([SetAside(None), *(SetAside(name) for name in present)])


@lru_cache(maxsize=1024)
def _take_menu(diamonds: int, present: tuple[str, ...], may_take_nothing: bool) -> Menu:
    """Legal takes from a box of `diamonds` and the `present` tokens."""
    if diamonds == 0 and not present:
        return Menu([TakeFromBox()])
    options: list[Action] = [TakeFromBox(d) for d in range(1, diamonds + 1)]
    options += [TakeFromBox(0, name) for name in present]
    if may_take_nothing:
        options.append(TakeFromBox())
    return Menu(options)


@lru_cache(maxsize=4096)
def _question_menu(askable: tuple[tuple[Seat, str], ...], floor: bool, accusable: tuple[Seat, ...]) -> Menu:
    """The Godfather's options: the `askable` questions, the floor (budgeted interrogation), accusations."""
    actions: list[Action] = [_ask(target, kind) for target, kind in askable]
    if floor:
        actions.append(Floor())
    return Menu([*actions, *map(_accuse_value, accusable)])


@lru_cache(maxsize=64)
def _claims(key: TalkKey, kind: str) -> tuple[Action, ...]:
    """The `saw` or `took` claims a table allows (`key`: its token counts and diamonds), shared by every seat."""
    tokens_in_game, diamonds = key
    counts = dict(tokens_in_game)
    if kind == "seen":
        combos: list[tuple[str, ...]] = [()]
        for name in TOKEN_ORDER:
            combos = [combo + (name,) * k for combo in combos for k in range(counts.get(name, 0) + 1)]
        return tuple(Saw(d, combo) for d in range(diamonds + 1) for combo in combos)
    return (*(Took(d) for d in range(1, diamonds + 1)), *(Took(0, name) for name in TOKEN_ORDER if name in counts),
            Took())


#: What a table's claims can name: its token counts (name, count) and its diamonds.
TalkKey = tuple[tuple[tuple[str, int], ...], int]


class _TableTalk:
    """What the seats of one kind of table may say, built once and shared by all its states (testimonies depend
    only on public data: the game's tokens, its diamonds, the seats): each seat's floor menu, the identities of
    its values (a value handed out is known valid by identity: kept with the menus, so that the menus keep
    their values alive and no other object can ever take one of these identities), and the answers to each
    question. Read-only: clones and copies share it, and it pickles as the table it describes."""

    __slots__ = ("key", "players", "floor_menus", "floor_ids")

    def __init__(self, key: TalkKey, players: int) -> None:
        self.key, self.players = key, players
        self.floor_menus: tuple[Menu, ...] = tuple(_testimony_menu(key, None, seat, players)
                                                   for seat in range(players))
        self.floor_ids: tuple[frozenset[int], ...] = tuple(frozenset(map(id, menu)) for menu in self.floor_menus)

    def answers(self, kind: str, seat: Seat) -> Menu:
        """The answers `seat` may give to a question of `kind` (silence included)."""
        return _testimony_menu(self.key, kind, seat, self.players)

    def __repr__(self) -> str:
        return f"_TableTalk({self.key!r}, {self.players})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_table_talk, (self.key, self.players))

    def __deepcopy__(self, memo: dict[int, Any]) -> _TableTalk:
        return self


@lru_cache(maxsize=64)
def _table_talk(key: TalkKey, players: int) -> _TableTalk:
    return _TableTalk(key, players)


@lru_cache(maxsize=512)
def _testimony_menu(key: TalkKey, kind: str | None, seat: Seat,
                    players: int) -> Menu:
    """The testimonies allowed at a table: they depend only on public data, so they are computed once. An asked
    seat may keep silent; on the floor (`kind` None) it may pass."""
    out: list[Action] = []
    if kind in (None, "seen"):
        out += _claims(key, "seen")
    if kind in (None, "took"):
        out += _claims(key, "took")
    if kind in (None, "suspect"):
        out += [_suspect(other) for other in range(players) if other != seat]
    out.append(_PASS if kind is None else _SILENT)
    return Menu(out)
