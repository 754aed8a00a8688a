"""Mafia de Cuba's renderer: the functions its plugin's `render` names, HTML in English and French over templates.

One idea, the renderer interface (`view_html`, `state_html`, `reveal_html`, `event_text`, `move_label`), so
longer than most modules; the words they use (the vocabulary, takes, boxes, tokens, claims) are `words`.

`view_html(view, language)` is built from the View only, so a seat's page can never show another seat's secret
(not even in an attribute; the class server also hands it the spectator's view of the step, from which what the
step's tables share is drawn once); `state_html(state, language)` is the teacher's table, the union of what every seat
knows (read from each seat's view); `reveal_html(state_or_view, language)` is the end of the game, built from
the public view once the game is over: every take and role, the box's journey, every testimony against the
truth, the winners and why. The table is drawn round, in box order with the Godfather at the top, the cigar
box in the middle and the seat whose turn it is outlined, so it reads on a projector.

Log lines are worded here in both languages from each event's kind and data, as the seat saw the event (a
redacted event carries only its redacted data); an event kind this module does not know keeps the engine's
English text. `move_label` words the buttons of click-to-move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from operator import is_
from typing import Any, NamedTuple

from markupsafe import Markup, escape

from ..core import Event, GameState, View
from ..i18n import tr
from ..templates import (Banner, Hole, Row, SeatBox, Tag, Words, acting_seats, banner_html, colon, display_names,
                         environment, frame_key, join_names, list_items_html, log_lines, page, page_with,
                         perspective_title, remembered_wording, render, render_framed, ring_seats_html, seat_box,
                         seat_html, short_name, word)
from ..templates.drawn import Piece
from .rules import TOKEN_ORDER
from .words import (_token_order, box_text, claim_text, diamonds_text, question_text, role_word, take_role, take_word,
                    token_name, tokens_listing)


def event_text(event: Event, players: Sequence[str], language: str = "en") -> str:
    """One log line in `language`, from the event as it was seen (its data is redacted when the event is).

    An event kind this function does not know keeps the engine's English text."""
    return _event_text(event, players, language)


