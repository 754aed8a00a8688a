"""Commissario: the engine (rules in our words: seeds/commissario.md; rule ids R1.1... cited below).

Six families (colours) of bandits (+1..+5) and innocents (-1..-5). Each round 2N characters are laid out face
up (both numbers are rule options: `highest_value`, `laid_per_player`); players bid for turn order by releasing
one of their own prisoners (an all-pay auction, played in the open, starting at the handcuffs); then they
secretly and simultaneously pick two commissaires (two colours, or one colour and the 2x card); then they
reveal one commissaire each in turn order, arresting the highest character of that colour, and the second one
each in reverse order. When the pile is empty the round ends the game; each colour's best total earns that
colour's bonus card (none on a tie).

Hidden information: the order of the draw pile, and each seat's pick until it is revealed. A pick is a
private event (`observers=[seat]`, the others read "X has chosen two commissaires"); releases, arrests and
commissaires in hand (everyone always holds all six and the 2x) are public.

This module is the state (`CommissarioState`: its checks, moves, views and worlds); the moves, their notation
and the shared values of them are `actions`.

Events (`kind`: data): `deal` (seat, cards), `handcuffs` (seat), `layout` (round, cards), `release` (seat,
card, bid), `order` (order), `reveals`, `pick` (seat, colours; the others see only the seat), `reveal` (seat,
colour, double, arrest), `bonus` (colour, seat or None on a tie, bonus), `no_bonus` (colour, best, bonus: with
the option `bonus_needs_positive`, the single best total is not above 0), `end` (scores, winners).

View facts (`view.facts`), seat None being a spectator:

- `round`: the round number, from 1.
- `phase`: "release", "pick", "first_reveal", "second_reveal" or "over".
- `handcuffs`: the seat holding the handcuffs (first to release this round).
- `pile_size`: characters left in the draw pile.
- `table`: colour -> values of the characters laid out, highest first (the next arrest is the first).
- `arrested`: per seat, the characters it holds ("red+3"), in arrest order.
- `releases`: seat -> the character released this round ("red-3"), or None for "release none";
  only seats that already released.
- `order`: the turn order of this round (seats, first first) once all have released, else None.
- `picked`: seats that have chosen their commissaires this round (not what they chose).
- `my_pick`: this seat's own two colours this round (["green", "green"] with the 2x), else None.
- `revealed`: seat -> colours it revealed this round, in order.
- `colour_scores`: per seat, colour -> points (bandits minus innocents) so far.
- `scores`: per seat, total points so far (bonuses included once the game is over).
- `bonuses`: colour -> seat that won the bonus card (None: nobody took it, or no card); {} until the end.
- `bonus_values`: colour -> value of its bonus card (the option `bonus_values`, resolved; 0: no card).
- `rules`: the rule options as a dict (public: everyone at the table knows the rules).
- `doubles_spent`: with the option `double_card_each_round` off, the seats this viewer knows have played
  their 2x card for good (its own as soon as it picks it, another seat's once it reveals it); else [].
"""

from __future__ import annotations

import functools
import math
import random
from typing import Any

from ..core import (Action, FrozenDict, FrozenList, GameState, IllegalAction, Seat, View, copy_rng, quote_repr,
                    Term, rules_to_dict, shuffle)
from .actions import NOTATION, RELEASE_NONE, RELEASES, REVEALS, Pick, Release, Reveal, parse_action, picks_allowed
from .rules import ALL_CARDS, COLOURS, DEAL_COLOUR, Card, Rules, card_text, full_pile
from .worlds import build_world
from ..i18n import register_event_kinds

#: The event kinds as a French class reads them on top of the information-flow pictures' columns.
register_event_kinds("tabletop_edu.commissario", {"fr": {
    "deal": "distribution", "handcuffs": "menottes", "layout": "mise en jeu", "release": "libère",
    "order": "ordre", "reveals": "révélations", "pick": "choix", "reveal": "révèle", "bonus": "bonus",
    "no_bonus": "pas de bonus", "end": "fin"}})

