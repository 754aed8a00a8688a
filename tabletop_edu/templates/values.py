"""What a table's page shows, as values the templates draw (seats, cards, tags, rows, the page), with its words.

The renderers hand the templates these values and plain text only, never pre-built HTML: the environment
(`environment`, `render`) escapes everything. The word helpers name players in sentences (shortened, joined,
elided in French); the stylesheet (`stylesheet`, `style_block`) is the file plus the ring and bar positions
generated here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

import jinja2
from markupsafe import Markup, escape

from ..i18n import check_language, elide, register, tr, word
from .drawn import without_prefix

#: Names longer than this are shown cut, with an ellipsis (the full name stays in the tooltip).
NAME_LIMIT = 24
#: Tooltips hold at most this much of a name: a name of a megabyte must not make a page of a megabyte.
TOOLTIP_LIMIT = 120
#: Tables drawn as a ring hold at most this many seats (the largest game, Mafia de Cuba, has 12).
RING_SIZES = range(2, 13)

register({
    "en": {
        "tt.teacher_view": "Teacher's view: everything", "tt.spectator_view": "Spectator (public information)",
        "tt.seat_view": "{name}'s view", "tt.only_you": "Only you know",
        "tt.log": "Log", "tt.game_over": "Game over", "tt.winners": "Winners", "tt.nobody": "nobody",
        "tt.you": "you", "tt.reveal": "The reveal", "tt.lie": "LIE", "tt.true": "true",
        "tt.liar": "lied", "tt.seat": "Player", "tt.waiting": "Waiting for",
        "tt.and": "and", "tt.wins": "wins", "tt.loses": "loses", "tt.result": "Result",
    },
    "fr": {
        "tt.teacher_view": "Vue de l'enseignant : tout", "tt.spectator_view": "Spectateur (informations publiques)",
        "tt.seat_view": "Vue de {name}", "tt.only_you": "Vos secrets",
        "tt.log": "Journal", "tt.game_over": "Partie terminée", "tt.winners": "Vainqueurs", "tt.nobody": "personne",
        "tt.you": "vous", "tt.reveal": "Tout est révélé", "tt.lie": "MENSONGE",
        "tt.true": "vrai", "tt.liar": "a menti", "tt.seat": "Joueur",
        "tt.waiting": "En attente de", "tt.and": "et", "tt.wins": "gagne", "tt.loses": "perd",
        "tt.result": "Résultat",
    },
})


# ---------------------------------------------------------------------------------------------- names

def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """`name` cut to `limit` characters with an ellipsis: what a seat's label shows."""
    name = " ".join(str(name).split())  # no line breaks or runs of spaces from a typed name
    return name if len(name) <= limit else name[:limit - 1].rstrip() + "\u2026"


def display_names(players: Sequence[str]) -> tuple[str, ...]:
    """Every player's name as sentences show it (shortened), by seat."""
    return _display_names(tuple(players))  # a view's players: shortened once for the many sentences of its tables


