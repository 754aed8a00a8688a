"""A room and its seats: one table's game, tokens, names and flags, and the refusal every part of the server raises.

A room holds one game of any of our games, a token per seat (the unguessable credential in the seat's link), a
token for the projector, and its flags (started, paused, revealed, closed). People reach a seat through its token
only. What a room's pages ask for again and again between two moves (views, legal actions, menus, tables) is
computed once per step (`Room.remember`). A student's name is any printable text, as people count its characters
(`clean_name`, `name_length`); two names of one room differ by more than case and joiners (`name_key`).

A `Change` is a change of a room, checked before any write; a `WaitingMove`, a move waiting for its room's next
commit. The rooms of a server are a `hall.Hall`'s, their moves and changes committed along `commits`, their
beliefs asked and stored by `belief_desk.BeliefDesk`.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import unicodedata
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Generic, TypeVar

from ..beliefs import BeliefQuestion
from ..core import Action, Bot, GameState, SeatLog, View
from ..moves import MoveTree
from ..registry import GamePlugin
from ..rendering import RunningLog
from . import games
from .snapshot import Snapshot
from .store import ActionRow, BeliefRow

T = TypeVar("T")

#: The longest name a student may pick, in characters as people count them (an emoji built of several code
#: points, 👩🏽‍🚀, is one), and in code points whatever they are built of.
MAX_NAME = 24
MAX_NAME_CODE_POINTS = 100
#: What a browser lets be typed in a name's field: `maxlength` counts UTF-16 units, two for most emoji.
MAX_NAME_UTF16 = 2 * MAX_NAME_CODE_POINTS
#: Format characters a name may hold: the joiners and the emoji tags that build one emoji of several (👩🏽‍🚀,
#: a subdivision flag). Any other (a zero-width space, a bidirectional override) could hide or disguise a name.
NAME_JOINERS = frozenset({"\u200c", "\u200d"})
EMOJI_TAGS = range(0xE0020, 0xE0080)
#: Bytes of randomness in a seat's or projector's token (128 bits).
TOKEN_BYTES = 16


class Refused(ValueError):
    """A request the server refuses: `code` for programs, the message for people, `status` for HTTP.

    Codes: unknown_token, expired_token, unknown_room, closed, forbidden, bad_name, name_taken, room_full,
    seat_taken, not_started, paused, over, stale, not_your_turn, illegal, malformed, too_big, flood, no_bot,
    bad_request, storage, storage_busy (another program holds the file), too_many (sockets of one link),
    too_many_guesses (wrong room codes); of beliefs: no_beliefs (the room asks none), no_question (not asked
    this), answered (already), bad_belief (not whole percents summing to 100), not_now (the teacher's ask
    outside play); started (students are placed before the start only); seat_joining (the teacher's control of a
    seat a student is sitting down at, that moment)."""

    def __init__(self, code: str, message: str, status: int = 400, *, fr: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.fr = fr  # the French text, when the message has details (a name, a number) the page cannot guess


def one_line(text: str, limit: int = 500) -> str:
    """`text` fit for one log line: control characters (a newline in a bot's error, an escape sequence in a
    stored name) written as escapes, so nothing a student typed can forge or hide a line of the log."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text[:limit])


def new_token(size: int = TOKEN_BYTES) -> str:
    return secrets.token_urlsafe(size)


def clean_name(name: Any) -> str:
    """A student's name, trimmed and checked: 1 to `MAX_NAME` characters, no control characters.

    Any printable character is allowed (accents, apostrophes, emoji with skin tones and joiners, even '<'):
    names are escaped wherever they are shown. A joiner stands only between two symbols (inside an emoji),
    never between letters, where it would make a second "Ana" that looks like the first.
    """
    if not isinstance(name, str):
        raise Refused("bad_name", "A name is a short text.", fr="Un nom est un texte court.")
    text = " ".join(unicodedata.normalize("NFC", name).split())
    if not text:
        raise Refused("bad_name", "Please type a name.", fr="Tapez un nom, s'il vous plaît.")
    if any(not _name_char(text, index) for index in range(len(text))):
        raise Refused("bad_name", "A name cannot hold control characters.",
                      fr="Un nom ne peut pas contenir de caractères de contrôle.")
    length = name_length(text)
    if length > MAX_NAME:
        raise Refused("bad_name", f"A name has at most {MAX_NAME} characters, not {length}.",
                      fr=f"Un nom a au plus {MAX_NAME} caractères, pas {length}.")
    if len(text) > MAX_NAME_CODE_POINTS:
        raise Refused("bad_name", f"A name is built of at most {MAX_NAME_CODE_POINTS} code points, not {len(text)}.",
                      fr=f"Un nom est fait d'au plus {MAX_NAME_CODE_POINTS} points de code, pas {len(text)}.")
    return text