def _event_text(event: Event, players: Sequence[str], language: str) -> str:  # noqa: C901 - one case per kind
    data, kind, en = event.data, event.kind, language == "en"
    name = players[event.actor] if event.actor is not None else ""
    if kind == "setup":
        jokers = int(data["jokers"])
        gf, tokens = players[data["godfather"]], tokens_listing(data["tokens"], language)
        if en:
            jokers_text = "no joker" if jokers == 0 else f"{jokers} joker" + ("s" if jokers > 1 else "")
            return (f"{gf} is the Godfather. The cigar box holds {data['diamonds']} diamonds and {tokens}; the Godfather "
                    f"has {jokers_text}.")
        jokers_text = "n'a aucun joker" if jokers == 0 else f"a {jokers} joker" + ("s" if jokers > 1 else "")
        return (f"{gf} est le Parrain. La boîte à cigares contient {data['diamonds']} diamants et {tokens} ; le Parrain "
                f"{jokers_text}.")
    if kind == "hide":
        if "diamonds" not in data:
            return "The Godfather hides some diamonds." if en else "Le Parrain cache des diamants."
        count = int(data["diamonds"])
        if count == 0:
            return "The Godfather hides no diamond." if en else "Le Parrain ne cache aucun diamant."
        return (f"The Godfather hides {diamonds_text(count, language)}." if en
                else f"Le Parrain cache {diamonds_text(count, language)}.")
    if kind == "open":
        who = players[data["seat"]]
        if "diamonds" not in data:
            return f"{who} opens the box." if en else f"{who} ouvre la boîte."
        return (f"{who} opens the box: {box_text(data, language)}." if en
                else f"{who} ouvre la boîte : {box_text(data, language)}.")
    if kind == "return":
        if "diamonds" not in data:
            return ("The box returns to the Godfather, who looks inside." if en
                    else "La boîte revient au Parrain, qui regarde dedans.")
        return (f"The box returns to the Godfather: {box_text(data, language)}." if en
                else f"La boîte revient au Parrain : {box_text(data, language)}.")
    if kind == "set-aside":
        if "token" not in data:
            return f"{name} may set a token aside." if en else f"{name} peut écarter un jeton."
        if not data["token"]:
            return f"{name} sets nothing aside." if en else f"{name} n'écarte rien."
        token = take_word(data["token"], language)
        return f"{name} sets aside {token}." if en else f"{name} écarte {token}."
    if kind == "take":
        if "take" not in data:
            return (f"{name} takes something from the box and passes it on." if en
                    else f"{name} prend quelque chose dans la boîte et la passe.")
        if data["take"] == "nothing":
            return f"{name} takes nothing." if en else f"{name} ne prend rien."
        take = take_word(data["take"], language)
        return f"{name} takes {take}." if en else f"{name} prend {take}."
    if kind == "question":
        target, question = players[data["target"]], question_text(data["question"], language)
        return (f"The Godfather asks {target}: \u201c{question}\u201d" if en
                else f"Le Parrain demande à {target} : « {question} »")
    if kind == "floor":
        return ("The Godfather opens the floor: anyone may speak." if en
                else "Le Parrain donne la parole : tout le monde peut parler.")
    if kind == "testimony":
        claim = claim_text(data["claim"], players, language)
        return f"{name} says: {claim}" if en else f"{name} dit : {claim}"
    if kind == "silent":
        return f"{name} keeps silent." if en else f"{name} garde le silence."
    if kind == "pass":  # R4.2: silence on the floor is no log line; the pass that closes it says who spoke up
        if not data.get("closes"):
            return ""
        spoke = join_names((players[seat] for seat in data["spoke"]), language)
        if not spoke:
            return "The floor closes: nobody spoke up." if en else "La parole se referme : personne n'a parlé."
        return (f"The floor closes: {spoke} spoke up." if en else f"La parole se referme : {spoke} a parlé."
                if len(data["spoke"]) == 1 else f"La parole se referme : {spoke} ont parlé.")
    if kind == "accuse":
        target, words = players[data["target"]], tr("mdc_empty_pockets", language)
        return (f"The Godfather to {target}: \u201c{words}\u201d" if en else f"Le Parrain à {target} : « {words} »")
    if kind == "vote":
        if "shoot" not in data:
            return f"{name} decides." if en else f"{name} décide."
        if data["shoot"]:
            return f"{name} says: \u201cshoot\u201d." if en else f"{name} dit : « je tire »."
        return f"{name} holds fire." if en else f"{name} ne tire pas."
    if kind == "reveal":
        who, take = players[data["seat"]], take_word(data["take"], language)
        if data["take"] in TOKEN_ORDER:  # "a Driver token" says the role already
            return f"{who} empties their pockets: {take}." if en else f"{who} vide ses poches : {take}."
        role = role_word(data["role"], language)
        return (f"{who} empties their pockets: {take} ({role})." if en
                else f"{who} vide ses poches : {take} ({role}).")
    if kind == "caught":
        target = players[data["target"]]
        return (f"Thief caught: {target} gives the diamonds back and leaves the game." if en
                else f"Voleur démasqué : {target} rend les diamants et quitte la partie.")
    if kind == "joker":
        target = players[data["target"]]
        return (f"Wrong accusation: the Godfather gives {target} a joker." if en
                else f"Mauvaise accusation : le Parrain donne un joker à {target}.")
    if kind == "shoot":
        target = players[data["target"]]
        return (f"{name}, the Cleaner, shoots {target}!" if en else f"{name} (Nettoyeur) tire sur {target} !")
    if kind == "end":
        return tr(f"mdc_outcome_{data['outcome']}", language) if f"mdc_outcome_{data['outcome']}" in _OUTCOMES \
            else event.text
    if kind == "final-reveal":
        takes = ("; " if en else " ; ").join(f"{players[int(seat)]}{colon(language)}{take_word(take, language)}"
                                             for seat, take in data["takes"].items())
        winners = join_names((players[s] for s in data["winners"]), language) or tr("tt.nobody", language)
        hidden = diamonds_text(int(data["hidden"]), language)
        aside = take_word(data["set_aside"], language) if data["set_aside"] else tr("mdc_nothing", language)
        return (f"Everyone shows what they took: {takes}. The Godfather had hidden {hidden}; set aside: {aside}. "
                f"Winners: {winners}." if en else
                f"Tout le monde montre sa prise : {takes}. Le Parrain avait caché {hidden} ; écarté : {aside}. "
                f"Vainqueurs : {winners}.")
    return event.text


_OUTCOMES = {f"mdc_outcome_{outcome}" for outcome in ("godfather", "thieves", "agent", "cleaner")}


def log_html(events: Sequence[Event], players: Sequence[str], language: str = "en") -> str:
    """The log lines (already filtered for a perspective), escaped, in `language`, on their own."""
    return render("fragment_log.html.j2", kind="mafia", language=language, title=tr("tt.log", language),
                  lines=log_lines(events, players, language, event_text))


# ---------------------------------------------------------------------------------------------- the table

def _ring_order(facts: Mapping[str, Any], count: int) -> list[int]:
    """Seats in box order, the Godfather first (at the top of the ring)."""
    godfather = facts["godfather"]
    return [(godfather + k) % count for k in range(count)]


def _seat_tags(facts: Mapping[str, Any], seat: int, language: str, secret_take: str | None) -> list[Tag]:
    """Everything public about a seat, plus (for its own page or the teacher's) its secret take."""
    tags = []
    if seat == facts["godfather"]:
        tags.append(Tag(tr("mdc_godfather", language), "role"))
    if seat == facts["box_holder"]:
        tags.append(Tag(tr("mdc_holds_box", language), "warn"))
    if seat in facts["jokered"]:
        tags.append(Tag(tr("mdc_joker", language), "warn"))
    if seat in facts["eliminated"]:
        tags.append(Tag(tr("mdc_out", language), "bad"))
    revealed = facts["revealed"]
    if seat in revealed:
        take = revealed[seat]
        shown = role_word(take_role(take), language) if take not in ("nothing",) and not take.isdigit() else \
            f"{take_word(take, language)} \u2192 {role_word(take_role(take), language)}"
        tags.append(Tag(f"{tr('mdc_showed', language)}{colon(language)}{shown}", "bad"))
    elif seat in facts.get("all_takes", {}):  # the end: every take is shown
        tags.append(_take_tag(facts["all_takes"][seat], "role", language))
    secret = _secret_take_tag(facts, seat, secret_take, language)
    if secret is not None:
        tags.append(secret)
    if seat in facts["winners"]:
        tags.append(Tag(tr("mdc_wins", language), "good"))
    return tags


