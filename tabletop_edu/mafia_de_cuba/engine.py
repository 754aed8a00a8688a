"""Mafia de Cuba: the Godfather's cigar box goes round the table; who stole the diamonds?

Rules (full text with numbered rules: seeds/mafia_de_cuba.md). 6 to 12 players; the Godfather (seat
`rules.godfather_seat`) hides 0 to 5 of the 15 diamonds, then the box goes clockwise. Each taker opens the box
(a private observation), then takes at least one diamond or exactly one token; the first taker may also set one
token aside; an empty box, or the last taker's choice, makes a Street Kid. The box returns to the Godfather, who
sees what is left, asks typed questions (`ask K seen|took|suspect`, `floor`) that are answered by testimonies
which may be lies (`saw D tokens...`, `took X`, `suspect K`, `silent`), and accuses (`accuse K`: "empty your
pockets"). A caught thief is out and gives his diamonds back; a wrongly accused non-agent gets a joker, or, with
no joker left, the Godfather is out; an accused Agent wins alone. With the Cleaner variant every other living
taker then secretly says `hold` or (the Cleaner) `shoot`.

View facts (every key, for every seat; seat None is a spectator):
- `phase`: "hide", "set-aside", "take", "question", "answer", "floor", "cleaner" or "over".
- `godfather`: the Godfather's seat; `order`: the takers in the order the box reaches them.
- `box_holder`: the seat holding the box during the box phase, else None.
- `tokens_in_game`: token name -> count put in the box at the start (public: it depends on the table size).
- `jokers_left`, `questions_left`, `recovered` (diamonds back with the Godfather), public.
- `eliminated`, `jokered`: sorted seat lists; `revealed`: seat -> take text ("3", "driver", "nothing") for
  seats whose pockets were emptied.
- `pending`: [seat, kind] of the question waiting for an answer, or None; `floor`: seats yet to speak.
- `my_take`: this seat's take text, or None (not yet / not a taker / spectator).
- `box_seen`: {"diamonds": d, "tokens": [...]} this seat saw when it opened the box, or None.
- `my_set_aside`: the first taker's set-aside token ("none" for none), else None.
- `hidden`: for the Godfather, the diamonds he hid; `box_returned`: for him, the box he got back (same shape as
  `box_seen`). Both None for others until the end.
- `winners`: sorted seat list once over, else []; at the end `all_takes` (seat -> take text) is public, and
  `hidden`, `box_returned` and `set_aside` become public too.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..core import Action, GameState, IllegalAction, RulesError, Seat, expect_arity, parse_choice, parse_int, words
from .rules import AGENTS, DIAMONDS, TOKEN_ORDER, Rules, starting_jokers, starting_tokens

KINDS = ("seen", "took", "suspect")
Take = tuple[int, "str | None"]  # (diamonds, token); (0, None) is "nothing"


def take_text(take: Take) -> str:
    """'3', 'driver' or 'nothing': the notation of a take, used in facts and testimonies."""
    diamonds, token = take
    return token if token else (str(diamonds) if diamonds else "nothing")


def role_of(take: Take) -> str:
    """The role a take gives: 'thief', a token name, or 'street-kid'."""
    diamonds, token = take
    return token if token else ("thief" if diamonds else "street-kid")


# ---------------------------------------------------------------------------------------------- actions

@dataclass(frozen=True)
class Hide(Action):
    """The Godfather hides `diamonds` (0-5) before passing the box."""
    diamonds: int

    def __str__(self) -> str:
        return f"hide {self.diamonds}"


@dataclass(frozen=True)
class SetAside(Action):
    """The first taker puts one token out of play (`token` None: sets nothing aside)."""
    token: str | None

    def __str__(self) -> str:
        return f"set-aside {self.token or 'none'}"


@dataclass(frozen=True)
class TakeFromBox(Action):
    """A taker's secret take: `diamonds` >= 1, or one `token`, or nothing (diamonds 0, token None)."""
    diamonds: int = 0
    token: str | None = None

    def __str__(self) -> str:
        return "take " + take_text((self.diamonds, self.token))


@dataclass(frozen=True)
class Ask(Action):
    """The Godfather asks seat `target` a typed question: 'seen', 'took' or 'suspect'."""
    target: int
    kind: str

    def __str__(self) -> str:
        return f"ask {self.target} {self.kind}"


@dataclass(frozen=True)
class Floor(Action):
    """The Godfather opens the floor: every living taker in turn may volunteer one testimony."""

    def __str__(self) -> str:
        return "floor"


@dataclass(frozen=True)
class Accuse(Action):
    """'Empty your pockets!': the only way to learn the truth about a seat."""
    target: int

    def __str__(self) -> str:
        return f"accuse {self.target}"


