"""A whole class in the teacher's notebook: its one code, link and QR code, its students, and its tables as rooms.

`classroom.open_class(game)` returns a `ClassBoard`: shown in a cell it is the class's code, join link and QR code
(what goes on the projector) and who has joined; `start_round()` forms the tables, and `tables()` hands each one
as the dashboard `classroom.open` gives for a room, so that everything a teacher does with a room works for a
table. `board()` and the cell's picture show every table at a glance (`class_overview`), `dashboard_link` opens the
class dashboard's page with its levers; `start_now`, `reveal_all`, `play_for`, `extend`, `message` are those levers
here, `download(path)` / `games()` give the class's moves, results and beliefs (`class_data`), and `debrief()` is
the whole class's debrief (`ClassDebrief`), pooled over every table and round. Like the dashboard, it is a client
of the server's HTTP API (`TeacherClient`), so it works the same with a server beside the kernel or one started by
`serve` on another machine.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..extras import need
from .class_data import KINDS
from .class_overview import board_html
from .client import TeacherClient
from .export import ClassGames
from .pages import qr_svg

#: The class dashboard's stylesheet, the page's and the notebook's.
DASHBOARD_STYLE = Path(__file__).with_name("static") / "class_dashboard.css"


@dataclass(frozen=True)
class ClassDebrief:
    """A class's debrief: its HTML (shown in a cell) and the link of its page, for the projector (the link holds
    the teacher's token: keep it off the students' screens)."""

    html: str
    link: str

    def __repr__(self) -> str:  # stable in stored notebooks: no token, no port
        return "<ClassDebrief>"

    def _repr_html_(self) -> str:
        return self.html


class ClassBoard:
    """The teacher's handle of the class `code` on the server `client` talks to."""

    def __init__(self, client: TeacherClient, code: str, *, language: str = "en", qr: bool = True) -> None:
        self.client, self.code, self.language, self.show_qr = client, code, language, qr
        info = client.school_class(code)  # also refuses an unknown class or a wrong token at once
        self.title, self.link = str(info["title"]), str(info["join_url"])
        self._dashboards: dict[str, Any] = {}

    @classmethod
    def open(cls, client: TeacherClient, game: str, *, language: str = "en", **options: Any) -> ClassBoard:
        """A new class of `game` (the options of `TeacherClient.create_class`) and its handle."""
        return cls(client, client.create_class(game, language=language, **options)["code"], language=language)

    def __repr__(self) -> str:  # stable in stored notebooks: no token, no port
        return f"<ClassBoard of a {self.title} class>"

    @property
    def qr(self) -> str:
        """The join link's QR code (SVG), for the projector."""
        return qr_svg(self.link, scale=6)

    def info(self) -> dict[str, Any]:
        """The class as the server tells it now (students, tables, round)."""
        return self.client.school_class(self.code)

    def students(self) -> list[dict[str, Any]]:
        """Each student: name, whether they arrived, their personal link, their table (room) and seat."""
        return list(self.info()["students"])

    def start_round(self, regroup: str | None = None) -> list[Any]:
        """Form the tables of a new round (shuffled or the same: `regroup`, by default the class's); returns
        them (`tables`)."""
        self.client.class_command(self.code, "start_round", **({} if regroup is None else {"regroup": regroup}))
        return self.tables()

    def tables(self) -> list[Any]:
        """Each table of the round as a room's dashboard (the one `classroom.open` gives)."""
        tables = []
        for table in self.info()["tables"]:
            code = table["room"]
            if code not in self._dashboards:
                self._dashboards[code] = self.client.dashboard(code, language=self.language)
            tables.append(self._dashboards[code])
        return tables

    def overview(self) -> dict[str, Any]:
        """Every table of the round at a glance: step, whose turn, waiting since, offline seats, done."""
        return self.client.school_class(self.code, "overview")

    def board(self) -> dict[str, Any]:
        """The overview as the class dashboard draws it: per table the seats to play, beliefs stated (per
        table), the projector; each student's table, score and extra time; the message to every student."""
        return dict(self.client.call("GET", f"/api/classes/{self.code}/board?lang={self.language}")["overview"])

    @property
    def dashboard_link(self) -> str:
        """The class dashboard's page for this teacher (the key rides in the fragment: never sent, never logged;
        keep the link to yourself)."""
        return f"{self.client.url}/t/{self.code}?lang={self.language}#token={self.client.token}"

    def table(self, index: int) -> Any:
        """Table `index` (1 the first) of the round as the room's own dashboard: drill into one table."""
        return self.tables()[index - 1]

    def start_now(self) -> None:
        """Start every table now: bots take the seats of students who have not sat (they wait for the next round)."""
        self.client.class_command(self.code, "start_now")

    def reveal_all(self) -> None:
        """Reveal every finished table of the round."""
        self.client.class_command(self.code, "reveal_all")

    def play_for(self, room: str, seat: int) -> None:
        """The game's bot plays the move a student is stuck on (room `room`, seat `seat`), now."""
        self.client.class_command(self.code, "play_for", room=room, seat=seat)

    def extend(self, student: str, seconds: float) -> None:
        """Give `student` `seconds` more for each move, from now on and in later rounds (0 takes it back)."""
        self.client.class_command(self.code, "extend", student=student, seconds=seconds)

    def message(self, text: str) -> None:
        """Show `text` on every student's page of the class (stored first; "" takes it back)."""
        self.client.class_command(self.code, "note", text=text)

    def download(self, path: str | Path) -> Path:
        """Write the class's moves, results and beliefs as a zip of CSV files (one per kind) to `path`."""
        target = Path(path)
        target.write_bytes(self.client.class_download(self.code))
        return target

    def games(self) -> dict[str, Any]:
        """The class's moves, results and beliefs as pandas DataFrames, each row naming its class, round,
        table, seat and student (needs pandas)."""
        pandas = need("pandas", "The class's games as DataFrames")
        rows = self.client.call("GET", f"/api/classes/{self.code}/data")
        return {kind: pandas.DataFrame(rows[kind]) for kind in KINDS}

    def debrief(self, language: str | None = None, previous: str | Path | ClassGames | None = None) -> ClassDebrief:
        """The debrief of the whole class now (its finished tables' beliefs pooled over every round), in
        `language` (default the board's); beside `previous`, another class's games (`ClassGames`, or the file
        `ClassGames.save` wrote), built here from the class's records."""
        language = language or self.language
        found = self.client.call("GET", f"/api/classes/{self.code}/debrief?lang={language}")
        if previous is None:
            return ClassDebrief(str(found["html"]), str(found["link"]))
        from .debrief_page import class_debrief_html

        rounds = [list(codes) for codes in found["rounds"]]
        codes = {code for round_codes in rounds for code in round_codes}
        games = ClassGames.from_rooms(room for room in self.client.records() if room["code"] in codes)
        before = previous if isinstance(previous, ClassGames) else ClassGames.load(previous)
        return ClassDebrief(class_debrief_html(games, language, rounds=rounds, previous=before,
                                               unfinished=len(games.games) - len(games.finished()),
                                               title=self.title), str(found["link"]))

    def pause(self) -> None:
        """Pause every table of the round."""
        self.client.class_command(self.code, "pause")

    def resume(self) -> None:
        """Resume every table of the round."""
        self.client.class_command(self.code, "resume")

    def close(self) -> None:
        """Stop following the tables (the class and its rooms go on)."""
        for dashboard in self._dashboards.values():
            dashboard.close()
        self._dashboards.clear()

    def _repr_html_(self) -> str:
        info = self.info()
        arrived = [student["name"] for student in info["students"] if student["arrived"]]
        names = ", ".join(html.escape(name) for name in arrived)
        link = html.escape(self.link)
        board = f"<style>{DASHBOARD_STYLE.read_text(encoding='utf-8')}</style>" \
            f"{board_html(self.board(), self.language)}" if info["tables"] else ""
        return (f"<div class='classroom-class'><h3>{html.escape(self.title)}: "
                f"<code style='font-size:2em;letter-spacing:.15em'>{html.escape(self.code)}</code></h3>"
                f"<p><a href='{link}' target='_blank'>{link}</a></p>{self.qr if self.show_qr else ''}"
                f"<p>{len(arrived)} joined{': ' + names if names else ''}; round {info['round']}, "
                f"{len(info['tables'])} tables</p>{board}</div>")
