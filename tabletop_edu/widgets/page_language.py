"""The language a projector page opens in: the page's `?lang=` (Voila's query string), else the language `make
classroom LANG=fr` set (`TABLETOP_LANGUAGE`), else English.

Voila hands a notebook's kernel the address's query string as `QUERY_STRING`; a kernel of JupyterLab has none,
so a notebook opened there takes the variable or English. A language the package does not speak is ignored."""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import parse_qs

from ..i18n import LANGUAGES

#: The environment variable `make classroom` sets from its LANG.
LANGUAGE_VARIABLE = "TABLETOP_LANGUAGE"


def page_language(environment: Mapping[str, str] | None = None) -> str:
    """The language asked for by the page's address (`?lang=fr`), else by `TABLETOP_LANGUAGE`, else "en"."""
    environment = os.environ if environment is None else environment
    asked = parse_qs(environment.get("QUERY_STRING", "")).get("lang", [])
    for language in [*asked, environment.get(LANGUAGE_VARIABLE, "")]:
        if language in LANGUAGES:
            return language
    return "en"