@dataclass(frozen=True)
class Saw(Action):
    """Testimony: 'when I opened the box there were `diamonds` diamonds and these tokens' (maybe a lie)."""
    diamonds: int
    tokens: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join(["saw", str(self.diamonds), *self.tokens])


@dataclass(frozen=True)
class Took(Action):
    """Testimony: 'I took this' (maybe a lie)."""
    diamonds: int = 0
    token: str | None = None

    def __str__(self) -> str:
        return "took " + take_text((self.diamonds, self.token))


@dataclass(frozen=True)
class Suspect(Action):
    """Testimony: 'I suspect seat `target`'."""
    target: int

    def __str__(self) -> str:
        return f"suspect {self.target}"


@dataclass(frozen=True)
class Silent(Action):
    """Say nothing (a seat may always keep silent)."""

    def __str__(self) -> str:
        return "silent"


@dataclass(frozen=True)
class Shoot(Action):
    """Cleaner variant: the Cleaner shoots the accused before he empties his pockets."""

    def __str__(self) -> str:
        return "shoot"


@dataclass(frozen=True)
class Hold(Action):
    """Cleaner variant: do not shoot (every living taker says it, so the Cleaner stays hidden)."""

    def __str__(self) -> str:
        return "hold"


TESTIMONIES = (Saw, Took, Suspect, Silent)
NOTATION = ("'hide K', 'set-aside TOKEN|none', 'take N|TOKEN|nothing', 'ask K seen|took|suspect', 'floor', "
            "'accuse K', 'saw D [TOKENS...]', 'took N|TOKEN|nothing', 'suspect K', 'silent', 'shoot', 'hold'")


def _sort_tokens(tokens: list[str]) -> tuple[str, ...]:
    return tuple(sorted(tokens, key=TOKEN_ORDER.index))


def _parse_take(parts: list[str], verb: str) -> tuple[int, str | None]:
    if len(parts) != 2:
        raise IllegalAction(f"'{' '.join(parts)}': {verb} exactly one thing: a number of diamonds, one token "
                            f"({', '.join(TOKEN_ORDER)}) or 'nothing'.")
    word = parts[1]
    if word == "nothing":
        return 0, None
    if word in TOKEN_ORDER:
        return 0, word
    diamonds = parse_int(word, "a number of diamonds or a token")
    if diamonds < 1:
        raise IllegalAction(f"'{verb} {word}': take at least 1 diamond (or one token, or 'nothing').")
    return diamonds, None


def parse_action(text: str) -> Action:
    """Read any action of Mafia de Cuba from its notation (see seeds/mafia_de_cuba.md)."""
    parts = words(text)
    verb = parts[0]
    if verb == "hide":
        expect_arity(parts, 2, "hide K")
        return Hide(parse_int(parts[1], "a number of diamonds"))
    if verb == "set-aside":
        expect_arity(parts, 2, "set-aside TOKEN")
        token = parse_choice(parts[1], (*TOKEN_ORDER, "none"), "token")
        return SetAside(None if token == "none" else token)
    if verb == "take":
        return TakeFromBox(*_parse_take(parts, "take"))
    if verb == "took":
        return Took(*_parse_take(parts, "took"))
    if verb == "ask":
        expect_arity(parts, 3, "ask K seen|took|suspect")
        return Ask(parse_int(parts[1], "a seat"), parse_choice(parts[2], KINDS, "question"))
    if verb == "accuse":
        expect_arity(parts, 2, "accuse K")
        return Accuse(parse_int(parts[1], "a seat"))
    if verb == "suspect":
        expect_arity(parts, 2, "suspect K")
        return Suspect(parse_int(parts[1], "a seat"))
    if verb == "saw":
        if len(parts) < 2:
            raise IllegalAction("'saw' needs a number of diamonds: 'saw D [TOKENS...]'.")
        tokens = [parse_choice(word, TOKEN_ORDER, "token") for word in parts[2:]]
        return Saw(parse_int(parts[1], "a number of diamonds"), _sort_tokens(tokens))
    simple = {"floor": Floor, "silent": Silent, "shoot": Shoot, "hold": Hold}
    if verb in simple:
        expect_arity(parts, 1, verb)
        return simple[verb]()
    raise IllegalAction(f"'{text}' is not a Mafia de Cuba action: write {NOTATION}.")


