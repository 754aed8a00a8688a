"""Fuzzing every installed game (issue 10): bad actions, bad rules and corrupt records.

Nothing here names a game's actions or options: action classes, their fields' types and the rule options are
found by introspection, so the suite follows each game as its engine changes. Three promises are checked:

- **actions**: an action value with wrong-typed fields (bools, floats, huge or negative numbers, long texts,
  None, nested containers), a random text (long, unicode, or made of the game's own words) or a wrong
  `player` is refused with `IllegalAction` (never another exception, nor one hidden as its cause), a message
  of at most 400 characters quoting at most a short prefix of the input, and an unchanged `fingerprint()`;
  a well-typed action equal to a legal one is accepted.
- **rules**: a random dict of option names and values either makes rules (`rules_from_dict`) that make a
  playable game, or raises `RulesError`; `new_game` may refuse the rules for a table size with `RulesError`.
- **records**: a real record corrupted (keys dropped or renamed, wrong types, bad format numbers, wrong game
  names, altered or truncated action lists, broken or deeply nested JSON, huge numbers) either loads and
  replays to a legal state, or raises `RecordError` naming the field or the step.

Budgets are fixed and hypothesis is derandomized, so CI runs the same cases every time. `pytest -s` prints
how the cases ended (`TALLY`); `python benchmarks/fuzz_report.py` runs larger budgets and prints the same
figures without stopping at the first failure.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import importlib
import json
import os
import random
import re
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import tabletop_edu
from tabletop_edu.core import Action, GameState, IllegalAction, RecordError, RulesError, rules_from_dict
from tabletop_edu.core.errors import MAX_MESSAGE, MAX_QUOTE
from tabletop_edu.registry import games as installed_games

#: Every installed game, by module (the name its records carry).
GAMES = sorted(plugin.module for plugin in installed_games().values())

#: Examples per game and per kind of input; `benchmarks/fuzz_report.py` scales them (TABLETOP_FUZZ_SCALE).
EXAMPLES = {kind: max(1, int(count * float(os.environ.get("TABLETOP_FUZZ_SCALE", "1"))))
            for kind, count in {"actions": 30, "texts": 30, "rules": 25, "records": 40}.items()}
#: A message may repeat this many characters of the input in a row, at most (a quote plus a word or two).
ECHO = MAX_QUOTE + 20
#: Off in `benchmarks/fuzz_report.py`: count every outcome instead of stopping at the first wrong one.
STRICT = True

#: (kind, game, outcome) -> cases: printed by `pytest -s` and by the report script.
TALLY: collections.Counter[tuple[str, str, str]] = collections.Counter()
#: (kind, game, outcome) -> the first few inputs that ended that way (for the report).
SAMPLES: dict[tuple[str, str, str], list[str]] = collections.defaultdict(list)

CLEAR = "refused clearly"
ACCEPTED = "accepted (legal)"
LOADED = "loaded, replays legally"
WRONG = "WRONG"


def budget(kind: str) -> Callable[[Any], Any]:
    """A fixed, derandomized budget. No shrinking: a failure names its case at once, and a run with a failing
    game takes no longer than a passing one."""
    return settings(max_examples=EXAMPLES[kind], derandomize=True, database=None, deadline=None,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate],
                    suppress_health_check=list(HealthCheck))  # a fixed budget, whatever hypothesis thinks of it


def note(kind: str, game: str, outcome: str, case: Any, why: str = "") -> None:
    """Count a case; outside the report script, a wrong outcome fails the test with the case and why."""
    TALLY[kind, game, outcome] += 1
    if outcome == WRONG or outcome.startswith("unclear"):
        text = _short(case) + (f" -> {why}" if why else "")
        if len(SAMPLES[kind, game, outcome]) < 5:
            SAMPLES[kind, game, outcome].append(text)
        if STRICT:
            raise AssertionError(f"{kind} of {game}: {outcome}: {text}")


def _short(value: Any) -> str:
    """A case as a report shows it: at most 300 characters, whatever it holds."""
    text = value if isinstance(value, str) else _describe(value)
    return text if len(text) <= 300 else text[:300] + f"... ({len(text)} characters)"


def _describe(value: Any, depth: int = 0) -> str:
    """`repr`, except that what cannot be written (a 5,000-digit number, deep nesting) is named instead."""
    if type(value) is int and value.bit_length() > 1000:
        return f"<{'-' if value < 0 else ''}{value.bit_length() * 3 // 10} digits>"
    if depth > 8:
        return "..."
    if type(value) in (list, tuple):
        inner = ", ".join(_describe(item, depth + 1) for item in value[:12])
        more = ", ..." if len(value) > 12 else ""
        return f"[{inner}{more}]" if type(value) is list else f"({inner}{more}{',' if len(value) == 1 else ''})"
    if type(value) is dict:
        return "{" + ", ".join(f"{_describe(k, depth + 1)}: {_describe(v, depth + 1)}"
                               for k, v in list(value.items())[:12]) + "}"
    if isinstance(value, Action) and dataclasses.is_dataclass(value):
        fields = ", ".join(f"{spec.name}={_describe(getattr(value, spec.name, None), depth + 1)}"
                           for spec in dataclasses.fields(value))
        return f"{type(value).__name__}({fields})"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - any value at all is described
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 200 else text[:200] + f"... ({len(text)} characters)"


# ------------------------------------------------------------------------------------------ the games


@functools.cache
def game(name: str) -> types.ModuleType:
    return importlib.import_module(name)


def state_class(name: str) -> type[GameState[Any]]:
    return game(name).State  # type: ignore[no-any-return]


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


@functools.cache
def action_classes(name: str) -> tuple[type[Action], ...]:
    """The game's own actions: dataclass subclasses of `Action` defined in its package."""
    found = {cls for cls in _subclasses(Action) if dataclasses.is_dataclass(cls)
             and (cls.__module__ == name or cls.__module__.startswith(name + "."))}
    return tuple(sorted(found, key=lambda cls: (cls.__module__, cls.__qualname__)))


