"""The hall: every room of a server, found by code or token, put to sleep when done, joined, and the teacher's controls.

A `Hall` holds every room of a server. People reach a seat through its token only; the teacher's controls need
the teacher's token, checked by the server before it calls the `Hall`. Each control is a coroutine (`set_paused`,
`reveal`, `close`, ...) that builds its pending `Change` (`set_paused_change`, ...), checked before any write, and
commits it along `commits` (`commit`).

A room starts its game when every seat is filled, by a student who picked a name or by a bot the teacher
seated; the game's players are those names. Students who join by code take the first empty seat, or, in a room
opened with `draw_seats`, an empty seat drawn at random from the room's seed (the first to type the code is not
always the Godfather); before the start the teacher may place them anew (`swap_seats`: each link follows its
student). On the server's loop a class sits down without waiting for the disk (`join`, `claim`): each
student holds a seat and a name (`Room.joining`) while the writer commits them, so no two students get one seat;
the file says which fill started the game, and it starts in memory once every held seat is filled there too.
A room may limit the time of each move (`move_time_limit`): when it runs out, `time_up` (`commits`) lets the
game's `TIME_UP_BOT` play that seat's move. Bots the teacher seats play through `Bot.choose(view,
legal_actions, rng)`, with an rng seeded from the room's seed and the step, so a room's bot moves are the same
after a restart.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import ModuleType
from typing import Any

from ..beliefs import SCORING_RULES
from ..core import GameState, IllegalAction, RecordError, RulesError, rules_from_dict, rules_to_dict
from ..core.errors import quote, quote_repr
from . import games
from .belief_desk import BeliefDesk, asked_key, beliefs_key
from .commits import HallCommits
from .rooms import MAX_NAME, Change, Refused, Room, TableSeat, clean_name, name_key, new_token, one_line
from .store import (BrokenRoom, RoomRow, SeatRow, Store, asked_steps_of, check_seats, close_job, flag_job, room_job,
                    seat_job, seats_job, time_limit_of, token_job)

log = logging.getLogger("tabletop_edu.classroom")

#: Room codes use letters and digits no one confuses when read off a projector (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
#: Bytes of randomness in the teacher's token.
TEACHER_TOKEN_BYTES = 24
#: Seconds a revealed (or closed) room stays in memory with no page open on it; then it sleeps (only its code and
#: number stay in memory) until someone opens it again, when it comes back from the database.
FINISHED_IDLE = 600.0
#: The delay before a bot moves, so that a class can follow (tests use 0).
DEFAULT_BOT_DELAY = 0.8
MAX_BOT_DELAY = 30.0
#: The per-move time limit a teacher may set (`move_time_limit`, seconds).
MIN_MOVE_TIME_LIMIT, MAX_MOVE_TIME_LIMIT = 5.0, 3600.0


class Hall(HallCommits):
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
        self._seat_tokens: dict[str, tuple[Room, TableSeat]] = {}
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
        rows = self.store.seats(row.code)
        check_seats(row.code, rows, row.seat_count, games.bot_names(row.game))
        seats = [TableSeat(seat.seat, seat.token, seat.name, seat.bot) for seat in rows]
        limit = time_limit_of(row.code, self.store.meta(time_limit_key(row.code)), low=MIN_MOVE_TIME_LIMIT,
                              high=MAX_MOVE_TIME_LIMIT)
        room = Room(row.code, row.number, row.game, row.seed, rules, row.language, row.bot_delay, row.watch_token,
                    seats, started=row.started, paused=row.paused, revealed=row.revealed, closed=row.closed,
                    draw_seats=self.store.meta(draw_seats_key(row.code)) == "1",
                    move_time_limit=limit)
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
        room.asked_steps = asked_steps_of(room.code, self.store.meta(asked_key(room.code)))
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

    def seat_of(self, token: Any) -> tuple[Room, TableSeat]:
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

    async def create_room(self, game: str | ModuleType, players: int, **options: Any) -> Room:
        """A new room (`create_room_change`), committed."""
        return await self.commit(self.create_room_change(game, players, **options))

    def create_room_change(self, game: str | ModuleType, players: int, *, seed: int | None = None,
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
                          f"{state_class.max_players} players, not {quote_repr(players)}.")
        if seed is None:
            seed = secrets.randbelow(2**32)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise Refused("bad_request", f"A seed is a whole number from 0 to 2**63 - 1, not {quote_repr(seed)}.")
        if language not in ("en", "fr"):
            raise Refused("bad_request", f"The language is 'en' or 'fr', not {quote_repr(language)}.")
        if isinstance(bot_delay, bool) or not isinstance(bot_delay, (int, float)) or \
                not 0 <= bot_delay <= MAX_BOT_DELAY:
            raise Refused("bad_request", f"bot_delay is a number of seconds from 0 to {MAX_BOT_DELAY}.")
        if not isinstance(draw_seats, bool):
            raise Refused("bad_request", f"draw_seats is true or false, not {quote_repr(draw_seats)}.")
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
                raise Refused("bad_request", f"There is no seat {quote_repr(seat)} for a bot.")
            self._check_bot(package, bot)
        code = self._new_code()
        number = 1 + max([room.number for room in self.rooms.values()] + list(self._broken_numbers)
                         + list(self.asleep.values()), default=0)
        seats = [TableSeat(seat, new_token()) for seat in range(players)]
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
            raise Refused("bad_request", f"beliefs is true or false, not {quote_repr(beliefs)}.")
        if scoring not in SCORING_RULES:
            raise Refused("bad_request", f"The scoring rule is {' or '.join(map(repr, SCORING_RULES))}, not "
                          f"{quote_repr(scoring)}.")
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

    def _seat(self, room: Room, seat: Any) -> TableSeat:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(room.seats):
            raise Refused("bad_request", f"There is no seat {quote_repr(seat)} in room {room.code}.")
        return room.seats[seat]

    async def seat_bot(self, code: str, seat_number: int, bot: str) -> TableSeat:
        """Seat a bot of the game at a seat (`seat_bot_change`), committed."""
        return await self.commit(self.seat_bot_change(code, seat_number, bot))

    def seat_bot_change(self, code: str, seat_number: int, bot: str) -> Change[TableSeat]:
        """A bot of the game at a seat: an empty one before the start, any seat after (a student left)."""
        room = self.open_room(code)
        seat = self._seat(room, seat_number)
        bot = self._check_bot(room.package, bot)
        if not room.started and seat.filled and seat.bot is None:
            raise Refused("seat_taken", f"{seat.name} sits at seat {seat.number}: a bot takes an empty seat.")
        self._check_not_joining(room, seat)
        name = seat.name if room.started and seat.name is not None else self._bot_name(room, seat.number, bot)
        return self._fill_change(room, seat, name, bot)

    @staticmethod
    def _check_not_joining(room: Room, *seats: TableSeat) -> None:
        """`Refused` while a student sits down at one of `seats` (a moment: `join`), or, before the start,
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
        name = f"{word} {seat + 1} ({bot})"[:MAX_NAME]  # seats are numbered from 1 for people
        names = room.names() if names is None else names
        taken = {name_key(other) for number, other in enumerate(names) if other and number != seat}
        while name_key(name) in taken:
            name = (name[:MAX_NAME - 1] + "'")
        return name

    async def remove_bot(self, code: str, seat_number: int) -> TableSeat:
        """Take a bot off a seat (`remove_bot_change`), committed."""
        return await self.commit(self.remove_bot_change(code, seat_number))

    def remove_bot_change(self, code: str, seat_number: int) -> Change[TableSeat]:
        """A bot taken off a seat: before the start the seat is empty again; after, a person plays it."""
        room = self.open_room(code)
        seat = self._seat(room, seat_number)
        if seat.bot is None:
            raise Refused("no_bot", f"No bot sits at seat {seat.number}.")
        self._check_not_joining(room)
        name = seat.name if room.started else None

        def apply(_: None) -> TableSeat:
            seat.name, seat.bot = name, None
            room.bots.pop(seat.number, None)
            return seat

        return Change(room, lambda: self.store.submit(seat_job(room.code, seat.number, name, None)), apply,
                      held={seat.number: ""})

    async def new_link(self, code: str, seat_number: int) -> TableSeat:
        """Give a seat a new token (`new_link_change`), committed."""
        return await self.commit(self.new_link_change(code, seat_number))

    def new_link_change(self, code: str, seat_number: int) -> Change[TableSeat]:
        """A seat's new token (a lost phone, a link shared by mistake): the old link expires at once."""
        room = self.open_room(code)
        seat = self._seat(room, seat_number)
        self._check_not_joining(room, seat)
        old, new = seat.token, new_token()

        def apply(_: None) -> TableSeat:
            self._seat_tokens.pop(old, None)
            seat.token = new
            if not room.closed:
                self._seat_tokens[new] = (room, seat)
            return seat

        return Change(room, lambda: self.store.submit(token_job(room.code, seat.number, old, new)), apply,
                      held={seat.number: seat.name or ""})

    async def swap_seats(self, code: str, first: int, second: int) -> Room:
        """Two seats exchange who sits there (`swap_seats_change`), committed."""
        return await self.commit(self.swap_seats_change(code, first, second))

    def swap_seats_change(self, code: str, first: int, second: int) -> Change[Room]:
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

    async def set_paused(self, code: str, paused: bool) -> Room:
        """The room paused or resumed (`set_paused_change`), committed."""
        return await self.commit(self.set_paused_change(code, paused))

    def set_paused_change(self, code: str, paused: bool) -> Change[Room]:
        """The room paused (`paused`) or resumed: students and bots wait, the teacher may still step."""
        room = self.open_room(code)

        def apply(_: None) -> Room:
            room.paused = paused
            return room

        return Change(room, lambda: self.store.submit(flag_job(room.code, "paused", paused)), apply)

    def pause_unsaved(self, code: str) -> Room:
        """The room paused here only, when the store refuses to record the pause (a bot that cannot save its moves
        must stop trying all the same): the one change told before it is on disk, since a pause moves no game and
        losing it is harmless (after a restart the room is as the file says, and its bot tries again)."""
        room = self.open_room(code)
        room.paused = True
        self._tell(room)
        return room

    async def reveal(self, code: str) -> Room:
        """The whole table shown to every page (`reveal_change`), committed."""
        return await self.commit(self.reveal_change(code))

    def reveal_change(self, code: str) -> Change[Room]:
        """Every page shown the whole table: only once the game is over."""
        room = self.open_room(code)
        if not room.is_over:
            raise Refused("not_over", "The table is revealed at the end of the game only.")

        def apply(_: None) -> Room:
            room.revealed = True
            return room

        return Change(room, lambda: self.store.submit(flag_job(room.code, "revealed", True)), apply)

    async def close(self, code: str) -> Room:
        """The room closed (`close_change`), committed."""
        return await self.commit(self.close_change(code))

    def close_change(self, code: str) -> Change[Room]:
        """The room closed: every link of it expires; its record stays for the analysis."""
        room = self.open_room(code)
        tokens = [seat.token for seat in room.seats] + [room.watch_token]

        def apply(_: None) -> Room:
            room.closed = True
            for token in [*tokens, *(seat.token for seat in room.seats)]:
                self._seat_tokens.pop(token, None)
                self._watch_tokens.pop(token, None)
            return room

        return Change(room, lambda: self.store.submit(close_job(room.code, tokens)), apply)

    # ---------------------------------------------------------------- students

    async def claim(self, token: str, name: Any) -> tuple[Room, TableSeat]:
        """A student opened a seat's link and picked a name: the loop serves everyone else while the writer
        commits the seat."""
        room, seat, name = self._claimed(token, name)
        await self.commit(self._fill_change(room, seat, name, None))
        return room, seat

    async def join(self, code: Any, name: Any) -> tuple[Room, TableSeat]:
        """A student typed the room code and a name: the first empty seat is theirs (in a `draw_seats` room, an
        empty seat drawn from the room's seed and the number of empty seats). A class typing the code at once is
        seated while the loop serves everyone else, each student at a seat of their own (`commit` holds it while
        the writer commits it)."""
        room, seat, name = self._joined(code, name)
        await self.commit(self._fill_change(room, seat, name, None))
        return room, seat

    def _claimed(self, token: str, name: Any) -> tuple[Room, TableSeat, str]:
        """The room, seat and name of a claim, or `Refused`."""
        room, seat = self.seat_of(token)
        if seat.filled or seat.number in room.joining:
            raise Refused("seat_taken", "This seat already has a player: open your own link.", 409)
        return room, seat, self._free_name(room, name)

    def _joined(self, code: Any, name: Any) -> tuple[Room, TableSeat, str]:
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

    def _fill_change(self, room: Room, seat: TableSeat, name: str, bot: str | None) -> Change[TableSeat]:
        """A seat given its name and bot, starting the game when the file says this filled its last empty seat
        (and every seat held meanwhile is filled here too: `_start_if_due`)."""
        def apply(started: bool) -> TableSeat:
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


def time_limit_key(code: str) -> str:
    """The store's meta key holding a room's per-move time limit in seconds (absent: no limit)."""
    return f"move_time_limit:{code}"


def check_time_limit(limit: Any) -> None:
    """`Refused` unless `limit` is None (no limit) or seconds from `MIN_MOVE_TIME_LIMIT` to `MAX_MOVE_TIME_LIMIT`."""
    if limit is None:
        return
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or \
            not MIN_MOVE_TIME_LIMIT <= limit <= MAX_MOVE_TIME_LIMIT:
        raise Refused("bad_request", f"move_time_limit is a number of seconds from {MIN_MOVE_TIME_LIMIT:g} to "
                      f"{MAX_MOVE_TIME_LIMIT:g} (or none), not {quote_repr(limit)}.")


def draw_seats_key(code: str) -> str:
    """The store's meta key that marks a room whose students joining by code are seated at random."""
    return f"draw_seats:{code}"
