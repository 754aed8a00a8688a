"""Rooms and seats: what the class server does, without the web.

A `Hall` holds every room of a server. A room holds one game of any of our games, a token per seat (the
unguessable credential in the seat's link), a token for the projector, and its flags (started, paused,
revealed, closed). People reach a seat through its token only; the teacher's controls need the teacher's
token, checked by the server before it calls the `Hall`.

Every method follows one order: check everything (a `Refused` error says what is wrong and changes nothing),
write the change to the `Store` in one transaction, change the room in memory, then tell the listeners (the
server, which tells the clients). So nobody hears of a change that is not on disk. The teacher's controls are
`Change`s, checked before any write: `run` waits for the write (code without an event loop), `run_async` awaits
it while the server's loop serves everyone else. A move names the step it answers (`step`, the number of moves
played when the seat saw the table): a resent or stale move is refused, never applied twice.

A room starts its game when every seat is filled, by a student who picked a name or by a bot the teacher
seated; the game's players are those names. Students who join by code take the first empty seat, or, in a room
opened with `draw_seats`, an empty seat drawn at random from the room's seed (the first to type the code is not
always the Godfather); before the start the teacher may place them anew (`swap_seats`: each link follows its
student). On the server's loop a class sits down without waiting for the disk (`join_async`, `claim_async`): each
student holds a seat and a name (`Room.joining`) while the writer commits them, so no two students get one seat;
the file says which fill started the game, and it starts in memory once every held seat is filled there too.
A room may limit the time of each move (`move_time_limit`): when it runs out, `time_up` lets the game's
`TIME_UP_BOT` play that seat's move. Bots the teacher seats play through `Bot.choose(view,
legal_actions, rng)`, with an rng seeded from the room's seed and the step, so a room's bot moves are the same
after a restart.

A room opened with `beliefs=True` asks its students what they believe (`tabletop_edu.beliefs`): at the moments
its game's belief model sets, and when the teacher asks, each seat is offered the model's questions for its own
view; a stated belief is checked (`parse_belief`), stored with the exact posterior of the seat's view at the
step it answers, and only then acknowledged. Beliefs are that seat's secret until the reveal.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any, Generic, TypeVar

from ..beliefs import SCORING_RULES, BeliefError, BeliefQuestion, parse_belief
from ..core import (Bot, GameState, IllegalAction, RecordError, RulesError, SeatLog, View, rules_from_dict,
                    rules_to_dict)
from ..core.errors import quote
from ..moves import MoveTree
from ..rendering import RunningLog
from . import games
from .store import (ActionRow, BeliefRow, BrokenRoom, RoomRow, SeatRow, Store, StorageBusy, close_job, flag_job,
                    meta_job, room_job, seat_job, seats_job, token_job)

log = logging.getLogger("tabletop_edu.classroom")
T = TypeVar("T")

#: Room codes use letters and digits no one confuses when read off a projector (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
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
#: Bytes of randomness in a seat's or projector's token (128 bits) and in the teacher's.
TOKEN_BYTES = 16
TEACHER_TOKEN_BYTES = 24
#: Seconds a revealed (or closed) room stays in memory with no page open on it; then it sleeps (only its code and
#: number stay in memory) until someone opens it again, when it comes back from the database.
FINISHED_IDLE = 600.0
#: What `Room.remember` finds for a key not computed yet at this step (None may be a value it keeps).
_NOT_YET = object()
#: The delay before a bot moves, so that a class can follow (tests use 0).
DEFAULT_BOT_DELAY = 0.8
MAX_BOT_DELAY = 30.0
#: The per-move time limit a teacher may set (`move_time_limit`, seconds), and the bot of the game that then
#: plays for a seat whose time ran out: every game has it, and a random move stands for no choice.
MIN_MOVE_TIME_LIMIT, MAX_MOVE_TIME_LIMIT = 5.0, 3600.0
TIME_UP_BOT = "random"


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
class Seat:
    """One seat of a room: its token, the name it plays under (None until claimed) and its bot, if any."""

    number: int
    token: str
    name: str | None = None
    bot: str | None = None

    @property
    def filled(self) -> bool:
        return self.name is not None


@dataclass
class WaitingMove:
    """A move checked when it arrived, waiting to be checked again and committed with its room's next group
    (`Hall.play_async`); `played` is done once it is played, or refused."""

    seat: int
    answered: Any  # the step the move answers, as the page sent it
    action: Any
    actor: str
    even_paused: bool
    played: asyncio.Future[None]
    committed_at: float = 0.0  # when its commit was known on the loop (`time.perf_counter`), once played

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
    (`Room.joining`: no student gets those seats or names meanwhile). `Hall.run` waits for it, `Hall.run_async`
    awaits it on an event loop."""

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
    seats: list[Seat]
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
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False)
    _memo_key: tuple[int, int] = (-1, -1)
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
    # committed (a student sitting down, `Hall.join_async`; the teacher's `Change`), with the names sitting down
    # there: no one else gets the seat or the name meanwhile
    start_due: bool = False  # the file says the game started; it starts here once no seat is being joined

    def remember(self, key: Any, compute: Callable[[], Any]) -> Any:
        """`compute()` once per step of the game (views, legal actions and menus are asked for again and
        again by every page of a room between two moves)."""
        current = (id(self.state), self.step)
        if self._memo_key != current:
            self._memo, self._memo_key = {}, current
        value = self._memo.get(key, _NOT_YET)  # one look-up: a table's key holds what it shows, hashed each time
        if value is _NOT_YET:
            value = self._memo[key] = compute()
        return value

    def running_log(self, seat: int | None, language: str) -> RunningLog:
        """`seat`'s log in `language`, kept from one table to the next: each step words its new lines only."""
        if self._logs_state is not self.state:  # a new game: its logs start afresh
            self._logs, self._logs_state = {}, self.state
        log = self._logs.get((seat, language))
        if log is None:
            log = self._logs[(seat, language)] = RunningLog(language, style=False)  # the pages link the stylesheet
        return log

    @property
    def module(self) -> ModuleType:
        return games.game_module(self.package)

    @property
    def title(self) -> str:
        return games.title(self.package)

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
        return self.remember(("view", seat), lambda: state.view(seat, log))

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

    def apply(self, row: ActionRow) -> None:
        """Play a stored move on the room's game, noting first who was to act at its step (`acting_at`): a
        replay of the game from its start for each step asked was 6 % of the class server's time flat out."""
        state = self.state
        assert state is not None
        if self._acting_state is not state:
            self._acting, self._acting_state = {}, state
        self._acting[len(state.history)] = frozenset(state.acting_seats)
        state.apply(row.action, player=row.seat)
        self.actions.append(row)

    def legal_actions(self, seat: int) -> list[Any]:
        """The moves `seat` may make now ([] if it is not to act)."""
        state = self.state
        if state is None or seat not in state.acting_seats:
            return []
        return list(self.remember(("legal", seat), lambda: state.legal_actions(seat)))

    def menu_tree(self, seat: int) -> MoveTree:
        """`seat`'s legal actions as a tree of notation words, built once per menu (`MoveTree.of`): games hand
        the same menu out step after step (a Mafia floor of a thousand testimonies), and every word a student
        taps is an answer from it."""
        state = self.state
        if state is None or seat not in state.acting_seats:
            return MoveTree([])
        return MoveTree.of(self.remember(("legal", seat), lambda: state.legal_actions(seat)))

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
        return self.remember(("state_at", step), replay)  # type: ignore[no-any-return]

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


