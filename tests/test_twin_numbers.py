"""Every number twice-checked: an English tutorial and its French twin print and say the same numbers.

The twins are the README's tutorial table (`folder/name` and, in brackets, its twin in the same folder). From each
notebook the numbers of its prose (markdown cells) and of its stored text outputs (plain text and streams, not
HTML, whose styles are full of numbers) are taken as a multiset, written the way their language writes them:
English "36,216" and "0.127", French "36 216" (a thin, narrow, no-break or plain space) and "0,127". Signs are
left out (a minus may be "-" or "−"). A number one twin has and the other has not is a translation that dropped,
added or changed it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"

#: Thousands: English writes a comma between groups of three digits, French a space (thin, narrow, no-break or
#: plain; LaTeX's `\,` or `~` inside formulas).
THOUSANDS = {"en": re.compile(r"(?<=\d),(?=\d{3}(?!\d))"),
             "fr": re.compile(r"(?<=\d)(?:[\u202f\u2009\u00a0 ~]|\\,)(?=\d{3}(?![\d,]))")}
#: A decimal mark between two digits: a comma in French (LaTeX's `{,}` in formulas); Python's outputs print points.
DECIMAL_COMMA = re.compile(r"(?<=\d)(?:,|\{,\})(?=\d)")
#: A number standing alone: digits glued to a letter or an underscore are part of a name (`02_game_theory`, the
#: 2x card, R2.2, log2), which each language writes its own way.
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?!\w)")
#: Twins whose numbers differ for a reason, not a slip of translation: the numbers only the English has, those
#: only the French has (exactly, so a new difference still fails), and why.
WORDED_APART: dict[str, tuple[dict[str, int], dict[str, int], str]] = {
    "mafia_de_cuba/01_play.ipynb": (
        {"0": 3, "12": 1}, {"1": 2, "2": 1},
        "the English log is the engine's own text (`event.text`: '0 diamond(s)', '0 joker(s)', 'tokens: loyal, "
        "loyal, fbi, driver', 'a thief: 12 diamond(s) back'), the French one the game's words (`event_text`: "
        "'aucun diamant', 'aucun joker', '2 Fidèles, 1 Agent du FBI, 1 Chauffeur', 'Voleur démasqué')"),
    "mafia_de_cuba/02_who_knows_what.ipynb": (
        {"0": 1, "3": 1}, {"1": 3},
        "the English log is the engine's own text ('0 joker(s)', 'tokens: loyal, fbi, driver', 'a thief: 3 "
        "diamond(s) back'), the French one the game's words ('aucun joker', '1 Fidèle, 1 Agent du FBI, "
        "1 Chauffeur', 'Voleur démasqué')"),
    "mafia_de_cuba/03_godfather_inference.ipynb": (
        {}, {"1": 1},
        "the game's French words count the tokens ('1 Fidèle, 1 Agent du FBI') where the engine's English lists "
        "them ('loyal, fbi'), and say 'Voleur démasqué' where the engine says 'a thief: 1 diamond(s) back'"),
}


def twins(readme: str) -> list[tuple[Path, Path]]:
    """(English, French) notebook pairs from the README's tutorial table; rows with `<game>` name no twin."""
    pairs = []
    for line in readme.splitlines():
        if not line.startswith("| `"):
            continue
        first_column = line.split(" | ")[0]
        named = re.findall(r"`([^`]+)`", first_column)
        if len(named) != 2 or "<game>" in first_column:
            continue
        english, french = named
        folder = english.rpartition("/")[0]
        paths = [NOTEBOOKS / "/".join(filter(None, [folder, name.rpartition("/")[2].removesuffix(".ipynb")
                                                     + ".ipynb"])) for name in (english, french)]
        pairs.append((paths[0], paths[1]))
    return pairs


