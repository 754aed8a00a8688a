"""The tutorials' exercise checker: what it says in each case, in both languages, and that every tutorial uses it."""

from __future__ import annotations

import doctest
import json
import re
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

from tabletop_edu import exercises
from tabletop_edu.exercises import check, feedback, is_right

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"

UNANSWERED = {"en": "Write your answer in place of ... and run the cell again.",
              "fr": "Écrivez votre réponse à la place de ... et relancez la cellule."}
RIGHT = {"en": "Right!", "fr": "Juste !"}
WRONG = {"en": "Not quite: {} is not it. Try again, or open the answer below.",
         "fr": "Pas tout à fait : {} n'est pas la bonne réponse. Réessayez, ou ouvrez la réponse plus bas."}


# ------------------------------------------------------------------------------------------ the sentences


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_three_sentences_in_each_language(language: str, capsys: pytest.CaptureFixture[str]) -> None:
    check(..., 4, "why", language=language)
    check(4, 4, "Ben saw four deals.", language=language)
    check(4, 4, language=language)
    check(3, 4, "why", language=language)
    assert capsys.readouterr().out.splitlines() == [
        UNANSWERED[language], f"{RIGHT[language]} Ben saw four deals.", RIGHT[language], WRONG[language].format(3)]


def test_english_is_the_default_and_an_unknown_language_is_refused() -> None:
    assert feedback(..., 1) == UNANSWERED["en"]
    with pytest.raises(ValueError, match="'de' is not available"):
        feedback(..., 1, language="de")


def test_a_wrong_answer_is_quoted_back_as_typed_and_a_number_as_it_reads() -> None:
    assert feedback("Ana", "Ben") == WRONG["en"].format("'Ana'")
    assert feedback([0, 2], [0]) == WRONG["en"].format("[0, 2]")
    assert feedback(Fraction(1, 3), Fraction(9, 11), tolerance=1e-9) == WRONG["en"].format("1/3")
    assert feedback(0.25, 0.5, language="fr") == WRONG["fr"].format("0.25")


def test_the_reason_is_given_for_a_right_answer_only() -> None:
    assert feedback(0, 0, "5 - 5 = 0.") == "Right! 5 - 5 = 0."
    assert "5 - 5" not in feedback(1, 0, "5 - 5 = 0.")


# ------------------------------------------------------------------------------------------ what counts as right


def test_without_a_tolerance_answers_are_compared_exactly() -> None:
    assert is_right(4, 4) and is_right("Ana", "Ana") and is_right(True, True) and is_right([0, 1], [0, 1])
    assert not is_right(0.3333, 1 / 3) and not is_right("ana", "Ana") and not is_right([1, 0], [0, 1])


@pytest.mark.parametrize("tolerance, near, far", [
    (1e-9, 9 / 11 + 1e-10, 9 / 11 + 1e-8),
    (1e-6, 9 / 11 + 1e-7, 9 / 11 + 1e-5),
    (1e-3, 0.818, 0.817),
    (0.0005, 0.8185, 0.8175),
    (0.051, 0.86, 0.76),
])
def test_numbers_are_right_within_the_tolerance_and_wrong_outside(tolerance: float, near: float, far: float) -> None:
    assert is_right(near, 9 / 11, tolerance=tolerance)
    assert not is_right(far, 9 / 11, tolerance=tolerance)


def test_a_fraction_is_a_number_on_either_side() -> None:
    assert is_right(Fraction(9, 11), 9 / 11, tolerance=1e-9) and is_right(0.8182, Fraction(9, 11), tolerance=1e-3)
    assert is_right(Fraction(9, 11), Fraction(9, 11)) and not is_right(Fraction(9, 11), Fraction(9, 12), tolerance=1e-3)


def test_with_a_tolerance_what_is_not_a_number_is_still_compared_exactly() -> None:
    assert is_right("Ana", "Ana", tolerance=1e-6) and not is_right("Ana", "Ben", tolerance=1e-6)
    assert not is_right("0.5", 0.5, tolerance=1e-6)
    assert not is_right(True, 1.0004, tolerance=1e-3)  # a yes is not a quantity
    assert is_right(3, 3, tolerance=1e-3) and not is_right(2, 3, tolerance=0.5)


def test_numpy_numbers_are_numbers() -> None:
    numpy = pytest.importorskip("numpy")
    assert is_right(numpy.float64(0.5), 0.5 + 1e-7, tolerance=1e-6)
    assert is_right(0.5, numpy.float32(0.5), tolerance=1e-6) and is_right(numpy.int64(3), 3, tolerance=1e-6)
    assert is_right(numpy.array(0.5), 0.5, tolerance=1e-6)  # a 0-d array, as `x @ A @ y` can give
    assert not is_right(numpy.float64(0.4), 0.5, tolerance=1e-6)
    assert feedback(numpy.float64(0.4), 0.5, tolerance=1e-6) == WRONG["en"].format("0.4")


def test_unordered_answers_are_compared_in_any_order() -> None:
    assert is_right([2, 0], [0, 2], unordered=True) and is_right((2, 0), [0, 2], unordered=True)
    assert is_right({2, 0}, [0, 2], unordered=True) and is_right([0, 2], [2, 0], unordered=True)
    assert not is_right([0], [0, 2], unordered=True) and not is_right([0, 0, 2], [0, 2], unordered=True)
    assert is_right(["Ana", 1], ["Ana", 1], unordered=True)  # items without an order: compared as they came
    assert is_right(3, 3, unordered=True)


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(exercises).failed == 0


def test_the_checker_needs_no_numpy() -> None:
    """A Pyodide kernel may have no numpy: the checker imports none and still reads numbers."""
    script = textwrap.dedent('''
        import importlib.abc, json, sys

        class Blocker(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.partition(".")[0] == "numpy":
                    raise ModuleNotFoundError("No module named 'numpy'", name="numpy")
                return None

        sys.meta_path.insert(0, Blocker())
        from fractions import Fraction
        from tabletop_edu.exercises import feedback
        print(json.dumps([feedback(Fraction(9, 11), 0.8182, tolerance=1e-3), feedback(..., 1, language="fr")]))
    ''')
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [RIGHT["en"], UNANSWERED["fr"]]


# ------------------------------------------------------------------------------------------ the tutorials


def notebook_code(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")


NOTEBOOK_PATHS = sorted(path for path in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in path.parts)
OWN_CHECKER = re.compile(r"^\s*def (check|verifie|verifier)\(", re.MULTILINE)
HAS_EXERCISES = re.compile(r"^\s*def (check|verifier)_exerci[cs]e_\d+\(", re.MULTILINE)
IMPORTS_THE_CHECKER = re.compile(r"^from tabletop_edu(\.exercises import check| import exercises)$", re.MULTILINE)


@pytest.mark.parametrize("path", NOTEBOOK_PATHS, ids=lambda path: str(path.relative_to(NOTEBOOKS)))
def test_no_tutorial_defines_its_own_checker(path: Path) -> None:
    assert not OWN_CHECKER.search(notebook_code(path)), f"{path.name}: use `from tabletop_edu.exercises import check`"


def test_every_tutorial_with_exercises_imports_the_checker() -> None:
    with_exercises = [path for path in NOTEBOOK_PATHS if HAS_EXERCISES.search(notebook_code(path))]
    assert len(with_exercises) >= 20
    assert [path.name for path in with_exercises if not IMPORTS_THE_CHECKER.search(notebook_code(path))] == []