class Hall:
    """Every room of a server, backed by a `Store`; `listeners` hear of each room that changed.

    `rooms` holds the rooms in memory. A revealed or closed room nobody has opened for `FINISHED_IDLE` seconds
    goes to sleep (`sweep`): `asleep` keeps only its number, and finding it again (its code, a link) reads it
    back from the store, so a long school day of finished games does not pile up in memory."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self.asleep: dict[str, int] = {}  # code -> number of the rooms asleep
        self.asleep_over: dict[str, bool] = {}  # whether their game was over (a closed room's may not be)
        self.listeners: list[Callable[[Room], None]] = []
        self.rooms: dict[str, Room] = {}
        self.broken: dict[str, str] = {}
        self._broken_numbers: set[int] = set()
        self._seat_tokens: dict[str, tuple[Room, Seat]] = {}
        self._watch_tokens: dict[str, Room] = {}
        token = store.meta("teacher_token")
        if token is None:
            token = new_token(TEACHER_TOKEN_BYTES)
            store.set_meta("teacher_token", token)
        self.teacher_token = token
        self.belief_desk = BeliefDesk(self)
        for row in store.rooms():
            if isinstance(row, BrokenRoom):
                self._set_broken(row.code, row.number, row.reason)
                continue
            try:
                self._load(row)
            except Exception as error:  # noqa: BLE001 - one room that cannot be read must not stop the others
                reason = str(error) if isinstance(error, (RecordError, RulesError, IllegalAction, Refused)) \
                    else f"{type(error).__name__}: {error}"
                self._set_broken(row.code, row.number, reason)

    def _set_broken(self, code: str, number: int | None, reason: str) -> None:
        """A room that cannot be read: kept on disk, listed to the teacher with its reason, never half-loaded
        (its code and number stay taken)."""
        self.broken[code] = one_line(reason)
        if number is not None:
            self._broken_numbers.add(number)
        log.warning("room %s cannot be loaded and is left out: %s", one_line(code, 40), self.broken[code])

    # ---------------------------------------------------------------- loading and telling

    def _load(self, row: RoomRow) -> None:
        self._add(self._build(row))

    def _build(self, row: RoomRow) -> Room:
        """A stored room, its game replayed from its moves."""
        module = games.game_module(row.game)
        rules = rules_from_dict(module.Rules, row.rules)
        seats = [Seat(seat.seat, seat.token, seat.name, seat.bot) for seat in self.store.seats(row.code)]
        room = Room(row.code, row.number, row.game, row.seed, rules, row.language, row.bot_delay, row.watch_token,
                    seats, started=row.started, paused=row.paused, revealed=row.revealed, closed=row.closed,
                    draw_seats=self.store.meta(draw_seats_key(row.code)) == "1",
                    move_time_limit=stored_time_limit(self.store.meta(time_limit_key(row.code))))
        self._load_beliefs(room)
        if room.started:
            room.state = self._new_state(room)
            for action in self.store.actions(row.code):
                if action.step != room.step:
                    raise RecordError(f"room {row.code}: step {action.step} follows step {room.step - 1}.")
                room.apply(action)
        return room

    def _load_beliefs(self, room: Room) -> None:
        """A room's belief options and stated beliefs, read back from the store."""
        scoring = self.store.meta(beliefs_key(room.code))
        if scoring is None:
            return
        if scoring not in SCORING_RULES or games.belief_model(room.package) is None:
            raise RecordError(f"room {room.code}: it asks beliefs scored by {scoring!r}, which cannot be served.")
        room.scoring = scoring
        room.asked_steps = set(json.loads(self.store.meta(asked_key(room.code)) or "[]"))
        room.beliefs = self.store.beliefs(room.code)

    def _add(self, room: Room) -> None:
        room.last_used = self.clock()
        self.rooms[room.code] = room
        if not room.closed:
            self._watch_tokens[room.watch_token] = room
            for seat in room.seats:
                self._seat_tokens[seat.token] = (room, seat)

    def _new_state(self, room: Room) -> GameState[Any]:
        names = [seat.name for seat in room.seats]
        state: GameState[Any] = room.module.new_game(names, seed=room.seed, rules=room.rules)
        return state

    def _tell(self, room: Room) -> None:
        room.last_used = self.clock()
        for listener in list(self.listeners):
            listener(room)

    # ---------------------------------------------------------------- sleeping rooms

    def sweep(self, in_use: Callable[[str], bool] = lambda code: False, idle: float = FINISHED_IDLE) -> list[str]:
        """Put to sleep every revealed or closed room idle for `idle` seconds that no page has open
        (`in_use(code)`); returns their codes."""
        now = self.clock()
        sleepy = [room for room in self.rooms.values()
                  if (room.closed or room.revealed and room.is_over) and now - room.last_used >= idle
                  and not in_use(room.code) and room.committing is None]
        for room in sleepy:
            del self.rooms[room.code]
            self._watch_tokens.pop(room.watch_token, None)
            for seat in room.seats:
                self._seat_tokens.pop(seat.token, None)
            self.asleep[room.code] = room.number
            self.asleep_over[room.code] = room.is_over
        return [room.code for room in sleepy]

    def _wake(self, code: str) -> Room | None:
        """The sleeping room `code`, read back from the store (None if no room sleeps under that code)."""
        if code not in self.asleep:
            return None
        row = self.store.room(code)
        if not isinstance(row, RoomRow):
            return None
        room = self._build(row)
        del self.asleep[code]
        self.asleep_over.pop(code, None)
        self._add(room)
        return room

    def sleeping(self, code: str) -> Room | None:
        """A sleeping room read from the store for one look (a record, a listing), left asleep."""
        row = self.store.room(code) if code in self.asleep else None
        return self._build(row) if isinstance(row, RoomRow) else None

    def sleeping_summaries(self) -> list[dict[str, Any]]:
        """What the teacher's list of rooms shows of each sleeping room, read from the store (no replay)."""
        rows = [self.store.room(code) for code in self.asleep]
        return [{"code": row.code, "number": row.number, "game": row.game, "title": games.title(row.game),
                 "step": self.store.step_count(row.code), "started": row.started,
                 "over": self.asleep_over.get(row.code, True), "closed": row.closed}
                for row in rows if isinstance(row, RoomRow)]

    def _touch(self, room: Room) -> Room:
        room.last_used = self.clock()
        return room

    # ---------------------------------------------------------------- finding rooms and seats

    def room(self, code: Any) -> Room:
        """The room with this code (any case), or `Refused`."""
        text = code.strip().upper() if isinstance(code, str) else ""
        room = self.rooms.get(text) or self._wake(text)
        if room is None:
            raise Refused("unknown_room", f"There is no room {quote(str(code))}: check the code.", 404,
                          fr=f"Il n'y a pas de salle {quote(str(code))} : vérifiez le code.")
        return self._touch(room)

    def open_room(self, room_code: Any) -> Room:
        room = self.room(room_code)
        if room.closed:
            raise Refused("closed", "This room is closed.", 410)
        return room

    def seat_of(self, token: Any) -> tuple[Room, Seat]:
        """The room and seat a token opens, or `Refused` (unknown, or expired: a replaced link, a closed room)."""
        found = self._seat_tokens.get(token) if isinstance(token, str) else None
        if found is None and self.asleep and isinstance(token, str) and self._wake_by_token(token):
            found = self._seat_tokens.get(token)
        if found is None:
            self._refuse_token(token)
        assert found is not None
        self._touch(found[0])
        return found

    def watched(self, token: Any) -> Room:
        """The room a projector token shows, or `Refused`."""
        room = self._watch_tokens.get(token) if isinstance(token, str) else None
        if room is None and self.asleep and isinstance(token, str) and self._wake_by_token(token):
            room = self._watch_tokens.get(token)
        if room is None:
            self._refuse_token(token)
        assert room is not None
        return self._touch(room)

    def _wake_by_token(self, token: str) -> bool:
        """Wake the sleeping room a seat's or projector's token belongs to; False if none does."""
        code = self.store.room_of_token(token) if len(token) < 100 else None
        return code is not None and self._wake(code) is not None

    def _refuse_token(self, token: Any) -> None:
        if isinstance(token, str) and len(token) < 100 and self.store.expired(token) is not None:
            raise Refused("expired_token", "This link has expired: ask your teacher for a new one.", 410)
        raise Refused("unknown_token", "No seat has this link: check it, or ask your teacher.", 404)

    # ---------------------------------------------------------------- the teacher's controls

    def create_room(self, game: str | ModuleType, players: int, **options: Any) -> Room:
        """A new room (`creating`)."""
        return self.run(self.creating(game, players, **options))

    def creating(self, game: str | ModuleType, players: int, *, seed: int | None = None,
                 rules: Any = None, language: str = "en", bots: Mapping[int, str] | None = None,
                 bot_delay: float = DEFAULT_BOT_DELAY, draw_seats: bool = False, beliefs: bool = False,
                 scoring: str = SCORING_RULES[0], move_time_limit: float | None = None) -> Change[Room]:
        """A new room for `players` seats of `game`; `bots` seats bots at once (seat -> bot name);
        `draw_seats`: students joining by code sit at empty seats drawn at random (from the seed); `beliefs`:
        the students are asked what they believe, their answers scored by `scoring` ("brier" or "log");
        `move_time_limit`: seconds a student has for each move, after which a bot plays it for them. Its bots are
        seated in the same write; a room of bots only starts at once."""
        package = games.game_package(game)
        module = games.game_module(package)
        state_class = module.State
        if isinstance(players, bool) or not isinstance(players, int) or \
                not state_class.min_players <= players <= state_class.max_players:
            raise Refused("bad_request", f"{state_class.title} is played by {state_class.min_players} to "
                          f"{state_class.max_players} players, not {quote(repr(players))}.")
        if seed is None:
            seed = secrets.randbelow(2**32)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise Refused("bad_request", f"A seed is a whole number from 0 to 2**63 - 1, not {quote(repr(seed))}.")
        if language not in ("en", "fr"):
            raise Refused("bad_request", f"The language is 'en' or 'fr', not {quote(repr(language))}.")
        if isinstance(bot_delay, bool) or not isinstance(bot_delay, (int, float)) or \
                not 0 <= bot_delay <= MAX_BOT_DELAY:
            raise Refused("bad_request", f"bot_delay is a number of seconds from 0 to {MAX_BOT_DELAY}.")
        if not isinstance(draw_seats, bool):
            raise Refused("bad_request", f"draw_seats is true or false, not {quote(repr(draw_seats))}.")
        self._check_belief_options(package, beliefs, scoring)
        check_time_limit(move_time_limit)
        try:
            if rules is None:
                rules = module.Rules()
            elif isinstance(rules, Mapping):
                rules = rules_from_dict(module.Rules, rules)
            module.new_game(players, seed=seed, rules=rules)  # refuses rules that make no game, before any write
        except (RulesError, TypeError, ValueError) as error:
            raise Refused("bad_request", f"These rules make no game of {state_class.title}: {error}") from None
        bots = dict(bots or {})
        for seat, bot in bots.items():
            if not isinstance(seat, int) or not 0 <= seat < players:
                raise Refused("bad_request", f"There is no seat {quote(repr(seat))} for a bot.")
            self._check_bot(package, bot)
        code = self._new_code()
        number = 1 + max([room.number for room in self.rooms.values()] + list(self._broken_numbers)
                         + list(self.asleep.values()), default=0)
        seats = [Seat(seat, new_token()) for seat in range(players)]
        room = Room(code, number, package, seed, rules, language, float(bot_delay), new_token(), seats,
                    draw_seats=draw_seats, scoring=scoring if beliefs else None,
                    move_time_limit=None if move_time_limit is None else float(move_time_limit))
        for seat, bot in sorted(bots.items()):
            seats[seat].name, seats[seat].bot = self._bot_name(room, seat, bot), bot
        starts = all(seat.filled for seat in seats)
        options = {draw_seats_key(code): "1"} if draw_seats else {}
        if beliefs:
            options[beliefs_key(code)] = scoring
        if move_time_limit is not None:
            options[time_limit_key(code)] = repr(float(move_time_limit))
        write = room_job(RoomRow(code, number, package, players, seed, rules_to_dict(rules), language,
                                 float(bot_delay), room.watch_token, starts, False, False, False),
                         [SeatRow(code, seat.number, seat.token, seat.name, seat.bot) for seat in seats],
                         options or None)

        def apply(_: None) -> Room:
            self._add(room)
            if starts:
                room.state = self._new_state(room)
                room.started = True
            return room

        return Change(room, lambda: self.store.submit(write), apply)

    @staticmethod
    def _check_belief_options(package: str, beliefs: Any, scoring: Any) -> None:
        if not isinstance(beliefs, bool):
            raise Refused("bad_request", f"beliefs is true or false, not {quote(repr(beliefs))}.")
        if scoring not in SCORING_RULES:
            raise Refused("bad_request", f"The scoring rule is {' or '.join(map(repr, SCORING_RULES))}, not "
                          f"{quote(repr(scoring))}.")
        if beliefs and games.belief_model(package) is None:
            raise Refused("bad_request", f"{games.title(package)} asks no belief questions: open the room without "
                          "beliefs.")

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and code not in self.broken and code not in self.asleep:
                return code

    def _check_bot(self, package: str, bot: Any) -> str:
        try:
            games.make_bot(package, bot)
        except ValueError as error:
            raise Refused("bad_request", str(error)) from None
        return str(bot)

    def _seat(self, room: Room, seat: Any) -> Seat:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(room.seats):
            raise Refused("bad_request", f"There is no seat {quote(repr(seat))} in room {room.code}.")
        return room.seats[seat]

    def seat_bot(self, code: str, seat_number: int, bot: str) -> Seat:
        """Seat a bot of the game at a seat (`seating_bot`)."""
        return self.run(self.seating_bot(code, seat_number, bot))

    def seating_bot(self, code: str, seat_number: int, bot: str) -> Change[Seat]:
        """A bot of the game at a seat: an empty one before the start, any seat after (a student left)."""
        room = self.open_room(code)
        seat = self._seat(room, seat_number)
        bot = self._check_bot(room.package, bot)
        if not room.started and seat.filled and seat.bot is None:
            raise Refused("seat_taken", f"{seat.name} sits at seat {seat.number}: a bot takes an empty seat.")
        self._check_not_joining(room, seat)
        name = seat.name if room.started and seat.name is not None else self._bot_name(room, seat.number, bot)
        return self._filling(room, seat, name, bot)

    @staticmethod
    def _check_not_joining(room: Room, *seats: Seat) -> None:
        """`Refused` while a student sits down at one of `seats` (a moment: `join_async`), or, before the start,
        with no seat named, at any seat of the room (a seat emptied or moved meanwhile could leave the game
        started by a student's seat with a seat empty)."""
        busy = [seat.number for seat in seats if seat.number in room.joining] if seats else \
            sorted(room.joining) if not room.started else []
        if busy:
            raise Refused("seat_joining", f"A student is sitting down at seat {busy[0]} right now: try again in a "
                          "moment.", 409, fr=f"Un élève s'installe à la place {busy[0]} en ce moment : réessayez "
                          "dans un instant.")

    def _bot_name(self, room: Room, seat: int, bot: str, names: Sequence[str | None] | None = None) -> str:
        """A bot's name after its seat, unlike the other seats' `names` (by default, the room's now)."""
        word = "Robot" if room.language == "fr" else "Bot"  # the room's language names its bots
        name = f"{word} {seat} ({bot})"[:MAX_NAME]
        names = room.names() if names is None else names
        taken = {name_key(other) for number, other in enumerate(names) if other and number != seat}
        while name_key(name) in taken:
            name = (name[:MAX_NAME - 1] + "'")
        return name

    def remove_bot(self, code: str, seat_number: int) -> Seat:
        """Take a bot off a seat (`unseating_bot`)."""
        return self.run(self.unseating_bot(code, seat_number))

    def unseating_bot(self, code: str, seat_number: int) -> Change[Seat]:
        """A bot taken off a seat: before the start the seat is empty again; after, a person plays it."""
        room = self.open_room(code)
        seat = self._seat(room, seat_number)
        if seat.bot is None:
            raise Refused("no_bot", f"No bot sits at seat {seat.number}.")
        self._check_not_joining(room)
        name = seat.name if room.started else None

        def apply(_: None) -> Seat:
            seat.name, seat.bot = name, None
            room.bots.pop(seat.number, None)
            return seat

        return Change(room, lambda: self.store.submit(seat_job(room.code, seat.number, name, None)), apply,
                      held={seat.number: ""})

    def new_link(self, code: str, seat_number: int) -> Seat:
        """Give a seat a new token (`relinking`)."""
        return self.run(self.relinking(code, seat_number))

    def relinking(self, code: str, seat_number: int) -> Change[Seat]:
        """A seat's new token (a lost phone, a link shared by mistake): the old link expires at once."""
        room = self.open_room(code)
        seat = self._seat(room, seat_number)
        self._check_not_joining(room, seat)
        old, new = seat.token, new_token()

        def apply(_: None) -> Seat:
            self._seat_tokens.pop(old, None)
            seat.token = new
            if not room.closed:
                self._seat_tokens[new] = (room, seat)
            return seat

        return Change(room, lambda: self.store.submit(token_job(room.code, seat.number, old, new)), apply,
                      held={seat.number: seat.name or ""})

    def swap_seats(self, code: str, first: int, second: int) -> Room:
        """Two seats exchange who sits there (`swapping`)."""
        return self.run(self.swapping(code, first, second))

    def swapping(self, code: str, first: int, second: int) -> Change[Room]:
        """The teacher places students before the game starts (who is the Godfather): seats `first` and `second`
        exchange who sits there, a student, a bot or nobody. A student's link follows them (their page now shows
        their new seat); a bot is named after its new seat. Refused once the game started."""
        room = self.open_room(code)
        one, other = self._seat(room, first), self._seat(room, second)
        if room.started:
            raise Refused("started", "Students are placed before the game starts; this game has started.", 409,
                          fr="Les élèves se placent avant le début de la partie ; celle-ci a commencé.")
        if one is other:
            raise Refused("bad_request", f"Seat {one.number} is already seat {one.number}: pick another seat.")
        self._check_not_joining(room)
        if not one.filled and not other.filled:
            raise Refused("bad_request", f"Seats {one.number} and {other.number} are both empty: nobody to move.")
        moved = [SeatRow(room.code, seat.number, came.token, came.name, came.bot)
                 for seat, came in ((one, other), (other, one))]
        names = room.names()
        for row in moved:
            names[row.seat] = row.name
        for index, row in enumerate(moved):
            if row.bot is not None:
                names[row.seat] = self._bot_name(room, row.seat, row.bot, names)
                moved[index] = replace(row, name=names[row.seat])

        def apply(_: None) -> Room:
            for row in moved:
                seat = room.seats[row.seat]
                seat.token, seat.name, seat.bot = row.token, row.name, row.bot
                if not room.closed:
                    self._seat_tokens[seat.token] = (room, seat)
                room.bots.pop(seat.number, None)
            return room

        return Change(room, lambda: self.store.submit(seats_job(room.code, moved)), apply,
                      held={row.seat: row.name or "" for row in moved})

    def set_paused(self, code: str, paused: bool) -> Room:
        return self.run(self.pausing(code, paused))

    def pausing(self, code: str, paused: bool) -> Change[Room]:
        """The room paused (`paused`) or resumed: students and bots wait, the teacher may still step."""
        room = self.open_room(code)

        def apply(_: None) -> Room:
            room.paused = paused
            return room

        return Change(room, lambda: self.store.submit(flag_job(room.code, "paused", paused)), apply)

    def reveal(self, code: str) -> Room:
        return self.run(self.revealing(code))

    def revealing(self, code: str) -> Change[Room]:
        """Show every page the whole table: only once the game is over."""
        room = self.open_room(code)
        if not room.is_over:
            raise Refused("not_over", "The table is revealed at the end of the game only.")

        def apply(_: None) -> Room:
            room.revealed = True
            return room

        return Change(room, lambda: self.store.submit(flag_job(room.code, "revealed", True)), apply)

    def close(self, code: str) -> Room:
        return self.run(self.closing(code))

    def closing(self, code: str) -> Change[Room]:
        """Close a room: every link of it expires; its record stays for the analysis."""
        room = self.open_room(code)
        tokens = [seat.token for seat in room.seats] + [room.watch_token]

        def apply(_: None) -> Room:
            room.closed = True
            for token in [*tokens, *(seat.token for seat in room.seats)]:
                self._seat_tokens.pop(token, None)
                self._watch_tokens.pop(token, None)
            return room

        return Change(room, lambda: self.store.submit(close_job(room.code, tokens)), apply)

    # ---------------------------------------------------------------- changes, committed then made

    def run(self, change: Change[T]) -> T:
        """`change` committed, waited for here (code without an event loop: tests, scripts), then made in memory
        and told. A change that could not be stored changes nothing and is refused (`storage_refusal`)."""
        result = self._save(lambda: change.write().result())
        return self._made(change, result)

    async def run_async(self, change: Change[T]) -> T:
        """`run` on an event loop: the loop serves everyone else while the writer commits the change, grouped with
        the other writes of the moment; its seats are held meanwhile (`Change.held`). It is made in memory and
        told by the loop's first callback after its commit, in the order of the commits, even if its caller is
        gone. A change that could not be stored changes nothing and is refused."""
        loop = asyncio.get_running_loop()
        made: asyncio.Future[T] = loop.create_future()
        made.add_done_callback(lambda done: done.cancelled() or done.exception())  # none waits: no warning
        room = change.room

        def committed(future: Future[Any]) -> None:  # on the loop, in the order of the commits
            for seat in change.held:
                del room.joining[seat]
            try:
                result = future.result()
            except Exception as error:  # noqa: BLE001 - refused with a reason a student understands
                if self._start_if_due(room):  # a fill committed meanwhile waited for these seats
                    self._tell(room)
                if not made.done():
                    made.set_exception(storage_refusal(error))
                return
            try:
                value = self._made(change, result)
            except Exception as error:  # noqa: BLE001 - raised to its caller, as if made there
                if not made.done():
                    made.set_exception(error)
                return
            if not made.done():
                made.set_result(value)

        def on_commit(future: Future[Any]) -> None:  # on the writer's thread
            if not loop.is_closed():
                loop.call_soon_threadsafe(committed, future)

        taken = sorted(set(change.held) & set(room.joining))
        if taken:  # each change checks its seats first: two holds of one seat would be a bug of the checks
            raise Refused("seat_joining", f"Seat {taken[0]} is being changed right now: try again in a moment.", 409,
                          fr=f"La place {taken[0]} est en train de changer : réessayez dans un instant.")
        room.joining.update(change.held)
        try:
            change.write().add_done_callback(on_commit)
        except BaseException:
            for seat in change.held:
                del room.joining[seat]
            raise
        return await made

    def _made(self, change: Change[T], result: Any) -> T:
        """A committed change, made in memory and told."""
        value = change.apply(result)
        self._start_if_due(change.room)
        self._tell(change.room)
        return value

    # ---------------------------------------------------------------- students

    def claim(self, token: str, name: Any) -> tuple[Room, Seat]:
        """A student opened a seat's link and picked a name."""
        room, seat, name = self._claimed(token, name)
        self.run(self._filling(room, seat, name, None))
        return room, seat

    async def claim_async(self, token: str, name: Any) -> tuple[Room, Seat]:
        """`claim` on an event loop: the loop serves everyone else while the writer commits the seat."""
        room, seat, name = self._claimed(token, name)
        await self.run_async(self._filling(room, seat, name, None))
        return room, seat

    def join(self, code: Any, name: Any) -> tuple[Room, Seat]:
        """A student typed the room code and a name: the first empty seat is theirs (in a `draw_seats` room, an
        empty seat drawn from the room's seed and the number of empty seats)."""
        room, seat, name = self._joined(code, name)
        self.run(self._filling(room, seat, name, None))
        return room, seat

    async def join_async(self, code: Any, name: Any) -> tuple[Room, Seat]:
        """`join` on an event loop: a class typing the code at once is seated while the loop serves everyone
        else, each student at a seat of their own (`run_async` holds it while the writer commits it)."""
        room, seat, name = self._joined(code, name)
        await self.run_async(self._filling(room, seat, name, None))
        return room, seat

    def _claimed(self, token: str, name: Any) -> tuple[Room, Seat, str]:
        """The room, seat and name of a claim, or `Refused`."""
        room, seat = self.seat_of(token)
        if seat.filled or seat.number in room.joining:
            raise Refused("seat_taken", "This seat already has a player: open your own link.", 409)
        return room, seat, self._free_name(room, name)

    def _joined(self, code: Any, name: Any) -> tuple[Room, Seat, str]:
        """The room, seat and name of a join by code, or `Refused`."""
        room = self.open_room(code)
        name = self._free_name(room, name)
        empty = [seat for seat in room.seats if not seat.filled and seat.number not in room.joining]
        if not empty:
            raise Refused("room_full", f"Room {room.code} is full. If you had a seat, open it again from the browser "
                          "you joined with, or ask your teacher for your link.", 409,
                          fr=f"La salle {room.code} est pleine. Si vous aviez une place, rouvrez-la depuis le "
                          "navigateur avec lequel vous l'aviez rejointe, ou demandez votre lien à l'enseignant.")
        seat = random.Random(f"classroom-seats-{room.seed}-{len(empty)}").choice(empty) if room.draw_seats \
            else empty[0]
        return room, seat, name

    def _free_name(self, room: Room, name: Any) -> str:
        text = clean_name(name)
        names = [seat.name for seat in room.seats if seat.name is not None] + list(room.joining.values())
        if any(name_key(other) == name_key(text) for other in names):
            raise Refused("name_taken", f"{quote(text)} is already taken in this room: pick another name. If it is "
                          "you, open the join page again in the browser you joined with, or ask your teacher for "
                          "your link.", 409,
                          fr=f"{quote(text)} est déjà pris dans cette salle : choisissez un autre nom. Si c'est "
                          "vous, "
                          "rouvrez la page pour rejoindre dans le navigateur avec lequel vous l'aviez rejointe, ou "
                          "demandez votre lien à l'enseignant.")
        return text

    def _filling(self, room: Room, seat: Seat, name: str, bot: str | None) -> Change[Seat]:
        """A seat given its name and bot, starting the game when the file says this filled its last empty seat
        (and every seat held meanwhile is filled here too: `_start_if_due`)."""
        def apply(started: bool) -> Seat:
            seat.name, seat.bot = name, bot
            room.bots.pop(seat.number, None)
            room.start_due = room.start_due or started
            return seat

        return Change(room, lambda: self.store.submit_fill(room.code, seat.number, name=name, bot=bot), apply,
                      held={seat.number: name})

    def _start_if_due(self, room: Room) -> bool:
        """Start the game the file says started, once every seat being joined is filled here too (the players
        are the seats' names): True if it started now."""
        if room.started or not room.start_due or room.joining:
            return False
        room.state = self._new_state(room)
        room.started = True
        return True

    # ---------------------------------------------------------------- moves

    def play(self, room: Room, seat: int, step: Any, action: Any, actor: str = "seat",
             even_paused: bool = False) -> None:
        """Play `action` (its text) for `seat`, answering `step`; refused unless it is that seat's move now.
        `actor` is stored with the move ("seat", "bot"); `even_paused` is for the teacher's step.

        The move is checked (`GameState.check`, which changes nothing), committed, and only then played in
        memory and told: a move that could not be stored changes nothing. This waits for the commit; the
        server, on its event loop, uses `play_async` instead."""
        step, text = self._checked_move(room, seat, step, action, even_paused)
        at = self._save(lambda: self.store.add_action(room.code, step, seat, text, actor))
        self._played(room, [ActionRow(room.code, step, seat, text, actor, at)])

    async def play_async(self, room: Room, seat: int, step: Any, action: Any, actor: str = "seat",
                         even_paused: bool = False) -> float:
        """`play` on an event loop: the loop serves everyone else while the writer commits the move.

        A move is checked when it arrives (a move out of date is refused at once). The good ones that arrive
        while a move of their room is being committed (students testifying at once on Mafia's floor, a
        simultaneous choice tapped at the same moment) wait for that commit, then are checked in their order,
        each after the ones before it, and the good ones are committed together: one commit and one new table
        for the lot, not one after another. The committed moves are played and told by the loop's first
        callback after their commit, even if their waiters are gone. Returns when that callback ran
        (`time.perf_counter`): the move's table was due from then (`classroom.waits`)."""
        self._checked_move(room, seat, step, action, even_paused)  # out of date: refused now
        move = WaitingMove(seat, step, action, actor, even_paused, asyncio.get_running_loop().create_future())
        room.waiting.append(move)
        if room.committing is None:
            self._commit_waiting(room)
        await move.played
        return move.committed_at

    def _commit_waiting(self, room: Room) -> None:
        """Check the room's waiting moves in their order, each on the game as the moves before it leave it (a
        copy), refuse the ones that no longer fit and hand the others to the writer in one job."""
        loop = asyncio.get_running_loop()
        waiting, room.waiting = room.waiting, []
        rows: list[ActionRow]
        game, rows, movers = room.state, [], []
        for move in waiting:
            try:
                step, text = self._checked_move(room, move.seat, move.answered, move.action, move.even_paused, game)
                if len(rows) + 1 < len(waiting):  # a move after it is checked on the game with this one played
                    assert game is not None  # `_checked_move` refused a room without a game
                    game = game.clone() if game is room.state else game
                    game.apply(text, player=move.seat)
            except Exception as refusal:  # noqa: BLE001 - `Refused`, or raised to its waiter as if played there
                move.settle(refusal)
                continue
            rows.append(ActionRow(room.code, step, move.seat, text, move.actor, 0.0))
            movers.append(move)
        if not rows:
            return
        room.committing = movers

        def committed(future: Future[float]) -> None:  # on the loop
            now = time.perf_counter()
            for move in movers:
                move.committed_at = now
            outcome: BaseException | None = None
            try:
                at = future.result()
            except Exception as error:  # noqa: BLE001 - refused with a reason a student understands
                outcome = storage_refusal(error)
            else:
                try:
                    self._played(room, [replace(row, at=at) for row in rows])
                except Exception as error:  # noqa: BLE001 - raised to the waiters, as if played there
                    outcome = error
            room.committing = None
            for move in movers:
                move.settle(outcome)
            if room.waiting:
                self._commit_waiting(room)

        def on_commit(future: Future[float]) -> None:  # on the writer's thread
            if not loop.is_closed():
                loop.call_soon_threadsafe(committed, future)

        try:
            self.store.submit_actions(room.code, [(row.step, row.seat, row.action, row.actor) for row in rows]) \
                .add_done_callback(on_commit)
        except BaseException as error:
            room.committing = None  # nothing was queued: the room's next move need not wait for these
            for move in movers:
                move.settle(error)
            raise

    def _checked_move(self, room: Room, seat: int, step: Any, action: Any, even_paused: bool,
                      game: GameState[Any] | None = None) -> tuple[int, str]:
        """(the step, the text to store) of a move `seat` may make now on `game` (default: the room's), or
        `Refused` saying why."""
        if room.closed:
            raise Refused("closed", "This room is closed.", 410)
        state = room.state if game is None else game
        if state is None:
            raise Refused("not_started", "The game starts when every seat has a player.")
        if isinstance(step, bool) or not isinstance(step, int):
            raise Refused("malformed", "A move names the step it answers, a whole number.")
        if not isinstance(action, str) or not action.strip():
            raise Refused("malformed", "A move is a text, like 'take 3'.")
        if state.is_over:
            raise Refused("over", "The game is over.")
        now = len(state.history)
        if step != now and not self.same_choice_still_open(state, seat, step, room.acting_at):
            raise Refused("stale", f"This move answers step {step}, but the table is at step {now}: "
                          "look again.", 409)
        if room.paused and not even_paused:
            raise Refused("paused", "The teacher paused the game.", 409)
        if seat not in state.acting_seats:
            raise Refused("not_your_turn", "It is not your turn.", 409)
        try:
            return now, state.check(action, player=seat)
        except IllegalAction as reason:
            raise Refused("illegal", str(reason)) from None

    def _played(self, room: Room, rows: Sequence[ActionRow]) -> None:
        """Committed moves, played in memory in their order and told once."""
        assert room.state is not None
        for row in rows:
            room.apply(row)
        self._tell(room)

    @staticmethod
    def _save(write: Callable[[], T]) -> T:
        """Run one write of the store; a write that fails changes nothing and is refused (`storage_refusal`)."""
        try:
            return write()
        except Exception as error:  # noqa: BLE001 - a disk full, a file gone: refused, never a crash
            raise storage_refusal(error) from None

    @staticmethod
    def same_choice_still_open(state: GameState[Any], seat: int, step: int,
                               acting_at: Callable[[int], frozenset[int] | None] | None = None) -> bool:
        """Whether a move answering the earlier `step` still answers the seat's decision now in `state`: since
        that step only other seats moved, every one of them choosing at that step together with `seat` (a
        simultaneous choice: Commissario's picks, Get Adler's answers to an arrest), and `seat` is still to act.
        Students tapping at the same moment then all get their choice in, instead of all but the fastest being
        told to look again at a table that only says who else has chosen. `acting_at(step)`: the seats to act
        then, when the caller keeps them (`Room.acting_at`); else the game is replayed to that step."""
        if not 0 <= step < len(state.history) or seat not in state.acting_seats:
            return False
        movers = {mover for mover, _ in state.history[step:]}
        if seat in movers:
            return False
        then = None if acting_at is None else acting_at(step)
        if then is None:
            then = acting_seats_at(state, step)
        return seat in then and movers <= then

    def bot_choice(self, room: Room) -> tuple[int, int, str] | None:
        """(seat, step, action text) the bot to move would play now, or None if no bot is to move.

        Computed from the seat's view and legal actions alone; the server runs it in a worker thread and then
        plays it with `play(..., actor="bot")`, which refuses it if the table moved meanwhile."""
        seat = room.bot_to_move()
        if seat is None:
            return None
        bot = room.bot_for(seat)
        assert bot is not None and room.state is not None
        state = room.state
        action = bot.choose(state.view(seat), state.legal_actions(seat), room.bot_rng(seat))
        return seat, room.step, str(action)

    async def time_up(self, code: str, seat: int,
                      think: Callable[[Callable[[], str]], Awaitable[str]] | None = None) -> str:
        """The seat's time for its move ran out (its room's `move_time_limit`): the game's `TIME_UP_BOT` plays
        the move for it, from the seat's view and legal moves alone, stored with the actor "time_up". Refused
        (and nothing played) unless a student's move is due at that seat now, the game neither paused nor over.

        On an event loop, as `play_async`: a class whose time runs out at once (a simultaneous choice nobody made)
        has its moves committed together, off the loop, each checked after the moves still being committed (the
        student's own, tapped just in time: then this one is refused). `think(choose)` runs the bot's choice (the
        server's: in a worker thread, so that the loop serves on); by default here."""
        room = self.open_room(code)
        state = room.state
        if state is None or state.is_over or room.paused or seat not in state.acting_seats \
                or room.seats[seat].bot is not None:
            raise Refused("not_your_turn", f"No student's move is due at seat {seat} now.", 409)
        bot = games.make_bot(room.package, TIME_UP_BOT)
        step, view, legal, rng = room.step, room.view(seat), room.legal_actions(seat), room.bot_rng(seat)
        assert view is not None  # the room's game was checked above (and a room's game is never taken away)

        def choose() -> str:
            return str(bot.choose(view, legal, rng))

        action = choose() if think is None else await think(choose)
        await self.play_async(room, seat, step, action, actor="time_up")
        log.info("room %s: time's up at seat %d: a bot played %s", room.code, seat, one_line(action, 200))
        return action

    def step_bot(self, code: str) -> tuple[int, str]:
        """The teacher's "step": the bot to move plays one move now, even while the game is paused."""
        room = self.open_room(code)
        choice = self.bot_choice(room)
        if choice is None:
            raise Refused("no_bot", "No bot is to play now.", 409)
        seat, step, action = choice
        self.play(room, seat, step, action, actor="bot", even_paused=True)
        return seat, action