def _take_tag(take: str, kind: str, language: str) -> Tag:
    """What a seat took and so its role ("2 diamonds \u2192 thief"; a token is its role alone)."""
    role = role_word(take_role(take), language)
    return Tag(f"{take_word(take, language)} \u2192 {role}" if take.isdigit() else role, kind)


def _secret_take_tag(facts: Mapping[str, Any], seat: int, take: str | None, language: str) -> Tag | None:
    """The tag of a seat's secret take (its own page's, or the teacher's), while the table has not seen it."""
    if take is None or seat in facts["revealed"] or seat in facts.get("all_takes", {}):
        return None
    return _take_tag(take, "secret", language)


def _own_box(public: SeatBox, facts: Mapping[str, Any], take: str | None, language: str) -> SeatBox:
    """A seat's box on its own page: its public box (`_public_ring`, drawn for the step's tables) marked as the
    viewer's, with its secret take's tag where `_seat_tags` puts it, before "wins". On Mafia's floor the ring
    changes at every testimony (who is yet to speak), so each of the 12 seats' own boxes is made at every step."""
    secret = _secret_take_tag(facts, public.number, take, language)
    if secret is None:
        return replace(public, me=True)
    at = len(public.tags) - (public.number in facts["winners"])
    return replace(public, me=True, tags=(*public.tags[:at], secret, *public.tags[at:]))


def _seat_boxes(view: View, language: str, secret_takes: Mapping[int, str],
                viewer: int | None = None) -> list[SeatBox]:
    """The seats' boxes in ring order as `viewer` sees them (its own marked), with the `secret_takes` shown."""
    facts = view.facts
    acting = acting_seats(view.current_player)
    boxes = []
    for seat in _ring_order(facts, len(view.players)):
        tags = _seat_tags(facts, seat, language, secret_takes.get(seat))
        if seat in acting:
            tags.insert(0, Tag(f"\u25b6 {tr('mdc_to_play', language)}", "turn"))
        boxes.append(seat_box(view.players, seat, viewer, acting, tags=tuple(tags),
                              out=seat in facts["eliminated"],
                              role="boss" if seat == facts["godfather"] else ""))
    return boxes


def _banner(view: View, language: str) -> Banner:
    facts = view.facts
    names = display_names(view.players)
    if view.is_over:
        outcome = _outcome_text(_end_outcome(view), language)
        winners = join_names((names[s] for s in facts["winners"]), language) or tr("tt.nobody", language)
        return Banner(f"{tr('tt.game_over', language)}. {outcome} {tr('tt.winners', language)}{colon(language)}"
                      f"{winners}.", "over")
    acting = acting_seats(view.current_player)
    phase = facts["phase"]
    who = join_names((names[s] for s in acting), language)
    if phase == "answer" and facts["pending"]:
        what = tr("mdc_do_answer", language).format(name=who, question=question_text(facts["pending"][1], language))
    elif f"mdc_do_{phase}" in _BANNERS:
        what = tr(f"mdc_do_{phase}", language).format(name=who)
    else:
        what = f"{tr('tt.waiting', language)}{colon(language)}{who}"
    if view.seat is not None and view.seat in acting:
        return Banner(tr("mdc_your_turn", language).format(what=what), "mine")
    return Banner(what, "turn")


_BANNERS = {f"mdc_do_{phase}" for phase in ("hide", "set-aside", "take", "question", "answer", "floor", "cleaner")}


def _facts_line(view: View, language: str) -> list[tuple[str, str]]:
    facts = view.facts
    phase_key = f"mdc_phase_{facts['phase']}"
    line = [(tr("mdc_phase", language), word(phase_key, language, facts["phase"]))]
    if not view.is_over:
        line += [(tr("mdc_questions_left", language), str(facts["questions_left"])),
                 (tr("mdc_jokers_left", language), str(facts["jokers_left"]))]
    line += [(tr("mdc_recovered", language), str(facts["recovered"])),
             (tr("mdc_tokens_in_game", language), tokens_listing(facts["tokens_in_game"], language))]
    return line


def _secrets_hole(view: View, language: str) -> Hole:
    """A seat's "only you know" panel, as a table's hole (empty for a spectator): drawn once for all that it
    shows, which stays the same for a seat through a phase (`_secrets_drawn`)."""
    facts = view.facts
    if view.seat is None:
        return _NO_SECRETS
    is_godfather = view.seat == facts["godfather"]
    return _secrets_drawn(facts["hidden"] if is_godfather else None, facts["box_seen"], facts["my_set_aside"],
                          facts["my_take"], facts["box_returned"] if is_godfather else None, language)


_NO_SECRETS = Hole("")


