"""Mafia de Cuba's engine: the state of a round, where the Godfather's cigar box goes round; who stole the diamonds?

Rules (full text with numbered rules: seeds/mafia_de_cuba.md). 6 to 12 players; the Godfather (seat
`rules.godfather_seat`) hides 0 to `max_hidden` of the box's diamonds, then the box goes clockwise. Each taker
opens the box (a private observation), then takes at least one diamond or exactly one token; the first taker
may also set one token aside; an empty box, or the last taker's choice, makes a Street Kid. The box returns to
the Godfather, who sees what is left and investigates: he asks typed questions (`ask K seen|took|suspect`),
answered by testimonies which may be lies (`saw D tokens...`, `took X`, `suspect K`, `silent`), and accuses
(`accuse K`: "empty your pockets"). In free talk (the default) the floor opens by itself before each of his
moves: every living taker may volunteer one testimony or `pass`, all at once (one simultaneous step; the
pass that closes it names who spoke up, other passes have no text); with the budgeted interrogation
he has `question_budget` questions and floors (`floor`). A caught thief is out and gives his diamonds back; a
wrongly accused non-agent gets a joker, or, with no joker left, the Godfather is out; an accused Agent wins
alone. With the Cleaner variant every other living taker then secretly says `hold` or (the Cleaner) `shoot`.

This module is the state alone (`MafiaState`: its checks, moves and views, one idea): the moves and their
notation are `actions`, the shared legal-action menus `menus`, and the worlds drawn from a view `worlds`.

View facts (every key, for every seat; seat None is a spectator):
- `phase`: "hide", "set-aside", "take", "floor", "question", "answer", "cleaner" or "over".
- `godfather`: the Godfather's seat; `order`: the takers in the order the box reaches them.
- `box_holder`: the seat holding the box during the box phase, else None.
- `tokens_in_game`: token name -> count put in the box at the start (public: table size and rules).
- `jokers_left`, `recovered` (diamonds back with the Godfather), public.
- `questions_left`: budgeted interrogation: questions and floors left; free talk: the questions the Godfather
  may still ask before his next accusation (each seat, each kind, once).
- `asked`: [seat, kind] of every question since the last accusation (the start of the investigation), in order.
- `eliminated`, `jokered`: sorted seat lists; `revealed`: seat -> take text ("3", "driver", "nothing") for
  seats whose pockets were emptied.
- `pending`: [seat, kind] of the question waiting for an answer, or None; `floor`: seats yet to speak on the open
  floor (they act at once: `current_player` is their tuple).
- `testimonies`: [seat, claim] of every testimony ("took 3", "saw 10 loyal", "suspect 2") and every asked
  seat's "silent", in order: what the table heard.
- `my_take`: this seat's take text, or None (not yet / not a taker / spectator).
- `box_seen`: {"diamonds": d, "tokens": [...]} this seat saw when it opened the box, or None.
- `my_set_aside`: the first taker's set-aside token ("none" for none), else None.
- `hidden`: for the Godfather, the diamonds he hid; `box_returned`: for him, the box he got back (same shape as
  `box_seen`). Both None for others until the end.
- `winners`: sorted seat list once over, else []; at the end `all_takes` (seat -> take text) is public, and
  `hidden`, `box_returned` and `set_aside` become public too.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

from ..core import Action, FrozenDict, FrozenList, GameState, IllegalAction, RulesError, Seat, Term, View, copy_rng
from .actions import (KINDS, TESTIMONIES, Accuse, Ask, Floor, Hide, Hold, Pass, Saw, SetAside, Shoot, Silent, Suspect,
                      TakeFromBox, Took, parse_action)
from .menus import (_VOTES, _VOTES_OF_THE_CLEANER, Menu, _hide_menu, _question_menu, _set_aside_menu, _table_talk,
                    _TableTalk, _take_menu)
from .rules import AGENTS, TOKEN_ORDER, Rules, Take, role_of, starting_jokers, starting_tokens, take_text
from .worlds import sample_world
from ..i18n import register_event_kinds, register_objects

#: The event kinds as a French class reads them on top of the information-flow pictures' columns (the words
#: of the French notebooks: « poches » for the Godfather's « Videz vos poches ! »).
register_event_kinds("tabletop_edu.mafia_de_cuba", {"fr": {
    "setup": "mise en place", "hide": "cache", "open": "ouvre", "set-aside": "écarte", "take": "prend",
    "return": "retour", "pass": "parole close", "question": "question", "testimony": "témoignage",
    "silent": "silence", "accuse": "accuse", "floor": "parole", "vote": "vote", "reveal": "poches",
    "caught": "démasqué", "joker": "joker", "shoot": "tir", "final-reveal": "révélation finale", "end": "fin"}})
register_objects("tabletop_edu.mafia_de_cuba", {"fr": {"box": "boîte"}})


class MafiaState(GameState[Rules]):
    """A round of Mafia de Cuba. `takes[seat]` is each taker's secret (diamonds, token)."""

    game = "tabletop_edu.mafia_de_cuba"
    title = "Mafia de Cuba"
    rules_class = Rules
    min_players = 6
    max_players = 12

    def _setup(self) -> None:
        n = len(self.players)
        rules = self.rules
        if rules.godfather_seat >= n:
            raise RulesError(f"godfather_seat {rules.godfather_seat} is not a seat of this table of {n}.")
        self.godfather: Seat = rules.godfather_seat
        self.order: list[Seat] = [(self.godfather + k) % n for k in range(1, n)]
        table = _table(n, rules)
        self.tokens_in_game: dict[str, int] = dict(table.tokens)
        #: what the seats may say: it depends only on the game's tokens, its diamonds and the seats (public)
        self._talk = table.talk
        self.box_diamonds = rules.diamonds
        self.box_tokens: dict[str, int] = dict(self.tokens_in_game)
        self.hidden: int | None = None
        self.set_aside: str | None = None
        self.takes: dict[Seat, Take] = {}
        self.seen: dict[Seat, tuple[int, tuple[str, ...]]] = {}
        self.returned: tuple[int, tuple[str, ...]] | None = None
        self.phase = "hide"
        self.jokers_left = table.jokers
        self.questions_left = rules.question_budget  # budgeted interrogation only
        self.asked: list[tuple[Seat, str]] = []  # questions since the last accusation
        #: the public facts of the views at a step (`_public_facts`): the history and the events they were made at
        self._public_kept: tuple[list[Any], int, int, dict[str, Any], dict[str, Any]] | None = None
        #: the Godfather's menu (with whether it offers the floor), kept until his move or a verdict changes it
        self._godfather_options: tuple[bool, Menu] | None = None
        #: [seat, claim] of everything the table heard, appended to; `testimonies` is its read-only copy for views
        self._said: list[FrozenList] = []
        self._said_copy: FrozenList = FrozenList()
        self.eliminated: set[Seat] = set()
        self.jokered: set[Seat] = set()
        self.revealed: dict[Seat, Take] = {}
        self.recovered = 0
        self.pending: tuple[Seat, str] | None = None
        self.floor: list[Seat] = []
        self.spoke: list[Seat] = []  # who volunteered a testimony on the open floor
        self.accused: Seat | None = None
        self.votes: dict[Seat, bool] = {}
        self.shooter: Seat | None = None  # the Cleaner, once he has used his ability
        self.winner_seats: tuple[Seat, ...] = ()
        self.outcome = ""
        self.emit_event("setup", f"{self.players[self.godfather]} is the Godfather. {table.setup_text}", None, None,
                        None, None, table.setup_details)

    # ----------------------------------------------------------------- small helpers

    def _box_snapshot(self) -> tuple[int, tuple[str, ...]]:
        return self.box_diamonds, _tokens_in_box(tuple(self.box_tokens.items()))[0]

    @property
    def testimonies(self) -> FrozenList:
        """[seat, claim] of everything the table heard, read-only: made when a view asks, once per testimony,
        and shared by the views until the next one (a game that nobody watches never copies it)."""
        if len(self._said_copy) != len(self._said):
            self._said_copy = FrozenList(self._said)
        return self._said_copy

    @property
    def box_index(self) -> int:
        """How many takers have taken so far."""
        return len(self.takes)

    @property
    def stolen(self) -> int:
        return sum(diamonds for diamonds, _ in self.takes.values())

    def living_takers(self) -> list[Seat]:
        return [seat for seat in self.order if seat not in self.eliminated]

    def accusable(self) -> list[Seat]:
        return [seat for seat in self.living_takers()
                if self.rules.jokered_can_be_accused or seat not in self.jokered]

    def askable(self) -> list[tuple[Seat, str]]:
        """The questions the Godfather may ask now: free talk, each (seat, kind) once between two accusations;
        budgeted, any question while the budget lasts (R4.1)."""
        if not self.rules.free_talk and self.questions_left <= 0:
            return []
        if not self.asked or not self.rules.free_talk:
            return [question for seat in self.living_takers() for question in _QUESTIONS[seat]]
        asked = set(self.asked)
        return [question for seat in self.living_takers() for question in _QUESTIONS[seat] if question not in asked]

    def _voters(self) -> list[Seat]:
        return [seat for seat in self.living_takers() if seat != self.accused]

    # ----------------------------------------------------------------- protocol

    def _whose_turn(self) -> Seat | tuple[Seat, ...] | None:
        phase = self.phase
        if phase == "floor":  # R4.2: the takers yet to speak, all at once (and the Godfather, by option)
            return (*self.floor, self.godfather) if self.rules.godfather_closes_floor else tuple(self.floor)
        if phase == "over":
            return None
        if phase in ("hide", "question"):
            return self.godfather
        if phase in ("set-aside", "take"):
            return self.order[self.box_index]
        if phase == "answer":
            assert self.pending is not None
            return self.pending[0]
        return tuple(seat for seat in self._voters() if seat not in self.votes)

    @property
    def max_steps(self) -> int:
        """Box phase (hide, set-aside, n-1 takes), then the accusations: at most n-1 takers caught or jokered,
        plus one per joker (a jokered seat accused again), plus the last one; each followed by at most n-2
        Cleaner votes.

        Budgeted: each question or floor costs at most n steps (a floor: 1 + n-1 testimonies).
        Free talk: between two accusations the Godfather makes at most 3(n-1) + 1 moves (each question once,
        then the accusation), each preceded by a floor of at most n-1 words, and each question answered.
        """
        n = len(self.players)
        accusations = (n - 1) + starting_jokers(n, self.rules) + 1
        box = 2 + (n - 1)
        if not self.rules.free_talk:
            return box + self.rules.question_budget * n + accusations * (n - 1)
        questions = 3 * (n - 1)
        between_accusations = (questions + 1) * n + questions + (n - 2)
        return box + accusations * between_accusations

    @property
    def winners(self) -> tuple[Seat, ...]:
        return self.winner_seats if self.is_over else ()

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_action(text)

    def _take_menu(self) -> Menu:
        """The legal takes, shared between states with the same box (they depend on nothing else)."""
        present = _tokens_in_box(tuple(self.box_tokens.items()))[1]
        return _take_menu(self.box_diamonds, present, self._last_may_take_nothing())

    def _last_may_take_nothing(self) -> bool:
        return self.box_index == len(self.order) - 1 and self.rules.last_may_take_nothing

    def _may_take_nothing(self) -> bool:
        """An empty box leaves nothing to take; otherwise only the last taker may, under that rule option."""
        return self._last_may_take_nothing() or (self.box_diamonds == 0 and not any(self.box_tokens.values()))

    def _testimonies(self, kind: str | None, seat: Seat) -> Menu:
        """Every testimony of `kind` (None: any kind, on the floor) that `seat` may give; lies included, never
        hidden data."""
        return self._talk.floor_menus[seat] if kind is None else self._talk.answers(kind, seat)

    def legal_actions(self, player: Seat | None = None) -> list[Action]:
        """The menu of `player` (default: the one seat to act), as a read-only list (`Menu`; copy it to shuffle
        it): menus depend on little (the box, the table, the questions left), so each is built once, shared by
        every state, and never copied (a floor's menu holds a thousand testimonies at twelve players)."""
        seats = self._acting
        seat = (seats[0] if len(seats) == 1 else None) if player is None else player
        if seat is None or seat not in seats:
            return []
        phase = self.phase
        if phase == "floor" and seat != self.godfather:  # the commonest menu of free talk, first
            return self._talk.floor_menus[seat]
        if phase == "hide":
            return _hide_menu(self.rules.max_hidden)
        if phase == "set-aside":
            return _set_aside_menu(_tokens_in_box(tuple(self.box_tokens.items()))[1])
        if phase == "take":
            return self._take_menu()
        if phase == "question" or (phase == "floor" and seat == self.godfather):
            return self._godfather_menu()
        if phase == "answer":
            assert self.pending is not None
            return self._testimonies(self.pending[1], seat)
        return _VOTES_OF_THE_CLEANER if self.takes.get(seat) == (0, "cleaner") else _VOTES

    def _godfather_menu(self) -> Menu:
        """The Godfather's questions, floor and accusations: they change only when he asks, opens the floor or
        accuses and when a verdict falls (`_forget_godfather_menu`), so the menu is built once for all the moves
        between, and kept with whether it offers the floor (budgeted: in the question phase only)."""
        floor = not self.rules.free_talk and self.questions_left > 0 and self.phase == "question"
        kept = self._godfather_options
        if kept is not None and kept[0] == floor:
            return kept[1]
        menu = _question_menu(tuple(self.askable()), floor, tuple(self.accusable()))
        self._godfather_options = (floor, menu)
        return menu

    def _forget_godfather_menu(self) -> None:
        """The questions asked, the budget, the living or the jokered seats change: the kept menu is out of date."""
        self._godfather_options = None

    def _validate(self, seat: Seat, action: Action) -> None:
        check = _CHECKS.get(type(action))
        if check is None:
            raise IllegalAction.because("mdc_refused_not_an_action_value", action=str(action))
        check(self, seat, action)

    def _check_hide(self, seat: Seat, action: Hide) -> None:
        if self.phase != "hide":
            raise IllegalAction.because("mdc_refused_hide_who")
        if not 0 <= action.diamonds <= self.rules.max_hidden:
            raise IllegalAction.because("mdc_refused_hide_range", most=self.rules.max_hidden, diamonds=action.diamonds)

    def _check_set_aside(self, seat: Seat, action: SetAside) -> None:
        if self.phase != "set-aside":
            raise IllegalAction.because("mdc_refused_set_aside_who")
        if action.token is not None and not self.box_tokens.get(action.token):
            raise IllegalAction.because("mdc_refused_set_aside_none", token=Term(f"mdc_token.{action.token}"))

    def _check_take(self, seat: Seat, action: TakeFromBox) -> None:
        """R3.3-R3.4, by arithmetic: the same takes as the menu, without building it."""
        if self.phase != "take":
            raise IllegalAction.because("mdc_refused_take_holder", name=self.players[seat])
        diamonds, token = action.diamonds, action.token
        if token is not None:
            if diamonds:
                raise IllegalAction.because("mdc_refused_take_both")
            if not self.box_tokens.get(token):
                raise IllegalAction.because("mdc_refused_take_no_token", token=Term(f"mdc_token.{token}"))
        elif diamonds > self.box_diamonds:
            raise IllegalAction.because("mdc_refused_take_too_many", box=self.box_diamonds, diamonds=diamonds)
        elif diamonds < 0:
            raise IllegalAction.because("mdc_refused_take_negative")
        elif diamonds == 0 and not self._may_take_nothing():
            raise IllegalAction.because("mdc_refused_take_something")

    def _check_question(self, seat: Seat, action: Ask | Floor | Accuse) -> None:
        """R4.1, R4.5, R4.8: questions within the interrogation's bound, accusations of living takers (jokered:
        by option)."""
        if self.phase not in ("question", "floor") or seat != self.godfather:
            raise IllegalAction.because("mdc_refused_question_who")
        if isinstance(action, Floor):
            if self.phase == "floor":
                raise IllegalAction.because("mdc_refused_floor_open")
            if self.rules.free_talk:
                raise IllegalAction.because("mdc_refused_floor_free")
            if self.questions_left <= 0:
                raise IllegalAction.because("mdc_refused_no_question_left")
            return
        target = action.target
        if not 0 <= target < len(self.players):
            raise IllegalAction.because("refused.no_seat", seat=target, count=len(self.players))
        if target == self.godfather:
            raise IllegalAction.because("mdc_refused_question_self")
        if target in self.eliminated:
            raise IllegalAction.because("mdc_refused_eliminated", name=self.players[target])
        if isinstance(action, Ask):
            if not self.rules.free_talk and self.questions_left <= 0:
                raise IllegalAction.because("mdc_refused_no_question_left")
            if self.rules.free_talk and (target, action.kind) in self.asked:
                raise IllegalAction.because("mdc_refused_asked_already", name=self.players[target], kind=action.kind)
            return
        if target in self.jokered and not self.rules.jokered_can_be_accused:
            raise IllegalAction.because("mdc_refused_jokered", name=self.players[target])

    def _check_testimony(self, seat: Seat, action: Action) -> None:
        """R4.2: an answer of the asked kind (or silence), or any testimony on the floor; lies are allowed, but
        only about what this game could hold."""
        phase = self.phase
        if phase == "floor":
            if seat not in self.floor:
                raise IllegalAction.because("mdc_refused_testimony_when")
            if id(action) in self._talk.floor_ids[seat]:
                return  # a value handed out in this seat's floor menu: checked when the menu was built
        elif phase != "answer":
            raise IllegalAction.because("mdc_refused_testimony_when")
        if isinstance(action, Silent):
            if phase == "floor":
                raise IllegalAction.because("mdc_refused_floor_silent")
            return
        if phase == "answer":
            assert self.pending is not None
            asked = self.pending[1]
            wanted = {"seen": Saw, "took": Took, "suspect": Suspect}[asked]
            if not isinstance(action, wanted):
                raise IllegalAction.because("mdc_refused_answer_kind", asked=asked, wanted=wanted.__name__.lower())
        diamonds = self.rules.diamonds
        if isinstance(action, Suspect):
            if not 0 <= action.target < len(self.players):
                raise IllegalAction.because("mdc_refused_no_seat", seat=action.target)
            if action.target == seat:
                raise IllegalAction.because("mdc_refused_suspect_self")
        elif isinstance(action, Saw):
            if not 0 <= action.diamonds <= diamonds:
                raise IllegalAction.because("mdc_refused_saw_range", diamonds=action.diamonds, most=diamonds)
            for token in set(action.tokens):
                if action.tokens.count(token) > self.tokens_in_game.get(token, 0):
                    raise IllegalAction.because("mdc_refused_saw_tokens", count=self.tokens_in_game.get(token, 0),
                                                token=Term(f"mdc_token.{token}"))
        elif isinstance(action, Took):
            if action.diamonds > diamonds or (action.token and action.token not in self.tokens_in_game):
                raise IllegalAction.because("mdc_refused_took_impossible")

    def _check_pass(self, seat: Seat, action: Pass) -> None:
        if self.phase != "floor" or seat not in self.floor:
            raise IllegalAction.because("mdc_refused_pass_when")

    def _check_vote(self, seat: Seat, action: Shoot | Hold) -> None:
        if self.phase != "cleaner":
            raise IllegalAction.because("mdc_refused_vote_when")
        if isinstance(action, Shoot) and self.takes.get(seat) != (0, "cleaner"):
            raise IllegalAction.because("mdc_refused_cleaner_only")

    # ----------------------------------------------------------------- playing

    def _play(self, seat: Seat, action: Action) -> None:
        _PLAYS[type(action)](self, seat, action)

    def _godfather_next(self) -> None:
        """The Godfather is to move: in free talk the floor opens at the same time (R4.2): every living taker
        may say one word until all have, or until the Godfather's move closes it."""
        self.pending = None
        self.floor = self.living_takers() if self.rules.free_talk else []
        self.spoke = []
        self.phase = "floor" if self.floor else "question"

    def _close_floor(self) -> None:
        """The Godfather moves (`godfather_closes_floor`): whoever has not spoken on the open floor stays silent,
        without an event."""
        self.floor = []
        self.phase = "question"

    def _ask(self, seat: Seat, action: Ask) -> None:
        self._close_floor()
        self._forget_godfather_menu()
        if not self.rules.free_talk:
            self.questions_left -= 1
        self.asked.append((action.target, action.kind))
        self.pending = (action.target, action.kind)
        self.phase = "answer"
        self.emit_event("question", f"The Godfather asks {self.players[action.target]}: {QUESTION_TEXT[action.kind]}",
                        seat, None, None, None, FrozenDict(target=action.target, question=action.kind))

    def _open_floor(self, seat: Seat) -> None:
        self._close_floor()
        self._forget_godfather_menu()
        self.questions_left -= 1
        self.floor = self.living_takers()
        self.spoke = []
        self.phase = "floor"
        self.emit_event("floor", "The Godfather opens the floor: anyone may speak.", seat, None, None, None, {})

    def _hide(self, seat: Seat, diamonds: int) -> None:
        self.hidden = diamonds
        self.box_diamonds -= diamonds
        self.emit_event("hide", f"The Godfather hides {diamonds} diamond(s).", seat, None, _ONLY[seat],
                        "The Godfather hides some diamonds.", FrozenDict(diamonds=diamonds))
        self._pass_box()

    def _pass_box(self) -> None:
        """Hand the box on: the next taker opens it (a private observation), or it returns to the Godfather."""
        if self.box_index < len(self.order):
            taker = self.order[self.box_index]
            diamonds, tokens = snapshot = self._box_snapshot()
            self.seen[taker] = snapshot
            self.phase = "set-aside" if self.box_index == 0 and self.rules.first_may_set_aside else "take"
            self.emit_event("open", f"{self.players[taker]} opens the box: {diamonds} diamond(s), tokens: "
                            f"{', '.join(tokens) or 'none'}.", taker, "box", _ONLY[taker],
                            f"{self.players[taker]} opens the box.",
                            FrozenDict(seat=taker, diamonds=diamonds, tokens=FrozenList(tokens)), _SEAT_DATA[taker])
            return
        diamonds, tokens = self.returned = self._box_snapshot()
        self.emit_event("return", f"The box returns to the Godfather: {diamonds} diamond(s), tokens: "
                        f"{', '.join(tokens) or 'none'}.", self.godfather, "box", _ONLY[self.godfather],
                        "The box returns to the Godfather, who looks inside.",
                        FrozenDict(diamonds=diamonds, tokens=FrozenList(tokens)))
        if self.stolen == 0 and self.rules.nobody_stole_godfather_wins:
            self._finish("godfather", "Nobody stole a diamond: the Godfather wins at once.")
        else:
            self._godfather_next()

    def _set_aside(self, seat: Seat, token: str | None) -> None:
        self.set_aside = token
        if token:
            self.box_tokens[token] -= 1
        self.emit_event("set-aside", f"{self.players[seat]} sets aside {token or 'nothing'}.", seat, None, _ONLY[seat],
                        f"{self.players[seat]} may set a token aside.", FrozenDict(token=token))
        self.phase = "take"

    def _take(self, seat: Seat, take: Take) -> None:
        diamonds, token = take
        self.takes[seat] = take
        self.box_diamonds -= diamonds
        if token:
            self.box_tokens[token] -= 1
        text = take_text(take)
        self.emit_event("take", f"{self.players[seat]} takes {text}.", seat, None, _ONLY[seat],
                        f"{self.players[seat]} takes something from the box and passes it on.", FrozenDict(take=text))
        self._pass_box()

    def _testify(self, seat: Seat, action: Action) -> None:
        """A testimony (or an asked seat's silence): the commonest move of free talk, so its event's details are
        made once per value and shared (`_testimony_details`)."""
        name = self.players[seat]
        self._said.append(FrozenList((seat, action.__dict__.get("_notation") or str(action))))
        if type(action) is Silent:
            self.emit_event("silent", f"{name} keeps silent.", seat, None, None, None, {})
            self._godfather_next()
            return
        if self.phase == "floor":  # `_spoken`, inlined: the floor's words are most of a game's moves
            self.spoke.append(seat)
            self.emit_event("testimony", f"{name} volunteers: {_quoted(action, self.players)}", seat, None, None, None,
                            _testimony_details(action, True))
            floor = self.floor
            floor.remove(seat)
            if not floor:
                self.phase = "question"
            return
        self.emit_event("testimony", f"{name} says: {_quoted(action, self.players)}", seat, None, None, None,
                        _testimony_details(action, False))
        self._godfather_next()

    def _pass(self, seat: Seat, action: Pass) -> None:
        """'Nothing to say': the seat leaves the open floor (R4.2). Every seat sees that a move was made (an
        event, as for every move), but its text is empty, so no log line, reveal or flow picture shows the
        silence; only the pass that closes the floor says so, naming who spoke up."""
        closes = self.floor == [seat]
        text = ""
        if closes:
            spoke = ", ".join(self.players[speaker] for speaker in self.spoke) or "nobody"
            text = f"The floor closes (spoke up: {spoke})."
        self.emit_event("pass", text, seat, None, None, None, FrozenDict(closes=closes, spoke=FrozenList(self.spoke)))
        self._spoken(seat)

    def _spoken(self, seat: Seat) -> None:
        """After a word: on the floor the seat has had its say (the floor closes when all have); after an
        answer the Godfather moves (in free talk, with the floor open again)."""
        if self.phase == "floor":
            floor = self.floor
            floor.remove(seat)
            if not floor:
                self.phase = "question"
            return
        self._godfather_next()

    def _accuse(self, seat: Seat, target: Seat) -> None:
        self._close_floor()
        self._forget_godfather_menu()
        self.accused = target
        self.asked = []
        self.emit_event("accuse", f"The Godfather to {self.players[target]}: \"Empty your pockets!\"", seat, None,
                        None, None, FrozenDict(target=target))
        if self.rules.cleaner and self._voters():
            self.votes = {}
            self.phase = "cleaner"
        else:
            self._resolve(None)

    def _vote(self, seat: Seat, shoot: bool) -> None:
        self.votes[seat] = shoot
        self.emit_event("vote", f"{self.players[seat]} says {'shoot' if shoot else 'hold'}.", seat, None, _ONLY[seat],
                        f"{self.players[seat]} decides.", FrozenDict(shoot=shoot), _SEAT_DATA[seat])
        if len(self.votes) == len(self._voters()):
            shooter = next((voter for voter, shot in self.votes.items() if shot), None)
            self.votes = {}
            self._resolve(shooter)

    def _reveal(self, seat: Seat) -> Take:
        take = self.takes[seat]
        self.revealed[seat] = take
        text = take_text(take)
        self.emit_event("reveal", f"{self.players[seat]} empties their pockets: {text}.", seat, None, None, None,
                        FrozenDict(take=text, seat=seat, role=role_of(take)))
        return take

    def _resolve(self, shooter: Seat | None) -> None:
        target = self.accused
        assert target is not None
        self.accused = None
        self._forget_godfather_menu()
        if shooter is not None:
            self._shot(shooter, target)
        else:
            self._pockets_emptied(target)
        if self.phase != "over":
            if not self.accusable():
                self._finish("godfather", "Nobody is left to accuse and no diamond is missing: the Godfather wins.")
            else:
                self._godfather_next()

    def _shot(self, shooter: Seat, target: Seat) -> None:
        """R6.2: the Cleaner shoots the accused; an Agent shot makes him win alone, otherwise both are out."""
        self.shooter = shooter
        self.emit("shoot", f"{self.players[shooter]}, the Cleaner, shoots {self.players[target]}!",
                  actor=shooter, target=target)
        self._reveal(shooter)
        diamonds, token = self._reveal(target)
        if token in AGENTS:
            self.winner_seats = self._with_drivers({shooter}) if self.rules.driver_joins_lone_winner else (shooter,)
            self._finish("cleaner", f"The Cleaner shot an Agent: {self.players[shooter]} wins alone.")
            return
        self.eliminated |= {shooter, target}
        self.recovered += diamonds
        self._check_recovered()

    def _pockets_emptied(self, target: Seat) -> None:
        """R4.4-R4.7: a thief is caught, an Agent wins alone, anyone else gets a joker or costs the game."""
        diamonds, token = self._reveal(target)
        if diamonds:
            self.eliminated.add(target)
            self.recovered += diamonds
            self.emit("caught", f"{self.players[target]} is a thief: {diamonds} diamond(s) back, and he is out.",
                      target=target)
            self._check_recovered()
        elif token in AGENTS:
            self.winner_seats = self._with_drivers({target}) if self.rules.driver_joins_lone_winner else (target,)
            self._finish("agent", f"{self.players[target]} is an Agent ({token}) and wins alone.")
        elif self.jokers_left > 0:
            self.jokers_left -= 1
            self.jokered.add(target)
            self.emit("joker", f"Wrong accusation: the Godfather gives {self.players[target]} a joker.",
                      target=target)
        else:
            self.eliminated.add(self.godfather)
            self._finish("thieves", "Wrong accusation and no joker left: the Godfather is eliminated.")

    def _check_recovered(self) -> None:
        if self.recovered == self.stolen:
            self._finish("godfather", "The Godfather has every stolen diamond back.")

    def _finish(self, outcome: str, text: str) -> None:
        self.outcome = outcome
        if outcome in ("godfather", "thieves"):
            self.winner_seats = self._team_winners(outcome)
        self.phase = "over"
        self.pending = None
        self.floor = []
        self.emit("end", text, outcome=outcome)
        takes = {seat: take_text(take) for seat, take in sorted(self.takes.items())}
        self.emit("final-reveal", "Everyone shows what they took: " + "; ".join(
            f"{self.players[seat]}: {text}" for seat, text in takes.items())
            + f". The Godfather had hidden {self.hidden}; set aside: {self.set_aside or 'nothing'}. Winners: "
            + (", ".join(self.players[s] for s in self.winner_seats) or "nobody") + ".",
            takes=takes, hidden=self.hidden, set_aside=self.set_aside, winners=list(self.winner_seats))

    def _team_winners(self, outcome: str) -> tuple[Seat, ...]:
        """R5.1, R5.3, R5.4: the Godfather's side (his Loyal Henchmen, and the Cleaner unless he shot) or the
        richest living thieves with the Street Kids; then the Drivers whose right-hand neighbour wins."""
        roles = {seat: role_of(take) for seat, take in self.takes.items()}
        if outcome == "godfather":
            base = {self.godfather} | {seat for seat, role in roles.items() if role == "loyal"
                                       or (role == "cleaner" and seat != self.shooter)}
        else:
            thieves = {seat: self.takes[seat][0] for seat, role in roles.items()
                       if role == "thief" and seat not in self.eliminated}
            best = max(thieves.values(), default=0)
            richest = [seat for seat, d in thieves.items() if d == best]
            base = {seat for seat, role in roles.items() if role == "street-kid"}
            if len(richest) == 1 or self.rules.tied_thieves_all_win:
                base |= set(richest)
        return self._with_drivers(base)

    def _with_drivers(self, base: set[Seat]) -> tuple[Seat, ...]:
        """R5.4: `base` and the Drivers whose right-hand neighbour wins (through other Drivers, by option)."""
        roles = {seat: role_of(take) for seat, take in self.takes.items()}
        winners = set(base)
        drivers = [seat for seat, role in roles.items() if role == "driver"]
        n = len(self.players)
        changed = True
        while changed:
            changed = False
            for driver in drivers:
                right = (driver - 1) % n
                source = winners if self.rules.driver_chain else base
                if driver not in winners and right in source:
                    winners.add(driver)
                    changed = True
        return tuple(sorted(winners))

    def script_seat(self, action: Action | str) -> Seat:
        """The seat a scripted move belongs to, for tutorials and tests that write a game as a list of texts:
        on an open floor the Godfather's moves (`ask`, `accuse`, `floor`) are his and any other word is the
        first taker's yet to speak (box order); elsewhere the seat to act (the first voter after an accusation)."""
        seats = self.acting_seats
        if not seats:
            raise IllegalAction.because("refused.game_over")
        if self.phase == "floor":
            move = self._canonical(action)
            return self.godfather if isinstance(move, (Ask, Accuse, Floor)) else seats[0]
        return seats[0]

    def apply_script(self, texts: list[str]) -> None:
        """Play `texts` in order, each for `script_seat` (see there)."""
        for text in texts:
            self.apply(text, player=self.script_seat(text))

    # ----------------------------------------------------------------- views

    def _questions_left(self) -> int:
        if not self.rules.free_talk:
            return self.questions_left
        return len(self.askable()) if self.phase != "over" else 0

    def _facts(self, seat: Seat | None) -> dict[str, Any]:
        is_godfather = seat == self.godfather
        shown, after = self._public_facts()
        over = self.phase == "over"
        facts: dict[str, Any] = {
            **shown,
            "my_take": take_text(self.takes[seat]) if seat in self.takes else None,
            "box_seen": _box_fact(self.seen.get(seat)) if seat is not None else None,
            "my_set_aside": ((self.set_aside or "none") if seat == self.order[0] and self.phase not in
                             ("hide", "set-aside") and self.rules.first_may_set_aside else None),
            "hidden": self.hidden if is_godfather or over else None,
            "box_returned": _box_fact(self.returned) if is_godfather or over else None,
            **after,
        }
        return facts

    def _public_facts(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """What every view shows of the table (the facts before a seat's own, and after them), frozen and made once
        per step: a class server asks for 13 views of each step. A value equal to the last step's is handed as
        that very value, so that each seat's log keeps the copy it made of it (`SeatLog.facts`): on the floor, only
        the testimonies and who is yet to speak change."""
        kept = self._public_kept
        if kept is not None and kept[0] is self.history and kept[1] == len(self.history) and \
                kept[2] == len(self.events):
            return kept[3], kept[4]
        shown: dict[str, Any] = {
            "phase": self.phase,
            "godfather": self.godfather,
            "order": FrozenList(self.order),
            "box_holder": self.order[self.box_index] if self.phase in ("set-aside", "take") else None,
            "tokens_in_game": FrozenDict(self.tokens_in_game),
            "jokers_left": self.jokers_left,
            "questions_left": self._questions_left(),
            "asked": FrozenList([FrozenList(question) for question in self.asked]),
            "recovered": self.recovered,
            "eliminated": FrozenList(sorted(self.eliminated)),
            "jokered": FrozenList(sorted(self.jokered)),
            "revealed": FrozenDict({s: take_text(t) for s, t in sorted(self.revealed.items())}),
            "pending": FrozenList(self.pending) if self.pending else None,
            "floor": FrozenList(self.floor),
            "testimonies": self.testimonies,
        }
        after: dict[str, Any] = {"winners": FrozenList(self.winners)}
        if self.phase == "over":
            after["all_takes"] = FrozenDict({s: take_text(t) for s, t in sorted(self.takes.items())})
            after["set_aside"] = self.set_aside or "none"
        if kept is not None:  # the values as they were at the last step: those very values
            for part, earlier in ((shown, kept[3]), (after, kept[4])):
                for key, value in part.items():
                    then = earlier.get(key)
                    if then is not value and type(then) is type(value) and then == value:
                        part[key] = then
        self._public_kept = (self.history, len(self.history), len(self.events), shown, after)
        return shown, after

    def fingerprint(self) -> str:
        """The protocol's fingerprint of every field, with the long logs (events, record, testimonies) written by
        their `repr`, which shows every value in them (events are frozen named tuples): the same promise, several
        times faster on the logs of free talk, which checks take many times a step. What is kept only to be handed
        out again (the views' copy of the testimonies and their public facts, the Godfather's menu) is derived, so
        left out."""
        stand_in = object.__new__(_Fields)
        stand_in.__dict__.update(vars(self), events=repr(self.events), history=repr(self.history),
                                 _said=repr(self._said), _said_copy=None, _public_kept=None,
                                 _godfather_options=None)
        return GameState.fingerprint(stand_in)  # type: ignore[arg-type]

    def __deepcopy__(self, memo: dict[int, Any]) -> MafiaState:
        """A clone shares what never changes (the rules, the names, the event log's items, the record's entries,
        the read-only testimonies), copies the containers of immutable values one level deep (the takes, the
        boxes seen, the seat lists), gives the generator its state without a deep copy, and deep-copies the
        rest: a free-talk game's log runs to hundreds of events, and searches and checks clone at every step."""
        clone = object.__new__(type(self))
        memo[id(self)] = clone
        for name, value in vars(self).items():
            if name in _SHARED:
                setattr(clone, name, value)
            elif name in _ONE_LEVEL:
                setattr(clone, name, value.copy())
            elif name == "rng":
                setattr(clone, name, copy_rng(value))
            else:
                setattr(clone, name, copy.deepcopy(value, memo))
        return clone

    # ----------------------------------------------------------------- determinization

    @classmethod
    def world_from_view(cls, view: View, rng: random.Random) -> MafiaState:
        """A full state drawn uniformly among the box histories that fit `view`, built from the view and `rng`
        alone (`worlds.sample_world`: exact forward-filtering backward-sampling; the investigation is
        replayed from the view's log)."""
        return sample_world(view, rng, cls)


class _Table(NamedTuple):
    """What a table of this size starts with under these rules (the rulebook's set-up, public): the same for every
    game at it, so made once (`_table`)."""

    tokens: tuple[tuple[str, int], ...]  # the token counts in the box, in TOKEN_ORDER
    jokers: int
    talk: _TableTalk
    setup_text: str  # the set-up event's text after the Godfather's name
    setup_details: FrozenDict


def _tokens_text(tokens: dict[str, int]) -> str:
    """'3 loyal, 1 fbi, 1 driver': token counts as the set-up event lists them."""
    listed = [f"{count} {name}" for name, count in sorted(tokens.items(), key=lambda kv: TOKEN_ORDER.index(kv[0]))
              if count]
    return ", ".join(listed) if listed else "no token"


@lru_cache(maxsize=256)
def _table(players: int, rules: Rules) -> _Table:
    """The set-up of a table of `players` under `rules` (R1.3), made once per table size and rules."""
    tokens, jokers = starting_tokens(players, rules), starting_jokers(players, rules)
    talk = _table_talk((tuple(sorted(tokens.items())), rules.diamonds), players)
    text = (f"The box holds {rules.diamonds} diamonds and {_tokens_text(tokens)}; the Godfather has {jokers} "
            "joker(s).")
    details = FrozenDict(godfather=rules.godfather_seat, tokens=FrozenDict(tokens), jokers=jokers,
                         diamonds=rules.diamonds)
    return _Table(tuple(tokens.items()), jokers, talk, text, details)


@lru_cache(maxsize=1024)
def _box_fact(snapshot: tuple[int, tuple[str, ...]] | None) -> FrozenDict | None:
    """A box as a seat saw it (or the Godfather got it back), as its facts show it: the same snapshot, the very same
    frozen value, which a seat's log keeps its copy of (`SeatLog.facts`)."""
    return None if snapshot is None else FrozenDict(diamonds=snapshot[0], tokens=FrozenList(snapshot[1]))


#: Fields a clone shares (immutable values) and lists of immutable items it copies shallowly (`__deepcopy__`).
_SHARED = frozenset({"rules", "players", "_said_copy", "_public_kept", "_talk", "_godfather_options"})
#: Lists, dicts and sets whose items are immutable (events, texts, seats, take and box tuples): a copy of the
#: container is a deep copy.
_ONE_LEVEL = frozenset({"events", "history", "_said", "order", "tokens_in_game", "box_tokens", "takes", "seen",
                        "asked", "eliminated", "jokered", "revealed", "floor", "spoke", "votes"})


class _Fields:
    """A bare object carrying a state's fields, for `MafiaState.fingerprint`."""


def world_from_view(view: View, rng: random.Random) -> MafiaState:
    """A world consistent with `view`, from the view and `rng` alone (see `MafiaState.world_from_view`)."""
    return MafiaState.world_from_view(view, rng)


#: How each kind of action is checked (see `MafiaState._validate`): one look-up instead of a chain of tests.
_CHECKS: dict[type, Callable[[MafiaState, Seat, Any], None]] = {
    Hide: MafiaState._check_hide, SetAside: MafiaState._check_set_aside, TakeFromBox: MafiaState._check_take,
    Ask: MafiaState._check_question, Floor: MafiaState._check_question, Accuse: MafiaState._check_question,
    **{kind: MafiaState._check_testimony for kind in TESTIMONIES}, Pass: MafiaState._check_pass,
    Shoot: MafiaState._check_vote, Hold: MafiaState._check_vote,
}

#: How each kind of checked action is carried out (see `MafiaState._play`).
_PLAYS: dict[type, Callable[[MafiaState, Seat, Any], None]] = {
    Hide: lambda state, seat, action: state._hide(seat, action.diamonds),
    SetAside: lambda state, seat, action: state._set_aside(seat, action.token),
    TakeFromBox: lambda state, seat, action: state._take(seat, (action.diamonds, action.token)),
    Ask: MafiaState._ask,
    Floor: lambda state, seat, action: state._open_floor(seat),
    Accuse: lambda state, seat, action: state._accuse(seat, action.target),
    **{kind: MafiaState._testify for kind in TESTIMONIES}, Pass: MafiaState._pass,
    Shoot: lambda state, seat, action: state._vote(seat, True),
    Hold: lambda state, seat, action: state._vote(seat, False),
}


@lru_cache(maxsize=1024)
def _tokens_in_box(counts: tuple[tuple[str, int], ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every token in a box of these (name, count) pairs in the rules' order, and the kinds present: what each
    taker sees and may take, for the few boxes a game's tokens can make."""
    held = dict(counts)
    every = tuple(name for name in TOKEN_ORDER for _ in range(held.get(name, 0)))
    return every, tuple(name for name in TOKEN_ORDER if held.get(name))


#: Each seat alone, as an event's observers, and a seat's number as the details of its redacted events.
_ONLY: tuple[frozenset[Seat], ...] = tuple(frozenset((seat,)) for seat in range(MafiaState.max_players))
_SEAT_DATA: tuple[FrozenDict, ...] = tuple(FrozenDict(seat=seat) for seat in range(MafiaState.max_players))
#: The questions the Godfather may ask each seat, (seat, kind), made once.
_QUESTIONS: tuple[tuple[tuple[Seat, str], ...], ...] = tuple(tuple((seat, kind) for kind in KINDS)
                                                             for seat in range(MafiaState.max_players))


_TESTIMONY_NAMES = {Saw: "saw", Took: "took", Suspect: "suspect"}


def _testimony_details(action: Action, volunteered: bool) -> FrozenDict:
    """A testimony event's details: they depend on the value alone, so they are made once per value and kept
    on it (read-only, so every event may share them)."""
    known = action.__dict__
    slot = "_volunteered_details" if volunteered else "_answer_details"
    details = known.get(slot)
    if details is None:
        details = known[slot] = FrozenDict(claim=str(action), testimony=_TESTIMONY_NAMES[type(action)],
                                           volunteered=volunteered)
    return details


def _quoted(action: Action, names: tuple[str, ...] | list[str]) -> str:
    """The testimony as the log quotes it; a claim about the box names nobody, so its words are kept on the
    value (as its notation is) and written once."""
    kind = type(action)
    if kind is Suspect:
        return TESTIMONY_TEXT[kind](action, names)
    known = action.__dict__
    text = known.get("_quoted")
    if text is None:
        text = known["_quoted"] = TESTIMONY_TEXT[kind](action, names)
    return text


QUESTION_TEXT = {"seen": "what did you see in the box?", "took": "what did you take?",
                 "suspect": "whom do you suspect?"}
TESTIMONY_TEXT = {
    Saw: lambda a, names: f"\"I saw {a.diamonds} diamond(s) and tokens: {', '.join(a.tokens) or 'none'}.\"",
    Took: lambda a, names: f"\"I took {take_text((a.diamonds, a.token))}.\"",
    Suspect: lambda a, names: f"\"I suspect {names[a.target]}.\"",
}


State = MafiaState


#: The published rules, checked once: a `Rules` is frozen, so every game without options can share it.
_PUBLISHED_RULES = Rules()


def new_game(players: int | list[str] = 6, *, seed: int | None = None, rules: Rules | None = None) -> MafiaState:
    """A new round of Mafia de Cuba (no randomness in the set-up: the seed is for bots and records)."""
    return MafiaState(players, seed=seed, rules=_PUBLISHED_RULES if rules is None else rules)
