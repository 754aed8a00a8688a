"""Get Adler: the engine (state, actions, notation). Numbered rules: seeds/get_adler.md.

Rules in short. 4 to 6 players each get a secret character; one is Adler, the double agent. Everyone holds
7 action cards. A turn is: draw one card, then discard one, either as a plain discard or for its action:
`ask` a public yes/no question about a trait colour (heroes answer truly, Adler may lie), `magnify` (look at
a hand), `binoculars` (take a random card from a hand, see it, then `give` one card back), `arrest` (from
hour 4). A right arrest reveals every character and starts a confrontation: Adler answers with escape (a hero
may stop it with an arrest card), disguise (he escapes), bomb (every hero skips a turn) or pistol (a duel with
the arresting hero), or surrenders. Heroes win by arresting or shooting Adler; after seven hours Adler wins if
he holds a top-secret document.

View facts (every key, for seat k; a spectator gets the public ones and None for the private ones):
- `my_character`: k's character (None for a spectator); `my_traits`: its trait colours.
- `hand`: k's cards, sorted (None for a spectator).
- `hand_sizes`: number of cards of each seat; `deck_size`; `discards`: card -> count in the discard pile.
- `hour` (1..hours), `turn_seat` (whose turn it is), `phase`: "turn", "skip", "answer", "give", "confront",
  "escape", "duel" or "over".
- `question`: the pending question [asker, target, trait, colour] or None.
- `binoculars`: during "give", {"seat": taker, "target": seat taken from, "taken": the card taken, or None
  for the seats that did not see it}; otherwise None.
- `answers`: every answered question as [asker, target, trait, colour, answer] (answer a bool).
- `not_adler`: seats publicly cleared by a wrong arrest.
- `revealed`: seat -> character, for every seat once Adler is caught (all reveal, R5.2), else {}.
- `adler_seat`: the revealed Adler's seat or None.
- `skips`: turns each seat must still skip; `out`: seats out of the game (shot in a duel).
- `skip_reasons`: per seat, why it skips each of those turns, the next first (`SKIP_REASONS`): "stunned" by
  a bomb (R6.4 « sonné »), "wrong_arrest" (R5.3 « éliminé pour un tour », the accuser and the accused) or
  "duel" (a hero who lost a pistol duel and is not out, R6.3).
- `confrontation`: {"accuser", "responders" (heroes who stopped an escape), "duel_turn", "duel_hero" (the
  hero in the pistol duel, option `duel_with`; None before a duel)} or None.
- `known_cards`: seat -> cards k knows are in that seat's hand now (from magnifying glasses and binoculars;
  a sound lower bound, forgotten when a card of that hand leaves it out of k's sight).
- `winner`: "heroes", "adler" or None.

Events (kind: data; the redacted form, seen by the others, keeps the public parameters): "character"
(seat, character), "deal" (seat, cards | count), "draw" (seat, card), "reshuffle" (size), "discard",
"ask", "answer", "magnify" (seat, target, cards), "binoculars" (seat, target, taken), "give" (seat, target,
card), "arrest" (right), "reveal", "respond" (card, role), "pass", "shot", "skip", "escape" (how), "end"
(winner, how or documents). Every action's first event names its seat as `actor`, so a log gives the moves
back (`worlds.py` rebuilds histories from it).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..core import Action, FrozenDict, FrozenList, GameState, IllegalAction, Seat, Term, View, copy_rng, shuffle
from .actions import (AIMED_AT, ANSWERS, DISCARDS, GIVES, NOTATION, PASS, RESPONSES, SKIP, SURRENDER, Answer, Arrest,
                      Ask, Binoculars, Discard, Give, Magnify, Pass, Respond, Skip, Surrender, parse_action)
from .identities import worlds_for_view
from .rules import ADLER, ADLER_RESPONSES, MAX_PLAYERS, MIN_PLAYERS, TRAIT_TABLE, Rules, cast_for, deck_for, has_trait
from .worlds import build_world
from ..i18n import register_event_kinds, register_objects

#: The event kinds as a French class reads them on top of the information-flow pictures' columns.
register_event_kinds("tabletop_edu.get_adler", {"fr": {
    "deal": "distribution", "character": "personnage", "draw": "pioche", "discard": "défausse", "ask": "question",
    "answer": "réponse", "respond": "riposte", "give": "donne", "magnify": "loupe", "binoculars": "jumelles",
    "arrest": "arrestation", "escape": "fuite", "shot": "tir", "reveal": "révèle", "reshuffle": "remélange",
    "pass": "passe", "skip": "passe son tour", "end": "fin"}})
register_objects("tabletop_edu.get_adler", {"fr": {"deck": "pioche"}})

#: Each seat alone, as the observers of a private event, and {"seat": k} as its redacted details: both are
#: immutable, so built once and shared by every draw.
_ONLY: tuple[frozenset[int], ...] = tuple(frozenset((seat,)) for seat in range(MAX_PLAYERS))
_SEAT_DATA: tuple[FrozenDict, ...] = tuple(FrozenDict(seat=seat) for seat in range(MAX_PLAYERS))
#: The moves of an ordinary turn (a card played or discarded), checked by `_validate_turn`.
_TURN_ACTIONS = frozenset({Discard, Ask, Magnify, Binoculars, Arrest})

#: Why a seat skips a turn, in the seed's words: « sonné » by a bomb (R6.4), « éliminé pour un tour » after a
#: wrong arrest (R5.3), or beaten in a pistol duel without leaving the game (R6.3, option `shot_hero_out` off).
SKIP_REASONS = ("stunned", "wrong_arrest", "duel")
#: What a seat that must skip is told when it tries another move.
# ---------------------------------------------------------------------------------------------- turn menus


@dataclass(frozen=True)
class _TurnMenu:
    """The aimed actions of an ordinary turn of one seat, by card played, for one table situation."""
    asks: tuple[Ask, ...]
    magnify: tuple[Magnify, ...]
    binoculars: tuple[Binoculars, ...]
    arrests: tuple[Arrest, ...]


@functools.lru_cache(maxsize=512)
def _turn_menu(players: int, seat: int, out: frozenset[int]) -> _TurnMenu:
    """The actions `seat` may aim at the others: a table-level value (no card of anyone's hand in the key),
    so the cache is bounded by the table situations, at most a few hundred. Binoculars are listed at every
    seat still in; `legal_actions` drops those aimed at an empty hand (rare)."""
    targets = [AIMED_AT[t] for t in range(players) if t != seat and t not in out]
    return _TurnMenu(tuple(ask for aimed in targets for ask in aimed.asks),
                     tuple(aimed.magnify for aimed in targets),
                     tuple(aimed.binoculars for aimed in targets),
                     tuple(aimed.arrest for aimed in targets))


@functools.lru_cache(maxsize=None)
def _hand_menu(held: frozenset[str]) -> tuple[tuple[Discard, ...], bool, bool, bool, bool]:
    """What a hand holding the kinds of card `held` can do: a discard of each kind, by card name, and whether
    it can ask, magnify, use binoculars and arrest (at most 2**10 sets of kinds: the cache stays small)."""
    return (tuple(DISCARDS[card] for card in sorted(held)), "question" in held, "magnify" in held,
            "binoculars" in held, "arrest" in held)


@functools.lru_cache(maxsize=1024)
def _aimed_actions(players: int, seat: int, out: frozenset[int], question: bool, magnify: bool, binoculars: bool,
                   arrest: bool) -> tuple[Action, ...]:
    """The moves `seat` may aim at the others with the cards it can play (binoculars at every seat still in):
    questions, then magnifying glasses, binoculars and arrests. A table-level value keyed by which cards can
    be played, at most a few thousand."""
    menu = _turn_menu(players, seat, out)
    return ((menu.asks if question else ()) + (menu.magnify if magnify else ())
            + (menu.binoculars if binoculars else ()) + (menu.arrests if arrest else ()))


# ---------------------------------------------------------------------------------------------- state


class GetAdlerState(GameState[Rules]):
    """A game of Get Adler. `characters[seat]` and `hands[seat]` are the secrets; `deck[-1]` is drawn next."""

    game = "tabletop_edu.get_adler"
    title = "Get Adler"
    rules_class = Rules
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    # -------------------------------------------------------------------------------- set-up

    def _setup(self) -> None:
        """Deal characters and cards (R1.1, R2.1, R3.1). The only draws of `rng` in the whole engine are
        here, in `_draw` (reshuffles) and in `_binoculars` (the random take): `worlds.py` scripts them."""
        rules, n = self.rules, len(self.players)
        self.characters: list[str] = self.rng.sample(list(cast_for(n, rules)), n)
        self._adler = self.characters.index(ADLER)
        deck = list(deck_for(rules, n))
        shuffle(self.rng, deck)
        self.deck: list[str] = deck
        self.hands: list[list[str]] = [[self.deck.pop() for _ in range(rules.hand_size)] for _ in range(n)]
        self.discard_pile: list[str] = []
        #: holder -> knower -> the cards of holder's hand that knower has seen there, only once it has seen some
        #: (by holder: a card leaving a hand updates what every seat knows of that hand, at every discard).
        self.known: dict[int, dict[int, Counter[str]]] = {}
        self.turn_index = 0
        self.phase = "turn"
        self.question: tuple[int, int, str, str] | None = None
        #: During "give": (taker, target, card taken).
        self.taking: tuple[int, int, str] | None = None
        self.answers: list[tuple[int, int, str, str, bool]] = []
        self.not_adler: set[int] = set()
        self.revealed = False
        self.skips = [0] * n
        #: Why each seat skips each of its `skips` turns, the next first (one of `SKIP_REASONS`).
        self.skip_reasons: list[list[str]] = [[] for _ in range(n)]
        #: Seats out of the game (shot in a duel): a frozenset, which keys the memoised turn menus as it is.
        self.out: frozenset[int] = frozenset()
        self.accuser: int | None = None
        self.responders: list[int] = []
        self.escape_pending: list[int] = []
        self.duel_turn: int | None = None
        self.winner: str | None = None
        #: The turns (`turn_index`) whose hour allows arrests (R5.1): the hour of turn i is i // n + 1.
        self._arrest_turns = range((rules.first_arrest_hour - 1) * n, rules.arrests_until * n)
        self._deal_events()
        self._start_turn()

    def _deal_events(self) -> None:
        names = self.players
        for seat, character in enumerate(self.characters):
            self.emit_event("character", f"{names[seat]} is {character}.", None, "deck", _ONLY[seat],
                            f"{names[seat]} gets a secret character.", {"seat": seat, "character": character},
                            _SEAT_DATA[seat])
        for seat, hand in enumerate(self.hands):
            cards = sorted(hand)
            self.emit_event("deal", f"{names[seat]} is dealt {', '.join(cards)}.", None, "deck", _ONLY[seat],
                            f"{names[seat]} is dealt {len(hand)} cards.", {"seat": seat, "cards": FrozenList(cards)},
                            {"seat": seat, "count": len(hand)})

    # -------------------------------------------------------------------------------- helpers

    @property
    def adler(self) -> int:
        """Adler's seat (the characters are dealt once, in `_setup`)."""
        return self._adler

    @property
    def turn_seat(self) -> int:
        return self.turn_index % len(self.players)

    @property
    def hour(self) -> int:
        return min(self.turn_index // len(self.players) + 1, self.rules.hours)

    def _heroes(self) -> list[int]:
        return [seat for seat in range(len(self.players)) if seat != self.adler]

    def _draw(self, seat: int) -> str | None:
        """Draw the top card for `seat` (R3.4: shuffle the discards in when the deck is empty)."""
        if not self.deck and self.rules.reshuffle_discards and self.discard_pile:
            self.deck = self.discard_pile
            self.discard_pile = []
            shuffle(self.rng, self.deck)
            self.emit("reshuffle", f"The discard pile is shuffled into a new deck of {len(self.deck)} cards.",
                      source="deck", size=len(self.deck))
        if not self.deck:
            return None
        card = self.deck.pop()
        self.hands[seat].append(card)
        name = self.players[seat]
        self.emit_event("draw", f"{name} draws {card}.", None, "deck", _ONLY[seat], f"{name} draws a card.",
                        FrozenDict(seat=seat, card=card), _SEAT_DATA[seat])
        return card

    def _lose_card(self, seat: int, card: str) -> None:
        """Discard `card` from `seat`'s hand face up, keeping every seat's known cards sound."""
        self.hands[seat].remove(card)
        self.discard_pile.append(card)
        knowers = self.known.get(seat)
        if knowers:
            for known in knowers.values():
                if known[card] > 0:
                    known[card] -= 1

    def _hand_changes(self, giver: int, receiver: int, card: str) -> None:
        """One card passes from `giver` to `receiver`, seen by the two of them only (binoculars, R4.5).

        Both know where it went; any other seat may no longer trust what it knew of the giver's hand (an
        unseen card left it), while what it knew of the receiver's hand still holds."""
        self.hands[giver].remove(card)
        self.hands[receiver].append(card)
        of_giver = self.known.get(giver)
        if of_giver:
            mine = of_giver.get(receiver)
            if mine is not None and mine[card] > 0:
                mine[card] -= 1
            for knower in [k for k in of_giver if k != receiver and k != giver]:
                del of_giver[knower]
        self.known.setdefault(receiver, {}).setdefault(giver, Counter())[card] += 1

    def _start_turn(self) -> None:
        """Begin the turn of `turn_seat`, passing over seats out of the game; end after the last hour."""
        n = len(self.players)
        last = self.rules.hours * n
        out = self.out
        while out and self.turn_index < last and self.turn_index % n in out:
            self.turn_index += 1
        if self.turn_index >= last:
            self._end_of_time()
            return
        seat = self.turn_index % n
        if self.skips[seat] > 0:
            self.phase = "skip"
            return
        self.phase = "turn"
        deck = self.deck
        if deck:  # `_draw`, inlined for the draw of every turn
            card = deck.pop()
            self.hands[seat].append(card)
            name = self.players[seat]
            self.emit_event("draw", f"{name} draws {card}.", None, "deck", _ONLY[seat], f"{name} draws a card.",
                            FrozenDict(seat=seat, card=card), _SEAT_DATA[seat])
        else:
            self._draw(seat)
            if not self.hands[seat]:
                self.phase = "skip"  # R3.4: no card to draw and none in hand: the turn passes

    def _next_turn(self) -> None:
        self.turn_index += 1
        self._start_turn()

    def _end_of_time(self) -> None:
        """R7.2: after the last hour, Adler wins if he holds enough top-secret documents."""
        adler = self.adler
        documents = self.hands[adler].count("document")
        self.winner = "adler" if documents >= self.rules.documents_to_win else "heroes"
        self.phase = "over"
        self.emit("end", f"Hour {self.rules.hours} ends. {self.players[adler]} was Adler and holds "
                  f"{documents} top-secret document(s): {'Adler wins' if self.winner == 'adler' else 'the heroes win'}.",
                  adler=adler, documents=documents, winner=self.winner, characters=list(self.characters))

    def _finish(self, seat: int, winner: str, text: str, how: str) -> None:
        """End the game at once on `seat`'s move; `how` ("surrender", "shot") lets renderers word it."""
        self.winner = winner
        self.phase = "over"
        self.emit("end", text, actor=seat, winner=winner, adler=self.adler, how=how)

    # -------------------------------------------------------------------------------- protocol

    def _update_turn(self) -> None:
        """`GameState._update_turn`, with an ordinary turn (most steps) worked out here in one go."""
        phase = self.phase
        if phase == "turn" or phase == "skip":
            seat = self.turn_index % len(self.players)
            self._current, self._acting = seat, (seat,)
        else:
            super()._update_turn()

    def _whose_turn(self) -> Seat | tuple[Seat, ...] | None:
        phase = self.phase
        if phase == "turn" or phase == "skip":
            return self.turn_index % len(self.players)
        if phase == "over":
            return None
        if phase == "answer":
            assert self.question is not None
            return self.question[1]
        if phase == "give":
            assert self.taking is not None
            return self.taking[0]
        if phase == "confront":
            return self.adler
        if phase == "escape":
            return self.escape_pending[0] if len(self.escape_pending) == 1 else tuple(self.escape_pending)
        if phase == "duel":
            assert self.duel_turn is not None
            return self.duel_turn
        return self.turn_seat

    @property
    def max_steps(self) -> int:
        """Each turn is at most 2 actions (a question and its answer, binoculars and the card given) or an
        arrest and its confrontation: nobody draws during a confrontation, so Adler plays at most H + 1
        responses (H = `rules.largest_hand`), each followed by at most one decision per hero or 2H + 2 duel
        shots."""
        n, hand = len(self.players), self.rules.largest_hand
        confrontation = 1 + (hand + 1) * (1 + max(n, 2 * hand + 2))
        return self.rules.hours * n * max(2, confrontation)

    @property
    def winners(self) -> tuple[Seat, ...]:
        if self.winner == "adler":
            return (self.adler,)
        if self.winner == "heroes":
            return tuple(self._heroes())
        return ()

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_action(text)

    def legal_actions(self, player: Seat | None = None) -> list[Action]:
        seat = self._current if player is None else player
        if seat is None or type(seat) is tuple or seat not in self._acting:
            return []
        hand = self.hands[seat]
        phase = self.phase
        if phase == "turn":  # the commonest phase first
            discards, question, magnify, binoculars, arrest = _hand_menu(frozenset(hand))
            aimed = _aimed_actions(len(self.players), seat, self.out, question, magnify, binoculars,
                                   arrest and self.turn_index in self._arrest_turns)
            hands = self.hands
            if all(hands):
                return [*discards, *aimed]
            # a hand is empty (rare): no binoculars at it
            return [*discards, *(action for action in aimed if type(action) is not Binoculars or hands[action.target])]
        if phase == "skip":
            return [SKIP]
        if phase == "answer":
            if self._may_lie(seat):
                return [ANSWERS[True], ANSWERS[False]]
            assert self.question is not None
            _, _, trait, colour = self.question
            return [ANSWERS[has_trait(self.characters[seat], trait, colour)]]
        if phase == "give":
            return [GIVES[card] for card in sorted(set(hand))]
        if phase == "confront":
            return [RESPONSES[card] for card in ADLER_RESPONSES if card in hand] + [SURRENDER]
        if phase == "escape":
            card = self.rules.escape_answer_card
            return [PASS] + ([RESPONSES[card]] if card in hand else [])
        if phase == "duel":
            return [PASS] + ([RESPONSES["pistol"]] if "pistol" in hand else [])
        return []  # "over" (no seat acts then)

    def _arrests_open(self) -> bool:
        return self.turn_index in self._arrest_turns

    def _may_lie(self, seat: int) -> bool:
        return seat == self.adler and self.rules.adler_may_lie

    def _check_target(self, seat: int, target: int) -> None:
        if not 0 <= target < len(self.players):
            raise IllegalAction.because("refused.no_seat", seat=target, count=len(self.players))
        if target == seat:
            raise IllegalAction.because("adler.refused.target_self")
        if target in self.out:
            raise IllegalAction.because("adler.refused.target_out", name=self.players[target])

    def _need(self, seat: int, card: str, why: Term) -> None:
        """A refusal unless `seat` holds `card`; `why`: what the card was for (`adler.refused.to.*`)."""
        if card not in self.hands[seat]:
            raise IllegalAction.because("adler.refused.need", card=Term(f"adler.refused.card.{card}"), why=why)

    def _validate(self, seat: Seat, action: Action) -> None:
        phase = self.phase
        if phase == "turn" and type(action) in _TURN_ACTIONS:  # the commonest case first; any other move is
            if type(action) is Discard and action.card in self.hands[seat]:  # refused below, with the message
                return  # that says why
            self._validate_turn(seat, action)
            return
        if phase == "skip":
            if not isinstance(action, Skip):
                reason = self.skip_reasons[seat][0] if self.skips[seat] else "no_cards"
                raise IllegalAction.because("adler.refused.skip_only", why=Term(f"adler.refused.skip.{reason}"))
            return
        if isinstance(action, Skip):
            raise IllegalAction.because("adler.refused.skip_none")
        if phase == "answer":
            if not isinstance(action, Answer):
                raise IllegalAction.because("adler.refused.answer_now")
            assert self.question is not None
            _, _, trait, colour = self.question
            if not self._may_lie(seat) and action.yes != has_trait(self.characters[seat], trait, colour):
                raise IllegalAction.because("adler.refused.hero_truth")
            return
        if isinstance(action, Answer):
            raise IllegalAction.because("adler.refused.no_question")
        if phase == "give":
            assert self.taking is not None
            whom = self.players[self.taking[1]]
            if not isinstance(action, Give):
                raise IllegalAction.because("adler.refused.give_now", whom=whom)
            self._need(seat, action.card, Term("adler.refused.to.give", whom=whom))
            return
        if isinstance(action, Give):
            raise IllegalAction.because("adler.refused.give_later")
        if phase in ("confront", "escape", "duel"):
            self._validate_confrontation(seat, action)
            return
        if isinstance(action, (Respond, Surrender, Pass)):
            raise IllegalAction.because("adler.refused.confrontation_only", action=str(action))
        self._validate_turn(seat, action)

    def _validate_confrontation(self, seat: int, action: Action) -> None:
        hand = self.hands[seat]
        if self.phase == "confront":
            if isinstance(action, Surrender):
                return
            if not isinstance(action, Respond) or action.card not in ADLER_RESPONSES:
                raise IllegalAction.because("adler.refused.arrested")
            self._need(seat, action.card, Term("adler.refused.to.respond"))
            return
        needed = self.rules.escape_answer_card if self.phase == "escape" else "pistol"
        if isinstance(action, Pass):
            return
        if not isinstance(action, Respond) or action.card != needed:
            what = Term("adler.refused.stop_escape" if self.phase == "escape" else "adler.refused.shoot_back")
            raise IllegalAction.because("adler.refused.respond_only", needed=needed, what=what)
        if needed not in hand:
            raise IllegalAction.because("adler.refused.no_card", card=Term(f"adler.refused.card.{needed}"))

    def _validate_turn(self, seat: int, action: Action) -> None:
        if isinstance(action, Discard):
            if action.card not in self.hands[seat]:
                self._need(seat, action.card, Term("adler.refused.to.discard"))
            return
        if isinstance(action, Ask):  # the commonest card played: both checks inlined, the messages called for
            if "question" not in self.hands[seat]:
                self._need(seat, "question", Term("adler.refused.to.ask"))
            target = action.target
            if target == seat or target in self.out or not 0 <= target < len(self.players):
                self._check_target(seat, target)
            return
        if isinstance(action, Magnify):
            self._need(seat, "magnify", Term("adler.refused.to.magnify"))
            self._check_target(seat, action.target)
            return
        if isinstance(action, Binoculars):
            self._need(seat, "binoculars", Term("adler.refused.to.binoculars"))
            self._check_target(seat, action.target)
            if not self.hands[action.target]:
                raise IllegalAction.because("adler.refused.nothing_to_take", name=self.players[action.target])
            return
        if isinstance(action, Arrest):
            self._need(seat, "arrest", Term("adler.refused.to.arrest"))
            self._check_target(seat, action.target)
            if not self._arrests_open():
                raise IllegalAction.because("adler.refused.arrest_hours", first=self.rules.first_arrest_hour,
                                            last=self.rules.arrests_until, hour=self.hour)
            return
        raise IllegalAction.because("adler.refused.not_an_action_value", action=str(action))

    # -------------------------------------------------------------------------------- playing

    def _play(self, seat: Seat, action: Action) -> None:
        """Carry out a checked move. `_validate` allows one kind of move per phase (a card of the turn, the
        answer, the skip, the card given back, a confrontation's response), so the phase says which."""
        phase = self.phase
        if phase == "turn":
            if type(action) is Discard:
                self._lose_card(seat, action.card)
                self.emit_event("discard", f"{self.players[seat]} discards {action.card}.", seat, None, None, None,
                                FrozenDict(seat=seat, card=action.card))
                self.turn_index += 1  # `_next_turn`, inlined for the commonest move
                self._start_turn()
            elif type(action) is Ask:
                self._ask(seat, action)
            elif type(action) is Magnify:
                self._magnify(seat, action.target)
            elif type(action) is Binoculars:
                self._binoculars(seat, action.target)
            elif type(action) is Arrest:
                self._arrest(seat, action.target)
        elif phase == "answer" and type(action) is Answer:
            self._answer(seat, action.yes)
        elif phase == "skip":
            self._skip(seat)
        elif phase == "give" and type(action) is Give:
            self._give(seat, action.card)
        else:
            self._confrontation(seat, action)

    def _must_skip(self, seat: int, turns: int, reason: str) -> None:
        """`seat` will skip `turns` more turns, for `reason` (one of `SKIP_REASONS`)."""
        self.skips[seat] += turns
        self.skip_reasons[seat] += [reason] * turns

    def _skip(self, seat: int) -> None:
        name = self.players[seat]
        if self.skips[seat] > 0:
            self.skips[seat] -= 1
            self.emit("skip", f"{name} skips this turn.", actor=seat, seat=seat, why=self.skip_reasons[seat].pop(0))
        else:
            self.emit("skip", f"{name} has no card and passes this turn.", actor=seat, seat=seat, why="no cards")
        self._next_turn()

    def _ask(self, seat: int, action: Ask) -> None:
        self._lose_card(seat, "question")
        self.question = (seat, action.target, action.trait, action.colour)
        self.phase = "answer"
        self.emit_event("ask", f"{self.players[seat]} asks {self.players[action.target]}: do you have a "
                        f"{action.colour} {action.trait}?", seat, None, None, None,
                        FrozenDict(seat=seat, target=action.target, trait=action.trait, colour=action.colour))

    def _answer(self, seat: int, yes: bool) -> None:
        assert self.question is not None
        asker, target, trait, colour = self.question
        self.answers.append((asker, target, trait, colour, yes))
        self.question = None
        self.emit_event("answer", f"{self.players[seat]} answers {'yes' if yes else 'no'} ({colour} {trait}).",
                        seat, None, None, None,
                        FrozenDict(seat=seat, asker=asker, trait=trait, colour=colour, answer=yes))
        self._next_turn()

    def _magnify(self, seat: int, target: int) -> None:
        self._lose_card(seat, "magnify")
        hand = sorted(self.hands[target])
        self.known.setdefault(target, {})[seat] = Counter(hand)
        self.emit("magnify", f"{self.players[seat]} looks at {self.players[target]}'s hand: {', '.join(hand)}.",
                  actor=seat, source=target, observers=_ONLY[seat],
                  redacted=f"{self.players[seat]} looks at {self.players[target]}'s hand with a magnifying glass.",
                  redacted_data={"seat": seat, "target": target}, seat=seat, target=target, cards=hand)
        self._next_turn()

    def _binoculars(self, seat: int, target: int) -> None:
        """R4.5, first half: take a card at random; the taker and the target see which, the others do not."""
        self._lose_card(seat, "binoculars")
        taken = self.rng.choice(self.hands[target])
        self._hand_changes(target, seat, taken)
        self.taking = (seat, target, taken)
        self.phase = "give"
        who, whom = self.players[seat], self.players[target]
        self.emit("binoculars", f"{who} takes {taken} from {whom} with binoculars.", actor=seat, source=target,
                  observers=[seat, target],
                  redacted=f"{who} uses binoculars on {whom} and takes a card at random.",
                  redacted_data={"seat": seat, "target": target}, seat=seat, target=target, taken=taken)

    def _give(self, seat: int, card: str) -> None:
        """R4.5, second half: the taker gives one card of its hand back; only the two of them see which."""
        assert self.taking is not None
        target = self.taking[1]
        self._hand_changes(seat, target, card)
        self.taking = None
        who, whom = self.players[seat], self.players[target]
        self.emit("give", f"{who} gives {card} to {whom}.", actor=seat, source=seat, observers=[seat, target],
                  redacted=f"{who} gives {whom} a card in return.", redacted_data={"seat": seat, "target": target},
                  seat=seat, target=target, card=card)
        self._next_turn()

    def _arrest(self, seat: int, target: int) -> None:
        self._lose_card(seat, "arrest")
        who, whom = self.players[seat], self.players[target]
        if target != self.adler:
            self.not_adler.add(target)
            for loser in (seat, target):
                self._must_skip(loser, self.rules.wrong_arrest_skips, "wrong_arrest")
            self.emit("arrest", f"{who} arrests {whom}: a wrong arrest! Both skip their next turn.", actor=seat,
                      seat=seat, target=target, right=False)
            self._next_turn()
            return
        self.emit("arrest", f"{who} arrests {whom}: it is Adler! Everyone shows their character.", actor=seat,
                  seat=seat, target=target, right=True)
        if not self.revealed:
            self.revealed = True
            listing = ", ".join(f"{self.players[s]} is {c}" for s, c in enumerate(self.characters))
            self.emit("reveal", f"Characters revealed: {listing}.", characters=list(self.characters))
        self.accuser = seat
        self.responders = []
        self.phase = "confront"

    def _confrontation(self, seat: int, action: Action) -> None:
        name = self.players[seat]
        if self.phase == "confront":
            if isinstance(action, Surrender):
                self._finish(seat, "heroes", f"{name} (Adler) surrenders: the heroes win.", "surrender")
                return
            assert isinstance(action, Respond)
            card = action.card
            self._lose_card(seat, card)
            self.emit("respond", f"{name} (Adler) plays {card}.", actor=seat, seat=seat, card=card,
                      role="adler")
            if card == "escape":
                self.escape_pending = [h for h in self._heroes() if h not in self.out
                                       and (self.rules.stunned_can_respond or self.skips[h] == 0)]
                self.phase = "escape"
                if not self.escape_pending:
                    self._escaped("no hero can stop the escape", "unstoppable")
            elif card == "disguise":
                self._escaped("he slips away in disguise", "disguise")
            elif card == "bomb":
                for hero in self._heroes():
                    if hero not in self.out:
                        self._must_skip(hero, self.rules.bomb_skips, "stunned")
                self._escaped("a bomb goes off and stuns every hero", "bomb")
            else:
                self.phase = "duel"
                self.duel_turn = self._hero_facing_adler(self.rules.duel_with)
            return
        if self.phase == "escape":
            if isinstance(action, Pass):
                self.escape_pending.remove(seat)
                self.emit("pass", f"{name} does not stop the escape.", actor=seat, seat=seat)
                if not self.escape_pending:
                    self._escaped("nobody stops him", "escape")
                return
            card = self.rules.escape_answer_card
            self._lose_card(seat, card)
            self.responders.append(seat)
            self.escape_pending = []
            self.phase = "confront"
            self.emit("respond", f"{name} stops the escape with {card}: Adler must answer again.", actor=seat,
                      seat=seat, card=card, role="stop")
            return
        # a pistol duel: the seat to shoot either shoots back or gives up
        adler = self.adler
        if isinstance(action, Respond):
            self._lose_card(seat, "pistol")
            self.emit("respond", f"{name} shoots back with a pistol.", actor=seat, seat=seat, card="pistol",
                      role="shoot")
            self.duel_turn = self._hero_facing_adler(self.rules.duel_with) if seat == adler else adler
            return
        if seat == adler:
            self._finish(seat, "heroes", f"{name} (Adler) cannot shoot back and is taken down: the heroes win.",
                         "shot")
            return
        if self.rules.shot_hero_out:
            self.out = self.out | {seat}
            self.skips[seat] = 0
            self.skip_reasons[seat] = []
            outcome = "is out of the game"
        else:
            self._must_skip(seat, self.rules.shot_hero_skips, "duel")
            outcome = f"skips {self.rules.shot_hero_skips} turn(s)"
        self.emit("shot", f"{name} loses the duel and {outcome}.", actor=seat, seat=seat, out=self.rules.shot_hero_out)
        self._escaped("he wins the duel", "duel")

    def _hero_facing_adler(self, which: str) -> int:
        """The hero "en confrontation avec lui" (R6.3) or from whom play resumes (R6.6), as the option `which`
        reads it: "accuser", the hero who arrested Adler; "latest_hero", the last hero who played a card
        against him, the one who stopped his latest escape, else the accuser."""
        assert self.accuser is not None
        return self.responders[-1] if which == "latest_hero" and self.responders else self.accuser

    def _escaped(self, how: str, reason: str) -> None:
        """The confrontation ends with Adler free: those involved refill (R6.6), play goes on after the
        accuser (option `resume_after`). `reason` is `how` as a code ("disguise", "bomb", "escape",
        "unstoppable", "duel")."""
        adler, accuser = self.adler, self.accuser
        assert accuser is not None
        resume = self._hero_facing_adler(self.rules.resume_after)
        self.emit("escape", f"{self.players[adler]} (Adler) escapes: {how}.", seat=adler, how=reason)
        for seat in dict.fromkeys([adler, accuser, *self.responders]):
            if seat in self.out:
                continue
            while len(self.hands[seat]) < self.rules.refill_size:
                if self._draw(seat) is None:
                    break
        self.accuser, self.responders, self.escape_pending, self.duel_turn = None, [], [], None
        # the turn was the accuser's; play goes on from `resume`, passing over the turns in between
        self.turn_index += (resume - accuser) % len(self.players)
        self._next_turn()

    # -------------------------------------------------------------------------------- views

    def _facts(self, seat: Seat | None) -> dict[str, Any]:
        n = len(self.players)
        confrontation = None
        if self.phase in ("confront", "escape", "duel"):
            confrontation = {"accuser": self.accuser, "responders": list(self.responders),
                             "duel_turn": self.duel_turn,
                             "duel_hero": self._hero_facing_adler(self.rules.duel_with) if self.phase == "duel"
                             else None}
        binoculars = None
        if self.taking is not None:
            taker, target, taken = self.taking
            binoculars = {"seat": taker, "target": target, "taken": taken if seat in (taker, target) else None}
        shown = self.revealed or self.phase == "over"
        return {
            "my_character": None if seat is None else self.characters[seat],
            "my_traits": None if seat is None else dict(TRAIT_TABLE[self.characters[seat]]),
            "hand": None if seat is None else sorted(self.hands[seat]),
            "hand_sizes": [len(hand) for hand in self.hands],
            "deck_size": len(self.deck),
            "discards": dict(sorted(Counter(self.discard_pile).items())),
            "hour": self.hour,
            "turn_seat": None if self.phase == "over" else self.turn_seat,
            "phase": self.phase,
            "question": None if self.question is None else list(self.question),
            "binoculars": binoculars,
            "answers": [list(answer) for answer in self.answers],
            "not_adler": sorted(self.not_adler),
            "revealed": {s: self.characters[s] for s in range(n)} if shown else {},
            "adler_seat": self.adler if shown else None,
            "skips": list(self.skips),
            "skip_reasons": [list(reasons) for reasons in self.skip_reasons],
            "out": sorted(self.out),
            "confrontation": confrontation,
            "known_cards": {} if seat is None else {
                holder: seen for holder, knowers in sorted(self.known.items())
                if (cards := knowers.get(seat)) and (seen := sorted(cards.elements()))},
            "winner": self.winner,
        }

    # -------------------------------------------------------------------------------- worlds

    def clone(self) -> GetAdlerState:
        """A fast independent copy (events are immutable and shared)."""
        world = object.__new__(type(self))
        world.__dict__.update(self.__dict__)
        world.rng = copy_rng(self.rng)
        world.history = list(self.history)
        world.events = list(self.events)
        world.characters = list(self.characters)
        world.deck = list(self.deck)
        world.hands = [list(hand) for hand in self.hands]
        world.discard_pile = list(self.discard_pile)
        world.known = {holder: {knower: Counter(cards) for knower, cards in knowers.items()}
                       for holder, knowers in self.known.items()}
        world.answers = list(self.answers)
        world.not_adler = set(self.not_adler)
        world.skips = list(self.skips)
        world.skip_reasons = [list(reasons) for reasons in self.skip_reasons]
        world.responders = list(self.responders)
        world.escape_pending = list(self.escape_pending)
        return world

    def consistent_identities(self, player: Seat | None) -> list[tuple[str, ...]]:
        """Every assignment of characters to seats that `player` cannot rule out (R4.3: a hero's answers
        bind only in worlds where that seat is not Adler)."""
        return worlds_for_view(self.view(player))

    @classmethod
    def world_from_view(cls, view: View, rng: random.Random) -> GetAdlerState:
        """A full state drawn from those consistent with `view`, from the view and `rng` alone (see
        `tabletop_edu.get_adler.worlds.build_world` for the distribution)."""
        return build_world(view, rng, cls)


State = GetAdlerState
#: The module-level name bots and `tabletop_edu.ismcts` look up: the same sampler as the classmethod.
world_from_view = GetAdlerState.world_from_view


#: The published rules, checked once: rules are immutable, and checking them is a fifth of a random game.
DEFAULT_RULES = Rules()


def new_game(players: int | list[str] = 4, *, seed: int | None = None, rules: Rules | None = None) -> GetAdlerState:
    """A new game of Get Adler, dealt with `seed` (default rules: `DEFAULT_RULES`)."""
    return GetAdlerState(players, seed=seed, rules=DEFAULT_RULES if rules is None else rules)


__all__ = ["Answer", "Arrest", "Ask", "Binoculars", "Discard", "GetAdlerState", "Give", "Magnify", "NOTATION",
           "Pass", "Respond", "Skip", "State", "Surrender", "new_game", "parse_action", "world_from_view"]
