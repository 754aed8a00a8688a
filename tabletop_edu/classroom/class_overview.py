"""The class's dashboard drawn: every table of the round at a glance, the levers for all of them, each student's time.

`board_html(overview, language)` turns the teacher's overview (`class_handlers.ClassApi.overview`) into HTML, the
same in the notebook (`ClassBoard._repr_html_`, without levers: a notebook's output runs no script) and on the
teacher's page `/t/CODE` (with levers: buttons carrying `data-command`, which class_dashboard.js sends to the API).
Every name is escaped here. The dashboard may be on the projector, so it shows no secret: whose turn it is is
public at every table, and beliefs are counted per table only (a seat that was never asked would single itself
out: in Get Adler, Adler).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from ..i18n import register, tr

register({
    "en": {"cdash.title": "Class dashboard", "cdash.round": "Round", "cdash.table": "Table",
           "cdash.step": "step", "cdash.turn": "to play", "cdash.for": "for", "cdash.seconds": "s",
           "cdash.offline": "not connected", "cdash.beliefs": "beliefs stated", "cdash.done": "done",
           "cdash.paused": "paused", "cdash.playing": "playing", "cdash.gathering": "waiting for students",
           "cdash.closed": "closed", "cdash.nobody_offline": "everyone connected",
           "cdash.start": "New round", "cdash.pause": "Pause all", "cdash.resume": "Resume all",
           "cdash.reveal": "Reveal all finished tables", "cdash.download": "Download (CSV)",
           "cdash.bot_plays": "Bot plays for", "cdash.projector": "Projector", "cdash.waiting": "Waiting for a table",
           "cdash.nobody": "nobody", "cdash.students": "Students", "cdash.extra": "Extra time per move",
           "cdash.more_time": "+1 min", "cdash.reset_time": "No extra", "cdash.message": "Message to every student",
           "cdash.send": "Send", "cdash.clear": "Take back", "cdash.no_tables": "No tables yet: start a round.",
           "cdash.shuffle": "shuffled", "cdash.same": "same tables", "cdash.winners_first": "winners sit first",
           "cdash.tables_done": "tables done", "cdash.students_count": "students", "cdash.sat": "seated",
           "cdash.token_missing": "Open this page from the notebook's link (it carries the teacher's key).",
           "cdash.score": "Score", "cdash.student": "Student", "cdash.colon": ":",
           "cdash.start_now": "Start every table (bots for absent students)"},
    "fr": {"cdash.title": "Tableau de bord de la classe", "cdash.round": "Manche", "cdash.table": "Table",
           "cdash.step": "étape", "cdash.turn": "doit jouer", "cdash.for": "depuis", "cdash.seconds": "s",
           "cdash.offline": "non connectés", "cdash.beliefs": "croyances données", "cdash.done": "terminée",
           "cdash.paused": "en pause", "cdash.playing": "en cours", "cdash.gathering": "en attente des élèves",
           "cdash.closed": "fermée", "cdash.nobody_offline": "tout le monde est connecté",
           "cdash.start": "Nouvelle manche", "cdash.pause": "Tout mettre en pause", "cdash.resume": "Tout reprendre",
           "cdash.reveal": "Révéler les tables terminées", "cdash.download": "Télécharger (CSV)",
           "cdash.bot_plays": "Le robot joue pour", "cdash.projector": "Projecteur",
           "cdash.waiting": "En attente d'une table", "cdash.nobody": "personne", "cdash.students": "Élèves",
           "cdash.extra": "Temps en plus par coup", "cdash.more_time": "+1 min", "cdash.reset_time": "Sans ajout",
           "cdash.message": "Message à tous les élèves", "cdash.send": "Envoyer", "cdash.clear": "Retirer",
           "cdash.no_tables": "Pas encore de tables : lancez une manche.", "cdash.shuffle": "mélangées",
           "cdash.same": "mêmes tables", "cdash.winners_first": "les gagnants d'abord",
           "cdash.tables_done": "tables terminées", "cdash.students_count": "élèves", "cdash.sat": "assis",
           "cdash.token_missing": "Ouvrez cette page par le lien du notebook (il porte la clé de l'enseignant).",
           "cdash.score": "Score", "cdash.student": "Élève", "cdash.colon": " :",
           "cdash.start_now": "Lancer toutes les tables (robots pour les absents)"},
})

#: The seconds one tap of "+1 min" adds to a student's time.
EXTRA_STEP = 60


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _button(label: str, command: str, **data: Any) -> str:
    attributes = "".join(f' data-{key}="{_e(value)}"' for key, value in data.items())
    return f'<button type="button" class="lever" data-command="{_e(command)}"{attributes}>{_e(label)}</button>'


def table_state(table: Mapping[str, Any]) -> str:
    """The table's state word key: closed, done, paused, playing or gathering (not every seat taken yet)."""
    if table["closed"]:
        return "closed"
    if table["done"]:
        return "done"
    if table["paused"]:
        return "paused"
    return "playing" if table["started"] else "gathering"