@functools.cache
def field_hints(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((spec.name, hints.get(spec.name, Any)) for spec in dataclasses.fields(cls))


def fits(value: Any, hint: Any) -> bool | None:
    """Whether `value` has exactly the type `hint` says (bool is not int, a list is not a tuple); None when
    the hint is of a kind this checker does not read."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return None
    if origin in (typing.Union, types.UnionType):
        answers = [fits(value, option) for option in typing.get_args(hint)]
        return True if True in answers else (None if None in answers else False)
    if hint is type(None) or hint is None:
        return value is None
    if hint in (int, str, bool, float, bytes):
        return type(value) is hint
    if origin is typing.Literal:
        return any(type(value) is type(choice) and value == choice for choice in typing.get_args(hint))
    if origin in (tuple, list):
        if type(value) is not origin:
            return False
        args = typing.get_args(hint)
        if origin is list or (len(args) == 2 and args[1] is Ellipsis):
            answers = [fits(item, args[0]) for item in value] if args else []
        elif len(value) != len(args):
            return False
        else:
            answers = [fits(item, arg) for item, arg in zip(value, args)]
        return False if False in answers else (None if None in answers else True)
    return None


@functools.cache
def vocabulary(name: str) -> tuple[str, ...]:
    """Words of the game's notation: every word of the legal actions met in a few random games."""
    found: set[str] = set()
    cls = state_class(name)
    for seed, players in enumerate((cls.min_players, cls.max_players) * 2):
        state, rng = game(name).new_game(players, seed=seed), random.Random(seed)
        for _ in range(60):
            if state.is_over:
                break
            seat = rng.choice(state.acting_seats)
            legal = state.legal_actions(seat)
            found.update(word for action in legal for word in str(action).split())
            state.apply(rng.choice(legal), player=seat)
    return tuple(sorted(found))


@functools.cache
def _midgame(name: str, players: int, seed: int, steps: int) -> GameState[Any]:
    """The state after `steps` random legal moves, or the last one before the game ends."""
    state, rng = game(name).new_game(players, seed=seed), random.Random(seed)
    for _ in range(steps):
        seat = rng.choice(state.acting_seats)
        after = state.clone()
        after.apply(rng.choice(state.legal_actions(seat)), player=seat)
        if after.is_over:
            break
        state = after
    return state


def midgame_states(name: str) -> st.SearchStrategy[GameState[Any]]:
    """A fresh copy of a state reached by random legal moves, where some seat is still to act."""
    cls = state_class(name)
    return st.builds(lambda players, seed, steps: _midgame(name, players, seed, steps).clone(),
                     st.integers(cls.min_players, cls.max_players), st.integers(0, 3), st.integers(0, 60))


# ------------------------------------------------------------------------------------------ values


def _huge(sign: int) -> int:
    """A whole number of 5,000 digits: more than Python will write as text (4,300)."""
    return sign * 10**5000


#: Built, not listed: hypothesis writes the values of `sampled_from`, and such a number cannot be written.
HUGE = st.builds(_huge, st.sampled_from([1, -1]))


def _long_texts() -> st.SearchStrategy[str]:
    return st.builds(lambda piece, times: piece * times, st.text(min_size=1, max_size=4), st.integers(100, 30_000))


SCALARS = st.one_of(
    st.booleans(), st.none(), st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-3, 12), st.integers(-(2**80), 2**80), st.sampled_from([2**63, -1, 0]), HUGE,
    st.text(max_size=12), _long_texts(), st.binary(max_size=8),
)
JUNK = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner), st.tuples(inner, inner), st.tuples(inner, inner, inner),
    st.dictionaries(st.text(max_size=4), inner, max_size=2)), max_leaves=6)


