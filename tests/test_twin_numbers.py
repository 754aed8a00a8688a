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
#: Twins whose numbers differ today, with what differs (strict: once they agree, remove them from here).
KNOWN_DIFFERENCES: dict[str, str] = {
    "commissario/01_play.ipynb": "01_jouer says 0 three times more in cell 6 and splits cells 9-16 otherwise",
    "get_adler/01_play.ipynb": "01_jouer drops the 20-game comparison and its intervals",
    "mafia_de_cuba/01_play.ipynb": "01_jouer drops a section (the taker's table and its numbers)",
    "commissario/03_order_auction.ipynb": "cell 39: 03_enchere_d_ordre says 2 twice more",
    "get_adler/02_deduction.ipynb": "cell 10: 02_deduction prints moves as 'arrest 3', 02_raisonner as 'arrête David'",
    "mafia_de_cuba/02_who_knows_what.ipynb": "02_qui_sait_quoi prints its table header and the jokers in words",
    "mafia_de_cuba/03_godfather_inference.ipynb": "a 0 in English is a 1 in French (one sentence or output)",
    "mafia_de_cuba/04_series.ipynb": "04_serie lacks an output or a sentence with 2 to 6",
    "tournaments.ipynb": "tournois lacks numbers of the English text (12, 32, 80, 95 among them)",
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
    """A picture's or a widget's text stand-in (`<Figure size 800x500 ...>`) is read by nobody."""
    return any(kind.startswith(("image/", "application/vnd.jupyter.widget")) for kind in data)


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
    assert set(KNOWN_DIFFERENCES) <= {_name(english) for english, _ in PAIRS}


def test_numbers_are_read_the_way_each_language_writes_them() -> None:
    assert numbers("36,216 histories, 0.127 and 1,5", "en") == Counter({"36216": 1, "0.127": 1, "1": 1, "5": 1})
    assert numbers("36\u202f216 histoires, 0,127 et 1, 5", "fr") == Counter({"36216": 1, "0.127": 1, "1": 1, "5": 1})
    assert numbers("0.50 then 0.5 and −2, not 02_game_theory nor the 2x card", "en") == Counter({"0.5": 2, "2": 1})
    assert numbers("$\\log_2 3 \\approx 1{,}585$ et 20 000 mises", "fr") == Counter({"3": 1, "1.585": 1, "20000": 1})


@pytest.mark.parametrize("english, french", [
    pytest.param(english, french, marks=pytest.mark.xfail(reason=KNOWN_DIFFERENCES[_name(english)], strict=True))
    if _name(english) in KNOWN_DIFFERENCES else (english, french) for english, french in PAIRS],
    ids=[_name(english) for english, _ in PAIRS])
def test_a_tutorial_and_its_twin_give_the_same_numbers(english: Path, french: Path) -> None:
    only_english, only_french = difference(english, french)
    assert not only_english and not only_french, (
        f"{_name(english)} and {french.name} differ: only in English {dict(sorted(only_english.items()))}, "
        f"only in French {dict(sorted(only_french.items()))}")