PHASES = ("release", "pick", "first_reveal", "second_reveal", "over")
#: Each seat alone as the observers of a secret pick, and {"seat": k} as what the others read of it: immutable,
#: so built once and shared by every pick.
_ONLY: tuple[frozenset[int], ...] = tuple(frozenset((seat,)) for seat in range(5))
_SEAT_DATA: tuple[FrozenDict, ...] = tuple(FrozenDict(seat=seat) for seat in range(5))
#: Legal releases are listed by colour, then highest value first.
CARD_ORDER: dict[Card, tuple[int, int]] = {(c, v): (COLOURS.index(c), -v) for c, v in ALL_CARDS}
#: "red+3" for every character, written once (the reveal log uses it at every arrest).
CARD_TEXT: dict[Card, str] = {card: card_text(card) for card in ALL_CARDS}


@functools.lru_cache(maxsize=None)
def _reveal_options(pick: tuple[str, ...], shown: tuple[str, ...], reveal_choice: bool) -> tuple[str, ...]:
    """The colours that may be revealed from `pick` after `shown` (R4.2, option `reveal_choice`)."""
    left = list(pick)
    for colour in shown:
        left.remove(colour)
    if not left:
        return ()
    if not reveal_choice:
        return (left[0],)
    return tuple(sorted(set(left), key=COLOURS.index))


@functools.lru_cache(maxsize=None)
def _reveal_menu(pick: tuple[str, ...], shown: tuple[str, ...], reveal_choice: bool) -> tuple[Reveal, ...]:
    """The shared `Reveal` values of `_reveal_options` (a pick, its reveals so far and one rule decide them)."""
    return tuple(REVEALS[colour] for colour in _reveal_options(pick, shown, reveal_choice))


def arrest_rank(value: int) -> int:
    """Higher is arrested first: +5 ... +1, then -1 ... -5 (R4.3: « ayant le plus de valeur »)."""
    return value


