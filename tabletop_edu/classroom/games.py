"""The games and bots a room may hold, looked up by name (the one place the class server knows game names).

A room names its game by the short names of the command line ("mafia_de_cuba") or by its package
("tabletop_edu.mafia_de_cuba"); the teacher seats bots by the names the tournaments use ("greedy",
"random", "ismcts"). Only games of the registry can be opened: a name coming over the network never
reaches `importlib` unchecked. What a game shows beyond its table (its knowledge panel, its posteriors) comes
from its plugin too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from types import ModuleType
from typing import Any

from .. import registry
from ..beliefs import BeliefQuestion
from ..core import Bot, GameState


def plugin(game: str | ModuleType) -> registry.GamePlugin:
    """The game's plugin, by short name, package name or module; a clear error for any other (a room asks it once)."""
    name = game.__name__ if isinstance(game, ModuleType) else game
    found = registry.find_game(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"Unknown game {str(name)[:40]!r}: choose one of {', '.join(registry.games())}.")
    return found


def game_package(game: str | ModuleType) -> str:
    """The package of a game given by short name, package name or module; a clear error for any other."""
    return plugin(game).module


def game_module(game: str | ModuleType) -> ModuleType:
    """The game's module (with `new_game`, `State`, `Rules`)."""
    return plugin(game).load_module()


def short_name(package: str) -> str:
    """"mafia_de_cuba" for "tabletop_edu.mafia_de_cuba"."""
    return plugin(package).name


def title(package: str) -> str:
    """The game's name for people ("Mafia de Cuba")."""
    return plugin(package).title


def player_range(package: str) -> tuple[int, int, int]:
    """The fewest and most players of a table of this game, and its usual number (`GamePlugin.default_players`)."""
    found = plugin(package)
    return found.min_players, found.max_players, found.default_players or found.min_players


def bot_names(package: str) -> list[str]:
    """The names of the bots a teacher may seat at a table of this game."""
    return sorted(plugin(package).bot_names())


def make_bot(package: str, name: str) -> Bot:
    """A fresh bot of the game by its name ("greedy"); `ValueError` for an unknown name."""
    if not isinstance(name, str) or name not in bot_names(package):
        raise ValueError(f"Unknown bot {str(name)[:40]!r} for {title(package)}: choose one of "
                         f"{', '.join(bot_names(package))}.")
    return registry.bot_spec(package, name).build()


def knowledge_function(package: str) -> Callable[..., str] | None:
    """The game's knowledge panel, `knowledge_html(view_or_state, language)`, as its plugin declares it."""
    return plugin(package).knowledge_panel()


def posteriors(state: GameState[Any]) -> dict[int, dict[str, float]]:
    """What the table can infer at `state`, as the game's plugin computes it; a ValueError for a game that
    declares no posteriors."""
    return plugin(state.game).posteriors_at(state)


def belief_model(package: str) -> Any | None:
    """The game's belief model (`beliefs.BeliefModel`), as its plugin declares it; None for a game that asks
    no belief questions."""
    return plugin(package).belief_model()


#: What a question's key gets when the teacher asks it (`asked_question`): "adler@h3#asked@12".
ASKED = "#asked@"


def belief_questions(model: Any, view: Any, asked_at: int | None) -> list[BeliefQuestion]:
    """The questions a seat's `view` is asked now: those of the moments the game sets (`model.questions`, each
    key answered once), and, after the teacher asked at step `asked_at`, the questions the model offers then
    (its optional `questions_when_asked(view)`, else `questions`) again, under keys of that ask, but for those
    the game asks now in the same words (a seat is never asked one question twice at once)."""
    questions = list(model.questions(view))
    if asked_at is not None:
        when_asked = getattr(model, "questions_when_asked", None)
        again = list(when_asked(view) if when_asked is not None else questions)
        asked_now = {question.text for question in questions}
        questions += [asked_question(question, asked_at) for question in again if question.text not in asked_now]
    return questions


def asked_question(question: BeliefQuestion, step: int) -> BeliefQuestion:
    """`question` as the teacher's ask at `step` puts it: the same words, a key of its own."""
    return dataclasses.replace(question, key=f"{question.key}{ASKED}{step}")


def base_question(question: BeliefQuestion) -> BeliefQuestion:
    """The game's own question behind a teacher's ask (what its model's `posterior` and `truth` read)."""
    key, found, _ = question.key.partition(ASKED)
    return dataclasses.replace(question, key=key) if found else question
