"""The optional libraries behind the extras, imported only when asked for, with one sentence when missing.

Playing needs nothing but the base install; analysis (numpy, scipy, matplotlib, networkx, nashpy, pandas) and
the class server (tornado, segno) are extras. A cell that needs one that is missing (a JupyterLite kernel, a
lean install) gets `MissingExtra`: one sentence saying what to install, shown without a traceback in Jupyter.

    numpy = need("numpy", "Exact strategies")
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterable
from types import ModuleType

#: The extra that installs each optional library (by its import name).
EXTRA_OF = {
    "numpy": "analysis", "scipy": "analysis", "matplotlib": "analysis", "networkx": "analysis",
    "nashpy": "analysis", "pandas": "analysis", "tornado": "classroom", "segno": "classroom",
    "dask": "scale", "gymnasium": "rl", "pettingzoo": "rl", "pyspiel": "openspiel", "pygambit": "gambit",
}


#: Whether this is a browser kernel (Pyodide, in JupyterLite), where pip cannot bring an extra's compiled libraries.
IN_A_BROWSER = sys.platform == "emscripten"


class MissingExtra(ImportError):
    """An optional library is not installed: the message names the extra that brings it, or, in a browser
    kernel where no extra installs, where the cell runs instead."""

    def __init__(self, module: str, purpose: str, extra: str | None = None, *, in_a_browser: bool = IN_A_BROWSER
                 ) -> None:
        extra = extra or EXTRA_OF.get(module.partition(".")[0], "all")
        library = module.partition(".")[0]
        if in_a_browser:
            advice = (f"{purpose} needs {library}, which this site (Python in the browser) cannot install: run this "
                      f"notebook in Jupyter on a computer, after pip install \"tabletop_edu[{extra}]\".")
        else:
            advice = f"{purpose} needs {library}, which is not installed here: pip install \"tabletop_edu[{extra}]\"."
        super().__init__(advice, name=module)
        self.extra = extra

    def _render_traceback_(self) -> list[str]:
        """IPython shows these lines instead of a traceback: the one sentence is all a student needs."""
        return [f"{type(self).__name__}: {self}"]


def need(module: str, purpose: str) -> ModuleType:
    """Import `module` (an optional library) for `purpose` ("Drawing the information flow"), or say what to
    install in one sentence (`MissingExtra`)."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        if error.name is not None and error.name.partition(".")[0] != module.partition(".")[0]:
            raise  # the library is there but broken: its own error is the useful one
        raise MissingExtra(module, purpose) from None


def installed(module: str) -> bool:
    """Whether `module` (an optional library, by its import name) is installed here: found, not imported, so
    that listing what needs it loads nothing."""
    try:
        return importlib.util.find_spec(module.partition(".")[0]) is not None
    except (ImportError, ValueError):
        return False


def first_missing(modules: Iterable[str], purpose: str) -> MissingExtra | None:
    """The sentence for the first of `modules` not installed here (`MissingExtra`, not raised), or None."""
    return next((MissingExtra(module, purpose) for module in modules if not installed(module)), None)


__all__ = ["EXTRA_OF", "MissingExtra", "first_missing", "installed", "need"]