def table_card(index: int, table: Mapping[str, Any], language: str, levers: bool) -> str:
    """One table: its number, state, step, who is to play and for how long, who is offline, beliefs stated."""
    def t(key: str) -> str:
        return tr(key, language)

    state = table_state(table)
    turn = ", ".join(table["turn"]) or "—"
    waited = "" if table.get("waiting_seconds") is None else \
        f" <span class='waited'>{t('cdash.for')} {round(table['waiting_seconds'])} {t('cdash.seconds')}</span>"
    offline = ", ".join(table["offline"])
    colon = t("cdash.colon")  # French puts a space before a colon
    offline_line = (f"<p class='offline'>⚠ {_e(t('cdash.offline'))}{colon} {_e(offline)}</p>" if offline and
                    state in ("playing", "paused", "gathering") else
                    f"<p class='online-all'>✔ {_e(t('cdash.nobody_offline'))}</p>" if state == "playing" else "")
    beliefs = "" if table.get("beliefs") is None else \
        f"<p class='belief-count'>{_e(t('cdash.beliefs'))}{colon} <b>{table['beliefs']}</b></p>"
    students = ", ".join(_e(name) for name in table["students"])
    bots = f" + {table['seats'] - len(table['students'])} 🤖" if table["seats"] > len(table["students"]) else ""
    actions = ""
    if levers:
        plays = [_button(f"{t('cdash.bot_plays')} {name}", "play_for", room=table["room"], seat=seat)
                 for name, seat in zip(table["turn"], table.get("turn_seats", []))
                 if state == "playing" and seat < len(table["students"])]
        projector = (f"<a class='lever' href='{_e(table['watch_url'])}' target='_blank' rel='noopener'>"
                     f"{_e(t('cdash.projector'))}</a>") if table.get("watch_url") else ""
        actions = f"<div class='levers'>{''.join(plays)}{projector}</div>"
    return (f"<article class='table-card {state}' data-room='{_e(table['room'])}'>"
            f"<h3>{_e(t('cdash.table'))} {index} <small>{_e(table['room'])}</small>"
            f"<span class='badge {state}'>{_e(t('cdash.' + state))}</span></h3>"
            f"<p class='who'>{students}{bots}</p>"
            f"<p class='step'>{_e(t('cdash.step'))} {table['step']} · {_e(t('cdash.turn'))}{colon} "
            f"<b>{_e(turn)}</b>{waited}</p>{offline_line}{beliefs}{actions}</article>")


def students_html(overview: Mapping[str, Any], language: str, levers: bool) -> str:
    """Each student: their table, running score and extra time, with the levers to extend it."""
    rows = []
    for student in overview.get("students", []):
        extra = round(student.get("extra_time", 0))
        buttons = "" if not levers else (
            _button(tr("cdash.more_time", language), "extend", student=student["name"], seconds=extra + EXTRA_STEP)
            + (_button(tr("cdash.reset_time", language), "extend", student=student["name"], seconds=0)
               if extra else ""))
        table = "—" if student.get("table") is None else str(student["table"])
        rows.append(f"<tr><td>{_e(student['name'])}</td><td>{_e(table)}</td>"
                    f"<td class='number'>{float(student.get('score', 0)):g}</td>"
                    f"<td class='number'>{'+' + str(extra) + ' s' if extra else '—'}</td><td>{buttons}</td></tr>")
    head = "".join(f"<th>{_e(tr(key, language))}</th>" for key in
                   ("cdash.student", "cdash.table", "cdash.score", "cdash.extra"))
    return (f"<section class='students'><h2>{_e(tr('cdash.students', language))} ({len(rows)})</h2>"
            f"<table><tr>{head}<th></th></tr>{''.join(rows)}</table></section>")


def levers_html(overview: Mapping[str, Any], language: str) -> str:
    """The levers for every table at once, the message to every student and the download."""
    def t(key: str) -> str:
        return tr(key, language)

    regroups = "".join(f"<option value='{key}'>{_e(t('cdash.' + key))}</option>"
                       for key in ("shuffle", "same", "winners_first"))
    note = overview.get("note") or {}
    return (f"<div class='class-levers'>"
            f"<span class='start'>{_button(t('cdash.start'), 'start_round')}"
            f"<select id='regroup' aria-label='{_e(t('cdash.start'))}'>{regroups}</select></span>"
            f"{_button(t('cdash.start_now'), 'start_now')}"
            f"{_button(t('cdash.pause'), 'pause')}{_button(t('cdash.resume'), 'resume')}"
            f"{_button(t('cdash.reveal'), 'reveal_all')}{_button(t('cdash.download'), 'download')}</div>"
            f"<form class='class-note-form' id='note-form'><label for='note-text'>{_e(t('cdash.message'))}</label>"
            f"<input id='note-text' maxlength='280' value='{_e(note.get('text', ''))}' autocomplete='off'>"
            f"<button type='submit' class='lever'>{_e(t('cdash.send'))}</button>"
            f"{_button(t('cdash.clear'), 'note_clear')}</form>")


def board_html(overview: Mapping[str, Any], language: str = "en", *, levers: bool = False) -> str:
    """The dashboard as it is now: a summary line, a card per table (with its levers when `levers`), who waits
    for a table, and the students with their extra time. The page's levers for every table (`levers_html`) are
    drawn once, beside it, so that a refresh never clears what the teacher is typing."""
    tables = overview["tables"]
    done = sum(1 for table in tables if table["done"])
    students = len(overview.get("students", []))
    summary = (f"<p class='summary'><b>{_e(tr('cdash.round', language))} {overview['round']}</b> · "
               f"{students} {_e(tr('cdash.students_count', language))} · {done}/{len(tables)} "
               f"{_e(tr('cdash.tables_done', language))}</p>")
    cards = "".join(table_card(index, table, language, levers) for index, table in enumerate(tables, start=1)) \
        or f"<p>{_e(tr('cdash.no_tables', language))}</p>"
    waiting = ", ".join(_e(name) for name in overview.get("waiting", [])) or _e(tr("cdash.nobody", language))
    return (f"<div class='class-board' lang='{_e(language)}'>{summary}"
            f"<div class='table-cards'>{cards}</div>"
            f"<p class='waiting'>{_e(tr('cdash.waiting', language))}{tr('cdash.colon', language)} {waiting}</p>"
            f"{students_html(overview, language, levers)}</div>")
