"""The tutorials' exercise checker: one sentence, in English or French, saying whether a student's answer is right.

Every exercise cell ends with `check(answer, expected, why)` and ships with `...` in place of the answer, so a
cell run as it stands says "not answered yet" instead of failing. Numbers are compared within `tolerance` when a
lesson gives one (a probability read to three decimals), the items of a list in any order when `unordered` (a set
of seats, typed in any order), anything else exactly. Pure Python, so it runs in a Pyodide kernel: numpy's
scalars are numbers because numpy registers them as `numbers.Real`, and a 0-d array by its `item()`.

    >>> check(0.333, 1 / 3, "one world in three.", tolerance=1e-3)
    Right! one world in three.
    >>> check([2, 0], [0, 2], unordered=True, language="fr")
    Juste !
"""

from __future__ import annotations

import numbers

from .i18n import register, tr

register({
    "en": {"exercise.unanswered": "Write your answer in place of ... and run the cell again.",
           "exercise.right": "Right!",
           "exercise.wrong": "Not quite: {answer} is not it. Try again, or open the answer below."},
    "fr": {"exercise.unanswered": "Écrivez votre réponse à la place de ... et relancez la cellule.",
           "exercise.right": "Juste !",
           "exercise.wrong": "Pas tout à fait : {answer} n'est pas la bonne réponse. Réessayez, ou ouvrez la "
                             "réponse plus bas."},
})

#: The answers `unordered` compares item by item in sorted order.
_COLLECTIONS = (list, tuple, set, frozenset)


def _number(value: object) -> float | None:
    """`value` as a float if it is a real number (Python's, a `Fraction`, a numpy scalar or 0-d array), else
    None: a `bool` is a yes or a no, not a quantity to be near."""
    item = getattr(value, "item", None)
    if not isinstance(value, numbers.Real) and getattr(value, "shape", None) == () and callable(item):
        value = item()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    return float(value)


def _sorted(value: object) -> object:
    """A collection's items in order, for comparing answers whose order does not matter; anything else as is
    (and a collection whose items have no order, as it came)."""
    if not isinstance(value, _COLLECTIONS):
        return value
    try:
        return sorted(value)
    except TypeError:
        return value


def is_right(answer: object, expected: object, *, tolerance: float | None = None, unordered: bool = False) -> bool:
    """Whether `answer` is `expected`: two numbers within `tolerance` if one is given, two collections in any
    order if `unordered`, else equal."""
    if tolerance is not None:
        found, wanted = _number(answer), _number(expected)
        if found is not None and wanted is not None:
            return abs(found - wanted) <= tolerance
    if unordered:
        answer, expected = _sorted(answer), _sorted(expected)
    return bool(answer == expected)


def _shown(answer: object) -> str:
    """How the wrong answer is quoted back: a number as it reads (`9/11`, `0.5`), anything else as typed ('Ana')."""
    return str(answer) if _number(answer) is not None else repr(answer)


def feedback(answer: object, expected: object, why: str = "", *, tolerance: float | None = None,
             unordered: bool = False, language: str = "en") -> str:
    """The sentence `check` prints: not answered yet (`answer` is `...`), right (with `why`), or not quite."""
    if answer is ...:
        return tr("exercise.unanswered", language)
    if is_right(answer, expected, tolerance=tolerance, unordered=unordered):
        return " ".join(filter(None, [tr("exercise.right", language), why]))
    return tr("exercise.wrong", language).format(answer=_shown(answer))


def check(answer: object, expected: object, why: str = "", *, tolerance: float | None = None,
          unordered: bool = False, language: str = "en") -> None:
    """Print whether `answer` is right, in `language`; `...` means not answered yet. `why` is said after a
    right answer only: a wrong one is pointed to the answer below the cell, not given it."""
    print(feedback(answer, expected, why, tolerance=tolerance, unordered=unordered, language=language))