# ---------------------------------------------------------------------------------------------- state

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
        if not 0 <= rules.godfather_seat < n:
            raise RulesError(f"godfather_seat {rules.godfather_seat} is not a seat of this table of {n}.")
        if not 0 <= rules.max_hidden <= DIAMONDS or rules.question_budget < 0:
            raise RulesError("max_hidden must be 0..15 and question_budget >= 0.")
        self.godfather: Seat = rules.godfather_seat
        self.order: list[Seat] = [(self.godfather + k) % n for k in range(1, n)]
        self.tokens_in_game: dict[str, int] = starting_tokens(n, rules)
        self._testimony_key = tuple(sorted(self.tokens_in_game.items()))  # what testimonies can name
        self.box_diamonds = DIAMONDS
        self.box_tokens: dict[str, int] = dict(self.tokens_in_game)
        self.hidden: int | None = None
        self.set_aside: str | None = None
        self.takes: dict[Seat, Take] = {}
        self.seen: dict[Seat, tuple[int, tuple[str, ...]]] = {}
        self.returned: tuple[int, tuple[str, ...]] | None = None
        self.phase = "hide"
        self.jokers_left = starting_jokers(n)
        self.questions_left = rules.question_budget
        self.eliminated: set[Seat] = set()
        self.jokered: set[Seat] = set()
        self.revealed: dict[Seat, Take] = {}
        self.recovered = 0
        self.pending: tuple[Seat, str] | None = None
        self.floor: list[Seat] = []
        self.accused: Seat | None = None
        self.votes: dict[Seat, bool] = {}
        self.winner_seats: tuple[Seat, ...] = ()
        self.outcome = ""
        self.emit("setup", f"{self.players[self.godfather]} is the Godfather. The box holds {DIAMONDS} diamonds "
                  f"and {self._tokens_text(self.box_tokens)}; the Godfather has {self.jokers_left} joker(s).",
                  godfather=self.godfather, tokens=dict(self.tokens_in_game), jokers=self.jokers_left)

    # ----------------------------------------------------------------- small helpers

    @staticmethod
    def _tokens_text(tokens: dict[str, int]) -> str:
        listed = [f"{count} {name}" for name, count in sorted(tokens.items(), key=lambda kv: TOKEN_ORDER.index(kv[0]))
                  if count]
        return ", ".join(listed) if listed else "no token"

    def _box_snapshot(self) -> tuple[int, tuple[str, ...]]:
        return self.box_diamonds, _tokens_in_box(tuple(self.box_tokens.items()))[0]

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

    def _voters(self) -> list[Seat]:
        return [seat for seat in self.living_takers() if seat != self.accused]

    # ----------------------------------------------------------------- protocol

    def _whose_turn(self) -> Seat | tuple[Seat, ...] | None:
        phase = self.phase
        if phase == "over":
            return None
        if phase in ("hide", "question"):
            return self.godfather
        if phase in ("set-aside", "take"):
            return self.order[self.box_index]
        if phase == "answer":
            assert self.pending is not None
            return self.pending[0]
        if phase == "floor":
            return self.floor[0]
        return tuple(seat for seat in self._voters() if seat not in self.votes)

    @property
    def max_steps(self) -> int:
        """hide + set-aside + one take per taker + each question (a floor: 1 + n-1 answers) + each
        accusation (at most n-1) followed by at most n-2 cleaner votes."""
        n = len(self.players)
        return 2 + (n - 1) + self.rules.question_budget * n + (n - 1) * (n - 1)

    @property
    def winners(self) -> tuple[Seat, ...]:
        return self.winner_seats if self.is_over else ()

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_action(text)

    def _take_options(self) -> list[Action]:
        return list(self._take_menu())

    def _take_menu(self) -> tuple[Action, ...]:
        """The legal takes, shared between states with the same box (they depend on nothing else)."""
        present = _tokens_in_box(tuple(self.box_tokens.items()))[1]
        return _take_menu(self.box_diamonds, present, self._last_may_take_nothing())

    def _last_may_take_nothing(self) -> bool:
        return self.box_index == len(self.order) - 1 and self.rules.last_may_take_nothing

    def _may_take_nothing(self) -> bool:
        """An empty box leaves nothing to take; otherwise only the last taker may, under that rule option."""
        return self._last_may_take_nothing() or (self.box_diamonds == 0 and not any(self.box_tokens.values()))

    def _testimonies(self, kind: str | None, seat: Seat) -> list[Action]:
        """Every testimony of `kind` (None: any kind) that `seat` may give; lies included, never hidden data."""
        return list(_testimony_menu(self._testimony_key, kind, seat, len(self.players)))

    def legal_actions(self, player: Seat | None = None) -> list[Action]:
        seats = self.acting_seats
        seat = (seats[0] if len(seats) == 1 else None) if player is None else player
        if seat is None or seat not in seats:
            return []
        phase = self.phase
        if phase == "hide":
            return [Hide(k) for k in range(self.rules.max_hidden + 1)]
        if phase == "set-aside":
            return [SetAside(None)] + [SetAside(name) for name in TOKEN_ORDER if self.box_tokens.get(name)]
        if phase == "take":
            return self._take_options()
        if phase == "question":
            return list(_question_menu(tuple(self.living_takers()) if self.questions_left > 0 else None,
                                       tuple(self.accusable())))
        if phase == "answer":
            assert self.pending is not None
            return self._testimonies(self.pending[1], seat)
        if phase == "floor":
            return self._testimonies(None, seat)
        options: list[Action] = [Hold()]
        if self.takes.get(seat) == (0, "cleaner"):
            options.append(Shoot())
        return options

    def _validate(self, seat: Seat, action: Action) -> None:
        check = _CHECKS.get(type(action))
        if check is None:
            raise IllegalAction(f"{action} is not an action of Mafia de Cuba.")
        check(self, seat, action)

    def _check_hide(self, seat: Seat, action: Hide) -> None:
        if self.phase != "hide":
            raise IllegalAction("Only the Godfather hides diamonds, once, before the box goes round.")
        if not 0 <= action.diamonds <= self.rules.max_hidden:
            raise IllegalAction(f"The Godfather hides 0 to {self.rules.max_hidden} diamonds, not {action.diamonds}.")

    def _check_set_aside(self, seat: Seat, action: SetAside) -> None:
        if self.phase != "set-aside":
            raise IllegalAction("Only the first taker may set a token aside, just before taking.")
        if action.token is not None and not self.box_tokens.get(action.token):
            raise IllegalAction(f"There is no {action.token} token in the box to set aside.")

    def _check_take(self, seat: Seat, action: TakeFromBox) -> None:
        """R3.3-R3.4, by arithmetic: the same takes as the menu, without building it."""
        if self.phase != "take":
            raise IllegalAction(f"{self.players[seat]} does not hold the box: there is nothing to take now.")
        diamonds, token = action.diamonds, action.token
        if token is not None:
            if diamonds:
                raise IllegalAction("Take diamonds or one token, not both.")
            if not self.box_tokens.get(token):
                raise IllegalAction(f"There is no {token} token in the box.")
        elif diamonds > self.box_diamonds:
            raise IllegalAction(f"The box holds {self.box_diamonds} diamonds, not {diamonds}.")
        elif diamonds < 0:
            raise IllegalAction("A taker takes diamonds from the box, not a negative number of them.")
        elif diamonds == 0 and not self._may_take_nothing():
            raise IllegalAction("You must take something: at least 1 diamond or one token (only an empty box,"
                                " or the last taker, may take nothing).")

    def _check_question(self, seat: Seat, action: Ask | Floor | Accuse) -> None:
        """R4.1, R4.5, R4.8: questions within the budget, accusations of living takers (jokered: by option)."""
        if self.phase != "question":
            raise IllegalAction("Only the Godfather asks questions and accuses, during the investigation.")
        if isinstance(action, Floor):
            if self.questions_left <= 0:
                raise IllegalAction("The Godfather has no question left: he must accuse.")
            return
        target = action.target
        if not 0 <= target < len(self.players):
            raise IllegalAction(f"There is no seat {target} at this table of {len(self.players)}.")
        if target == self.godfather:
            raise IllegalAction("The Godfather cannot question or accuse himself.")
        if target in self.eliminated:
            raise IllegalAction(f"{self.players[target]} is eliminated and stays silent.")
        if isinstance(action, Ask):
            if self.questions_left <= 0:
                raise IllegalAction("The Godfather has no question left: he must accuse.")
            return
        if target in self.jokered and not self.rules.jokered_can_be_accused:
            raise IllegalAction(f"{self.players[target]} already received a joker and cannot be accused again.")

    def _check_testimony(self, seat: Seat, action: Action) -> None:
        """R4.2: an answer of the asked kind (or silence), or any testimony when the floor is open; lies are
        allowed, but only about what this game could hold."""
        phase = self.phase
        if phase not in ("answer", "floor"):
            raise IllegalAction("Testimonies are given when the Godfather asks or opens the floor.")
        if phase == "answer" and not isinstance(action, Silent):
            assert self.pending is not None
            asked = self.pending[1]
            wanted = {"seen": Saw, "took": Took, "suspect": Suspect}[asked]
            if not isinstance(action, wanted):
                raise IllegalAction(f"The Godfather asked '{asked}': answer with '{wanted.__name__.lower()}'"
                                    " or keep 'silent'.")
        if isinstance(action, Suspect):
            if not 0 <= action.target < len(self.players):
                raise IllegalAction(f"There is no seat {action.target} at this table.")
            if action.target == seat:
                raise IllegalAction("You cannot suspect yourself.")
        elif isinstance(action, Saw):
            if not 0 <= action.diamonds <= DIAMONDS:
                raise IllegalAction(f"The box never holds {action.diamonds} diamonds (0 to {DIAMONDS}).")
            for token in set(action.tokens):
                if action.tokens.count(token) > self.tokens_in_game.get(token, 0):
                    raise IllegalAction(f"This game has only {self.tokens_in_game.get(token, 0)} {token} token(s).")
        elif isinstance(action, Took):
            if action.diamonds > DIAMONDS or (action.token and action.token not in self.tokens_in_game):
                raise IllegalAction("Nobody could have taken that: it is not in this game.")

    def _check_vote(self, seat: Seat, action: Shoot | Hold) -> None:
        if self.phase != "cleaner":
            raise IllegalAction("'shoot' and 'hold' are only said right after an accusation (Cleaner variant).")
        if isinstance(action, Shoot) and self.takes.get(seat) != (0, "cleaner"):
            raise IllegalAction("Only the Cleaner can shoot.")

    # ----------------------------------------------------------------- playing

    def _play(self, seat: Seat, action: Action) -> None:
        _PLAYS[type(action)](self, seat, action)

    def _ask(self, seat: Seat, action: Ask) -> None:
        self.questions_left -= 1
        self.pending = (action.target, action.kind)
        self.phase = "answer"
        self.emit("question", f"The Godfather asks {self.players[action.target]}: {QUESTION_TEXT[action.kind]}",
                  actor=seat, target=action.target, question=action.kind)

    def _open_floor(self, seat: Seat) -> None:
        self.questions_left -= 1
        self.floor = self.living_takers()
        self.phase = "floor"
        self.emit("floor", "The Godfather opens the floor: anyone may speak.", actor=seat)

    def _hide(self, seat: Seat, diamonds: int) -> None:
        self.hidden = diamonds
        self.box_diamonds -= diamonds
        self.emit("hide", f"The Godfather hides {diamonds} diamond(s).", actor=seat, observers=[seat],
                  redacted="The Godfather hides some diamonds.", diamonds=diamonds)
        self._pass_box()

    def _pass_box(self) -> None:
        """Hand the box on: the next taker opens it (a private observation), or it returns to the Godfather."""
        if self.box_index < len(self.order):
            taker = self.order[self.box_index]
            diamonds, tokens = snapshot = self._box_snapshot()
            self.seen[taker] = snapshot
            self.phase = "set-aside" if self.box_index == 0 and self.rules.first_may_set_aside else "take"
            self.emit("open", f"{self.players[taker]} opens the box: {diamonds} diamond(s), tokens: "
                      f"{', '.join(tokens) or 'none'}.", actor=taker, source="box", observers=[taker],
                      redacted=f"{self.players[taker]} opens the box.", seat=taker, diamonds=diamonds,
                      tokens=list(tokens), redacted_data={"seat": taker})
            return
        diamonds, tokens = self.returned = self._box_snapshot()
        self.emit("return", f"The box returns to the Godfather: {diamonds} diamond(s), tokens: "
                  f"{', '.join(tokens) or 'none'}.", actor=self.godfather, source="box", observers=[self.godfather],
                  redacted="The box returns to the Godfather, who looks inside.", diamonds=diamonds,
                  tokens=list(tokens))
        if self.stolen == 0 and self.rules.nobody_stole_godfather_wins:
            self._finish("godfather", "Nobody stole a diamond: the Godfather wins at once.")
        else:
            self.phase = "question"

    def _set_aside(self, seat: Seat, token: str | None) -> None:
        self.set_aside = token
        if token:
            self.box_tokens[token] -= 1
        self.emit("set-aside", f"{self.players[seat]} sets aside {token or 'nothing'}.", actor=seat,
                  observers=[seat], redacted=f"{self.players[seat]} may set a token aside.", token=token)
        self.phase = "take"

    def _take(self, seat: Seat, take: Take) -> None:
        diamonds, token = take
        self.takes[seat] = take
        self.box_diamonds -= diamonds
        if token:
            self.box_tokens[token] -= 1
        self.emit("take", f"{self.players[seat]} takes {take_text(take)}.", actor=seat, observers=[seat],
                  redacted=f"{self.players[seat]} takes something from the box and passes it on.",
                  take=take_text(take))
        self._pass_box()

    def _testify(self, seat: Seat, action: Action) -> None:
        name = self.players[seat]
        if isinstance(action, Silent):
            self.emit("silent", f"{name} keeps silent.", actor=seat)
        else:
            claim = str(action)
            self.emit("testimony", f"{name} says: {TESTIMONY_TEXT[type(action)](action, self.players)}",
                      actor=seat, claim=claim, testimony=type(action).__name__.lower())
        if self.phase == "floor":
            self.floor.pop(0)
            if self.floor:
                return
        self.pending = None
        self.phase = "question"

    def _accuse(self, seat: Seat, target: Seat) -> None:
        self.accused = target
        self.emit("accuse", f"The Godfather to {self.players[target]}: \"Empty your pockets!\"", actor=seat,
                  target=target)
        if self.rules.cleaner and self._voters():
            self.votes = {}
            self.phase = "cleaner"
        else:
            self._resolve(None)

    def _vote(self, seat: Seat, shoot: bool) -> None:
        self.votes[seat] = shoot
        self.emit("vote", f"{self.players[seat]} says {'shoot' if shoot else 'hold'}.", actor=seat,
                  observers=[seat], redacted=f"{self.players[seat]} decides.", shoot=shoot)
        if len(self.votes) == len(self._voters()):
            shooter = next((voter for voter, shot in self.votes.items() if shot), None)
            self.votes = {}
            self._resolve(shooter)

    def _reveal(self, seat: Seat) -> Take:
        take = self.takes[seat]
        self.revealed[seat] = take
        self.emit("reveal", f"{self.players[seat]} empties his pockets: {take_text(take)}.", actor=seat,
                  take=take_text(take), seat=seat, role=role_of(take))
        return take

    def _resolve(self, shooter: Seat | None) -> None:
        target = self.accused
        assert target is not None
        self.accused = None
        self.phase = "question"
        if shooter is not None:
            self.emit("shoot", f"{self.players[shooter]}, the Cleaner, shoots {self.players[target]}!",
                      actor=shooter, target=target)
            self._reveal(shooter)
            diamonds, token = self._reveal(target)
            if token in AGENTS:
                self.winner_seats = (shooter,)
                self._finish("cleaner", f"The Cleaner shot an Agent: {self.players[shooter]} wins alone.")
                return
            self.eliminated |= {shooter, target}
            self.recovered += diamonds
            self._check_recovered()
            return
        diamonds, token = self._reveal(target)
        if diamonds:
            self.eliminated.add(target)
            self.recovered += diamonds
            self.emit("caught", f"{self.players[target]} is a thief: {diamonds} diamond(s) back, and he is out.",
                      target=target)
            self._check_recovered()
        elif token in AGENTS:
            self.winner_seats = (target,)
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
        self.emit("end", text, outcome=outcome)
        takes = {seat: take_text(take) for seat, take in sorted(self.takes.items())}
        self.emit("final-reveal", "Everyone shows what they took: " + "; ".join(
            f"{self.players[seat]}: {text}" for seat, text in takes.items())
            + f". The Godfather had hidden {self.hidden}; set aside: {self.set_aside or 'nothing'}. Winners: "
            + (", ".join(self.players[s] for s in self.winner_seats) or "nobody") + ".",
            takes=takes, hidden=self.hidden, set_aside=self.set_aside, winners=list(self.winner_seats))

    def _team_winners(self, outcome: str) -> tuple[Seat, ...]:
        roles = {seat: role_of(take) for seat, take in self.takes.items()}
        if outcome == "godfather":
            base = {self.godfather} | {seat for seat, role in roles.items() if role == "loyal"}
        else:
            thieves = {seat: self.takes[seat][0] for seat, role in roles.items()
                       if role == "thief" and seat not in self.eliminated}
            best = max(thieves.values(), default=0)
            richest = [seat for seat, d in thieves.items() if d == best]
            base = {seat for seat, role in roles.items() if role == "street-kid"}
            if len(richest) == 1 or self.rules.tied_thieves_all_win:
                base |= set(richest)
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

    # ----------------------------------------------------------------- views

    def _facts(self, seat: Seat | None) -> dict[str, Any]:
        over = self.phase == "over"
        is_godfather = seat == self.godfather

        def box(snapshot: tuple[int, tuple[str, ...]] | None) -> dict[str, Any] | None:
            return None if snapshot is None else {"diamonds": snapshot[0], "tokens": list(snapshot[1])}

        first = self.order[0]
        facts: dict[str, Any] = {
            "phase": self.phase,
            "godfather": self.godfather,
            "order": list(self.order),
            "box_holder": self.order[self.box_index] if self.phase in ("set-aside", "take") else None,
            "tokens_in_game": dict(self.tokens_in_game),
            "jokers_left": self.jokers_left,
            "questions_left": self.questions_left,
            "recovered": self.recovered,
            "eliminated": sorted(self.eliminated),
            "jokered": sorted(self.jokered),
            "revealed": {s: take_text(t) for s, t in sorted(self.revealed.items())},
            "pending": list(self.pending) if self.pending else None,
            "floor": list(self.floor),
            "my_take": take_text(self.takes[seat]) if seat in self.takes else None,
            "box_seen": box(self.seen.get(seat)) if seat is not None else None,
            "my_set_aside": ((self.set_aside or "none") if seat == first and self.phase not in ("hide", "set-aside")
                             and self.rules.first_may_set_aside else None),
            "hidden": self.hidden if is_godfather or over else None,
            "box_returned": box(self.returned) if is_godfather or over else None,
            "winners": list(self.winners),
        }
        if over:
            facts["all_takes"] = {s: take_text(t) for s, t in sorted(self.takes.items())}
            facts["set_aside"] = self.set_aside or "none"
        return facts

    # ----------------------------------------------------------------- determinization

    def resample(self, player: Seat | None, rng: random.Random) -> MafiaState:
        """A world consistent with `view(player)`: the hidden choices `player` has not seen are perturbed.

        Random moves keep every box content `player` observed: two hidden takes with no observation of
        `player` between them swap or trade diamonds, the Godfather's hidden count trades diamonds with a
        taker, and the set-aside token trades places with a taken token. The candidate is replayed and kept
        only if `player` observed the same events; otherwise fewer moves are tried, and at worst the true world
        itself (always consistent) is replayed. Exact posteriors are in `inference.py`; this is a
        determinization for search bots and the non-interference test.
        """
        hidden_slots = self._free_slots(player)
        for moves in (12, 6, 3, 1, 0):
            texts = [text for _, text in self.history]
            if moves and len(hidden_slots) >= 2:
                self._perturb(texts, hidden_slots, player, moves, rng)
            world = self._replay(texts)
            # Kept if the seat observed exactly the same events; its view is *not* consulted, so that a fact
            # leaking into the view is caught by `check_game` instead of being filtered away here.
            if world is not None and world.log(player) == self.log(player):
                return world
        raise AssertionError("replaying the true history must give the same view")  # pragma: no cover

    @classmethod
    def world_from_view(cls, view: Any, rng: random.Random) -> MafiaState:
        """Transitional: the view-only sampler of issue 10 is being written; `resample` above still reads the
        state."""
        raise NotImplementedError("world_from_view is being rewritten (issue 10)")

    def _replay(self, texts: list[str]) -> MafiaState | None:
        world = MafiaState(list(self.players), seed=self.seed, rules=self.rules)
        try:
            for (seat, _), text in zip(self.history, texts):
                world.apply(text, player=seat)
        except IllegalAction:
            return None
        return world

    def _free_slots(self, player: Seat | None) -> list[int]:
        """History indexes of hidden box-phase choices that `player` did not see (and nobody revealed)."""
        if self.phase == "over":
            return []
        free = []
        for index, (seat, text) in enumerate(self.history):
            if seat == player or not text.startswith(("hide", "take", "set-aside")):
                continue
            if text.startswith("take") and seat in self.revealed:
                continue
            free.append(index)
        return free

    def _observed_between(self, player: Seat | None, low: int, high: int) -> bool:
        """True if `player` acted (and so saw the box) between history indexes `low` and `high`."""
        return any(self.history[index][0] == player for index in range(low + 1, high))

    def _perturb(self, texts: list[str], slots: list[int], player: Seat | None, moves: int,
                 rng: random.Random) -> None:
        """Apply up to `moves` random moves to the hidden choices in `texts` (see `resample`)."""
        for _ in range(moves):
            low, high = sorted(rng.sample(slots, 2))
            if self._observed_between(player, low, high):
                continue
            first, second = parse_action(texts[low]), parse_action(texts[high])
            a, b = _diamonds_removed(first), _diamonds_removed(second)
            if isinstance(first, SetAside) and first.token and isinstance(second, TakeFromBox) and second.token:
                texts[low], texts[high] = str(SetAside(second.token)), str(TakeFromBox(0, first.token))
            elif isinstance(first, TakeFromBox) and isinstance(second, TakeFromBox) and rng.random() < 0.5 \
                    and TakeFromBox() not in (first, second):
                texts[low], texts[high] = texts[high], texts[low]
            elif a is not None and b:
                hide = isinstance(first, Hide)
                total, lowest = a + b, 0 if hide else 1
                highest = min(total - 1, self.rules.max_hidden) if hide else total - 1
                if (hide or a) and lowest <= highest:
                    new = rng.randint(lowest, highest)
                    texts[low] = str(Hide(new) if hide else TakeFromBox(new))
                    texts[high] = str(TakeFromBox(total - new))


