"""A student's bot at a class server's table: `classroom.join(url, code, bot)` seats it like a student.

The bot joins by the room code and a name, as a person does, and follows its seat's websocket asking for
its view as data (`?view=1`): each table message then carries `view` (`view_to_json` of the seat's view,
nothing more) and `legal` (its moves' notation when it is to act). Whenever the seat is to act, the handle
rebuilds the `View` and the actions, asks `bot.choose(view, legal, rng)` and sends the move for that step
(a search that asks for worlds, such as "ismcts", gets them drawn from that view alone: `world_from_view`).
So a class can run a tournament of its own bots on the same server, the same secrecy rules and the same
record as its games by hand.

The bot thinks in a thread of its own, never on the client loop that carries every feed of the process:
a slow bot delays only its own seat. A bot that raises, or a move the server refuses for a reason other
than a race (the table moved, the teacher paused), stops the seat and says why in `error`; the room goes
on, and the teacher can seat a room bot there.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from typing import Any

from ..core import Bot, view_from_json
from ..registry import game as find_plugin
from .client import join_room, seat_feed
from .throttles import FLOOD_RATE

log = logging.getLogger("tabletop_edu.classroom")

#: Refusals that are races, not mistakes: a new table follows (at once, or when the teacher resumes).
WAIT_CODES = frozenset({"stale", "not_your_turn", "paused", "over"})
_STOP = object()


class SeatedBot:
    """A bot playing one seat of a room over the network (made by `classroom.join`).

    - `seat`, `name`, `code`: where it sits; `token`: its seat's credential.
    - `moves`: the moves it sent that the server did not refuse.
    - `refusals`: every refused move, as {"step", "action", "code", "message"}.
    - `error`: why it stopped playing (its bot raised, or a move was refused as illegal), else None.
    - `table`: the latest table message; `over`: the game has ended.
    """

    def __init__(self, url: str, code: str, bot: Bot, *, name: str, language: str = "en", seed: int = 0) -> None:
        if not callable(getattr(bot, "choose", None)):
            raise TypeError(f"A bot has a choose(view, legal_actions, rng) method; {type(bot).__name__} has none.")
        if language not in ("en", "fr"):
            raise ValueError(f"The language is 'en' or 'fr', not {language!r}.")
        self.bot, self.name, self.rng = bot, name, random.Random(seed)
        joined = join_room(url, code, name)  # ClassroomError (room_full, name_taken...) before anything starts
        self.code, self.seat, self.token = str(joined["code"]), int(joined["seat"]), str(joined["token"])
        self.moves = 0
        self.refusals: list[dict[str, Any]] = []
        self.error: str | None = None
        self.exception: BaseException | None = None
        self.table: dict[str, Any] | None = None
        self.over = False
        self.ended: str | None = None  # why the server ended the feed (a closed room, an expired link)
        self._changed = threading.Condition()
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._answered = -1  # the step of the last move sent (its answer is pending or accepted)
        self._sent: dict[int, str] = {}  # step -> the move sent for it (a refusal names its step)
        self._stopping = threading.Event()
        self.feed = seat_feed(url, self.token, language, view=True, on_message=self._inbox.put,
                              on_closed=lambda: self._inbox.put(None))
        self._thread = threading.Thread(target=self._play, name=f"student-bot-{self.code}-{self.seat}", daemon=True)
        self._thread.start()

    def __repr__(self) -> str:
        state = "over" if self.over else f"stopped: {self.error}" if self.error else "playing"
        return f"<SeatedBot {self.name!r} at seat {self.seat} of room {self.code}, {self.moves} moves, {state}>"

    # ---------------------------------------------------------------- the student's side

    def wait_until_over(self, timeout: float = 60) -> bool:
        """Wait until the game is over (True) or this seat stopped playing: an error, a closed room (False);
        `TimeoutError` if neither happens within `timeout` seconds."""
        with self._changed:
            if not self._changed.wait_for(lambda: self.over or self.error is not None or self.ended is not None,
                                          timeout):
                raise TimeoutError(f"{self!r}: the game did not end within {timeout} s.")
            return self.over

    def close(self) -> None:
        """Leave the table's feed (the seat stays the student's: `join` again with its link to come back)."""
        self._stopping.set()
        self.feed.close()
        self._inbox.put(_STOP)
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=30)

    def __enter__(self) -> SeatedBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- the bot's thread

    def _play(self) -> None:
        while True:
            batch = [self._inbox.get()]
            while True:  # whatever else already arrived: the bot answers only the latest table, never an old one
                try:
                    batch.append(self._inbox.get_nowait())
                except queue.Empty:
                    break
            tables = [index for index, message in enumerate(batch)
                      if isinstance(message, dict) and message.get("type") == "table"]
            for index, message in enumerate(batch):
                if message is _STOP:
                    return
                if message is None:  # the server ended the feed for good
                    self._update(ended=f"{self.feed.close_code}: {self.feed.close_reason}")
                    return
                try:
                    self._take(message, act=index == tables[-1] if tables else False)
                except Exception as error:  # noqa: BLE001 - reported on the handle, never lost in a thread
                    self._fail(f"{type(error).__name__}: {error}", error)

    def _take(self, message: dict[str, Any], act: bool = True) -> None:
        if message.get("type") == "refused":
            self._refused(message)
        elif message.get("type") == "table":
            self._update(table=message, over=bool(message["over"]))
            if act and message["started"] and not message["over"] and message.get("legal") and self.error is None \
                    and message["step"] > self._answered:
                self._move(message)

    def _move(self, table: dict[str, Any]) -> None:
        step = table["step"]
        if "view" not in table:
            raise RuntimeError("the server sends no views (a server older than classroom.join?)")
        view = view_from_json(table["view"])
        state_class = find_plugin(view.game).state_class()
        legal = [state_class.parse_action(text) for text in table["legal"]]
        if hasattr(self.bot, "bound_sampler"):  # a search asks for worlds: drawn from this view alone
            self.bot.bound_sampler = lambda rng: state_class.world_from_view(view, rng)
        try:
            action = self.bot.choose(view, legal, self.rng)
        except Exception as error:  # noqa: BLE001 - the student's code: any bug is reported, not raised here
            self._fail(f"the bot raised {type(error).__name__} at step {step}: {error}", error)
            return
        text = str(action)
        with self._changed:
            self._answered, self._sent[step] = step, text
            self.moves += 1
        self.feed.send({"type": "move", "step": step, "action": text})

    def _refused(self, message: dict[str, Any]) -> None:
        step = message.get("step")
        code = str(message.get("code"))
        with self._changed:
            action = self._sent.pop(step, None) if isinstance(step, int) else None
            self.refusals.append({"step": step, "action": action, "code": code, "message": message.get("message")})
            if action is not None:
                self.moves -= 1
            if code in ("paused", "flood") and step == self._answered:
                self._answered = step - 1  # the same step is still to answer: its next table asks again
        if code == "flood":  # too fast for the server: try the same table again a moment later
            if not self._stopping.wait(2 / FLOOD_RATE) and self.table is not None:
                self._take(self.table)
        elif code not in WAIT_CODES:
            self._fail(f"the server refused the move {action!r} at step {step} ({code}): {message.get('message')}")

    def _fail(self, why: str, error: BaseException | None = None) -> None:
        log.warning("student bot %r at seat %s of room %s stopped: %s", self.name, self.seat, self.code, why)
        with self._changed:
            if self.error is None:
                self.error, self.exception = why, error
            self._changed.notify_all()

    def _update(self, **changes: Any) -> None:
        with self._changed:
            for key, value in changes.items():
                setattr(self, key, value)
            self._changed.notify_all()


def join(url: str, code: str, bot: Bot, *, name: str | None = None, language: str = "en",
         seed: int = 0) -> SeatedBot:
    """Seat `bot` at the room `code` of the class server at `url`, as a student named `name` (default: the
    bot's name); it plays whenever its seat is to act, with `random.Random(seed)` as its rng, until the game
    ends. Returns the handle (`wait_until_over`, `moves`, `error`, `close`)."""
    return SeatedBot(url, code, bot, name=name or str(getattr(bot, "name", "bot")), language=language, seed=seed)