def texts(path: Path) -> list[str]:
    """The prose and the stored text outputs of a notebook: what a reader reads is what must agree."""
    found = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "markdown":
            found.append(_joined(cell["source"]))
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                found.append(_joined(output["text"]))
            elif "text/plain" in output.get("data", {}) and not _picture(output["data"]):
                found.append(_joined(output["data"]["text/plain"]))
    return found


def _joined(text: str | list[str]) -> str:
    return text if isinstance(text, str) else "".join(text)


def _picture(data: dict[str, Any]) -> bool:
    """The text stand-in of a picture, a widget or an HTML table (`<Figure size 800x500 ...>`,
    `<TournamentResult ...>`) is read by nobody: JupyterLab shows the richer form."""
    return any(kind.startswith(("image/", "application/vnd.jupyter.widget", "text/html")) for kind in data)


def numbers(text: str, language: str) -> Counter[str]:
    """The numbers of `text` as written in `language`, each in one canonical form (0.50 and 0.5 alike)."""
    text = THOUSANDS[language].sub("", text)
    if language == "fr":
        text = DECIMAL_COMMA.sub(".", text)
    found: Counter[str] = Counter()
    for match in NUMBER.finditer(text):
        try:
            value = Decimal(match.group())
        except InvalidOperation:
            continue
        found[format(value.normalize(), "f")] += 1
    return found


def difference(english: Path, french: Path) -> tuple[Counter[str], Counter[str]]:
    """The numbers only the English twin has, and those only the French one has (with their counts)."""
    ours = sum((numbers(text, "en") for text in texts(english)), Counter())
    theirs = sum((numbers(text, "fr") for text in texts(french)), Counter())
    return ours - theirs, theirs - ours


PAIRS = twins((NOTEBOOKS.parent / "README.md").read_text(encoding="utf-8"))


def _name(path: Path) -> str:
    return path.relative_to(NOTEBOOKS).as_posix()


def test_the_readme_pairs_every_twin() -> None:
    assert len(PAIRS) >= 14 and all(english.exists() and french.exists() for english, french in PAIRS)
    assert (NOTEBOOKS / "tournaments.ipynb", NOTEBOOKS / "tournois.ipynb") in PAIRS
    assert set(WORDED_APART) <= {_name(english) for english, _ in PAIRS}


def test_numbers_are_read_the_way_each_language_writes_them() -> None:
    assert numbers("36,216 histories, 0.127 and 1,5", "en") == Counter({"36216": 1, "0.127": 1, "1": 1, "5": 1})
    assert numbers("36\u202f216 histoires, 0,127 et 1, 5", "fr") == Counter({"36216": 1, "0.127": 1, "1": 1, "5": 1})
    assert numbers("0.50 then 0.5 and −2, not 02_game_theory nor the 2x card", "en") == Counter({"0.5": 2, "2": 1})
    assert numbers("$\\log_2 3 \\approx 1{,}585$ et 20 000 mises", "fr") == Counter({"3": 1, "1.585": 1, "20000": 1})


@pytest.mark.parametrize("english, french", PAIRS, ids=[_name(english) for english, _ in PAIRS])
def test_a_tutorial_and_its_twin_give_the_same_numbers(english: Path, french: Path) -> None:
    only_english, only_french = difference(english, french)
    allowed_english, allowed_french, _ = WORDED_APART.get(_name(english), ({}, {}, ""))
    assert (only_english, only_french) == (Counter(allowed_english), Counter(allowed_french)), (
        f"{_name(english)} and {french.name} differ: only in English {dict(sorted(only_english.items()))}, "
        f"only in French {dict(sorted(only_french.items()))}")


def test_what_a_reader_does_not_see_is_not_read_and_every_exception_says_why() -> None:
    assert _picture({"text/html": "<table>", "text/plain": "<TournamentResult commissario: 12 games>"})
    assert not _picture({"text/plain": "{'smart heroes': 0.35}"})
    assert all(reason.strip() and (english or french) for english, french, reason in WORDED_APART.values())