@lru_cache(maxsize=4096)
def _secrets_drawn(hidden: int | None, box_seen: Mapping[str, Any] | None, aside: str | None, take: str | None,
                   box_returned: Mapping[str, Any] | None, language: str) -> Hole:
    """The panel of a seat's secrets: the diamonds it hid and the box that came back (the Godfather's), the box it
    opened, the token it set aside, its take and so its role."""
    lines = []
    if hidden is not None:
        lines.append(tr("mdc_you_hid_none", language) if hidden == 0
                     else tr("mdc_you_hid", language).format(diamonds=diamonds_text(int(hidden), language)))
    if box_seen is not None:
        lines.append(tr("mdc_you_opened", language).format(box=box_text(box_seen, language)))
    if aside is not None:
        lines.append(tr("mdc_you_set_nothing_aside", language) if aside == "none"
                     else tr("mdc_you_set_aside", language).format(token=take_word(aside, language)))
    if take is not None:
        lines.append(tr("mdc_you_took", language).format(take=take_word(take, language)))
        lines.append(tr("mdc_you_are", language).format(role=role_word(take_role(take), language)))
    if box_returned is not None:
        lines.append(tr("mdc_came_back", language).format(box=box_text(box_returned, language)))
    return Hole(_secrets_panel(tuple(lines), language))


#: `event_text` for what was said: the same testimonies are listed at every step of the floor, for every seat.
_said_text = remembered_wording(event_text)
_SAID_KINDS = frozenset(("question", "testimony", "silent", "floor", "accuse"))


def _statements(view: View, language: str, worded: Sequence[str] | None = None) -> tuple[str, ...]:
    """What was said aloud so far (questions, testimonies, silences), from the log; `worded`: the text of each
    event of the log, when a running log has worded them already."""
    said = _SAID_KINDS
    log = view.log
    if worded is not None and len(worded) == len(log):
        return tuple([text for event, text in zip(log, worded) if event.kind in said])
    names = display_names(view.players)
    key = (language, view.players, id(log[0]) if log else None)
    kept = _said_so_far.get(key)
    if kept is not None and len(log) >= len(kept[0]) and all(map(is_, log, kept[0])):  # the log grew at its end
        lines = kept[1] + tuple([_said_text(event, names, language) for event in log[len(kept[0]):]
                                 if event.kind in said])
    else:
        lines = tuple([_said_text(event, names, language) for event in log if event.kind in said])
    if len(_said_so_far) >= SAID_LISTS_KEPT and key not in _said_so_far:
        _said_so_far.clear()
    _said_so_far[key] = (log, lines)
    return lines


#: The statements of the logs worded lately, by language, names and the log's first event (which the log keeps
#: alive): (the log, its statements). The spectator's log of the next step is that log grown at its end, the very
#: same events first, so a step of the floor words its new statement only, not all those said before.
_said_so_far: dict[tuple[str, tuple[str, ...], int | None], tuple[tuple[Event, ...], tuple[str, ...]]] = {}


def _statements_hole(lines: tuple[str, ...], language: str) -> Hole:
    """What was said, as the table's panel lists it: a hole (`render_framed`), so that the frame of a step that
    only added a statement (Mafia's floor, testimony after testimony) is the last step's, not drawn again."""
    if not lines:
        return Hole(f'<p class="tt-note">{escape(tr("mdc_no_statement", language))}</p>')
    return Hole.of_pieces(["<ol>", _said_items(lines), "</ol>"])


#: The lists of what was said drawn lately, each a piece that keeps its JSON (`_said_items`).
_said_lists: dict[tuple[str, ...], Piece] = {}
SAID_LISTS_KEPT = 128


def _said_items(lines: tuple[str, ...]) -> Piece:
    """The `<li>` items of `lines`, escaped: a list one line longer than one drawn lately is that one's piece
    grown by its last line (`Piece.grown`), its JSON too, not the whole list escaped again."""
    piece = _said_lists.get(lines)
    if piece is None:
        before = _said_lists.get(lines[:-1])
        items = str(list_items_html(lines if before is None else lines[-1:]))  # a Markup would escape `before`
        piece = Piece(items) if before is None else Piece.grown(before, items)
        if len(_said_lists) >= SAID_LISTS_KEPT:
            _said_lists.clear()
        _said_lists[lines] = piece
    return piece


def _box_centre(view: View, language: str) -> list[str]:
    facts = view.facts
    names = display_names(view.players)
    holder = facts["box_holder"]
    lines = [tr("mdc_box_with", language).format(name=names[holder]) if holder is not None
             else tr("mdc_box_with_godfather", language)]
    order = list(facts["order"])
    if facts["phase"] in ("set-aside", "take"):
        lines.append(tr("mdc_takers_done", language).format(done=order.index(holder), total=len(order)))
    return lines


class PublicRing(NamedTuple):
    """The seats' boxes as a spectator sees them, each drawn at its place in the ring: the 13 tables of a step
    share them, each seat putting its own box in (`_with_holes`), and so do the steps that change none of them
    (Mafia's floor, testimony after testimony)."""

    boxes: tuple[SeatBox, ...]
    drawn: tuple[Piece, ...]
    seats_of: dict[tuple[int, str | None], Hole]  # a seat's ring, its own box put in, by (seat, its take)


#: The public rings of the last steps drawn, by all they show.
_public_boxes: dict[tuple[Any, ...], PublicRing] = {}
PUBLIC_BOXES_KEPT = 64


