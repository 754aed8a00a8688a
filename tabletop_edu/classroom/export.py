"""The class's games, for the analysis tools: what the students actually played.

`ClassGames` holds every started room of a server (its record, the seats' names and bots, each move with its
time), replayed into game states on demand. From there:

- `tournament()`: `TournamentResult` tables, one per game and table size, with each student (or bot) as a
  line of the table (wins, win rate, mean score with their confidence intervals); a bot's label cannot be a
  student's name (`seat_label`), and the rows say which is which (`kind`).
- `flow(i)` / `draw_flow(i)`: the information-flow graph of game i; `knowledge_html(i)`: the game's own
  knowledge panel (posteriors, candidate sets, who knows what) on the state the class reached.
- `posteriors(i)`: what the table could infer at the end of game i, for games whose plugin computes it
  (Mafia de Cuba: the Godfather's posterior of every take).
- `dataframe()` and `results_dataframe()`: one row per move (with thinking times) or per player and game,
  as pandas DataFrames where pandas is installed (`pip install pandas`); `beliefs_dataframe()`: one row per
  option of every answered belief question (what the student said, what their view implied, the truth).
- `ClassGame.beliefs`: the beliefs the students stated (`from_rooms` reads them from the server's records).
- `save(path)` / `ClassGames.load(path)`: the games as one JSON file (records, moves, beliefs), so a class can be
  analysed after the server is gone, and a recorded class ships with the debrief notebook. Names exactly as
  typed in DataFrames and files.
- `moves_csv()` and `results_csv()`: the same rows as CSV text for a spreadsheet, where a name is plain text:
  one a spreadsheet would read as a formula (`=HYPERLINK(...)`, `+1`, `-2`, `@x`) is written with a leading
  quote, as OWASP advises against CSV injection.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..beliefs import BeliefAnswer, BeliefQuestion, play_models, posteriors_under, replayed
from ..core import GameState, load
from ..extras import need
from ..tournament import GameResult, TournamentResult, final_scores
from . import games


@dataclass(frozen=True)
class ClassGame:
    """One room's game as the class played it."""

    code: str
    number: int
    title: str
    labels: tuple[str, ...]
    record: Mapping[str, Any]
    moves: tuple[tuple[int, int, str, str, float], ...]
    #: The belief questions the students answered in this game, oldest first (empty when the room asked none).
    beliefs: tuple[BeliefAnswer, ...] = ()

    @property
    def game(self) -> str:
        return str(self.record["game"])

    def state(self) -> GameState[Any]:
        """The game replayed from its record, where the class left it."""
        return load(dict(self.record))


#: What joins "bot" and a bot's name in its label ("bot greedy"): a no-break space, which no student's name holds
#: (`rooms.clean_name` makes every run of spaces one plain space), so a student who names themselves "bot greedy"
#: is a line of their own, never merged with the bot.
BOT_LABEL_SPACE = "\u00a0"


def seat_label(seat: Mapping[str, Any]) -> str:
    """A seat's line in the tables: the student's name, or the bot's kind ("bot greedy", see `BOT_LABEL_SPACE`),
    so that the same bot is one line across games and no student is taken for it."""
    return f"bot{BOT_LABEL_SPACE}{seat['bot']}" if seat.get("bot") else str(seat["name"])


def label_kind(label: str) -> str:
    """Who a line of the tables is: "bot" for a bot's label (`seat_label`), "student" for a student's name."""
    return "bot" if label.startswith("bot" + BOT_LABEL_SPACE) else "student"