def _name_char(text: str, index: int) -> bool:
    """Whether the character at `index` may stand there in a name: a printable one, a joiner inside a word
    (an emoji, a Persian word), an emoji tag after what it tags."""
    char = text[index]
    if not unicodedata.category(char).startswith("C"):
        return True
    if ord(char) in EMOJI_TAGS:
        return index > 0
    if char in NAME_JOINERS:
        return 0 < index < len(text) - 1 and not text[index - 1].isspace() and not text[index + 1].isspace()
    return False


def name_length(text: str) -> int:
    """The characters of a name as people count them: combining marks, variation selectors, skin tones,
    emoji tags and whatever a joiner glues on belong to the character before them."""
    count, glued = 0, False
    for char in text:
        attached = glued or unicodedata.category(char) in ("Mn", "Me") or 0x1F3FB <= ord(char) <= 0x1F3FF \
            or ord(char) in EMOJI_TAGS or char in NAME_JOINERS
        if not attached or count == 0:
            count += 1
        glued = char in NAME_JOINERS
    return count


def name_key(text: str) -> str:
    """What two names must not share in one room: the same letters, whatever their case and joiners (a joiner
    is invisible between letters, so "A\u200dna" is refused beside "Ana")."""
    return "".join(char for char in text if char not in NAME_JOINERS).casefold()


@dataclass
class TableSeat:
    """One seat of a room: its token, the name it plays under (None until claimed) and its bot, if any."""

    number: int
    token: str
    name: str | None = None
    bot: str | None = None

    @property
    def filled(self) -> bool:
        return self.name is not None

@dataclass(frozen=True)
class CheckedMove:
    """A move read and validated once (`GameState.checked_action`): `seat`'s action value `move` on `state` when
    it had played `at` moves, and the text the store keeps of it. It is played at that step without a second
    check (`GameState.apply_checked`)."""

    state: GameState[Any]
    at: int
    seat: int
    move: Action
    text: str


@dataclass
class WaitingMove:
    """A move checked when it arrived, waiting to be checked again and committed with its room's next group
    (`Hall.play`); `played` is done once it is played, or refused."""

    seat: int
    answered: Any  # the step the move answers, as the page sent it
    action: Any
    actor: str
    even_paused: bool
    played: asyncio.Future[None]
    committed_at: float = 0.0  # when its commit was known on the loop (`time.perf_counter`), once played
    checked: CheckedMove | None = None  # its check when it arrived: it stands while the game has not moved

    def settle(self, outcome: BaseException | None) -> None:
        """Played (`outcome` None) or refused with `outcome`; told to its waiter, if it still waits."""
        if self.played.done():
            return
        if outcome is None:
            self.played.set_result(None)
        else:
            self.played.set_exception(outcome)
            self.played.add_done_callback(lambda played: played.exception())  # no "never retrieved" if none waits


@dataclass
class Change(Generic[T]):
    """A change of a room, checked (a `Refused` is raised before one is made): `write` queues its one write of the
    store and returns its future; `apply` makes it in memory from the write's result once committed, and returns
    what the change returns; `held`: the seats it holds while it is committed, with the names sitting down there
    (`Room.joining`: no student gets those seats or names meanwhile). `Hall.commit` awaits it on an event
    loop."""

    room: Room
    write: Callable[[], Future[Any]]
    apply: Callable[[Any], T]
    held: Mapping[int, str] = field(default_factory=dict)