@lru_cache(maxsize=256)
def _display_names(players: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(short_name(name) for name in players)


def colon(language: str) -> str:
    """': ' in English, ' : ' in French (French typography puts a space before a colon)."""
    return " : " if language == "fr" else ": "


def join_names(names: Iterable[str], language: str) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy' (French: 'et')."""
    listed = list(names)
    if len(listed) <= 1:
        return "".join(listed)
    return f"{', '.join(listed[:-1])} {tr('tt.and', language)} {listed[-1]}"


# ---------------------------------------------------------------------------------------------- pieces

@dataclass(frozen=True)
class Tag:
    """A small label on a seat or a line: `kind` picks its look (role, good, bad, warn, info, secret)."""

    text: str
    kind: str = "info"


@dataclass(frozen=True)
class Card:
    """A card or token drawn as a tile: `kind` picks its colour class (`tt-card--KIND`)."""

    label: str
    kind: str = "plain"
    note: str = ""


@dataclass(frozen=True)
class Name:
    """A player's name in a table cell: shown shortened, the full name in its tooltip."""

    full_name: str


@dataclass(frozen=True)
class Swatch:
    """A colour shown as a dot of that colour (class `tt-colour-COLOUR`) and its name."""

    colour: str
    text: str


@dataclass(frozen=True)
class Bar:
    """A stacked bar in a table cell: (kind, share) parts, shares from 0 to 1."""

    parts: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class Cell:
    """A table cell with a look of its own (`cell_kind`: "yes", "lie"...)."""

    value: Any
    cell_kind: str


@dataclass(frozen=True)
class SeatBox:
    """One seat as the table shows it: its name, tags, cards, and whether it acts, is the viewer, or is out."""

    number: int
    name: str
    tags: tuple[Tag, ...] = ()
    cards: tuple[Card, ...] = ()
    turn: bool = False
    me: bool = False
    out: bool = False
    role: str = ""  # a look for the whole seat ("boss" for the Godfather)
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Row:
    """A row of a table: cells of text (or tags), an optional header cell and a look."""

    cells: tuple[Any, ...]
    head: str = ""
    kind: str = ""


@dataclass(frozen=True)
class Banner:
    """The line in big letters: whose turn and what to do, or how the game ended."""

    text: str
    kind: str = "turn"  # "turn", "mine" (the viewer acts), "over"


@dataclass
class Page:
    """What every table shows around the game's own part: title, perspective, banner, facts, log."""

    game: str
    title: str
    who: str
    perspective: str  # "teacher", "spectator" or "seat"
    language: str
    banner: Banner | Markup | None = None  # Markup: drawn already (`banner_html`), a hole of a frame
    facts: list[tuple[str, str]] = field(default_factory=list)
    log: list[tuple[int, str]] | None = None
    log_title: str = ""


#: The fields of a page, which `page_with` may change.
_PAGE_FIELDS = frozenset(Page.__dataclass_fields__)


def page_with(shown: Page, **changes: Any) -> Page:
    """A copy of `shown` with `changes`, as `dataclasses.replace` makes it but without running `__init__` again:
    a class server copies a step's page for each of its 13 tables, to put each one's holes in."""
    if not _PAGE_FIELDS.issuperset(changes):
        raise TypeError(f"A page has no field {', '.join(sorted(set(changes) - _PAGE_FIELDS))}.")
    copied = object.__new__(Page)
    values = copied.__dict__
    values.update(shown.__dict__)
    values.update(changes)
    return copied


#: The first letters before which French writes "d'" instead of "de".
FRENCH_VOWELS = frozenset("AEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜaeiouyàâäéèêëîïôöùûü")


def perspective_title(seat: int | None, players: Sequence[str], language: str, teacher: bool = False) -> str:
    """The heading of a page for its perspective: the teacher's, the spectator's, or the named player's."""
    if teacher:
        return tr("tt.teacher_view", language)
    if seat is None:
        return tr("tt.spectator_view", language)
    name = short_name(players[seat])
    if language == "fr" and name[:1] in FRENCH_VOWELS:  # French elides "de" before a vowel: "Vue d'Ana"
        return f"Vue d'{name}"
    return tr("tt.seat_view", language).format(name=name)


def page(game: str, title: str, seat: int | None, players: Sequence[str], language: str, *,
         teacher: bool = False) -> Page:
    """A page for `seat` (None: spectator; `teacher=True`: the omniscient teacher) in `language`."""
    check_language(language)
    kind = "teacher" if teacher else ("spectator" if seat is None else "seat")
    return Page(game=game, title=title, who=perspective_title(seat, players, language, teacher),
                perspective=kind, language=language, log_title=tr("tt.log", language))


def acting_seats(current: Any) -> tuple[int, ...]:
    """The seats to act, as a tuple, from a view's `current_player` (a seat, a tuple, or None)."""
    if current is None:
        return ()
    return tuple(current) if isinstance(current, tuple) else (current,)


def log_lines(events: Iterable[Any], players: Sequence[str], language: str,
              event_text: Callable[[Any, Sequence[str], str], str]) -> list[tuple[int, str]]:
    """(step, text) per event, worded by the game's `event_text` with shortened names; an event worded as no
    text (a move that tells nothing, like Mafia de Cuba's pass on the floor) makes no line."""
    names = display_names(players)
    lines = ((event.step, event_text(event, names, language)) for event in events)
    return [(step, text) for step, text in lines if text]


def remembered_wording(event_text: Callable[[Any, Sequence[str], str], str],
                       limit: int = 20_000) -> Callable[[Any, Sequence[str], str], str]:
    """`event_text`, keeping what it said of each (event, names, language): a table that lists what was said
    (Mafia de Cuba's testimonies) words the same events again at every step for every seat. Events are
    immutable, so a kept wording never goes stale; the memory is emptied when it holds `limit` wordings."""
    kept: dict[tuple[Any, tuple[str, ...], str], str] = {}

    def worded(event: Any, players: Sequence[str], language: str = "en") -> str:
        key = (event, tuple(players), language)
        try:
            text = kept.get(key)
        except TypeError:  # details that cannot be hashed: worded every time
            return event_text(event, players, language)
        if text is None:
            if len(kept) >= limit:
                kept.clear()
            text = kept[key] = event_text(event, players, language)
        return text

    return worded


def seat_box(players: Sequence[str], seat: int, viewer: int | None, acting: Sequence[int], **parts: Any) -> SeatBox:
    """A `SeatBox` for `seat` with its shortened name and the turn and viewer marks."""
    return SeatBox(number=seat, name=players[seat], turn=seat in acting, me=seat == viewer, **parts)


# ---------------------------------------------------------------------------------------------- rendering

def _name_filter(name: str) -> str:
    return short_name(name)


def _tooltip_filter(name: str) -> str:
    return " ".join(str(name).split())[:TOOLTIP_LIMIT]


def _label_filter(value: Any) -> str:
    """A column header as plain text (a table cell repeats it on a phone, where columns become lines)."""
    for attribute in ("text", "full_name", "label"):
        if hasattr(value, attribute):
            text = str(getattr(value, attribute))
            return short_name(text) if attribute == "full_name" else text
    return str(value)


def _percent_class(share: float) -> str:
    """`tt-w35`: a bar width in steps of 5 %, as a class (no inline styles: CSP-friendly)."""
    return f"tt-w{5 * round(max(0.0, min(1.0, float(share))) * 20)}"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The templates' environment: autoescape on for everything, undefined names are errors. The templates are
    the package's own files, read once: no look at their dates at every drawing (`auto_reload`), which cost the
    class server a file-system call for each template of each seat's table at every step."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("tabletop_edu", "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             auto_reload=False)
    env.filters["name"] = _name_filter
    env.filters["tooltip"] = _tooltip_filter
    env.filters["bar"] = _percent_class
    env.filters["label"] = _label_filter
    env.globals["seat_html"] = seat_html
    env.globals["ring_seats_html"] = ring_seats_html
    return env


#: How many drawn seats `seat_html` keeps (then it starts again).
SEATS_KEPT = 5_000
_seats_drawn: dict[tuple[Any, ...], Markup] = {}


def seat_html(box: SeatBox, you: str, extra: str = "") -> Markup:
    """A seat's box as the `seat` macro draws it, drawn once per look: the tables of a class show the same seats
    step after step and seat after seat (a 12-seat ring on 13 screens at every move). A seat that cannot be a
    key (a mapping) is drawn every time."""
    def draw() -> Markup:
        return Markup(environment().get_template("macros.html.j2").module.seat(  # type: ignore[attr-defined]
            box, you, extra))

    key = (box, you, extra, type(you), type(extra))  # Markup("a&b") == "a&b", but it is drawn unescaped
    try:
        drawn = _seats_drawn.get(key)
    except TypeError:
        return draw()
    if drawn is None:
        if len(_seats_drawn) >= SEATS_KEPT:
            _seats_drawn.clear()
        drawn = _seats_drawn[key] = draw()
    return drawn


def ring_seats_html(boxes: Sequence[SeatBox], you: str) -> Markup:
    """The seats of a ring (`ring` macro), each in its place around the table (`tt-at-N`), drawn by `seat_html`:
    one call from the template for the twelve seats of a table, not twelve."""
    return Markup("".join([seat_html(box, you, f"tt-at-{index}") for index, box in enumerate(boxes)]))


@lru_cache(maxsize=16)
def list_items_html(lines: tuple[str, ...]) -> Markup:
    """`<li>` items of plain-text `lines`, escaped, as the templates' lists write them: Mafia de Cuba's "what was
    said" (its render grows the list of the last step by the new lines only). A few lists are kept, not the
    day's."""
    return Markup("".join([f"<li>{escape(line)}</li>" for line in lines]))


def render(template: str, *, style: bool = True, **context: Any) -> str:
    """Render `template` with `context`; `style=False` leaves the stylesheet out (a page that links it)."""
    return environment().get_template(template).render(style=style_block() if style else "", **context)




@dataclass(frozen=True)
class Words:
    """`t(key)` in a template: the text of `key` in `language` (a value a frame can be kept by, unlike a lambda)."""

    language: str

    def __call__(self, key: str) -> str:
        return tr(key, self.language)


@lru_cache(maxsize=256)
def banner_html(banner: Banner) -> Markup:
    """A banner as the layout draws it (the `banner` macro): a frame's hole where its tables' banners differ
    (the seats to act are told it is their turn)."""
    return Markup(environment().get_template("macros.html.j2").module.banner(banner))  # type: ignore[attr-defined]


def _ring_rules() -> str:
    """Where each seat of a ring of n sits (an ellipse, seat 0 at the top, clockwise), as CSS classes."""
    rules = []
    for size in RING_SIZES:
        for position in range(size):
            angle = 2 * math.pi * position / size
            left = 50 + 41 * math.sin(angle)
            top = 50 - 40 * math.cos(angle)
            rules.append(f".tt-ring--{size} .tt-at-{position}{{left:{left:.1f}%;top:{top:.1f}%}}")
    return "\n".join(rules)


def _bar_rules() -> str:
    return "\n".join(f".tabletop .tt-w{width}{{width:{width}%}}" for width in range(0, 101, 5))


@lru_cache(maxsize=1)
def stylesheet() -> str:
    """The whole stylesheet (the file plus the generated ring and bar classes), to inline or to serve."""
    css = resources.files(__package__).joinpath("tabletop.css").read_text(encoding="utf-8")
    return f"{css}\n{_ring_rules()}\n{_bar_rules()}\n"


@lru_cache(maxsize=1)
def style_block() -> Markup:
    """The stylesheet in a `<style>` element (it holds no user text, so it is safe as it is)."""
    return Markup(f"<style>{stylesheet()}</style>")


def without_style(html: str) -> str:
    """A table's (or a reveal's) HTML without its inlined stylesheet, for a page that links it. The shared
    template puts the stylesheet first: cut there, not searched for through the whole table (60 µs a table)."""
    style = style_block()
    if html.startswith(style) and html.find(style, len(style)) < 0:
        return without_prefix(html, style)  # a drawn table stays drawn (`templates.drawn`)
    if "<style>" not in html:  # drawn without it already
        return html
    return html.replace(style, "")



__all__ = ["Banner", "Bar", "Card", "Cell", "NAME_LIMIT", "Name", "Page", "Row", "SeatBox", "Swatch", "Tag", "Words",
           "acting_seats", "banner_html", "colon", "display_names", "elide", "environment", "join_names",
           "list_items_html", "log_lines", "page", "page_with", "perspective_title", "remembered_wording", "render",
           "ring_seats_html", "seat_box", "seat_html", "short_name", "style_block", "stylesheet", "without_style",
           "word"]