class ClassGames:
    """Every started game of a class server, oldest room first."""

    def __init__(self, class_games: Iterable[ClassGame]) -> None:
        self.games = sorted(class_games, key=lambda game: game.number)

    @classmethod
    def from_rooms(cls, rooms: Iterable[Mapping[str, Any]]) -> ClassGames:
        """From the server's `/api/records` answer (`TeacherClient.records()`), with each room's beliefs."""
        return cls(_class_game(room) for room in rooms if room.get("record") is not None)

    def __len__(self) -> int:
        return len(self.games)

    def __getitem__(self, index: int) -> ClassGame:
        return self.games[index]

    def __repr__(self) -> str:
        return f"<ClassGames: {len(self.games)} games>"

    def finished(self) -> list[ClassGame]:
        return [game for game in self.games if game.state().is_over]

    # ---------------------------------------------------------------- tables

    def tournament(self, game: str | None = None) -> list[TournamentResult]:
        """The finished games as tournament tables, one per game and number of players."""
        groups: dict[tuple[str, int], list[tuple[ClassGame, GameState[Any]]]] = {}
        for class_game in self.games:
            if game is not None and class_game.game != games.game_package(game):
                continue
            state = class_game.state()
            if state.is_over:
                groups.setdefault((class_game.game, len(state.players)), []).append((class_game, state))
        results = []
        for (package, players), played in groups.items():
            lineup = tuple(dict.fromkeys(label for class_game, _ in played for label in class_game.labels))
            result = TournamentResult(package, players, 0, lineup)
            for index, (class_game, state) in enumerate(played):
                result.games.append(GameResult(index, state.seed, class_game.labels, final_scores(state),
                                               tuple(state.winners), len(state.history), state.to_json()))
            results.append(result)
        return results

    # ---------------------------------------------------------------- knowledge

    def flow(self, index: int) -> Any:
        """The information-flow graph (networkx) of game `index`."""
        from ..knowledge import information_flow

        return information_flow(self.games[index].state())

    def draw_flow(self, index: int) -> Any:
        """The information-flow graph of game `index` as a matplotlib Figure."""
        from ..knowledge import draw_information_flow

        game = self.games[index]
        return draw_information_flow(self.flow(index), title=f"{game.title}, room {game.code}")

    def knowledge_html(self, index: int, language: str = "en") -> str:
        """The game's knowledge panel (the teacher's: every seat) on the state the class reached."""
        state = self.games[index].state()
        panel = games.knowledge_function(state.game)
        return "" if panel is None else str(panel(state, language))

    def posteriors(self, index: int) -> dict[int, dict[str, float]]:
        """What the table could infer at the end of game `index`, as its game computes it (its plugin's
        `posteriors`: Mafia de Cuba's is the Godfather's exact posterior of each taker's role); a ValueError
        for a game without one."""
        class_game = self.games[index]
        try:
            return games.posteriors(class_game.state())
        except ValueError as error:
            raise ValueError(f"Game {index} ({class_game.title}): {error}") from None

    # ---------------------------------------------------------------- DataFrames

    def move_rows(self) -> list[dict[str, Any]]:
        """One row per move: room, game, step, seat, player, kind (`label_kind`), actor (seat, bot, time_up),
        action, time, thinking time."""
        rows = []
        for class_game in self.games:
            previous: float | None = None
            for step, seat, action, actor, at in class_game.moves:
                rows.append({"room": class_game.code, "game": class_game.title, "step": step, "seat": seat,
                             "player": class_game.labels[seat], "kind": label_kind(class_game.labels[seat]),
                             "actor": actor, "action": action, "at": at,
                             "seconds": None if previous is None else round(at - previous, 3)})
                previous = at
        return rows

    def result_rows(self) -> list[dict[str, Any]]:
        """One row per player and finished game: room, game, seat, player, kind (`label_kind`), score, won."""
        rows = []
        for class_game in self.games:
            state = class_game.state()
            if not state.is_over:
                continue
            scores = final_scores(state)
            for seat, label in enumerate(class_game.labels):
                rows.append({"room": class_game.code, "game": class_game.title, "seat": seat, "player": label,
                             "kind": label_kind(label), "score": scores[seat], "won": seat in state.winners})
        return rows

    def dataframe(self) -> Any:
        """The moves as a pandas DataFrame (needs pandas)."""
        return _frame(self.move_rows())

    def results_dataframe(self) -> Any:
        return _frame(self.result_rows())

    def moves_csv(self) -> str:
        """The moves as CSV text, safe to open in a spreadsheet (see `spreadsheet_cell`)."""
        return csv_text(self.move_rows())

    def results_csv(self) -> str:
        """The results as CSV text, safe to open in a spreadsheet (see `spreadsheet_cell`)."""
        return csv_text(self.result_rows())

    def belief_rows(self) -> list[dict[str, Any]]:
        """One row per option of every answered belief question, oldest first: room, number, game, seat, label,
        step, question (its key), option, belief (what the student said), posterior (what their view implied),
        truth (the true option, None until known), score and rule (the answer's points, on each of its rows)."""
        return [{"room": answer.room, "number": answer.number, "game": answer.game, "seat": answer.seat,
                 "label": answer.label, "step": answer.step, "question": answer.question.key, "option": option,
                 "belief": answer.belief[option], "posterior": answer.posterior[option], "truth": answer.truth,
                 "score": answer.score, "rule": answer.rule}
                for class_game in self.games for answer in class_game.beliefs for option in answer.question.options]

    def beliefs_dataframe(self) -> Any:
        """`belief_rows()` as a pandas DataFrame (needs pandas)."""
        return _frame(self.belief_rows())

    # ---------------------------------------------------------------- files

    def save(self, path: str | Path) -> None:
        """Write every game (record, seats' labels, moves, beliefs) to one JSON file that `load` reads back."""
        data = {"format": 1, "games": [game_to_json(class_game) for class_game in self.games]}
        Path(path).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> ClassGames:
        """The games `save` wrote; a ValueError naming the file if it is not such a file."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            return cls(game_from_json(item) for item in data["games"])
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{path} is not a class's games as ClassGames.save writes them ({error}).") from None


def answer_to_json(answer: BeliefAnswer) -> dict[str, Any]:
    """A belief answer as JSON-ready data (`answer_from_json` reads it back equal but for its posteriors under
    the models of play, which `game_from_json` computes again from the record)."""
    return {"room": answer.room, "number": answer.number, "game": answer.game, "seat": answer.seat,
            "label": answer.label, "step": answer.step, "question": answer.question.to_json(),
            "belief": dict(answer.belief), "posterior": dict(answer.posterior), "truth": answer.truth,
            "rule": answer.rule, "extra": dict(answer.extra)}


def answer_from_json(data: Mapping[str, Any]) -> BeliefAnswer:
    return BeliefAnswer(str(data["room"]), int(data["number"]), str(data["game"]), int(data["seat"]),
                        str(data["label"]), int(data["step"]), BeliefQuestion.from_json(data["question"]),
                        {str(k): float(v) for k, v in data["belief"].items()},
                        {str(k): float(v) for k, v in data["posterior"].items()},
                        None if data["truth"] is None else str(data["truth"]), str(data["rule"]),
                        dict(data.get("extra", {})))


def game_to_json(class_game: ClassGame) -> dict[str, Any]:
    return {"code": class_game.code, "number": class_game.number, "title": class_game.title,
            "labels": list(class_game.labels), "record": dict(class_game.record),
            "moves": [list(move) for move in class_game.moves],
            "beliefs": [answer_to_json(answer) for answer in class_game.beliefs]}


def game_from_json(data: Mapping[str, Any]) -> ClassGame:
    """A game `game_to_json` wrote; answers saved without every model's posterior get them from the record."""
    game = ClassGame(str(data["code"]), int(data["number"]), str(data["title"]), tuple(data["labels"]),
                     data["record"], tuple(tuple(move) for move in data["moves"]))
    answers = tuple(answer_from_json(answer) for answer in data.get("beliefs", ()))
    return dataclasses.replace(game, beliefs=with_model_posteriors(game.state(), answers) if answers else ())



