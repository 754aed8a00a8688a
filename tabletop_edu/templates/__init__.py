"""The table's HTML: Jinja2 templates that escape everything by default, shared by every game.

One template per game's table (`<game>/table.html.j2`), its reveal and its knowledge panel, all built from the
same pieces (`macros.html.j2`: seats, cards, tags, panels, the log) inside one layout (`base.html.j2`). The
same templates serve the notebook widget, the static picture a notebook keeps, and the class server's student
pages, so rendering is a pure function from a View (or, for the teacher, a state) to an HTML string.

Player names are typed by students: nothing reaches a page without going through autoescape, and the renderers
hand templates plain text only (never pre-built HTML). Names are shown shortened (`short_name`) with the full
name in a tooltip, so a very long name cannot push the table off the screen.

The look is one stylesheet (`tabletop.css`, plus the ring and bar positions generated here), inlined in a
`<style>` block by default or served on its own (`stylesheet()`), with no inline `style` attribute anywhere
(a strict Content-Security-Policy can allow just the stylesheet). Every size is in `em` from one base size,
`calc(18px * var(--tabletop-scale, 1))`: a size control sets `--tabletop-scale` on any ancestor. Nothing is
fetched from the network (no web fonts, icons or CDNs).

Callers import every name from `tabletop_edu.templates`, whose modules are:

- `values`: what a page shows, as values (`Tag`, `Card`, `SeatBox`, `Row`, `Banner`, `Page`...), the word
  helpers that name players in sentences, the Jinja2 environment that draws them (`render`) and the stylesheet.
- `frames`: the frame cache. `render_framed` draws the part a step's tables share once, around each table's
  own `Hole`s, and puts each table's holes in.
- `drawn`: HTML kept as the pieces it was drawn from, whose JSON the class server writes once.
"""

from .frames import Hole, frame_key, render_framed
from .values import (NAME_LIMIT, Banner, Bar, Card, Cell, Name, Page, Row, SeatBox, Swatch, Tag, Words, acting_seats,
                     banner_html, colon, display_names, elide, environment, join_names, list_items_html, log_lines,
                     page, page_with, perspective_title, remembered_wording, render, ring_seats_html, seat_box,
                     seat_html, short_name, style_block, stylesheet, without_style, word)

__all__ = ["Banner", "Bar", "Card", "Cell", "Hole", "NAME_LIMIT", "Name", "Page", "Row", "SeatBox", "Swatch", "Tag",
           "Words", "acting_seats", "banner_html", "colon", "display_names", "elide", "environment", "frame_key",
           "join_names", "list_items_html", "log_lines", "page", "page_with", "perspective_title",
           "remembered_wording", "render", "render_framed", "ring_seats_html", "seat_box", "seat_html", "short_name",
           "style_block", "stylesheet", "without_style", "word"]