class CommissarioState(GameState[Rules]):
    """A game of Commissario: the omniscient state (seats see it only through `view`)."""

    game = "tabletop_edu.commissario"
    title = "Commissario"
    rules_class = Rules
    min_players = 2
    max_players = 5

    # ------------------------------------------------------------------ set-up (R1, R2)

    def _setup(self) -> None:
        n = len(self.players)
        self.rules.check_players(n)  # R1.2
        deal = list(range(1, n + 1))
        shuffle(self.rng, deal)  # R1.3: the purple +1..+N dealt at random
        pile = full_pile(n, self.rules)
        shuffle(self.rng, pile)  # R1.6
        self._begin(deal, pile)

    def _begin(self, deal: list[int], pile: list[Card]) -> None:
        """Lay the table from a purple deal and a pile order (the only random parts of a game)."""
        n = len(self.players)
        self.events = []
        self.arrested: list[list[Card]] = [[] for _ in range(n)]
        self.purple_deal: list[int] = list(deal)
        self.pile: list[Card] = list(pile)
        self.drawn: list[Card] = []
        self.table: dict[str, list[int]] = {c: [] for c in COLOURS}
        self.handcuffs: Seat = deal.index(n)  # R1.4: to the highest purple
        self.round = 0
        self.over = False
        self.final_scores: list[int] | None = None
        self.bonus_winners: dict[str, Seat | None] = {}
        #: Innocents each seat has arrested (R6.4's tie-break): its purple -k of the deal first (R1.3, « ce
        #: seront les deux premières arrestations »), then every innocent it arrests, released ones included.
        self.innocents_arrested: list[int] = [1] * n
        #: Whether each seat has played its 2x card in this game (only used up with `double_card_each_round` off).
        self.double_used: list[bool] = [False] * n
        self._deal_events()
        self._start_round()
        self._update_turn()

    def _deal_events(self) -> None:
        for seat, value in enumerate(self.purple_deal):
            self.arrested[seat] += [(DEAL_COLOUR, value), (DEAL_COLOUR, -value)]
            self.emit("deal", f"{self.players[seat]} is dealt {DEAL_COLOUR}+{value} and {DEAL_COLOUR}-{value} "
                      "as first arrests.", seat=seat,
                      cards=FrozenList((f"{DEAL_COLOUR}+{value}", f"{DEAL_COLOUR}-{value}")))
        self.emit("handcuffs", f"{self.players[self.handcuffs]} holds the handcuffs (highest {DEAL_COLOUR}).",
                  seat=self.handcuffs)

    @property
    def layout_size(self) -> int:
        """Characters laid out at the start of a round (R2.1: 2N with the default `laid_per_player`)."""
        return self.rules.laid_per_player * len(self.players)

    def _start_round(self) -> None:
        """R2.1: lay out `layout_size` characters (or what remains, R5.3), then the releases start at the handcuffs."""
        n = len(self.players)
        self.round += 1
        count = min(self.layout_size, len(self.pile))
        laid, self.pile = self.pile[:count], self.pile[count:]
        self.drawn += laid
        for colour, value in laid:
            self.table[colour].append(value)
        for colour in {colour for colour, _ in laid}:  # only the columns that received characters
            self.table[colour].sort(reverse=True)  # by `arrest_rank`, which is the value itself
        cards = [CARD_TEXT[c] for c in laid]
        self.emit("layout", f"Round {self.round}: laid out " + ", ".join(cards) + ".", round=self.round,
                  cards=FrozenList(cards))
        self.phase = "release"
        self.release_turn: list[Seat] = [(self.handcuffs + k) % n for k in range(n)]
        self.releases: dict[Seat, Card | None] = {}
        self.order: list[Seat] | None = None
        self.picks: dict[Seat, tuple[str, str]] = {}
        self.pick_index: dict[Seat, int] = {}
        #: seat -> the colours it revealed this round, in order (a tuple: it keys the memoised reveal options).
        self.revealed: dict[Seat, tuple[str, ...]] = {}
        self.reveal_pos = 0

    # ------------------------------------------------------------------ turn structure

    def _whose_turn(self) -> Seat | tuple[Seat, ...] | None:
        """Whose turn it is, from the phase: the release order, every seat not yet picked, or the reveal order."""
        if self.over:
            return None
        if self.phase == "release":
            return self.release_turn[len(self.releases)]
        if self.phase == "pick":
            picks = self.picks
            return tuple([s for s in range(len(self.players)) if s not in picks])
        assert self.order is not None
        if self.phase == "first_reveal":
            return self.order[self.reveal_pos]
        return self.order[-1 - self.reveal_pos]  # the second reveal goes in reverse order (R4.6)

    @property
    def max_steps(self) -> int:
        """Rounds times 4N actions (N releases, N picks, 2N reveals). The pile holds 12h - 2N characters
        (h = `highest_value`, R1.1, R1.3) and a round lays `layout_size` of them; released characters never go
        back to the pile, so there are at most ceil((12h - 2N) / layout_size) rounds."""
        n = len(self.players)
        pile = len(COLOURS) * 2 * self.rules.highest_value - 2 * n
        return math.ceil(pile / self.layout_size) * 4 * n

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_action(text)

    def _remaining_pick(self, seat: Seat) -> list[str]:
        """The colours of `seat`'s pick not revealed yet."""
        left = list(self.picks.get(seat, ()))
        for colour in self.revealed.get(seat, ()):
            left.remove(colour)
        return left

    def _reveal_options(self, seat: Seat) -> tuple[str, ...]:
        """The colours `seat` may reveal now (memoised: a pick and its reveals so far decide them)."""
        return _reveal_options(self.picks.get(seat, ()), self.revealed.get(seat, ()), self.rules.reveal_choice)

    def legal_actions(self, player: Seat | None = None) -> list[Action]:
        seats = self.acting_seats
        if player is None:
            if len(seats) != 1:
                return []
            player = seats[0]
        if player not in seats:
            return []
        if self.phase == "release":
            held = sorted(set(self.arrested[player]), key=CARD_ORDER.__getitem__)
            menu: list[Action] = [RELEASE_NONE]
            return menu + [RELEASES[card] for card in held]
        if self.phase == "pick":
            return list(picks_allowed(self._holds_double(player)))
        return list(_reveal_menu(self.picks.get(player, ()), self.revealed.get(player, ()), self.rules.reveal_choice))

    def _validate(self, seat: Seat, action: Action) -> None:
        if isinstance(action, Reveal):  # the commonest action first: half of all actions are reveals
            if self.phase not in ("first_reveal", "second_reveal"):
                raise IllegalAction.because("cm_refused_reveal_now", phase=Term(f"cm_now_{self.phase}"))
            options = self._reveal_options(seat)
            if action.colour not in options:
                if action.colour in self._remaining_pick(seat):
                    raise IllegalAction.because("cm_refused_reveal_order", colour=Term(f"cm_{options[0]}"))
                raise IllegalAction.because("cm_refused_reveal_unpicked", colour=Term(f"cm_{action.colour}"),
                                            hidden=tuple(Term(f"cm_{c}") for c in self._remaining_pick(seat)))
        elif isinstance(action, Release):
            if self.phase != "release":
                raise IllegalAction.because("cm_refused_release_now", phase=Term(f"cm_now_{self.phase}"))
            if action.card is not None and action.card not in self.arrested[seat]:
                colour, value = action.card
                raise IllegalAction.because("cm_refused_release_unheld",
                                            card=Term("cm_card", colour=Term(f"cm_{colour}"), value=value))
        elif isinstance(action, Pick):
            if self.phase != "pick":
                raise IllegalAction.because("cm_refused_pick_now", phase=Term(f"cm_now_{self.phase}"))
            if action.double and not self._holds_double(seat):
                if self.rules.double_card:
                    raise IllegalAction.because("cm_refused_double_used", action=str(action))
                raise IllegalAction.because("cm_refused_no_double", action=str(action))
        else:
            raise IllegalAction.because("cm_refused_not_an_action", text=quote_repr(action), notation=NOTATION)

    def _holds_double(self, seat: Seat) -> bool:
        """Whether `seat` may pick with its 2x card now (R1.5, R5.1: options `double_card`,
        `double_card_each_round`)."""
        return self.rules.double_card and (self.rules.double_card_each_round or not self.double_used[seat])

    # ------------------------------------------------------------------ playing

    def _play(self, seat: Seat, action: Action) -> None:
        kind = type(action)
        if kind is Reveal:  # the commonest action first: half of all actions are reveals
            self._play_reveal(seat, action)  # type: ignore[arg-type]
        elif isinstance(action, Release):
            self._play_release(seat, action)
        elif isinstance(action, Pick):
            self._play_pick(seat, action)
        elif isinstance(action, Reveal):
            self._play_reveal(seat, action)

    def _play_release(self, seat: Seat, action: Release) -> None:
        """R3: the release is public (R3.5); its value is the seat's bid for turn order (none: 0, R3.2)."""
        name = self.players[seat]
        self.releases[seat] = action.card
        if action.card is None:
            self.emit_event("release", f"{name} releases no one (bid 0).", seat, None, None, None,
                            FrozenDict(seat=seat, card=None, bid=0))
        else:
            self.arrested[seat].remove(action.card)
            where = "back to the table" if self.rules.released_go_to == "table" else "out of the game"
            if self.rules.released_go_to == "table":  # R3.4
                self.table[action.card[0]].append(action.card[1])
                self.table[action.card[0]].sort(reverse=True)  # by `arrest_rank`, the value itself
            text = CARD_TEXT[action.card]
            self.emit_event("release", f"{name} releases {text} (bid {action.card[1]:+d}), {where}.", seat, None,
                            None, None, FrozenDict(seat=seat, card=text, bid=action.card[1]))
        if len(self.releases) == len(self.players):
            self.order = turn_order(self.release_turn, {s: (c[1] if c else 0) for s, c in self.releases.items()})
            self.emit("order", "Turn order: " + ", ".join(self.players[s] for s in self.order) + ".",
                      order=FrozenList(self.order))
            self.phase = "pick"

    def _play_pick(self, seat: Seat, action: Pick) -> None:
        """R4.1: a secret, simultaneous choice: only the seat sees what it picked."""
        name = self.players[seat]
        self.picks[seat] = action.colours
        self.pick_index[seat] = len(self.history)
        if action.double:
            self.double_used[seat] = True
        what = f"{action.colours[0]} and the 2x card" if action.double else " and ".join(action.colours)
        self.emit_event("pick", f"{name} secretly picks {what}.", seat, None, _ONLY[seat],
                        f"{name} has chosen two commissaires.",
                        FrozenDict(seat=seat, colours=FrozenList(action.colours)),
                        _SEAT_DATA[seat])
        if len(self.picks) == len(self.players):
            self.phase = "first_reveal"
            self.emit("reveals", "Everyone has chosen: commissaires are revealed in turn order.")

    def _play_reveal(self, seat: Seat, action: Reveal) -> None:
        """R4.2-R4.6: arrest the highest character of the colour, if any is left."""
        name = self.players[seat]
        colour = action.colour
        pick = self.picks[seat]
        double = self.phase == "second_reveal" and pick[0] == pick[1]
        self.revealed[seat] = self.revealed.get(seat, ()) + (colour,)
        shown = f"the 2x card ({colour} again)" if double else f"the {colour} commissaire"
        column = self.table[colour]
        if column:
            value = column.pop(0)
            self.arrested[seat].append((colour, value))
            if value < 0:
                self.innocents_arrested[seat] += 1
            arrest = CARD_TEXT[colour, value]
            self.emit_event("reveal", f"{name} reveals {shown} and arrests {arrest} "
                            f"({'bandit' if value > 0 else 'innocent'}).", seat, None, None, None,
                            FrozenDict(seat=seat, colour=colour, double=double, arrest=arrest))
        else:
            self.emit_event("reveal", f"{name} reveals {shown}: no {colour} character left, no arrest.", seat, None,
                            None, None, FrozenDict(seat=seat, colour=colour, double=double, arrest=None))
        self.reveal_pos += 1
        if self.reveal_pos == len(self.players):
            self.reveal_pos = 0
            if self.phase == "first_reveal":
                self.phase = "second_reveal"
            else:
                self._end_round()

    def _end_round(self) -> None:
        """R5: the handcuffs pass left; the game ends when the pile is used up (or cannot fill a layout)."""
        n = len(self.players)
        if not self.pile or (not self.rules.partial_last_layout and len(self.pile) < self.layout_size):
            self._end_game()
            return
        self.handcuffs = (self.handcuffs + 1) % n
        self.emit("handcuffs", f"The handcuffs pass to {self.players[self.handcuffs]}.", seat=self.handcuffs)
        self._start_round()

    def _end_game(self) -> None:
        """R6: points by colour, each colour's bonus card to the single best total (R6.2, R6.3, R6.5), ranking."""
        self.over = True
        self.phase = "over"
        totals = [sum(v for _, v in cards) for cards in self.arrested]
        points_by_colour = [colour_scores(cards) for cards in self.arrested]
        for colour in COLOURS:
            bonus = self.rules.bonus(colour)
            winner, best = bonus_winner([points[colour] for points in points_by_colour],
                                        self.rules.bonus_needs_positive)
            self.bonus_winners[colour] = winner if bonus else None
            if not bonus:
                continue
            if winner is not None:
                totals[winner] += bonus
                self.emit("bonus", f"{self.players[winner]} has the most {colour} points ({best:+d}) and takes "
                          f"the {colour} bonus card ({bonus}).", colour=colour, seat=winner, bonus=bonus)
            elif sum(points[colour] == best for points in points_by_colour) > 1:
                self.emit("bonus", f"Tie for the most {colour} points ({best:+d}): nobody takes the {colour} "
                          "bonus card.", colour=colour, seat=None, bonus=bonus)
            else:
                self.emit("no_bonus", f"The most {colour} points is {best:+d}, not above 0: nobody takes the "
                          f"{colour} bonus card (option bonus_needs_positive).", colour=colour, best=best,
                          bonus=bonus)
        self.final_scores = totals
        self.emit("end", "Game over. Scores: " + ", ".join(f"{self.players[s]} {t}" for s, t in enumerate(totals))
                  + ". Winner(s): " + ", ".join(self.players[s] for s in self.winners) + ".",
                  scores=list(totals), winners=list(self.winners))

    # ------------------------------------------------------------------ results

    @property
    def scores(self) -> list[int]:
        """Points per seat: characters' values, plus bonus cards once the game is over."""
        if self.final_scores is not None:
            return list(self.final_scores)
        return [sum(v for _, v in cards) for cards in self.arrested]

    @property
    def winners(self) -> tuple[Seat, ...]:
        """R6.4: the highest total; ties shared, or broken by the fewest innocents arrested (option `tie_break`:
        every innocent the seat ever arrested, released ones included, as the seed's mission says « en évitant
        d'arrêter les innocents »)."""
        if not self.over:
            return ()
        scores = self.scores
        best = max(scores)
        leaders = [s for s, score in enumerate(scores) if score == best]
        if self.rules.tie_break == "fewest_innocents" and len(leaders) > 1:
            fewest = min(self.innocents_arrested[s] for s in leaders)
            leaders = [s for s in leaders if self.innocents_arrested[s] == fewest]
        return tuple(leaders)

    # ------------------------------------------------------------------ knowledge

    def _facts(self, seat: Seat | None) -> dict[str, Any]:
        my_pick = None
        if seat is not None and seat in self.picks and not self.over:
            my_pick = list(self.picks[seat])
        return {
            "round": self.round,
            "phase": self.phase,
            "handcuffs": self.handcuffs,
            "pile_size": len(self.pile),
            "table": {c: list(vs) for c, vs in self.table.items()},
            "arrested": [[CARD_TEXT[c] for c in cards] for cards in self.arrested],
            "releases": {s: (None if c is None else CARD_TEXT[c]) for s, c in self.releases.items()},
            "order": None if self.order is None else list(self.order),
            "picked": sorted(self.picks),
            "my_pick": my_pick,
            "revealed": {s: list(cs) for s, cs in sorted(self.revealed.items())},
            "colour_scores": [colour_scores(cards) for cards in self.arrested],
            "scores": list(self.scores),
            "bonuses": dict(self.bonus_winners),
            "bonus_values": dict(self.rules.bonus_table),
            "rules": dict(_rules_fact(self.rules)),
            "doubles_spent": self._doubles_spent(seat),
        }

    def _doubles_spent(self, seat: Seat | None) -> list[Seat]:
        """The seats `seat` knows have used up their 2x card (R5.1 option off): a 2x pick stays secret until
        its second reveal shows it, except to the seat that made it."""
        if self.rules.double_card_each_round:
            return []
        hidden = {t for t, pick in self.picks.items() if pick[0] == pick[1] and len(self.revealed.get(t, ())) < 2}
        return [t for t, used in enumerate(self.double_used) if used and (t == seat or t not in hidden)]

    def _facts_omniscient(self) -> dict[str, Any]:
        facts = super()._facts_omniscient()
        facts["picks"] = {s: list(p) for s, p in self.picks.items()}
        facts["pile"] = [CARD_TEXT[c] for c in self.pile]
        return facts

    def hidden_picks(self, player: Seat | None) -> list[Seat]:
        """Seats whose current pick `player` does not fully know (picked, not all revealed, not player)."""
        return [s for s in sorted(self.picks) if s != player and self._remaining_pick(s)]

    def clone(self) -> CommissarioState:
        """An independent copy that shares the events: they are immutable once emitted (frozen data), so only
        the lists and dicts of the table are copied, two levels deep (the state holds nothing deeper: lists of
        cards, columns of values, tuples of colours). Bots and searches clone a state at every simulated move."""
        world = object.__new__(type(self))
        world.__dict__.update({name: _copied(value) for name, value in self.__dict__.items()})
        world.rng = copy_rng(self.rng)
        return world

    # ------------------------------------------------------------------ resampling

    @classmethod
    def world_from_view(cls, view: View, rng: random.Random) -> CommissarioState:
        """A full state drawn from those consistent with `view`, from the view and `rng` alone (see
        `tabletop_edu.commissario.worlds.build_world` for the distribution)."""
        return build_world(view, rng, cls)