#: What makes a spreadsheet read a cell as a formula when it starts it (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: Any) -> Any:
    """`value` as a CSV cell that a spreadsheet shows as typed: a text that would start a formula is written
    with a leading quote (`'=HYPERLINK(...)`); numbers, including negative scores, stay numbers."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def csv_text(rows: list[dict[str, Any]]) -> str:
    """`rows` (dicts with the same keys) as CSV text, each cell safe in a spreadsheet (`spreadsheet_cell`)."""
    text = io.StringIO()
    if rows:
        writer = csv.DictWriter(text, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows({key: spreadsheet_cell(value) for key, value in row.items()} for row in rows)
    return text.getvalue()


def _frame(rows: list[dict[str, Any]]) -> Any:
    pandas = need("pandas", "A DataFrame (the rows are there without it: move_rows(), result_rows())")
    return pandas.DataFrame(rows)


def _class_game(room: Mapping[str, Any]) -> ClassGame:
    """One room of `/api/records` as a `ClassGame`, its beliefs scored once the game has settled them."""
    labels = tuple(seat_label(seat) for seat in room["seats"])
    game = ClassGame(room["code"], room["number"], room["title"], labels, room["record"],
                     tuple(tuple(move) for move in room["moves"]))
    beliefs = room.get("beliefs")
    if not beliefs or not beliefs.get("rows"):
        return game
    answers = belief_answers(game.code, game.number, labels, beliefs["rows"], beliefs["scoring"], game.state())
    return ClassGame(game.code, game.number, game.title, labels, game.record, game.moves, answers)


def belief_answers(code: str, number: int, labels: Sequence[str], rows: Iterable[Mapping[str, Any]], scoring: str,
                   state: GameState[Any]) -> tuple[BeliefAnswer, ...]:
    """Stated beliefs (rows of `step`, `seat`, `question`, `belief`, `posterior`) as `BeliefAnswer`s, their
    truth (and so their points) filled once the game is over, by the game's belief model."""
    model = games.belief_model(state.game)
    answers = []
    for row in rows:
        question = BeliefQuestion.from_json(row["question"])
        truth = model.truth(state, games.base_question(question)) if model is not None and state.is_over else None
        answers.append(BeliefAnswer(code, number, state.game, int(row["seat"]), labels[int(row["seat"])],
                                    int(row["step"]), question, dict(row["belief"]), dict(row["posterior"]),
                                    truth, scoring))
    return with_model_posteriors(state, answers)


def with_model_posteriors(state: GameState[Any], answers: Sequence[BeliefAnswer]) -> tuple[BeliefAnswer, ...]:
    """`answers` (of the game of `state`), each with its posterior under every model of play its game declares
    (`beliefs.play_models`), read from the answering seat's view at the answer's step by replaying the game
    once; an answer that has them all is kept as it is. The stored `posterior` stays the reference's."""
    model = games.belief_model(state.game)
    if model is None:
        return tuple(answers)
    models = play_models(model)
    keys = {found.key for found in models}
    missing = {(answer.step, answer.seat) for answer in answers if not keys <= set(answer.posteriors)}
    views = {}
    if missing:
        for step, replay in enumerate(replayed(state, start=True)):
            views.update({(at, seat): replay.view(seat) for at, seat in missing if at == step})
            if len(views) == len(missing):
                break
    filled = []
    for answer in answers:
        view = views.get((answer.step, answer.seat))
        if view is not None:
            found = posteriors_under(models, view, games.base_question(answer.question))
            answer = dataclasses.replace(answer, posteriors={**found, **answer.posteriors})
        filled.append(answer)
    return tuple(filled)
