"""A series of Mafia de Cuba rounds: « Les vainqueurs désignent le prochain Parrain » (R7, seeds/mafia_de_cuba.md).

A class plays several rounds at the same table. Each round is an ordinary game (its own record, replayable with
`tabletop_edu.load`); when it ends, its winners designate the next round's Godfather, and every seat's points
are added up. Engine only (no widget): `series_widget.py` shows it in a notebook.

- Seeds: round k (1, 2, ...) is dealt with a seed drawn from the series' seed, and the winners' choice of round
  k uses its own generator, so a seeded series plays the same every time.
- The winners' choice (R7.2): by default the winners pick one of themselves, uniformly with that generator
  (`winners_pick`); a person overrides it (`next_round(godfather=seat)`); a round nobody wins (possible with
  `tied_thieves_all_win=False`) passes the cigar box to the Godfather's left.
- Scoring (R7.3, `Series.points`): a round's winners score 1 point each, everyone else 0; `scoring=` replaces it
  by any function of the finished game.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from ..core import (Bot, RecordError, RulesError, Seat, play_game, player_names, quote_repr, rules_from_dict,
                    rules_to_dict)
from ..i18n import register, tr
from .bots import default_bots
from .engine import MafiaState
from .rules import Rules

#: The tally table's headers (the widget shows it under a French table too).
register({"en": {"mdc_tally_round": "round", "mdc_tally_godfather": "Godfather", "mdc_tally_total": "total"},
          "fr": {"mdc_tally_round": "manche", "mdc_tally_godfather": "Parrain", "mdc_tally_total": "total"}})

SERIES_FORMAT = 1
SERIES_KEYS = ("format", "series", "players", "seed", "rounds", "rules", "games")
MAX_ROUNDS = 50
#: A finished game -> the points of every seat.
Scoring = Callable[[MafiaState], list[int]]
#: A finished game and the round's generator -> the next Godfather's seat.
Chooser = Callable[[MafiaState, random.Random], Seat]


def one_point_per_win(game: MafiaState) -> list[int]:
    """R7.3: each winner of the round scores 1 point, everyone else 0."""
    winners = set(game.winners)
    return [1 if seat in winners else 0 for seat in range(len(game.players))]


def winners_pick(game: MafiaState, rng: random.Random) -> Seat:
    """R7.2: the winners designate one of themselves, uniformly with the round's generator; with no winner the
    box goes to the Godfather's left (the first taker)."""
    winners = list(game.winners)
    return rng.choice(winners) if winners else game.order[0]


