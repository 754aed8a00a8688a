"""The belief desk: a room's belief questions asked by the teacher, and a student's answer checked and stored.

A room opened with `beliefs=True` asks its students what they believe (`tabletop_edu.beliefs`): at the moments
its game's belief model sets, and when the teacher asks, each seat is offered the model's questions for its own
view; a stated belief is checked (`parse_belief`), stored with the posterior of the seat's view under its game's
reference model of play at the step it answers, and only then acknowledged. Beliefs are that seat's secret until
the reveal.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

from ..beliefs import BeliefError, BeliefQuestion, parse_belief
from . import games
from .commits import HallCommits, storage_refusal
from .rooms import Change, Refused, Room
from .store import BeliefRow, meta_job


class BeliefDesk:
    """The belief questions of a hall's rooms: the teacher's ask (every seat is asked again what its game asks
    now, `games.asked_question`), and a student's answer: checked, stored with the reference posterior of the
    seat's view, then kept in memory (in that order: nothing is acknowledged that is not on disk). Every check comes
    first and refuses with a reason a student understands, storing nothing."""

    def __init__(self, hall: HallCommits) -> None:
        self.hall = hall

    async def ask(self, code: str) -> Room:
        """The teacher asks what the class believes now (`ask_change`), committed."""
        return await self.hall.commit(self.ask_change(code))

    def ask_change(self, code: str) -> Change[Room]:
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
