"""Every refusal reads in the page's language (issue 45): its key has English and French words, a French refusal
is French through and through, and the English message is the one tests and notebooks always read.

Two ways to find the keys: the package's source, read with `ast` (every `IllegalAction.because` and `Term` with
a written key), and play: seeded random games of each game try menus of other moments, other seats and mutated
texts, and every refusal met is checked in French.
"""

from __future__ import annotations

import ast
import collections
import pickle
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tabletop_edu
from tabletop_edu import commissario, get_adler, mafia_de_cuba
from tabletop_edu.core import GameState, IllegalAction, Term
from tabletop_edu.examples import peek
from tabletop_edu.i18n import LANGUAGES, tr, words_of

PACKAGE = Path(tabletop_edu.__file__).parent
#: The packages whose every refusal has a key (a teacher's own game, like `examples.peek`, may raise plain text).
KEYED = ("core", "commissario", "get_adler", "mafia_de_cuba")


def _calls(folder: str) -> Iterator[tuple[str, ast.Call]]:
    for path in sorted((PACKAGE / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                yield f"{path.relative_to(PACKAGE)}:{node.lineno}", node


def _is_because(call: ast.Call) -> bool:
    return (isinstance(call.func, ast.Attribute) and call.func.attr == "because"
            and isinstance(call.func.value, ast.Name) and call.func.value.id == "IllegalAction")


def _is_term(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id == "Term"


def written_keys() -> dict[str, list[str]]:
    """Every key written whole in a refusal or a term of the keyed packages -> where."""
    found = collections.defaultdict(list)
    for folder in KEYED:
        for where, call in _calls(folder):
            if (_is_because(call) or _is_term(call)) and call.args and isinstance(call.args[0], ast.Constant):
                found[call.args[0].value].append(where)
    return dict(found)


def built_key_prefixes() -> dict[str, list[str]]:
    """The constant start of every term key built at run time (`Term(f"cm_{colour}")`) -> where."""
    found = collections.defaultdict(list)
    for folder in KEYED:
        for where, call in _calls(folder):
            if _is_term(call) and call.args and isinstance(call.args[0], ast.JoinedStr):
                first = call.args[0].values[0]
                assert isinstance(first, ast.Constant), where
                found[first.value].append(where)
    return dict(found)


def test_the_reader_finds_refusals_and_terms() -> None:
    keys = written_keys()
    assert {"refused.game_over", "cm_refused_reveal_now", "adler.refused.need", "mdc_refused_cleaner_only",
            "cm_what_colour", "refused.a_seat"} <= set(keys)
    assert {"cm_", "cm_now_", "adler.refused.card.", "mdc_token."} <= set(built_key_prefixes())


def test_every_refusal_of_the_core_and_the_games_has_a_key() -> None:
    plain = [where for folder in KEYED for where, call in _calls(folder)
             if isinstance(call.func, ast.Name) and call.func.id == "IllegalAction"]
    assert plain == []


def test_every_key_has_english_and_french_words() -> None:
    missing = [f"{key} ({language}) at {places[0]}" for key, places in written_keys().items()
               for language in LANGUAGES if key not in words_of(language)]
    assert missing == []


def test_every_refusal_sentence_is_translated() -> None:
    """A sentence left the same in French is a sentence left in English."""
    sentences = {key for folder in KEYED for _, call in _calls(folder) if _is_because(call)
                 for key in [call.args[0].value]}
    assert len(sentences) > 80
    assert [key for key in sorted(sentences) if tr(key, "fr") == tr(key, "en")] == []


def test_every_family_of_built_keys_has_french_words() -> None:
    """Keys built at run time (a colour, a phase, a card, a token): every English word of the family has its
    French one, and the family is not empty."""
    for prefix, places in built_key_prefixes().items():
        family = [key for key in words_of("en") if key.startswith(prefix)]
        assert family, f"no word starts with {prefix!r} ({places[0]})"
        assert [key for key in family if key not in words_of("fr")] == [], prefix


# ------------------------------------------------------------------------------------------ by playing


def _mutations(text: str) -> list[str]:
    """Texts one step away from a legal one: a word replaced, dropped or added."""
    parts = text.split()
    found = [f"{text} extra", " ".join(parts[:-1]), f"fly {text}", "", "   "]
    for index in range(len(parts)):
        for word in ("99", "-1", "x", "0", "none", "2x", "red+9", "red-x", "fbi", "nothing"):
            found.append(" ".join([*parts[:index], word, *parts[index + 1:]]))
    return found


def refusals_met(state_class: type[GameState[Any]], players: int, seed: int, tries: int = 12) -> list[IllegalAction]:
    """Play a seeded random game; at each step try moves of other moments, for other seats, and mutated ones."""
    rng = random.Random(seed)
    state = state_class([f"P{seat}" for seat in range(players)], seed=seed)
    texts: set[str] = set()
    met = []
    while not state.is_over:
        acting = state.acting_seats
        for seat in acting:
            texts.update(str(action) for action in state.legal_actions(seat))
        pool = sorted(texts)
        candidates = rng.sample(pool, min(tries, len(pool))) + rng.sample(_mutations(rng.choice(pool)), 4)
        for text in candidates:
            for seat in (rng.choice(acting), rng.randrange(players)):
                try:
                    state.check(text, player=seat)
                except IllegalAction as refusal:
                    met.append(refusal)
        seat = rng.choice(acting)
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    return met


def _terms(value: Any) -> Iterator[Term]:
    if isinstance(value, Term):
        yield value
        for slot in value.slots.values():
            yield from _terms(slot)
    elif isinstance(value, tuple):
        for item in value:
            yield from _terms(item)


@pytest.mark.parametrize(("state_class", "players", "own"), [
    (commissario.State, 4, "cm_refused_"), (get_adler.State, 5, "adler.refused."),
    (mafia_de_cuba.State, 7, "mdc_refused_")], ids=["commissario", "get_adler", "mafia_de_cuba"])
def test_every_refusal_met_in_play_reads_in_french(state_class: type[GameState[Any]], players: int,
                                                   own: str) -> None:
    kinds: collections.Counter[str] = collections.Counter()
    for seed in range(3):
        for refusal in refusals_met(state_class, players, seed):
            assert refusal.key is not None, str(refusal)
            kinds[refusal.key] += 1
            french = refusal.words("fr")
            assert french != str(refusal) and "{" not in french, (refusal.key, french)
            assert refusal.words("en") == str(refusal)
            left = [term.key for value in refusal.values.values() for term in _terms(value)
                    if term.key not in words_of("fr")]
            assert left == [], (refusal.key, left)
    assert len([key for key in kinds if key.startswith(own)]) >= 7, sorted(kinds)
    assert {"refused.not_turn", "refused.not_a_number", "refused.arity"} <= set(kinds)


# ------------------------------------------------------------------------------------------ a few sentences


def test_a_refusal_names_game_terms_in_the_readers_words() -> None:
    game = commissario.new_game(["Ann", "Ben"], seed=1)
    with pytest.raises(IllegalAction) as refused:
        game.check("reveal red", player=0)
    assert str(refused.value) == "Commissaires are revealed after everyone picked; now is the release step."
    assert refused.value.words("fr") == ("Les commissaires sont révélés une fois que tout le monde a choisi ; "
                                         "l'étape en cours : libérations.")
    with pytest.raises(IllegalAction) as refused:
        game.check("pick purple purple", player=0)
    assert "mauve" in refused.value.words("fr") and "'pick purple 2x'" in refused.value.words("fr")
    assert str(refused.value) == ("You have only one purple commissaire: to arrest twice in purple, write "
                                  "'pick purple 2x' (your 2x card).")


@pytest.mark.parametrize(("refusal", "english"), [
    (IllegalAction.because("adler.refused.arrest_hours", first=4, last=6, hour=2),
     "Arrests are allowed from hour 4 to hour 6: it is hour 2."),
    (IllegalAction.because("mdc_refused_saw_tokens", count=1, token=Term("mdc_token.fbi")),
     "This game has only 1 fbi token(s)."),
    (IllegalAction.because("adler.refused.skip_only", why=Term("adler.refused.skip.stunned")),
     "You are stunned by the bomb this turn: you can only 'skip'."),
    (IllegalAction.because("cm_refused_release_unheld", card=Term("cm_card", colour=Term("cm_red"), value=-3)),
     "You cannot release red-3: you do not hold it. You can only release a character you arrested."),
    (IllegalAction.because("refused.not_a_choice", word="'pink'", what=Term("cm_what_colour"),
                           choices=("red", "blue")), "'pink' is not a colour: choose one of red, blue."),
], ids=["hours", "tokens", "skip", "card", "choice"])
def test_the_english_message_is_the_sentence_it_always_was(refusal: IllegalAction, english: str) -> None:
    assert str(refusal) == english and refusal.words("en") == english
    assert refusal.words("fr") != english


def test_the_cores_refusals_of_turns_and_texts_keep_their_english() -> None:
    game = peek.new_game(["Ana", "Ben", "Chloé"], seed=1)
    with pytest.raises(IllegalAction, match=r"^It is not Ben's turn: waiting for Ana \(seat 0\)\.$") as refused:
        game.check("pass", player=1)
    assert refused.value.words("fr") == "Ce n'est pas le tour de Ben : on attend Ana (place 0)."
    with pytest.raises(IllegalAction, match=r"^'x' is not a number \(a seat expected\)\.$"):
        game.check("peek x")
    with pytest.raises(IllegalAction) as refused:
        mafia_de_cuba.new_game(7, seed=1).check("ask x seen")
    assert refused.value.words("fr") == "'x' n'est pas un nombre (on attend une place)."


def test_several_seats_waited_for_are_worded_as_alternatives() -> None:
    waiting = Term("refused.or", first=Term("refused.seat_named", name="Ana", seat=0),
                   second=Term("refused.seat_named", name="Ben", seat=1))
    refusal = IllegalAction.because("refused.not_turn", name="Chloé", waiting=waiting)
    assert str(refusal) == "It is not Chloé's turn: waiting for Ana (seat 0) or Ben (seat 1)."
    assert refusal.words("fr") == "Ce n'est pas le tour de Chloé : on attend Ana (place 0) ou Ben (place 1)."


def test_a_plain_text_refusal_of_a_users_game_reads_as_it_is() -> None:
    refusal = IllegalAction("Pas maintenant : écrivez 'write N'.")
    assert refusal.key is None and refusal.words("fr") == refusal.words("en") == str(refusal)
    with pytest.raises(IllegalAction) as refused:
        peek.new_game(["Ana", "Ben"], seed=1).check("guess 1 42")
    assert refused.value.words("fr") == "Cards go from 1 to 6, not 42."


def test_a_refusal_keeps_its_words_through_a_pickle_and_stays_short() -> None:
    refusal = IllegalAction.because("mdc_refused_take_no_token", token=Term("mdc_token.cleaner"))
    again = pickle.loads(pickle.dumps(refusal))
    assert (str(again), again.key, again.words("fr")) == (str(refusal), refusal.key,
                                                         "Il n'y a pas de jeton Nettoyeur dans la boîte.")
    long = IllegalAction.because("mdc_refused_eliminated", name="N" * 1000)
    assert len(str(long)) <= 400 and len(long.words("fr")) <= 400


def test_an_unknown_key_keeps_the_key_as_its_message() -> None:
    refusal = IllegalAction.because("no.such.key", value=3)
    assert str(refusal) == "no.such.key" and refusal.words("fr") == "no.such.key"


def test_french_elides_de_before_a_name_that_starts_with_a_vowel() -> None:
    waiting = Term("refused.seat_named", name="Ben", seat=1)
    words = {name: IllegalAction.because("refused.not_turn", name=name, waiting=waiting).words("fr")
             for name in ("Ana", "Émile", "Hugo", "Ben")}
    assert words == {"Ana": "Ce n'est pas le tour d'Ana : on attend Ben (place 1).",
                     "Émile": "Ce n'est pas le tour d'Émile : on attend Ben (place 1).",
                     "Hugo": "Ce n'est pas le tour de Hugo : on attend Ben (place 1).",
                     "Ben": "Ce n'est pas le tour de Ben : on attend Ben (place 1)."}
    assert str(IllegalAction.because("refused.not_turn", name="Ana", waiting=waiting)) == \
        "It is not Ana's turn: waiting for Ben (seat 1)."