class Series:
    """Rounds of Mafia de Cuba at one table, the winners of each choosing the next Godfather.

    `rules` are the rules of every round except `godfather_seat`, which the series sets (round 1: the rules'
    own). `bots` (one per seat, or a seat -> bot mapping; default: `default_bots` seeded by `seed`) play the
    seats `play_round` plays.
    """

    def __init__(self, players: int | Sequence[str] = 7, *, rounds: int = 3, seed: int = 0,
                 rules: Rules | None = None, bots: Sequence[Bot] | Mapping[Seat, Bot] | None = None,
                 chooser: Chooser = winners_pick, scoring: Scoring = one_point_per_win) -> None:
        self.players = player_names(players, MafiaState.min_players, MafiaState.max_players, MafiaState.title)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise RulesError(f"A series has 1 to {MAX_ROUNDS} rounds, not {rounds!r}.")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RulesError(f"A seed is a whole number, not {seed!r}.")
        self.rounds, self.seed = rounds, seed
        self.rules = rules or Rules()
        if not isinstance(self.rules, Rules):
            raise RulesError(f"rules must be a Mafia de Cuba Rules, not {type(self.rules).__name__}.")
        count = len(self.players)
        self.bots: dict[Seat, Bot] = dict(bots) if isinstance(bots, Mapping) else dict(enumerate(
            bots if bots is not None else default_bots(count, self.rules, seed=seed)))
        self.chooser, self.scoring = chooser, scoring
        self.games: list[MafiaState] = [self._new_round(1, self.rules.godfather_seat)]

    # ------------------------------------------------------------------ rounds

    def round_seed(self, number: int) -> int:
        """The seed of round `number` (1, 2, ...), drawn from the series' seed."""
        return random.Random(f"mafia-series-{self.seed}-round-{number}").randrange(2**32)

    def round_rules(self, godfather: Seat) -> Rules:
        """The rules of a round whose Godfather sits at `godfather`."""
        return dataclasses.replace(self.rules, godfather_seat=godfather)

    def _new_round(self, number: int, godfather: Seat) -> MafiaState:
        return MafiaState(list(self.players), seed=self.round_seed(number), rules=self.round_rules(godfather))

    @property
    def current(self) -> MafiaState:
        """The round being played (or the last one, once the series is over)."""
        return self.games[-1]

    @property
    def round_number(self) -> int:
        return len(self.games)

    @property
    def godfathers(self) -> list[Seat]:
        """The Godfather of each round so far."""
        return [game.godfather for game in self.games]

    @property
    def is_over(self) -> bool:
        return self.round_number == self.rounds and self.current.is_over

    def winners_choice(self) -> Seat:
        """The next Godfather as the finished round's winners designate him (R7.2), with the round's generator."""
        if not self.current.is_over:
            raise RulesError("The round is still being played: its winners are not known yet.")
        rng = random.Random(f"mafia-series-{self.seed}-pick-{self.round_number}")
        return self.chooser(self.current, rng)

    def next_round(self, godfather: Seat | None = None) -> MafiaState:
        """Start the next round, with `godfather` at the head of the table (default: the winners' choice)."""
        if not self.current.is_over:
            raise RulesError("Finish this round before starting the next one.")
        if self.round_number >= self.rounds:
            raise RulesError(f"The series had {self.rounds} rounds: it is over.")
        if godfather is None:
            godfather = self.winners_choice()
        if isinstance(godfather, bool) or not isinstance(godfather, int) or not 0 <= godfather < len(self.players):
            raise RulesError(f"The next Godfather is a seat from 0 to {len(self.players) - 1}, not {godfather!r}.")
        self.games.append(self._new_round(self.round_number + 1, godfather))
        return self.current

    def adopt(self, state: MafiaState) -> None:
        """Make `state` the current round: a game with exactly this round's players, seed and rules, whose moves
        continue the round's (a widget builds its own state from them, and its bots may already have moved)."""
        current = self.current
        same = (isinstance(state, MafiaState) and state.players == current.players and state.seed == current.seed
                and state.rules == current.rules and state.history[:len(current.history)] == current.history)
        if not same:
            raise RulesError("Only a game with this round's players, seed and rules, continuing its moves, can "
                             "stand for it.")
        self.games[-1] = state

    def play_round(self) -> MafiaState:
        """Let the bots play the current round to its end."""
        rng = random.Random(f"mafia-series-{self.seed}-bots-{self.round_number}")
        return play_game(self.current, self.bots, rng=rng)

    def play(self) -> Series:
        """Let the bots play every remaining round, the winners choosing each next Godfather."""
        while True:
            self.play_round()
            if self.round_number >= self.rounds:
                return self
            self.next_round()

    # ------------------------------------------------------------------ tallies

    def points(self, game: MafiaState) -> list[int]:
        """Every seat's points for a finished round (R7.3); zeros while it is being played."""
        return self.scoring(game) if game.is_over else [0] * len(self.players)

    def tallies(self) -> list[list[int]]:
        """The points of every seat, round by round (a round in progress scores zeros)."""
        return [self.points(game) for game in self.games]

    def totals(self) -> list[int]:
        """The running total of every seat."""
        return [sum(column) for column in zip(*self.tallies())]

    def leaders(self) -> list[Seat]:
        """The seats with the most points so far."""
        totals = self.totals()
        return [seat for seat, total in enumerate(totals) if total == max(totals)]

    def table_html(self, language: str = "en") -> str:
        """The tallies as an HTML table, headers in `language`: a row per round (its Godfather, each seat's
        points), then the totals."""
        header = "".join(f"<th>{seat}. {escape(name)}</th>" for seat, name in enumerate(self.players))
        rows = []
        for number, (game, points) in enumerate(zip(self.games, self.tallies()), start=1):
            cells = "".join(f"<td>{value if game.is_over else '…'}</td>" for value in points)
            rows.append(f"<tr><th>{number}</th><td>{game.godfather}</td>{cells}</tr>")
        totals = "".join(f"<td><b>{value}</b></td>" for value in self.totals())
        round_word, godfather, total = (escape(tr(f"mdc_tally_{key}", language))
                                        for key in ("round", "godfather", "total"))
        return (f"<table class='mdc-series'><tr><th>{round_word}</th><th>{godfather}</th>{header}</tr>{''.join(rows)}"
                f"<tr><th>{total}</th><td></td>{totals}</tr></table>")

    # ------------------------------------------------------------------ records

    def record(self) -> dict[str, Any]:
        """Everything needed to replay the series: its parameters and every round's game record."""
        return {"format": SERIES_FORMAT, "series": MafiaState.game, "players": list(self.players), "seed": self.seed,
                "rounds": self.rounds, "rules": rules_to_dict(self.rules),
                "games": [game.record() for game in self.games]}

    @classmethod
    def from_record(cls, record: Mapping[str, Any], *, bots: Sequence[Bot] | Mapping[Seat, Bot] | None = None,
                    chooser: Chooser = winners_pick, scoring: Scoring = one_point_per_win) -> Series:
        """Replay a series record; anything wrong raises `RecordError` naming the field or the round."""
        if not isinstance(record, Mapping):
            raise RecordError(f"A series record is a mapping with the keys {', '.join(SERIES_KEYS)}.")
        missing = [key for key in SERIES_KEYS if key not in record]
        if missing:
            raise RecordError(f"The series record has no {', '.join(missing)}.")
        if record["format"] != SERIES_FORMAT or type(record["format"]) is not int:
            raise RecordError(f"format: this version reads series of format {SERIES_FORMAT}, not "
                              f"{quote_repr(record['format'])}.")
        if record["series"] != MafiaState.game:
            raise RecordError(f"series: this is a series of {quote_repr(record['series'])}.")
        games = record["games"]
        if not isinstance(games, list) or not 1 <= len(games) <= MAX_ROUNDS:
            raise RecordError(f"games: a list of 1 to {MAX_ROUNDS} game records.")
        try:
            rules = rules_from_dict(Rules, record["rules"])
            series = cls(record["players"], rounds=record["rounds"], seed=record["seed"], rules=rules, bots=bots,
                         chooser=chooser, scoring=scoring)
        except RulesError as error:
            raise RecordError(f"The series' parameters are wrong: {error}") from None
        for number, game in enumerate(games, start=1):
            try:
                state = MafiaState.from_record(game)
            except RecordError as error:
                raise RecordError(f"round {number}: {error}") from None
            if number > 1:
                try:
                    series.next_round(state.godfather)
                except RulesError as error:
                    raise RecordError(f"round {number}: {error}") from None
            expected = series.current
            if (state.players, state.seed, state.rules) != (expected.players, expected.seed, expected.rules):
                raise RecordError(f"round {number}: its players, seed or rules are not the series' round {number}.")
            series.games[-1] = state
        return series


__all__ = ["Series", "one_point_per_win", "winners_pick"]