#: How each kind of action is checked (see `MafiaState._validate`): one look-up instead of a chain of tests.
_CHECKS: dict[type, Callable[[MafiaState, Seat, Any], None]] = {
    Hide: MafiaState._check_hide, SetAside: MafiaState._check_set_aside, TakeFromBox: MafiaState._check_take,
    Ask: MafiaState._check_question, Floor: MafiaState._check_question, Accuse: MafiaState._check_question,
    **{kind: MafiaState._check_testimony for kind in TESTIMONIES},
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
    **{kind: MafiaState._testify for kind in TESTIMONIES},
    Shoot: lambda state, seat, action: state._vote(seat, True),
    Hold: lambda state, seat, action: state._vote(seat, False),
}


def _diamonds_removed(action: Action) -> int | None:
    """Diamonds a hide or a diamond take removes from the box; None for token takes and set-asides."""
    if isinstance(action, Hide):
        return action.diamonds
    if isinstance(action, TakeFromBox) and action.token is None:
        return action.diamonds
    return None


@lru_cache(maxsize=1024)
def _tokens_in_box(counts: tuple[tuple[str, int], ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every token in a box of these (name, count) pairs in the rules' order, and the kinds present: what each
    taker sees and may take, for the few boxes a game's tokens can make."""
    held = dict(counts)
    every = tuple(name for name in TOKEN_ORDER for _ in range(held.get(name, 0)))
    return every, tuple(name for name in TOKEN_ORDER if held.get(name))


@lru_cache(maxsize=1024)
def _take_menu(diamonds: int, present: tuple[str, ...], may_take_nothing: bool) -> tuple[Action, ...]:
    """Legal takes from a box of `diamonds` and the `present` tokens: cached, since actions are immutable."""
    if diamonds == 0 and not present:
        return (TakeFromBox(),)
    options: list[Action] = [TakeFromBox(d) for d in range(1, diamonds + 1)]
    options += [TakeFromBox(0, name) for name in present]
    if may_take_nothing:
        options.append(TakeFromBox())
    return tuple(options)


@lru_cache(maxsize=1024)
def _question_menu(askable: tuple[Seat, ...] | None, accusable: tuple[Seat, ...]) -> tuple[Action, ...]:
    """The Godfather's options: questions to `askable` seats (None: no question left), floor, accusations."""
    actions: list[Action] = []
    if askable is not None:
        actions += [Ask(target, kind) for target in askable for kind in KINDS]
        actions.append(Floor())
    return (*actions, *(Accuse(target) for target in accusable))


@lru_cache(maxsize=512)
def _testimony_menu(tokens_in_game: tuple[tuple[str, int], ...], kind: str | None, seat: Seat,
                    players: int) -> tuple[Action, ...]:
    """The testimonies allowed at a table: they depend only on public data, so they are computed once."""
    counts = dict(tokens_in_game)
    out: list[Action] = []
    if kind in (None, "seen"):
        combos: list[tuple[str, ...]] = [()]
        for name in TOKEN_ORDER:
            combos = [combo + (name,) * k for combo in combos for k in range(counts.get(name, 0) + 1)]
        out += [Saw(d, combo) for d in range(DIAMONDS + 1) for combo in combos]
    if kind in (None, "took"):
        out += [Took(d) for d in range(1, DIAMONDS + 1)]
        out += [Took(0, name) for name in TOKEN_ORDER if name in counts] + [Took()]
    if kind in (None, "suspect"):
        out += [Suspect(other) for other in range(players) if other != seat]
    return (*out, Silent())


QUESTION_TEXT = {"seen": "what did you see in the box?", "took": "what did you take?",
                 "suspect": "whom do you suspect?"}
TESTIMONY_TEXT = {
    Saw: lambda a, names: f"\"I saw {a.diamonds} diamond(s) and tokens: {', '.join(a.tokens) or 'none'}.\"",
    Took: lambda a, names: f"\"I took {take_text((a.diamonds, a.token))}.\"",
    Suspect: lambda a, names: f"\"I suspect {names[a.target]}.\"",
}


State = MafiaState


def new_game(players: int | list[str] = 6, *, seed: int | None = None, rules: Rules | None = None) -> MafiaState:
    """A new round of Mafia de Cuba (no randomness in the set-up: the seed is for bots and records)."""
    return MafiaState(players, seed=seed, rules=rules)