@dataclass
class Room:
    """One table: its game, seats and flags. `state` is None until every seat is filled."""

    code: str
    number: int
    package: str
    seed: int
    rules: Any
    language: str
    bot_delay: float
    watch_token: str
    seats: list[TableSeat]
    state: GameState[Any] | None = None
    started: bool = False
    paused: bool = False
    revealed: bool = False
    closed: bool = False
    draw_seats: bool = False  # students joining by code sit at an empty seat drawn at random (seeded)
    move_time_limit: float | None = None  # seconds a student has for a move, then a bot plays it (`time_up`)
    actions: list[ActionRow] = field(default_factory=list)
    bots: dict[int, Bot] = field(default_factory=dict)
    scoring: str | None = None  # the scoring rule of a room that asks beliefs ("brier", "log"); None: it asks none
    beliefs: list[BeliefRow] = field(default_factory=list)
    pending_beliefs: dict[int, set[str]] = field(default_factory=dict)  # keys being stored now, by seat
    asked_steps: set[int] = field(default_factory=set)  # the steps at which the teacher asked for beliefs
    _snapshot: Snapshot = field(default_factory=lambda: Snapshot(None, 0), repr=False)
    _logs: dict[tuple[int | None, str], RunningLog] = field(default_factory=dict, repr=False)
    _logs_state: GameState[Any] | None = field(default=None, repr=False)  # the game `_logs` are of
    _seat_logs: dict[int | None, SeatLog] = field(default_factory=dict, repr=False)  # each seat's log, kept
    _seat_logs_state: GameState[Any] | None = field(default=None, repr=False)  # the game `_seat_logs` are of
    _acting: dict[int, frozenset[int]] = field(default_factory=dict, repr=False)  # `acting_at`, by step
    _acting_state: GameState[Any] | None = field(default=None, repr=False)  # the game `_acting` is of
    last_used: float = 0.0  # by the hall's clock: when a person or a program last opened or changed it
    committing: list[WaitingMove] | None = field(default=None, repr=False)  # the moves being committed now
    waiting: list[WaitingMove] = field(default_factory=list, repr=False)  # moves that wait for that commit
    joining: dict[int, str] = field(default_factory=dict, repr=False)  # seats held while a change of them is being
    # committed (a student sitting down, `Hall.join`; the teacher's `Change`), with the names sitting down
    # there: no one else gets the seat or the name meanwhile
    start_due: bool = False  # the file says the game started; it starts here once no seat is being joined
    plugin: GamePlugin = field(init=False, repr=False)  # the game's, looked up once (`games.plugin`)

    def __post_init__(self) -> None:
        self.plugin = games.plugin(self.package)

    @property
    def snapshot(self) -> Snapshot:
        """What the room knows of its game's current step, made afresh once when the step or the game changes."""
        state = self.state
        snapshot = self._snapshot
        if snapshot.state is not state or snapshot.step != (0 if state is None else len(state.history)):
            snapshot = self._snapshot = Snapshot(state, 0 if state is None else len(state.history))
        return snapshot

    def remember(self, key: Any, compute: Callable[[], Any]) -> Any:
        """`compute()` once per step of the game (tables and menus are asked for again and again by every page
        of a room between two moves): kept in the step's `snapshot`."""
        return self.snapshot.remember(key, compute)

    def running_log(self, seat: int | None, language: str) -> RunningLog:
        """`seat`'s log in `language`, kept from one table to the next: each step words its new lines only."""
        if self._logs_state is not self.state:  # a new game: its logs start afresh
            self._logs, self._logs_state = {}, self.state
        log = self._logs.get((seat, language))
        if log is None:
            log = self._logs[(seat, language)] = RunningLog(language, style=False,  # the pages link the stylesheet
                                                            plugin=self.plugin)
        return log

    @property
    def module(self) -> ModuleType:
        return self.plugin.load_module()

    @property
    def title(self) -> str:
        return self.plugin.title

    @property
    def step(self) -> int:
        """The number of moves played: the step the next move answers."""
        return 0 if self.state is None else len(self.state.history)

    @property
    def is_over(self) -> bool:
        return self.state is not None and self.state.is_over

    def view(self, seat: int | None) -> View | None:
        """What `seat` (None: the projector) may know now; None before the game starts. Each seat's log is
        kept from one step to the next (`SeatLog`): a step details only its new events."""
        state = self.state
        if state is None:
            return None
        if self._seat_logs_state is not state:  # a new game: its logs start afresh
            self._seat_logs, self._seat_logs_state = {}, state
        log = self._seat_logs.get(seat)
        if log is None:
            log = self._seat_logs[seat] = SeatLog(seat)
        views = self.snapshot.views
        view = views.get(seat)
        if view is None:
            view = views[seat] = state.view(seat, log)
        return view

    def acting_at(self, step: int) -> frozenset[int] | None:
        """The seats that were to act at `step` of the room's game (a move or a menu that answers an earlier step
        asks it, on Mafia's floor for nearly every testimony): as noted when the game moved on from that step
        (`apply`), else replayed once and kept; None if the game has no such step yet."""
        state = self.state
        if state is None or not 0 <= step <= len(state.history):
            return None
        if step == len(state.history):
            return frozenset(state.acting_seats)
        if self._acting_state is not state:  # a new game
            self._acting, self._acting_state = {}, state
        if step not in self._acting:
            self._acting[step] = acting_seats_at(state, step)
        return self._acting[step]

    def apply(self, row: ActionRow, checked: Action | None = None) -> None:
        """Play a stored move on the room's game, noting first who was to act at its step (`acting_at`): a
        replay of the game from its start for each step asked was 6 % of the class server's time flat out.
        `checked`: the move's action value, validated at this step already (`CheckedMove`): played unchecked."""
        state = self.state
        assert state is not None
        if self._acting_state is not state:
            self._acting, self._acting_state = {}, state
        self._acting[len(state.history)] = frozenset(state.acting_seats)
        if checked is None:
            state.apply(row.action, player=row.seat)
        else:
            state.apply_checked(checked, player=row.seat)
        self.actions.append(row)

    def legal_actions(self, seat: int) -> list[Any]:
        """The moves `seat` may make now ([] if it is not to act)."""
        state = self.state
        if state is None or seat not in state.acting_seats:
            return []
        return list(self._menu(state, seat))

    def _menu(self, state: GameState[Any], seat: int) -> list[Any]:
        """`seat`'s legal actions as the game handed them out at this step (the very list: `MoveTree.of`)."""
        legal = self.snapshot.legal
        menu = legal.get(seat)
        if menu is None:
            menu = legal[seat] = state.legal_actions(seat)
        return menu

    def menu_tree(self, seat: int) -> MoveTree:
        """`seat`'s legal actions as a tree of notation words, built once per menu (`MoveTree.of`): games hand
        the same menu out step after step (a Mafia floor of a thousand testimonies), and every word a student
        taps is an answer from it."""
        state = self.state
        if state is None or seat not in state.acting_seats:
            return MoveTree([])
        return MoveTree.of(self._menu(state, seat))

    def bot_for(self, seat: int) -> Bot | None:
        """The bot playing `seat` (built once per room and seat), or None for a person."""
        name = self.seats[seat].bot
        if name is None:
            self.bots.pop(seat, None)
            return None
        if seat not in self.bots:
            self.bots[seat] = games.make_bot(self.package, name)
        return self.bots[seat]

    def bot_to_move(self) -> int | None:
        """The first seat to act that a bot plays, or None."""
        if self.state is None or self.state.is_over:
            return None
        return next((seat for seat in self.state.acting_seats if self.seats[seat].bot is not None), None)

    def bot_rng(self, seat: int) -> random.Random:
        """The rng a bot gets for this step: from the room's seed, so replays and restarts agree."""
        return random.Random(f"classroom-{self.seed}-{self.step}-{seat}")

    def choice_of(self, bot: Bot, seat: int) -> Callable[[], str]:
        """A function choosing `bot`'s move at `seat` now, from the seat's view and legal actions only, taken now:
        views are frozen values, so the choice can run in a worker thread. The one place a bot's move is chosen
        (the seated bots, the teacher's step, a time limit's bot)."""
        view, legal, rng = self.view(seat), self.legal_actions(seat), self.bot_rng(seat)
        assert view is not None  # a seat acting now has a view (and a room's game is never taken away)
        return lambda: str(bot.choose(view, legal, rng))

    def bot_turn(self) -> tuple[int, int, Callable[[], str]] | None:
        """The bot to move: its seat, the step, and the function choosing its move (`choice_of`); None if no bot
        is to move."""
        seat = self.bot_to_move()
        if seat is None:
            return None
        bot = self.bot_for(seat)
        assert bot is not None
        return seat, self.step, self.choice_of(bot, seat)

    def record(self) -> dict[str, Any] | None:
        return None if self.state is None else self.state.record()

    def state_at(self, step: int) -> GameState[Any]:
        """The game as it was after `step` moves (replayed from the record: what a seat saw then)."""
        state = self.state
        assert state is not None and 0 <= step <= self.step
        if step == self.step:
            return state

        def replay() -> GameState[Any]:
            record = state.record()
            record["actions"] = record["actions"][:step]
            return type(state).from_record(record)
        return self.remember(("state_at", step), replay)

    def belief_questions(self, seat: int, step: int | None = None) -> list[BeliefQuestion]:
        """The questions `seat` is asked at `step` (default: now), from its view then alone: those its game's
        belief model sets at that moment (the teacher's ask included); none for a bot, a room that asks no
        beliefs, a game not started or over."""
        step = self.step if step is None else step
        if self.scoring is None or self.state is None or self.seats[seat].bot is not None or not 0 <= step <= self.step:
            return []
        state = self.state_at(step)
        if state.is_over:
            return []
        model = games.belief_model(self.package)
        assert model is not None, "a room asks beliefs only of a game with a belief model"
        view = self.view(seat) if step == self.step else state.view(seat)
        asked_at = max((asked for asked in self.asked_steps if asked <= step), default=None)
        return list(self.remember(("questions", seat, step, asked_at),
                                  lambda: games.belief_questions(model, view, asked_at)))

    def answered(self, seat: int) -> dict[str, BeliefRow]:
        """`seat`'s stated beliefs by question key (each key is answered once: a moment of the game, or an ask)."""
        return {row.key: row for row in self.beliefs if row.seat == seat}

    def names(self) -> list[str | None]:
        return [seat.name for seat in self.seats]


def acting_seats_at(state: GameState[Any], step: int) -> frozenset[int]:
    """The seats that were to act at the earlier `step` of `state`'s game (a replay of its record to there)."""
    record = state.record()
    record["actions"] = record["actions"][:step]
    return frozenset(type(state).from_record(record).acting_seats)