def _copied(value: Any) -> Any:
    """A copy of one attribute of the state: lists and dicts copied with the lists inside them; immutable
    values (numbers, texts, tuples, rules) shared."""
    kind = type(value)
    if kind is list:
        return [item[:] if type(item) is list else item for item in value]
    if kind is dict:
        return {key: item[:] if type(item) is list else item for key, item in value.items()}
    if kind is set:
        return set(value)
    return value


#: The module-level name bots and `tabletop_edu.ismcts` look up: the same sampler as the classmethod.
world_from_view = CommissarioState.world_from_view


@functools.lru_cache(maxsize=64)
def _rules_fact(rules: Rules) -> dict[str, Any]:
    """The rule options as a dict, made once per Rules (views copy it): views are built at every step."""
    return rules_to_dict(rules)


def bonus_winner(points: list[int], needs_positive: bool = False) -> tuple[Seat | None, int]:
    """Who takes a colour's bonus card, and the best total there (R6.2, R6.3, R6.5).

    The single best total takes it, whatever its sign: a seat with no character of the colour counts 0, so
    it takes the card when every other seat is below 0. On a tie nobody does; with `needs_positive` nobody
    does either unless the best total is above 0."""
    best = max(points)
    leaders = [seat for seat, total in enumerate(points) if total == best]
    if len(leaders) > 1 or (needs_positive and best <= 0):
        return None, best
    return leaders[0], best


def colour_points(cards: list[Card], colour: str) -> int:
    """A seat's points in one colour: its bandits minus its innocents there."""
    return sum(v for c, v in cards if c == colour)


def colour_scores(cards: list[Card]) -> dict[str, int]:
    """A seat's points in every colour (`colour_points` of each), in one pass over its cards."""
    points = dict.fromkeys(COLOURS, 0)
    for colour, value in cards:
        if colour in points:
            points[colour] += value
    return points


def turn_order(release_turn: list[Seat], bids: dict[Seat, int]) -> list[Seat]:
    """R3.3: highest bid first; ties go to the handcuffs, then clockwise (the release order)."""
    return sorted(release_turn, key=lambda s: (-bids[s], release_turn.index(s)))


State = CommissarioState


#: The default rules, checked once: rules are immutable, and checking them costs as much as dealing a game.
DEFAULT_RULES = Rules()


def new_game(players: int | list[str] = 3, *, seed: int | None = None, rules: Rules | None = None) -> CommissarioState:
    """A new game of Commissario, dealt with `seed` (default rules: `DEFAULT_RULES`)."""
    return CommissarioState(players, seed=seed, rules=DEFAULT_RULES if rules is None else rules)