def _public_ring(view: View, language: str) -> PublicRing:
    """Every seat's box with what is public only, and its HTML at its place in the ring, kept for the other tables
    of the step; the key holds all that `_seat_boxes` reads."""
    facts = view.facts
    key = (view.players, view.current_player, language, facts["godfather"], facts["box_holder"],
           tuple(facts["jokered"]), tuple(facts["eliminated"]), tuple(facts["revealed"].items()),
           tuple(facts.get("all_takes", {}).items()), tuple(facts["winners"]))
    ring = _public_boxes.get(key)
    if ring is None:
        if len(_public_boxes) >= PUBLIC_BOXES_KEPT:
            _public_boxes.clear()
        boxes = tuple(_seat_boxes(view, language, {}))
        you = tr("tt.you", language)
        ring = _public_boxes[key] = PublicRing(boxes, tuple(Piece(seat_html(box, you, f"tt-at-{place}"))
                                                             for place, box in enumerate(boxes)), {})
    return ring


def _context(view: View, language: str, log: bool, teacher: bool = False,
             secret_takes: Mapping[int, str] | None = None, worded: Sequence[str] | None = None) -> dict[str, Any]:
    """What the table template shows. What differs from seat to seat at a step (whose view, the seat's own box,
    its secrets) is in holes (`Hole`), for `render_framed` to draw the rest once for the step's tables."""
    frame, ring = _frame_context(view, language, log, teacher, worded)
    return _with_holes(frame, ring, view, language, teacher, secret_takes)


def _frame_context(view: View, language: str, log: bool, teacher: bool = False,
                   worded: Sequence[str] | None = None) -> tuple[dict[str, Any], PublicRing]:
    """What the table shows outside its holes, from `view` (the phase, what was said, the box), and the ring's
    public seats (`_public_ring`), for `_with_holes` to put the seat's own box in."""
    context_page = page("mafia", tr("mdc_title", language), view.seat, view.players, language, teacher=teacher)
    context_page.facts = _facts_line(view, language)
    if log:
        context_page.log = log_lines(view.log, view.players, language, event_text)
    ring = _public_ring(view, language)
    return {"page": context_page, "t": Words(language), "you": tr("tt.you", language), "ring_size": len(ring.boxes),
            "box_lines": _box_centre(view, language),
            "statements_html": _statements_hole(_statements(view, language, worded), language),
            "teacher": None}, ring


def _with_holes(frame: Mapping[str, Any], ring: PublicRing, view: View, language: str, teacher: bool = False,
                secret_takes: Mapping[int, str] | None = None, public_banner: Hole | None = None) -> dict[str, Any]:
    """`frame` with the holes of `view`'s table filled: whose view it is, its banner, its ring (the public seats
    with its own put in), its "only you know" panel. `public_banner`: the spectator's banner of the same step,
    which every seat not to act shows too (`_banner` reads the seat only to tell it its turn)."""
    you = frame["you"]
    me = view.seat
    if secret_takes is not None:  # the teacher's: every secret take shown
        seats: Hole | None = Hole(ring_seats_html(_seat_boxes(view, language, secret_takes, viewer=me), you))
    elif me is None:  # the spectator's: the public boxes
        seats = Hole.of_pieces(ring.drawn)
    else:  # a seat's: the public boxes, with its own put in at its place (kept with the ring: all it shows)
        take = view.facts["my_take"]
        seats = ring.seats_of.get((me, take))
        if seats is None:
            place = next(place for place, box in enumerate(ring.boxes) if box.number == me)
            own = _own_box(ring.boxes[place], view.facts, take, language)
            seats = ring.seats_of[me, take] = Hole.of_pieces(
                [*ring.drawn[:place], seat_html(own, you, f"tt-at-{place}"), *ring.drawn[place + 1:]])
    if public_banner is None or me in acting_seats(view.current_player):
        banner = _banner_hole(_banner(view, language))
    else:
        banner = public_banner
    shown_page = page_with(frame["page"], who=_who_hole(me, tuple(view.players), language, teacher), banner=banner)
    if not teacher:  # a seat's or the projector's: the step's tables of both share one frame
        shown_page.perspective = _PERSPECTIVE_HOLES[me is None]
    return {**frame, "page": shown_page,
            "seats_drawn": seats, "secrets_html": _secrets_hole(view, language)}


@lru_cache(maxsize=256)
def _banner_hole(banner: Banner) -> Hole:
    """A banner drawn, as a table's hole: the seats of a step not to act show the same one."""
    return Hole(banner_html(banner))


@lru_cache(maxsize=1024)
def _who_hole(seat: int | None, players: tuple[str, ...], language: str, teacher: bool) -> Hole:
    """Whose view a table is ("Ann's view"), as its hole: the same for a seat from step to step."""
    return Hole(escape(perspective_title(seat, players, language, teacher)))


#: A table's perspective (its page's class, `tt-perspective-...`), a hole: a seat's tables and the projector's
#: differ in it, and share the rest of their frame. By whether the table is the spectator's.
_PERSPECTIVE_HOLES = {False: Hole("seat"), True: Hole("spectator")}


class StepFrame(NamedTuple):
    """What a step's tables show outside their holes, worded once from the spectator's view of the step (`view`):
    the template's context, the ring's public seats, the key of their frame, and the banner of the seats not to
    act."""

    view: View
    context: dict[str, Any]
    ring: PublicRing
    key: Hashable
    banner: Hole


#: The latest steps' frames, by the spectator's view (its id, checked) and language.
_step_frames: dict[tuple[int, str], StepFrame] = {}
STEP_FRAMES_KEPT = 64