def acting_seats_at(state: GameState[Any], step: int) -> frozenset[int]:
    """The seats that were to act at the earlier `step` of `state`'s game (a replay of its record to there)."""
    record = state.record()
    record["actions"] = record["actions"][:step]
    return frozenset(type(state).from_record(record).acting_seats)


def storage_refusal(error: Exception) -> Refused:
    """A write that failed, refused with a reason a student understands: "storage_busy" when another program
    holds the file (the server retries), "storage" otherwise (a disk full, a file gone)."""
    if isinstance(error, StorageBusy):
        return Refused("storage_busy", "Storage busy: the class's database is held by another program for a "
                       "moment. Nothing was changed; retrying.", 503)
    return Refused("storage", f"The server could not save this ({type(error).__name__}); nothing was "
                   "changed: try again.", 503)


# ------------------------------------------------------------------------------------------ beliefs


class BeliefDesk:
    """The belief questions of a hall's rooms: the teacher's ask (every seat is asked again what its game asks
    now, `games.asked_question`), and a student's answer: checked, stored with the exact posterior of the seat's
    view, then kept in memory (in that order: nothing is acknowledged that is not on disk). Every check comes
    first and refuses with a reason a student understands, storing nothing."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall

    def ask(self, code: str) -> Room:
        return self.hall.run(self.asking(code))

    def asking(self, code: str) -> Change[Room]:
        """The teacher asks what the class believes now: every seat gets the questions of its view at this step."""
        room = self.hall.open_room(code)
        if room.scoring is None:
            raise Refused("no_beliefs", "This room asks no beliefs: open one with beliefs=True.", 409)
        if room.state is None or room.state.is_over:
            raise Refused("not_now", "Beliefs are asked while the game is played.", 409)
        steps = sorted(room.asked_steps | {room.step})

        def apply(_: None) -> Room:
            room.asked_steps = set(steps)
            return room

        return Change(room, lambda: self.hall.store.submit(meta_job(asked_key(room.code), json.dumps(steps))), apply)

    async def answer(self, room: Room, seat: int, step: Any, key: Any, percents: Any) -> BeliefRow:
        """`seat` states its belief on the question `key` it was asked at `step`: stored, with the posterior of
        its view at `step`, before this returns (the loop serving everyone else while the writer commits it);
        `Refused` (nothing stored) for anything else."""
        if room.closed:
            raise Refused("closed", "This room is closed.", 410)
        if room.scoring is None:
            raise Refused("no_beliefs", "This room asks no beliefs.", 409,
                          fr="Cette salle ne pose pas de questions sur vos croyances.")
        if room.state is None:
            raise Refused("not_started", "The game starts when every seat has a player.")
        if isinstance(step, bool) or not isinstance(step, int) or not isinstance(key, str) or len(key) > 200:
            raise Refused("malformed", "A belief names the step and the question it answers.")
        if room.is_over:
            raise Refused("over", "The game is over: beliefs are no longer asked.")
        if not 0 <= step <= room.step:
            raise Refused("stale", f"This belief answers step {step}, but the table is at step {room.step}.", 409)
        asked = {question.key: question for question in room.belief_questions(seat, step)}
        question = asked.get(key)
        if question is None:
            raise Refused("no_question", "You were not asked this question at this moment.", 409,
                          fr="Cette question ne vous a pas été posée à ce moment.")
        if step != room.step and key not in {other.key for other in room.belief_questions(seat)}:
            raise Refused("stale", "This question is closed: the table moved on. Answer the new one.", 409,
                          fr="Cette question est close : la table a avancé. Répondez à la nouvelle.")
        if key in room.answered(seat):
            raise Refused("answered", "You already answered this question.", 409,
                          fr="Vous avez déjà répondu à cette question.")
        try:
            belief = parse_belief(question, percents)
        except BeliefError as error:
            raise Refused("bad_belief", str(error), fr=belief_error_fr(question, percents)) from None
        view = room.view(seat) if step == room.step else room.state_at(step).view(seat)
        model = games.belief_model(room.package)
        assert model is not None and view is not None
        exact = model.posterior(view, games.base_question(question))
        posterior = {option: float(exact.get(option, 0.0)) for option in question.options}
        if key in room.pending_beliefs.get(seat, set()):
            raise Refused("answered", "You already answered this question.", 409,
                          fr="Vous avez déjà répondu à cette question.")
        room.pending_beliefs.setdefault(seat, set()).add(key)  # a second tap while the first is being stored
        try:
            future = self.hall.store.submit_belief(room.code, step, seat, question.to_json(), belief, posterior)
            row = await asyncio.wrap_future(future)
        except Exception as error:  # noqa: BLE001 - refused with a reason a student understands
            raise storage_refusal(error) from None
        finally:
            room.pending_beliefs[seat].discard(key)
        room.beliefs.append(row)
        return row


def belief_error_fr(question: BeliefQuestion, percents: Any) -> str:
    """Why a belief was refused, in French (the same checks as `parse_belief`, in its order)."""
    if not isinstance(percents, Mapping):
        return "Une croyance donne un pourcentage à chaque réponse possible."
    if any(option not in question.options for option in percents):
        return "Ce n'est pas une réponse possible à cette question."
    if any(option not in percents for option in question.options):
        return "Donnez un pourcentage à chaque réponse possible (0 convient)."
    values = [percents[option] for option in question.options]
    if any(isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100 for value in values):
        return "Chaque pourcentage est un nombre entier de 0 à 100."
    return f"Les pourcentages font {sum(values)} au total, pas 100."


def beliefs_key(code: str) -> str:
    """The store's meta key holding the scoring rule of a room that asks beliefs."""
    return f"beliefs:{code}"