def plausible(hint: Any, words: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """Values of the right type, near the game's own (small numbers, notation words): some are legal."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return st.one_of([plausible(option, words) for option in typing.get_args(hint)])
    if hint is type(None) or hint is None:
        return st.none()
    if hint is int:
        return st.integers(-2, 12)
    if hint is bool:
        return st.booleans()
    if hint is str:
        return st.one_of(st.sampled_from(words), st.text(max_size=6))
    if origin is typing.Literal:
        return st.sampled_from(typing.get_args(hint))
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(plausible(args[0], words), max_size=4).map(tuple)
        return st.tuples(*(plausible(arg, words) for arg in args))
    return JUNK


def field_values(hint: Any, words: tuple[str, ...]) -> st.SearchStrategy[Any]:
    return st.one_of(JUNK, plausible(hint, words))


def texts(name: str) -> st.SearchStrategy[str]:
    """Texts a person (or a fuzzer) could type: random unicode, long runs, and the game's words remixed."""
    words = vocabulary(name)
    token = st.one_of(st.sampled_from(words), st.sampled_from(words).map(str.upper),
                      st.sampled_from(["", "-1", "+1", "00", "1_0", "٣", "1.5", "9" * 12, "9" * 5000, "nan", "∞",
                                       "none", "2x", "\x00", "\u200b", "é"]),
                      st.text(max_size=8))
    remix = st.builds(lambda parts, sep: sep.join(parts), st.lists(token, min_size=1, max_size=5),
                      st.sampled_from([" ", "  ", "\t", "\n", ",", ""]))
    return st.one_of(remix, remix, st.text(max_size=30), _long_texts())


# ------------------------------------------------------------------------------------------ oracles


def _echoes(message: str, inputs: list[str]) -> bool:
    """Whether the message repeats more than `ECHO` characters of any input text in a row."""
    for text in inputs:
        if len(text) > ECHO:
            for start in range(0, len(text) - ECHO):
                if text[start:start + ECHO + 1] in message:
                    return True
    return False


def _input_texts(value: Any, depth: int = 0) -> list[str]:
    """The texts inside a value (the ones a message could echo)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (bytes, bytearray)):
        return [value.decode("latin-1")]
    if depth < 6 and isinstance(value, (list, tuple, set, frozenset)):
        return [text for item in value for text in _input_texts(item, depth + 1)]
    if depth < 6 and isinstance(value, dict):
        return [text for pair in value.items() for text in _input_texts(pair, depth + 1)]
    return []


def _build(cls: type, values: dict[str, Any]) -> Action:
    """An action holding exactly `values`, as a buggy bot could make it (no constructor runs)."""
    action = cls.__new__(cls)
    for key, value in values.items():
        object.__setattr__(action, key, value)
    return action  # type: ignore[no-any-return]


def _equals_legal(action: Any, legal: list[Action]) -> bool:
    try:
        return any(type(other) is type(action) and other == action for other in legal)
    except Exception:  # noqa: BLE001 - a value that cannot even be compared is no legal action
        return False


def try_move(kind: str, name: str, state: GameState[Any], move: Any, player: Any, expected: bool | None,
             inputs: list[str]) -> None:
    """Apply `move` for `player` and note how it ended; `expected`: True must be accepted, False refused,
    None either (then an acceptance must be a legal move)."""
    before = state.fingerprint()
    events_before, history_before = len(state.events), len(state.history)
    case = (move, player)
    try:
        state.apply(move, player=player)
    except IllegalAction as error:
        message = str(error)
        cause = error.__cause__
        if expected is True:
            note(kind, name, WRONG, case, f"a legal move was refused: {message}")
        elif cause is not None and not isinstance(cause, IllegalAction):
            note(kind, name, "unclear: engine exception inside", case, f"{type(cause).__name__}: {_short(cause)}")
        elif not message.strip() or len(message) > MAX_MESSAGE or _echoes(message, inputs):
            note(kind, name, "unclear: message", case, _short(message))
        elif state.fingerprint() != before or len(state.events) != events_before:
            note(kind, name, WRONG, case, "refused, but the state changed")
        else:
            note(kind, name, CLEAR, case)
        return
    except Exception as error:  # noqa: BLE001 - any other exception is the finding
        note(kind, name, "unclear: not IllegalAction", case, f"{type(error).__name__}: {_short(error)}")
        return
    if expected is False:
        note(kind, name, WRONG, case, f"accepted as {state.history[-1]!r}")
    elif len(state.history) != history_before + 1:
        note(kind, name, WRONG, case, "accepted without being recorded")
    else:
        note(kind, name, ACCEPTED, case)


# ------------------------------------------------------------------------------------------ actions


@pytest.mark.parametrize("name", GAMES)
@budget("actions")
@given(data=st.data())
def test_fuzzed_action_values_are_refused_cleanly(name: str, data: st.DataObject) -> None:
    state = data.draw(midgame_states(name), label="state")
    words = vocabulary(name)
    for _ in range(data.draw(st.integers(1, 4), label="tries")):
        if state.is_over:
            break
        seat = data.draw(st.sampled_from(state.acting_seats), label="seat")
        cls = data.draw(st.sampled_from(action_classes(name)), label="class")
        values = {field: data.draw(field_values(hint, words), label=field) for field, hint in field_hints(cls)}
        typed = [fits(value, hint) for (field, hint), value in zip(field_hints(cls), values.values())]
        well_typed = False if False in typed else (None if None in typed else True)
        try:
            cls(**values)  # a constructor may check its fields, but only with IllegalAction
        except IllegalAction:
            pass
        except Exception as error:  # noqa: BLE001 - the finding
            note("actions", name, "unclear: constructor", (cls.__name__, values), type(error).__name__)
        action = _build(cls, values)
        legal = _equals_legal(action, state.legal_actions(seat))
        expected = (True if legal else False) if well_typed else (False if well_typed is False else None)
        if expected is None and not legal:
            expected = False
        try_move("actions", name, state, action, seat, expected, _input_texts(values))


@pytest.mark.parametrize("name", GAMES)
@budget("texts")
@given(data=st.data())
def test_fuzzed_texts_and_players_are_refused_cleanly(name: str, data: st.DataObject) -> None:
    state = data.draw(midgame_states(name), label="state")
    for _ in range(data.draw(st.integers(1, 4), label="tries")):
        if state.is_over:
            break
        seat = data.draw(st.sampled_from(state.acting_seats), label="seat")
        legal = state.legal_actions(seat)
        choice = data.draw(st.sampled_from(["text", "junk", "player"]), label="what")
        if choice == "player":  # a legal move of the seat, said for a wrong seat or for none at all
            player = data.draw(st.one_of(JUNK, st.integers(-2, 14)), label="player")
            move = str(data.draw(st.sampled_from(legal), label="move"))
            acting = state.acting_seats
            chosen = acting[0] if player is None and len(acting) == 1 else \
                player if type(player) is int and player in acting else None
            right = chosen is not None and move in {str(action) for action in state.legal_actions(chosen)}
            try_move("texts", name, state, move, player, right, _input_texts(player))
            continue
        move = data.draw(texts(name) if choice == "text" else JUNK, label="move")
        expected: bool = False
        if isinstance(move, str):
            try:
                parsed = state.parse_action(move)
            except IllegalAction:
                parsed = None
            except Exception as error:  # noqa: BLE001 - parse_action must refuse with IllegalAction only
                note("texts", name, "unclear: parse_action raised", move, f"{type(error).__name__}: {_short(error)}")
                continue
            expected = parsed is not None and _equals_legal(parsed, legal)
        try_move("texts", name, state, move, seat, expected, _input_texts(move))


# ------------------------------------------------------------------------------------------ rules


def rule_dicts(name: str) -> st.SearchStrategy[dict[Any, Any]]:
    """Option name -> value dicts: mostly the game's own options with plausible or junk values."""
    rules_class = state_class(name).rules_class
    hints = typing.get_type_hints(rules_class)
    options = [spec for spec in dataclasses.fields(rules_class)]

    def value_for(spec: dataclasses.Field[Any]) -> st.SearchStrategy[Any]:
        default = spec.default
        near: list[st.SearchStrategy[Any]] = [st.just(default), JUNK.map(_jsonish)]
        if type(default) is int:
            near.append(st.integers(default - 3, default + 3))
            near.append(st.sampled_from([0, -1, 10**9, 10**18, -(10**18)]))
        if spec.metadata.get("choices"):
            near.append(st.sampled_from(spec.metadata["choices"]))
        if isinstance(default, tuple):
            near.append(st.lists(st.integers(-2, 12), max_size=10))
            near.append(st.just(list(default)))
        near.append(plausible(hints.get(spec.name, Any), ("x", "")).map(_jsonish))
        return st.one_of(near)

    known = st.sampled_from(options).flatmap(lambda spec: st.tuples(st.just(spec.name), value_for(spec)))
    unknown = st.tuples(st.one_of(st.text(max_size=8), st.integers()), JUNK)
    return st.lists(st.one_of(known, known, known, unknown), max_size=6).map(dict)


def _jsonish(value: Any) -> Any:
    """What a record can hold: JSON turns tuples into lists, and has no bytes."""
    if isinstance(value, (tuple, list)):
        return [_jsonish(item) for item in value]
    if isinstance(value, dict):
        return {key: _jsonish(item) for key, item in value.items()}
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return value


def _dumps(record: Any) -> str | None:
    """The JSON text of a (damaged) record, or None when it holds what JSON cannot write (a 5,000-digit number)."""
    try:
        return json.dumps(record)
    except (ValueError, TypeError):
        return None


@pytest.mark.parametrize("name", GAMES)
@budget("rules")
@given(data=st.data())
def test_fuzzed_rules_make_playable_games_or_a_rules_error(name: str, data: st.DataObject) -> None:
    cls = state_class(name)
    options = data.draw(rule_dicts(name), label="rules")
    try:
        rules = rules_from_dict(cls.rules_class, options)
    except RulesError as error:
        message = str(error)
        outcome = CLEAR if message and len(message) <= MAX_MESSAGE and not _echoes(message, _input_texts(options)) \
            else "unclear: message"
        note("rules", name, outcome, options, message)
        return
    except Exception as error:  # noqa: BLE001 - the finding
        note("rules", name, "unclear: not RulesError", options, f"{type(error).__name__}: {_short(error)}")
        return
    players = data.draw(st.integers(cls.min_players, cls.max_players), label="players")
    try:
        state = game(name).new_game(players, seed=data.draw(st.integers(0, 99), label="seed"), rules=rules)
    except RulesError:
        note("rules", name, "refused for this table size", options)
        return
    except Exception as error:  # noqa: BLE001 - the finding
        note("rules", name, "unclear: new_game", (options, players), f"{type(error).__name__}: {_short(error)}")
        return
    rng = random.Random(data.draw(st.integers(0, 99), label="moves"))
    try:
        for _ in range(12):
            if state.is_over:
                break
            seat = rng.choice(state.acting_seats)
            legal = state.legal_actions(seat)
            assert legal, f"seat {seat} is to act but has no legal action"
            state.apply(rng.choice(legal), player=seat)
        replay = tabletop_edu.load(json.loads(state.to_json()))
        assert replay.fingerprint() == state.fingerprint(), "the record does not replay the same game"
        assert state.max_steps < 100_000, f"max_steps {state.max_steps}: the options are not bounded"
    except Exception as error:  # noqa: BLE001 - the finding
        note("rules", name, WRONG, (options, players), f"{type(error).__name__}: {_short(error)}")
        return
    note("rules", name, "made a playable game", options)


# ------------------------------------------------------------------------------------------ records


@functools.cache
def base_records(name: str) -> tuple[str, ...]:
    """Real records (JSON) of the game: one mid-game and one finished, at the smallest and largest tables."""
    cls = state_class(name)
    found = []
    for seed, players in enumerate((cls.min_players, cls.max_players)):
        state, rng = game(name).new_game(players, seed=seed), random.Random(seed)
        while not state.is_over and len(state.history) < 400:
            seat = rng.choice(state.acting_seats)
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
            if len(state.history) == 15:
                found.append(state.to_json())
        found.append(state.to_json())
    return tuple(found)


KEYS = ("format", "game", "players", "seed", "rules", "actions")
OTHER_GAMES = ["tabletop_edu.chess", "tabletop_edu", "tabletop_edu.core", "os", "tabletop_edu.commissario.engine",
               "tabletop_edu.tournament", "TABLETOP_EDU.COMMISSARIO", "", "tabletop_edu..x", *GAMES]


def corruptions(name: str) -> st.SearchStrategy[Callable[[dict[str, Any]], Any]]:
    """Functions that damage a record dict (some return the final JSON text or another value instead)."""

    def drop(key: str) -> Callable[[dict[str, Any]], Any]:
        return lambda record: {k: v for k, v in record.items() if k != key}

    def rename(key: str, new: str) -> Callable[[dict[str, Any]], Any]:
        return lambda record: {(new if k == key else k): v for k, v in record.items()}

    def put(key: str, value: Any) -> Callable[[dict[str, Any]], Any]:
        return lambda record: {**record, key: value}

    def on_actions(change: Callable[[list[Any]], Any]) -> Callable[[dict[str, Any]], Any]:
        return lambda record: {**record, "actions": change(list(record["actions"]))}

    def alter_step(index: int, entry: Any) -> Callable[[dict[str, Any]], Any]:
        def change(actions: list[Any]) -> list[Any]:
            if actions:
                actions[index % len(actions)] = entry
            return actions
        return on_actions(change)

    def swap(i: int, j: int) -> Callable[[dict[str, Any]], Any]:
        def change(actions: list[Any]) -> list[Any]:
            if actions:
                i2, j2 = i % len(actions), j % len(actions)
                actions[i2], actions[j2] = actions[j2], actions[i2]
            return actions
        return on_actions(change)

    def text_cut(fraction: float) -> Callable[[dict[str, Any]], Any]:
        def change(record: dict[str, Any]) -> Any:
            text = _dumps(record)
            return record if text is None else text[:int(len(text) * fraction)]
        return change

    def text_replace(pattern: str, new: str) -> Callable[[dict[str, Any]], Any]:
        def change(record: dict[str, Any]) -> Any:
            text = _dumps(record)
            return record if text is None else re.sub(pattern, lambda _: new, text, count=1)
        return change

    words = vocabulary(name)
    entry = st.one_of(JUNK, st.tuples(st.integers(-1, 13), st.sampled_from(words)).map(list),
                      st.tuples(JUNK, st.text(max_size=10)).map(list))
    return st.one_of(
        st.sampled_from(KEYS).map(drop),
        st.builds(rename, st.sampled_from(KEYS), st.text(max_size=8)),
        st.builds(put, st.text(max_size=8), JUNK.map(_jsonish)),
        st.builds(put, st.sampled_from(KEYS), JUNK.map(_jsonish)),
        st.builds(put, st.just("format"), st.one_of(st.sampled_from([0, 2, 999, -1, "1", 1.0, True, None]), HUGE)),
        st.builds(put, st.just("game"), st.sampled_from(OTHER_GAMES)),
        st.builds(put, st.just("players"), st.one_of(JUNK.map(_jsonish), st.lists(st.text(max_size=3), max_size=14))),
        st.builds(put, st.just("seed"), st.one_of(st.sampled_from([-1, 1.5, "7", None, True, 2**64, [1]]), HUGE)),
        st.builds(put, st.just("rules"), rule_dicts(name)),
        st.integers(0, 400).map(lambda n: on_actions(lambda actions: actions[:n])),
        st.builds(alter_step, st.integers(0, 400), entry),
        st.builds(swap, st.integers(0, 400), st.integers(0, 400)),
        st.integers(0, 400).map(lambda n: on_actions(lambda actions: actions[:n] + actions[n + 1:])),
        entry.map(lambda extra: on_actions(lambda actions: actions + [extra])),
        st.floats(0, 1).map(text_cut),
        st.builds(text_replace, st.sampled_from([r'"seed": \d+', r"\d+", r"\]", r'"', r"\{"]),
                  st.sampled_from(['"seed": ' + "9" * 5000, "NaN", "Infinity", "1e999", "[" * 100_000, "",
                                   "\\ud800", "-0", "{}"])),
        st.just(lambda record: "[" * 100_000 + "]" * 100_000),
        st.just(lambda record: (_dumps(record) or "").encode("utf-16")),
        st.just(lambda record: [record]),
        st.just(lambda record: None),
    )


@pytest.mark.parametrize("name", GAMES)
@budget("records")
@given(data=st.data())
def test_fuzzed_records_load_legally_or_name_what_is_wrong(name: str, data: st.DataObject) -> None:
    record: Any = json.loads(data.draw(st.sampled_from(base_records(name)), label="record"))
    for _ in range(data.draw(st.integers(1, 3), label="damages")):
        if not isinstance(record, dict):
            break
        record = data.draw(corruptions(name), label="damage")(record)
    as_text = data.draw(st.booleans(), label="as text") and isinstance(record, dict)
    source: Any = (_dumps(record) or record) if as_text else record
    try:
        state = tabletop_edu.load(source)
    except RecordError as error:
        message = str(error)
        if not message or len(message) > MAX_MESSAGE or _echoes(message, _input_texts(record)):
            note("records", name, "unclear: message", record, message)
        elif not re.search(r"(?i)\b(format|game|players?|seed|rules?|actions|step \d+|json|field|record has)\b",
                           message):
            note("records", name, "unclear: names no field or step", record, message)
        else:
            note("records", name, "RecordError naming the field or step", record)
        return
    except Exception as error:  # noqa: BLE001 - the finding
        note("records", name, "unclear: not RecordError", record, f"{type(error).__name__}: {_short(error)}")
        return
    try:
        written = record if isinstance(record, dict) else json.loads(record)  # JSON text, in any encoding
        assert len(state.history) == len(written["actions"]), "some actions were not replayed"
        for seat in state.acting_seats:
            assert state.legal_actions(seat), f"seat {seat} is to act but has no legal action"
        assert tabletop_edu.load(state.to_json()).fingerprint() == state.fingerprint(), "its record does not replay"
    except Exception as error:  # noqa: BLE001 - the finding
        note("records", name, WRONG, record, f"loaded, but {type(error).__name__}: {_short(error)}")
        return
    note("records", name, LOADED, record)


# ------------------------------------------------------------------------------------------ summary


def summary() -> str:
    """How the cases ended, per kind and game (the figures the closing note of issue 10 quotes)."""
    lines = []
    for kind in EXAMPLES:
        for name in GAMES:
            outcomes = {outcome: count for (k, g, outcome), count in sorted(TALLY.items()) if k == kind and g == name}
            if outcomes:
                total = sum(outcomes.values())
                parts = ", ".join(f"{count} {outcome}" for outcome, count in outcomes.items())
                lines.append(f"{kind:8} {name:28} {total:5} cases: {parts}")
    return "\n".join(lines)


@pytest.fixture(scope="module", autouse=True)
def _print_summary() -> Iterator[None]:
    yield
    print("\nFuzz summary (tests/core/test_fuzz.py):\n" + summary())