def _step_frame(public: View, language: str) -> StepFrame:
    """The frame of the step `public` is the spectator's view of: nothing in it can be a seat's secret."""
    key = (id(public), language)
    kept = _step_frames.get(key)
    if kept is None or kept.view is not public:
        if len(_step_frames) >= STEP_FRAMES_KEPT:  # the oldest goes: a step's tables may be drawing still
            del _step_frames[next(iter(_step_frames))]
        frame, ring = _frame_context(public, language, log=False)
        kept = _step_frames[key] = StepFrame(public, frame, ring, frame_key(frame),  # steps that show the same share it
                                             _banner_hole(_banner(public, language)))
    return kept


def _check_same_moment(view: View, public: View) -> None:
    """`public` must be the spectator's view of the very moment `view` shows (the same game, table and step)."""
    if public.seat is not None:
        raise ValueError(f"The public view given for a table must be the spectator's, not seat {public.seat}'s.")
    if (public.game, public.players, public.current_player, public.is_over) != \
            (view.game, view.players, view.current_player, view.is_over) or \
            (public.log[-1].step if public.log else 0) != (view.log[-1].step if view.log else 0):
        raise ValueError("The public view given for a table is not of the same game at the same step as its view.")


@lru_cache(maxsize=4096)
def _secrets_panel(lines: tuple[str, ...], language: str) -> Markup:
    """A seat's "only you know" panel (nothing for a spectator): the same lines at every step of a phase."""
    if not lines:
        return Markup("")
    return Markup(environment().get_template("macros.html.j2").module.secrets_panel(  # type: ignore[attr-defined]
        tr("tt.only_you", language), lines))


_TABLE = "mafia_de_cuba/table.html.j2"


def view_html(view: View, language: str = "en", log: bool = True, worded: Sequence[str] | None = None,
              style: bool = True, public: View | None = None) -> str:
    """The table as `view.seat` sees it (None: a spectator), escaped, from the view alone; `worded`: the text of
    each event of its log, from a running log that worded them already (`rendering.RunningLog`); `style=False`
    leaves the stylesheet out (a page that links it). The step's tables share all but their holes
    (`render_framed`).

    `public`: the spectator's view of the same step, when the caller has it (the class server draws the 13 tables
    of a step): a table without its log (`log=False`) is then drawn around a frame drawn once for the step from
    `public`, and only its holes from `view` (ValueError if `public` is not the spectator's view of that step)."""
    if public is None or log:
        return render_framed(_TABLE, style=style, **_context(view, language, log, worded=worded))
    _check_same_moment(view, public)
    step = _step_frame(public, language)
    return render_framed(_TABLE, style=style, frame_key=step.key,
                         **_with_holes(step.context, step.ring, view, language, public_banner=step.banner))


def state_html(state: GameState[Any], language: str = "en", log: bool = True) -> str:
    """The teacher's table: what every seat knows, together (each seat's view), plus the whole log."""
    views = [state.view(seat) for seat in range(len(state.players))]
    public = state.view(None)
    takes = {seat: view.facts["my_take"] for seat, view in enumerate(views) if view.facts["my_take"] is not None}
    context = _context(public, language, False, teacher=True, secret_takes=takes)
    if log:
        context["page"].log = log_lines(state.events, state.players, language, event_text)
    context["teacher"] = _teacher_secrets(state, views, language)
    inside = vars(state)
    if "box_diamonds" in inside and "box_tokens" in inside:  # what is in the box now (the engine's own fields)
        box = {"diamonds": inside["box_diamonds"],
               "tokens": [name for name, count in inside["box_tokens"].items() for _ in range(count)]}
        context["box_lines"].append(tr("mdc_box_now", language).format(box=box_text(box, language)))
    return render(_TABLE, **context)


def _teacher_secrets(state: GameState[Any], views: Sequence[View], language: str) -> dict[str, Any]:
    """Every seat's secrets, read from its own view: hidden diamonds, set-aside token, boxes seen, takes."""
    godfather = views[0].facts["godfather"]
    gf_facts = views[godfather].facts
    lines = []
    if gf_facts["hidden"] is not None:
        lines.append(f"{tr('mdc_hidden', language)}{colon(language)}{diamonds_text(int(gf_facts['hidden']), language)}")
    first = next((view for view in views if view.facts["my_set_aside"] is not None), None)
    if first is not None:
        aside = first.facts["my_set_aside"]
        lines.append(f"{tr('mdc_set_aside', language)}{colon(language)}"
                     f"{tr('mdc_nothing', language) if aside == 'none' else take_word(aside, language)}")
    if gf_facts["box_returned"] is not None:
        lines.append(tr("mdc_came_back", language).format(box=box_text(gf_facts["box_returned"], language)))
    rows = []
    for seat in gf_facts["order"]:
        facts = views[seat].facts
        if facts["box_seen"] is None:
            continue
        take = facts["my_take"]
        rows.append(Row((box_text(facts["box_seen"], language),
                         take_word(take, language) if take else "\u2026",
                         role_word(take_role(take), language) if take else "\u2026"), head=state.players[seat]))
    head = (tr("tt.seat", language), tr("mdc_opened", language), tr("mdc_took", language), tr("mdc_role", language))
    return {"title": tr("mdc_secrets", language), "lines": lines, "head": head, "rows": rows}