def asked_key(code: str) -> str:
    """The store's meta key holding the steps at which the teacher asked a room's beliefs."""
    return f"beliefs_asked:{code}"


def time_limit_key(code: str) -> str:
    """The store's meta key holding a room's per-move time limit in seconds (absent: no limit)."""
    return f"move_time_limit:{code}"


def stored_time_limit(text: str | None) -> float | None:
    """A room's time limit as stored (a number's text), None when it has none or the text is no number."""
    try:
        return None if text is None else float(text)
    except ValueError:
        return None


def check_time_limit(limit: Any) -> None:
    """`Refused` unless `limit` is None (no limit) or seconds from `MIN_MOVE_TIME_LIMIT` to `MAX_MOVE_TIME_LIMIT`."""
    if limit is None:
        return
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or \
            not MIN_MOVE_TIME_LIMIT <= limit <= MAX_MOVE_TIME_LIMIT:
        raise Refused("bad_request", f"move_time_limit is a number of seconds from {MIN_MOVE_TIME_LIMIT:g} to "
                      f"{MAX_MOVE_TIME_LIMIT:g} (or none), not {quote(repr(limit))}.")


def draw_seats_key(code: str) -> str:
    """The store's meta key that marks a room whose students joining by code are seated at random."""
    return f"draw_seats:{code}"


def seats_summary(room: Room) -> list[dict[str, Any]]:
    """Each seat's number, name and bot: what every page of the room may show (never the tokens)."""
    return [{"seat": seat.number, "name": seat.name, "bot": seat.bot} for seat in room.seats]