# ---------------------------------------------------------------------------------------------- the reveal

def _boxes_seen(facts: Mapping[str, Any], rules: Any) -> dict[int, dict[str, Any]] | None:
    """What each taker saw on opening the box, rebuilt from the public end facts (hidden diamonds, set-aside
    token, every take), checked against the box the Godfather got back; None if they do not add up."""
    diamonds = int(rules.diamonds) - int(facts["hidden"])
    tokens: Counter[str] = Counter(dict(facts["tokens_in_game"]))
    seen: dict[int, dict[str, Any]] = {}
    takes = facts["all_takes"]
    aside = facts.get("set_aside", "none")
    for index, seat in enumerate(facts["order"]):
        if seat not in takes:
            break
        seen[seat] = {"diamonds": diamonds, "tokens": sorted(tokens.elements(), key=_token_order)}
        if index == 0 and aside not in (None, "none"):
            tokens[aside] -= 1
        take = takes[seat]
        if take.isdigit():
            diamonds -= int(take)
        elif take != "nothing":
            tokens[take] -= 1
    returned = facts.get("box_returned")
    final = {"diamonds": diamonds, "tokens": sorted(tokens.elements(), key=_token_order)}
    if returned is None or returned["diamonds"] != final["diamonds"] or \
            sorted(returned["tokens"], key=_token_order) != final["tokens"]:
        return None
    return seen


def _claim_truth(claim: str, seat: int, facts: Mapping[str, Any], seen: Mapping[int, Mapping[str, Any]] | None,
                 players: Sequence[str], language: str) -> tuple[str, bool | None]:
    """The truth a claim is about, in words, and whether the claim matches it (None: an opinion)."""
    parts = claim.split()
    takes = facts["all_takes"]
    if parts[0] == "took" and seat in takes:
        return take_word(takes[seat], language), parts[1] == takes[seat]
    if parts[0] == "saw" and seen is not None and seat in seen:
        box = seen[seat]
        said = (int(parts[1]), sorted(parts[2:], key=_token_order))
        return box_text(box, language), said == (box["diamonds"], sorted(box["tokens"], key=_token_order))
    if parts[0] == "suspect":
        target = int(parts[1])
        if target in takes:
            return f"{players[target]}{colon(language)}{role_word(take_role(takes[target]), language)}", None
        if target == facts["godfather"]:
            return f"{players[target]}{colon(language)}{role_word('godfather', language)}", None
    return tr("mdc_opinion", language), None


def _why_won(seat: int, facts: Mapping[str, Any], outcome: str, players: Sequence[str], language: str) -> str:
    """Why `seat` is among the winners, in words."""
    takes = facts["all_takes"]
    if seat == facts["godfather"]:
        return tr("mdc_why_godfather", language)
    role = take_role(takes.get(seat, "nothing"))
    if outcome == "agent":
        return tr("mdc_why_agent", language)
    if outcome == "cleaner":
        return tr("mdc_why_cleaner", language)
    if role == "driver":
        right = (seat - 1) % len(players)
        return tr("mdc_why_driver", language).format(name=players[right])
    if role == "thief":
        return tr("mdc_why_thief", language).format(diamonds=takes[seat])
    if role == "cleaner":
        return tr("mdc_why_cleaner_team", language)
    key = f"mdc_why_{role}"
    return tr(key, language) if role in ("loyal", "street-kid") else role_word(role, language)


def _end_outcome(view: View) -> str:
    for event in reversed(view.log):
        if event.kind == "end":
            return str(event.data.get("outcome", ""))
    return ""


def reveal_html(subject: GameState[Any] | View, language: str = "en") -> str:
    """The end of the game for everyone: every take and role, the box's journey, every claim against the
    truth (liars marked), the winners and why. Built from the public view of the finished game, so it holds
    nothing that was not revealed; refused before the end."""
    view = subject if isinstance(subject, View) else subject.view(None)
    if not view.is_over:
        raise ValueError("The reveal is for the end of the game: this game is not over yet.")
    facts, players = view.facts, view.players
    names = display_names(players)
    outcome = _end_outcome(view)
    seen = _boxes_seen(facts, view.rules)
    takes = facts["all_takes"]
    claims: list[Row] = []
    liars: set[int] = set()
    said: dict[int, list[str]] = {}
    for event in view.log:
        if event.kind == "testimony" and event.actor is not None:
            claim = event.data["claim"]
            truth, holds = _claim_truth(claim, event.actor, facts, seen, names, language)
            if holds is False:
                liars.add(event.actor)
            verdict: Tag | str = Tag("\u2714 " + tr("tt.true", language), "good") if holds else (
                Tag("\u2718 " + tr("tt.lie", language), "bad") if holds is False
                else Tag(tr("mdc_opinion", language), "info"))
            claims.append(Row((claim_text(claim, names, language), truth, verdict), head=players[event.actor],
                              kind="bad" if holds is False else ""))
            said.setdefault(event.actor, []).append(claim_text(claim, names, language))
    rows = []
    for seat in _ring_order(facts, len(players)):
        won = seat in facts["winners"]
        result = Tag(f"{tr('mdc_wins', language)}{colon(language)}{_why_won(seat, facts, outcome, names, language)}",
                     "good") \
            if won else Tag(tr("mdc_lost", language), "info")
        if seat == facts["godfather"]:
            role, took, opened = role_word("godfather", language), "\u2014", \
                _hid_text(int(facts["hidden"]), language)
        else:
            take = takes.get(seat, "nothing")
            role, took = role_word(take_role(take), language), take_word(take, language)
            opened = box_text(seen[seat], language) if seen and seat in seen else "\u2014"
        verdict = Tag("\u2718 " + tr("tt.liar", language), "bad") if seat in liars else ""
        rows.append(Row((Tag(role, "role"), took, opened, verdict, result), head=players[seat],
                        kind="good" if won else ""))
    journey = _journey(facts, int(view.rules.diamonds), seen, names, language)
    text = f"{_outcome_text(outcome, language)} {tr('tt.winners', language)}{colon(language)}" \
           f"{join_names((names[s] for s in facts['winners']), language) or tr('tt.nobody', language)}."
    return render("mafia_de_cuba/reveal.html.j2", kind="mafia-reveal", language=language,
                  title=f"{tr('mdc_title', language)} \u2014 {tr('tt.reveal', language)}",
                  banner=text,
                  who_title=tr("mdc_who_was_who", language),
                  head=(tr("tt.seat", language), tr("mdc_role", language), tr("mdc_took", language),
                        tr("mdc_opened", language), tr("mdc_verdict", language), tr("mdc_won", language)),
                  rows=rows, journey_title=tr("mdc_box_journey", language), journey=journey,
                  claims_title=tr("mdc_claims", language),
                  claims_head=(tr("tt.seat", language), tr("mdc_claim", language), tr("mdc_truth", language), ""),
                  claims=claims, no_claims=tr("mdc_no_statement", language))


def _outcome_text(outcome: str, language: str) -> str:
    key = f"mdc_outcome_{outcome}"
    return tr(key, language) if key in _OUTCOMES else ""


def _hid_text(hidden: int, language: str) -> str:
    """'the Godfather hides 2 diamonds', or 'hides no diamond' ('le Parrain ne cache aucun diamant')."""
    if hidden == 0:
        return tr("mdc_gf_hid_none", language)
    return tr("mdc_gf_hid", language).format(diamonds=diamonds_text(hidden, language))


def _journey(facts: Mapping[str, Any], diamonds: int, seen: Mapping[int, Mapping[str, Any]] | None,
             names: Sequence[str], language: str) -> list[str]:
    """The box from hand to hand: the start (`diamonds` in the box), the Godfather's hiding, each take, the
    return."""
    start = {"diamonds": diamonds,
             "tokens": [name for name, count in sorted(facts["tokens_in_game"].items(),
                                                       key=lambda kv: _token_order(kv[0])) for _ in range(count)]}
    steps = [tr("mdc_start", language).format(box=box_text(start, language)),
             _hid_text(int(facts["hidden"]), language)]
    aside = facts.get("set_aside", "none")
    for index, seat in enumerate(facts["order"]):
        if seat not in facts["all_takes"]:
            break
        parts = []
        if seen and seat in seen:
            parts.append(box_text(seen[seat], language))
        if index == 0 and aside not in (None, "none"):
            parts.append(f"{tr('mdc_set_aside', language).lower()} {take_word(aside, language)}")
        parts.append(f"{tr('mdc_took', language).lower()} {take_word(facts['all_takes'][seat], language)}")
        steps.append(names[seat] + colon(language) + " \u2192 ".join(parts))
    if facts.get("box_returned") is not None:
        steps.append(tr("mdc_came_back_short", language).format(box=box_text(facts["box_returned"], language)))
    return steps


# ---------------------------------------------------------------------------------------------- move buttons

_SEAT_WORDS = {"ask", "accuse", "suspect"}


def move_label(view: View, path: Sequence[str], language: str = "en") -> str:
    """The button for the last word of `path` (the notation words chosen so far, that word included):
    verbs become sentences, seats become names, numbers become diamonds, tokens their names."""
    verb, word, depth = path[0], path[-1], len(path)
    if depth == 1:
        key = f"mdc_m_{verb}"
        return tr(key, language) if key in _MOVE_KEYS else word
    if verb in _SEAT_WORDS and depth == 2 and word.isdigit() and int(word) < len(view.players):
        return short_name(view.players[int(word)])
    if verb == "ask" and depth == 3:
        return question_text(word, language)
    if verb in ("hide", "saw") and depth == 2 and word.isdigit():
        return diamonds_text(int(word), language)
    if verb in ("take", "took") and depth == 2:
        if word == "nothing":
            return tr("mdc_m_nothing", language)
        if word.isdigit():
            return diamonds_text(int(word), language)
        return tr("mdc_token_button", language).format(token=token_name(word, language))
    if verb == "set-aside" and depth == 2:
        return tr("mdc_m_none", language) if word == "none" else \
            tr("mdc_token_button", language).format(token=token_name(word, language))
    if verb == "saw" and depth > 2 and word in TOKEN_ORDER:
        return token_name(word, language)
    return word


_MOVE_KEYS = {f"mdc_m_{verb}" for verb in ("hide", "set-aside", "take", "ask", "floor", "accuse", "saw", "took",
                                           "suspect", "silent", "pass", "shoot", "hold")}


__all__ = ["event_text", "log_html", "move_label", "reveal_html", "state_html", "view_html"]
