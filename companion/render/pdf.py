"""Printable setup sheets: a pure function of seeded deals and display options that makes a PDF.

A sheet is two pages. The first sets the deal up: title, variant, seed, options, deal version,
date and a QR code; the layout as dealt, drawn to proportion with every pile named as the CLI
names it (face-down cards as backs, their identity in small print); the piles dealt squared up,
listed card by card; and "Stack the deck", the whole deck top card first, with how to deal it.
The second page is for play: the rules in the project's words, the move notation and a numbered
move log.

reportlab is imported inside the functions only. Cards are set in DejaVu Sans (shipped in
``fonts/`` with its licence), which has the suit symbols; reportlab embeds the subset used.
Output is deterministic: the same deals, options and date give the same bytes.

Text order inside the PDF is part of the contract (the tests read it back): on a setup page the
diagram comes first, each pile as its name followed by its cards bottom first (only the top card
of a squared pile); then, after the heading "Squared piles", each such pile's name and all its
cards bottom first; then, after "Stack the deck", the numbered deck order.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..cards import SUIT_COLOUR, SUIT_OF, SUIT_SYMBOLS, UNKNOWN, code_text
from ..errors import CompanionError
from ..pysolfc import first_turn_note, game_name
from ..rules import DEAL_VERSION, start_deck_order
from ..rules.describe import deal_lines as engine_deal_lines
from ..rules.describe import layout_legend as engine_layout_legend
from ..rules.describe import notation
from .layout import CARD_H, Diagram, Place, layout

PAPERS = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}
LETTER_TERRITORIES = {"US", "CA", "MX", "PH", "CL", "CO", "CR", "GT", "NI", "PA", "PR", "SV",
                      "VE", "DO", "BZ"}
"""Where Letter paper is the norm (glibc's LC_PAPER); everywhere else gets A4."""

FONT = "CompanionSans"
BOLD = "CompanionSans-Bold"
MARGIN = 34.0
MAX_CARD = 58.0
"""Widest a card is drawn, in points (about 20 mm)."""
QR_MODULE = 2.2
"""The side of one QR module in points (0.8 mm: 4.6 pixels at 150 dpi); the code grows with its
text, from QR_MIN to QR_MAX points."""
QR_MIN, QR_MAX = 66.0, 100.0
QR_LEVEL = "L"
HEADINGS = ("Layout", "Squared piles", "Stack the deck", "Rules", "Move notation", "Move log")


class SheetError(CompanionError):
    """A sheet that cannot be made or written (an unwritable path, a bad paper size)."""


@dataclass(frozen=True)
class Written:
    path: Path
    pages: int
    size: int


# -- small pure helpers ------------------------------------------------------------------------

def qr_text(pos) -> str:
    """``companion:VARIANT:SEED:OPTIONS:DEALVERSION``: what the sheet's QR code holds.

    OPTIONS are the non-default options as ``k=v`` joined by commas (empty for none). SEED is
    ``pysolN`` for PySolFC's game N."""
    options = pos.variant.identity.partition(":")[2]
    seed = pos.seed if pos.pysol is None else f"pysol{pos.pysol}"
    return f"companion:{pos.variant.key}:{seed}:{options}:{DEAL_VERSION}"


def default_paper(environ: dict | None = None) -> str:
    """``letter`` for US/Canada-style locales (or ``PAPERSIZE=letter``), otherwise ``a4``."""
    env = os.environ if environ is None else environ
    forced = (env.get("PAPERSIZE") or "").strip().lower()
    if forced in PAPERS:
        return forced
    for var in ("LC_ALL", "LC_PAPER", "LANG"):
        value = env.get(var)
        if value:
            territory = value.split(".")[0].split("@")[0].partition("_")[2].upper()
            return "letter" if territory in LETTER_TERRITORIES else "a4"
    return "a4"


def deal_lines(v) -> list[str]:
    """How to deal: the engine's own sentences (companion.rules.describe.deal_lines)."""
    return engine_deal_lines(v)


def layout_legend(v) -> str:
    """The caption beside "Layout": the engine's names for the piles of ``v``
    (companion.rules.describe.layout_legend)."""
    return engine_layout_legend(v)


def notation_rows(v) -> list[tuple[str, str]]:
    """The move notation a player of ``v`` needs, as (text, meaning) rows: the engine's own
    table, as `companion rules` prints it."""
    return list(notation(v))


def creator() -> str:
    """The PDF's Creator field: this program's version and reportlab's, whose output it is."""
    from reportlab import Version

    return f"companion {__version__} (reportlab {Version})"


def today() -> str:
    """The date printed on a sheet: ``SOURCE_DATE_EPOCH`` when set (reproducible builds),
    otherwise today, as ``YYYY-MM-DD``."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return _dt.datetime.fromtimestamp(int(epoch), _dt.UTC).date().isoformat()
    return _dt.date.today().isoformat()


# -- drawing -----------------------------------------------------------------------------------

def _register_fonts() -> None:
    from importlib import resources

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    folder = resources.files("companion.render") / "fonts"
    for name, file in ((FONT, "DejaVuSans.ttf"), (BOLD, "DejaVuSans-Bold.ttf")):
        with resources.as_file(folder / file) as path:
            pdfmetrics.registerFont(TTFont(name, str(path)))


class _Style:
    def __init__(self, mono: bool):
        from reportlab.lib.colors import Color
        self.mono = mono
        self.black = Color(0, 0, 0)
        self.red = Color(0, 0, 0) if mono else Color(0.78, 0.05, 0.12)
        self.ink = Color(0.1, 0.1, 0.12)
        self.grey = Color(0.42, 0.42, 0.45)
        self.light = Color(0.7, 0.7, 0.72)
        self.rule = Color(0.8, 0.8, 0.82)
        self.accent = Color(0.1, 0.1, 0.12) if mono else Color(0.12, 0.26, 0.48)
        self.back = Color(1, 1, 1) if mono else Color(0.83, 0.88, 0.96)
        self.back_line = Color(0.72, 0.72, 0.74) if mono else Color(0.5, 0.61, 0.82)
        self.back_edge = Color(0.35, 0.35, 0.38) if mono else Color(0.22, 0.33, 0.58)
        self.white = Color(1, 1, 1)

    def suit(self, code: int):
        if code == UNKNOWN:
            return self.ink
        return self.red if SUIT_COLOUR[SUIT_OF[code]] else self.ink


def _card_text(code: int) -> str:
    return code_text(code, True)


class _Pen:
    """A reportlab canvas with y measured downwards from the top of the page."""

    def __init__(self, canvas, height: float, style: _Style, forms: set[str]):
        self.c = canvas
        self.H = height
        self.st = style
        self.forms = forms

    def text(self, x: float, y: float, s: str, size: float, font: str = FONT, colour=None,
             align: str = "left", condense: float = 1.0) -> float:
        """Draw ``s`` with its baseline at ``y``, ``condense`` times its usual width (a
        condensed face, for a card index in a narrow strip); returns its width."""
        from reportlab.pdfbase.pdfmetrics import stringWidth
        c = self.c
        c.setFillColor(colour if colour is not None else self.st.ink)
        w = stringWidth(s, font, size) * condense
        if align == "right":
            x -= w
        elif align == "centre":
            x -= w / 2
        if condense == 1.0:
            c.setFont(font, size)
            c.drawString(x, self.H - y, s)
        else:
            t = c.beginText(x, self.H - y)
            t.setFont(font, size)
            t.setHorizScale(condense * 100)
            t.textOut(s)
            t.setHorizScale(100)  # the scale is text state: it would outlive this text
            c.drawText(t)
        return w

    def width(self, s: str, size: float, font: str = FONT) -> float:
        from reportlab.pdfbase.pdfmetrics import stringWidth
        return stringWidth(s, font, size)

    def wrap(self, s: str, size: float, width: float, font: str = FONT) -> list[str]:
        from reportlab.lib.utils import simpleSplit
        return simpleSplit(s, font, size, width) or [""]

    def line(self, x1, y1, x2, y2, colour=None, width: float = 0.5, dash=None) -> None:
        c = self.c
        c.setStrokeColor(colour if colour is not None else self.st.rule)
        c.setLineWidth(width)
        c.setDash(*(dash or ([], 0)))
        c.line(x1, self.H - y1, x2, self.H - y2)
        c.setDash([], 0)

    def rrect(self, x, y, w, h, r, fill=None, stroke=None, width: float = 0.6,
              dash=None) -> None:
        c = self.c
        if fill is not None:
            c.setFillColor(fill)
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(width)
        c.setDash(*(dash or ([], 0)))
        c.roundRect(x, self.H - y - h, w, h, r, stroke=int(stroke is not None),
                    fill=int(fill is not None))
        c.setDash([], 0)


def _fit(pen: _Pen, text: str, size: float, room: float, font: str = BOLD) -> float:
    w = pen.width(text, size, font)
    return size if w <= room else size * room / w


CONDENSE_MIN = 0.62
"""How narrow a card index may be set (a condensed face) before it is set smaller instead."""


def _fit_index(pen: _Pen, text: str, size: float, room: float,
               font: str = BOLD) -> tuple[float, float]:
    """(size, condense) setting a card index ``text`` in ``room`` points: condensed first, so
    that ``10♠`` in a tight fan keeps the height of ``Q♠`` beside it; smaller only beyond."""
    w = pen.width(text, size, font)
    if w <= room:
        return size, 1.0
    condense = room / w
    if condense >= CONDENSE_MIN:
        return size, condense
    return size * condense / CONDENSE_MIN, CONDENSE_MIN


def _draw_card(pen: _Pen, spot, X: float, Y: float, s: float, then=None) -> None:
    """One card at top-left (X, Y) points, ``s`` points wide: face, or back with small print.
    ``then`` is called between the card's shape and its text (to write a name on the card
    before its identity, keeping the PDF's text in name-then-cards order)."""
    st = pen.st
    h = CARD_H * s
    r = 0.08 * s
    code = spot.code
    strip_pt = spot.strip * s
    if spot.face_up:
        pen.rrect(X, Y, s, h, r, fill=st.white, stroke=st.light if not st.mono else st.grey,
                  width=0.6)
        if then:
            then()
        text = _card_text(code)
        room = (strip_pt if spot.visible in ("left", "right") else s) - 0.1 * s
        size = min(0.27 * s, (strip_pt if spot.visible == "top" else h) * 0.62)
        size, condense = _fit_index(pen, text, size, room)
        pad = 0.06 * s
        base = Y + pad + size * 0.82
        if spot.visible == "right":
            pen.text(X + s - pad, base, text, size, BOLD, st.suit(code), "right", condense)
        else:
            pen.text(X + pad, base, text, size, BOLD, st.suit(code), condense=condense)
        if spot.visible == "full" and code != UNKNOWN:
            big = 0.52 * s
            pen.text(X + s / 2, Y + h * 0.62 + big * 0.35, SUIT_SYMBOLS[SUIT_OF[code]], big,
                     FONT, st.suit(code), "centre")
        return
    # a back (drawn once per size as a form and reused), then the identity in a white box
    c = pen.c
    c.saveState()
    c.translate(X, pen.H - Y - h)
    c.doForm(_back_form(pen, s))
    c.restoreState()
    if then:
        then()
    text = _card_text(code)
    size = min(0.18 * s, (strip_pt if spot.visible == "top" else h) * 0.5, 8.0)
    room = (strip_pt if spot.visible in ("left", "right") else s) - 0.12 * s
    size, condense = _fit_index(pen, text, size, room, FONT)
    pad = 0.07 * s
    w = pen.width(text, size, FONT) * condense
    bx = X + s - pad - w - 0.03 * s if spot.visible == "right" else X + pad
    pen.rrect(bx - 0.03 * s, Y + pad - 0.02 * s, w + 0.06 * s, size * 1.12, 0.04 * s,
              fill=st.white)
    pen.text(bx, Y + pad + size * 0.84, text, size, FONT, st.suit(code), condense=condense)


def _back_form(pen: _Pen, s: float) -> str:
    """The name of a form XObject holding a card back ``s`` points wide: fill, frame and
    diagonal lines. Defined at its first use; later backs of that size only refer to it."""
    st = pen.st
    name = f"back{round(s * 100)}{'m' if st.mono else 'c'}"
    if name in pen.forms:
        return name
    pen.forms.add(name)
    c = pen.c
    h = CARD_H * s
    r = 0.08 * s
    c.beginForm(name, 0, 0, s, h)
    c.setFillColor(st.back)
    c.setStrokeColor(st.back_edge)
    c.setLineWidth(0.6)
    c.roundRect(0, 0, s, h, r, stroke=1, fill=1)
    path = c.beginPath()
    inset = 0.08 * s
    path.roundRect(inset, inset, s - 2 * inset, h - 2 * inset, r * 0.6)
    c.clipPath(path, stroke=0, fill=0)
    c.setStrokeColor(st.back_line)
    c.setLineWidth(0.5)
    step = 0.16 * s
    k = -h
    while k < s:
        c.line(k, 0, k + h, h)
        k += step
    c.endForm()
    return name


def _draw_place(pen: _Pen, p: Place, ox: float, oy: float, s: float) -> None:
    st = pen.st
    X, Y = ox + p.x * s, oy + p.y * s
    lx, ly, align = p.label
    label_size = max(5.5, min(0.22 * s, 9.0))
    if align != "corner":
        pen.text(ox + lx * s, oy + ly * s + label_size * 0.36, p.name, label_size, BOLD,
                 st.grey, {"centre": "centre", "left": "left", "right": "right"}[align])
    if not p.cards:
        pen.rrect(X, Y, s, CARD_H * s, 0.08 * s, stroke=st.light, width=0.7, dash=([2, 2], 0))
    if p.kind == "heap":
        for k in (2, 1):
            d = 0.035 * s * k
            pen.rrect(X + d, Y + d, s, CARD_H * s, 0.08 * s, fill=st.white, stroke=st.light)
    def corner_label() -> None:
        size = max(4.5, min(0.16 * s, 7.0))
        pen.text(ox + lx * s, oy + ly * s, p.name, size, FONT, st.grey, "right")

    for k, spot in enumerate(p.cards):
        _draw_card(pen, spot, ox + spot.x * s, oy + spot.y * s, s,
                   corner_label if align == "corner" and k == len(p.cards) - 1 else None)
    if align == "corner" and not p.cards:
        corner_label()
    if p.kind == "heap":
        text = f"{p.count} cards" if p.count != 1 else "1 card"
        size = max(5.0, min(0.16 * s, 7.5))
        w = pen.width(text, size)
        cx, cy = X + s / 2, Y + CARD_H * s - 0.12 * s
        pen.rrect(cx - w / 2 - 2, cy - size * 0.95, w + 4, size * 1.3, 1.5, fill=st.white)
        pen.text(cx, cy, text, size, FONT, st.ink, "centre")


def _flow(pen: _Pen, tokens, x0: float, y: float, width: float, size: float,
          lead: float, draw: bool = True) -> float:
    """Set ``(text, font, colour, space_after)`` tokens left to right, wrapping; returns the
    baseline of the last line (only measures when ``draw`` is false)."""
    x = x0
    for text, font, colour, space in tokens:
        w = pen.width(text, size, font)
        if x > x0 and x + w > x0 + width:
            x = x0
            y += lead
        if draw:
            pen.text(x, y, text, size, font, colour)
        x += w + space
    return y


def _listed_tokens(pen: _Pen, p: Place) -> list:
    st = pen.st
    face = "face down" if p.down == p.count else "face up" if p.down == 0 else \
        f"{p.down} face down, then face up"
    toks = [(p.name, BOLD, st.ink, 4.0),
            (f"({p.count} cards {face}, bottom card first):", FONT, st.grey, 4.0)]
    for k, c in enumerate(p.all_cards):
        toks.append((_card_text(c), BOLD if k >= p.down else FONT, st.suit(c), 4.5))
    return toks


def _heading(pen: _Pen, x: float, y: float, text: str, note: str = "") -> None:
    st = pen.st
    w = pen.text(x, y, text, 11.0, BOLD, st.accent)
    if note:
        pen.text(x + w + 8, y, note, 7.5, FONT, st.grey)


def _header(pen: _Pen, pos, date: str, x: float, y: float, width: float,
            page: str) -> float:
    """Title, meta lines and (on the setup page) the QR code; returns the y below."""
    st = pen.st
    v = pos.variant
    changed = v.changed_options()
    qr = _qr_size(qr_text(pos)) if page == "setup" else 0.0
    title = f"{v.name} — {pos.deal_name}"
    size = _fit(pen, title, 18.0, width - qr - 10)
    pen.text(x, y + 16, title, size, BOLD, st.ink)
    opts = ", ".join(f"{k}={v.option_text(k)}" for k in changed)
    meta = (f"variant {v.key}  ·  options: {opts or 'the defaults'}  ·  "
            f"deal version {DEAL_VERSION}  ·  printed {date}")
    yy = y + 30
    for line in pen.wrap(meta, 8.0, width - qr - 10):
        pen.text(x, yy, line, 8.0, FONT, st.grey)
        yy += 10
    if page == "setup":
        about = v.summary + f"  Deal fingerprint {pos.fingerprint()[:16]}."
        if pos.pysol is not None:
            about += (f"  The deal of PySolFC's {game_name(v)}, game {pos.pysol}. "
                      + first_turn_note(v)).rstrip()
        for line in pen.wrap(about, 8.0, width - qr - 10):
            pen.text(x, yy, line, 8.0, FONT, st.ink)
            yy += 10
        caption = _qr(pen, qr_text(pos), x + width - qr, y - 4, qr)
        yy = max(yy, y + qr + 4 + caption)
    pen.line(x, yy, x + width, yy, st.rule, 0.7)
    return yy + 6


def _qr(pen: _Pen, text: str, x: float, y: float, size: float) -> float:
    """The QR code of ``text``, ``size`` points square with its top-left at (x, y), and the
    text under it, wrapped to the code's width after a ``:`` or ``,``; returns how far the
    caption reaches below the code."""
    from reportlab.graphics import renderPDF
    from reportlab.graphics.barcode.qr import QrCodeWidget
    from reportlab.graphics.shapes import Drawing
    # Level L: the fewest modules for the text, so each is as big as the space allows (a
    # dense code at level M failed to read at 150 dpi); a sheet is printed, not worn.
    w = QrCodeWidget(text, barLevel=QR_LEVEL, barBorder=2)
    x0, y0, x1, y1 = w.getBounds()
    d = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    d.add(w)
    renderPDF.draw(d, pen.c, x, pen.H - y - size)
    lines = _caption_lines(pen, text, 5.0, size + 8)
    for k, line in enumerate(lines):
        pen.text(x + size / 2, y + size + 5 + 6 * k, line, 5.0, FONT, pen.st.grey, "centre")
    return 6.0 * (len(lines) - 1)


def _qr_size(text: str) -> float:
    """How big the QR code of ``text`` is drawn: QR_MODULE points a module, within bounds."""
    from reportlab.graphics.barcode.qr import QrCodeWidget
    w = QrCodeWidget(text, barLevel=QR_LEVEL, barBorder=2)
    x0, _, x1, _ = w.getBounds()
    modules = w.qr.getModuleCount() + 4
    return min(QR_MAX, max(QR_MIN, modules * QR_MODULE))


def _caption_lines(pen: _Pen, text: str, size: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width``, broken after ``:`` and ``,`` (a piece too
    long on its own is cut where it must be)."""
    import re
    pieces = [p for p in re.split(r"(?<=[:,])", text) if p]
    lines: list[str] = []
    for piece in pieces:
        if lines and pen.width(lines[-1] + piece, size) <= width:
            lines[-1] += piece
            continue
        while pen.width(piece, size) > width:
            cut = max(k for k in range(1, len(piece) + 1)
                      if pen.width(piece[:k], size) <= width or k == 1)
            lines.append(piece[:cut])
            piece = piece[cut:]
        lines.append(piece)
    return lines


def _clause_lines(pen: _Pen, text: str, size: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width``, broken after ``;`` where it can be (a
    clause too long for a line is wrapped at spaces)."""
    lines: list[str] = []
    clauses = text.split("; ")
    for k, clause in enumerate(clauses):
        clause += ";" if k < len(clauses) - 1 else ""
        if lines and pen.width(lines[-1] + " " + clause, size) <= width:
            lines[-1] += " " + clause
        else:
            lines += pen.wrap(clause, size, width)
    return lines


def _footer(pen: _Pen, pos, x: float, width: float, page_no: int, pages: int) -> None:
    st = pen.st
    y = pen.H - MARGIN * 0.55
    pen.text(x, y, f"companion {__version__}  ·  {qr_text(pos)}", 6.5, FONT, st.grey)
    pen.text(x + width, y, f"page {page_no} of {pages}", 6.5, FONT, st.grey, "right")


def _stack_columns(n: int) -> int:
    for cols in (13, 8, 10, 12):
        if n % cols == 0:
            return cols
    return 13


def _setup_page(pen: _Pen, pos, paper: tuple[float, float], date: str) -> None:
    st = pen.st
    v = pos.variant
    pw, ph = paper
    x, width = MARGIN, pw - 2 * MARGIN
    y = _header(pen, pos, date, x, MARGIN, width, "setup")

    # measure what follows the diagram, so the diagram gets the rest of the page
    order = start_deck_order(pos)
    cols = _stack_columns(len(order))
    stack_rows = -(-len(order) // cols)
    how = ["Stack the cards face down in this order, card 1 on top: put the last card "
           "down first, then each card before it on top, up to card 1. Then deal from the "
           "top:"] + deal_lines(v)
    how_lines = [ln for text in how for ln in pen.wrap(text, 7.8, width - 10)]
    stack_h = 2 + 24 + stack_rows * 11.5 + 8 + 14 + len(how_lines) * 9.6
    listed = [p for p in layout(pos).places if p.listed]
    list_h = 0.0
    if listed:
        list_h = 28.0
        for p in listed:
            list_h += _flow(pen, _listed_tokens(pen, p), x, 0.0, width, 7.8, 9.5, False) + 12.5
    notes_h = 11.0 * len(layout(pos).notes)
    # the variant's own piles, as the engine names them; wrapped beside the heading if long
    indent = pen.width("Layout", 11.0, BOLD) + 8
    legend = _clause_lines(pen, layout_legend(v), 7.5, width - indent)
    legend_h = 9.0 * (len(legend) - 1)
    room = ph - MARGIN - 20 - y - 20 - 8 - stack_h - list_h - notes_h - legend_h
    diagram = layout(pos, aspect=width / max(room, 100))

    _heading(pen, x, y + 12, "Layout", legend[0])
    for k, line in enumerate(legend[1:], 1):
        pen.text(x + indent, y + 12 + 9.0 * k, line, 7.5, FONT, st.grey)
    y += 20 + legend_h
    s = min(MAX_CARD, width / diagram.width, max(room - 4, 60) / diagram.height)
    dx = x + (width - diagram.width * s) / 2
    _draw_diagram(pen, diagram, dx, y, s)
    y += diagram.height * s + 8
    for note in diagram.notes:
        pen.text(x, y + 8, note, 8.0, FONT, st.grey)
        y += 11

    if listed:
        y += 4
        _heading(pen, x, y + 12, "Squared piles",
                 "put each down bottom card first, face down or up as listed, squared up: "
                 "the last card ends on top")
        y += 24
        for p in diagram.places:
            if p.listed:
                y = _flow(pen, _listed_tokens(pen, p), x, y, width, 7.8, 9.5) + 12.5

    y += 2
    pen.line(x, y, x + width, y, st.rule, 0.7)
    _heading(pen, x, y + 16, "Stack the deck",
             f"{len(order)} cards, top card first: deal them by the plan below to get the "
             f"layout above")
    y += 24
    cw = width / cols
    for k, code in enumerate(order):
        r, cpos = divmod(k, cols)
        bx = x + cpos * cw
        by = y + r * 11.5 + 8
        pen.text(bx + 16, by, str(k + 1), 6.5, FONT, st.grey, "right")
        pen.text(bx + 19, by, _card_text(code), 8.5, BOLD, st.suit(code))
    y += stack_rows * 11.5 + 8
    pen.text(x, y + 12, "How to deal", 9.0, BOLD, st.accent)
    y += 14
    for ln in how_lines:
        y += 9.6
        pen.text(x, y, ln, 7.8, FONT, st.ink)


def _draw_diagram(pen: _Pen, d: Diagram, ox: float, oy: float, s: float) -> None:
    for p in d.places:
        _draw_place(pen, p, ox, oy, s)


def _play_page(pen: _Pen, pos, paper: tuple[float, float], date: str) -> None:
    st = pen.st
    v = pos.variant
    pw, ph = paper
    x, width = MARGIN, pw - 2 * MARGIN
    y = _header(pen, pos, date, x, MARGIN, width, "play")
    _heading(pen, x, y + 12, "Rules", "as `companion rules " + v.key + "` words them")
    y += 20
    lines = v.describe()
    rows = notation_rows(v)
    # a long text gets a smaller size, so that the notation and some log lines still fit
    room = ph - MARGIN - 30 - y - 60 - 10.4 * len(rows) - 6 * 15.5
    size = 8.3
    while size > 6.0 and sum(len(pen.wrap(ln, size, width - 12)) * size * 1.25 + 1.5
                             for ln in lines) > room:
        size -= 0.4
    for line in lines:
        wrapped = pen.wrap(line, size, width - 12)
        for k, part in enumerate(wrapped):
            y += size * 1.25
            if k == 0:
                pen.text(x, y, "•", size, FONT, st.grey)
            pen.text(x + 10, y, part, size, FONT, st.ink)
        y += 1.5
    y += 8
    _heading(pen, x, y + 12, "Move notation", "moves name piles, as on the layout")
    y += 18
    col = max((pen.width(text, 8.3, BOLD) for text, _ in rows), default=0) + 14
    for text, meaning in rows:
        y += 10.4
        pen.text(x + 4, y, text, 8.3, BOLD, st.ink)
        pen.text(x + 4 + col, y, meaning, 8.3, FONT, st.ink)
    y += 12
    _heading(pen, x, y + 12, "Move log", "one move a line, in the notation above")
    y += 20
    bottom = ph - MARGIN - 30
    cols = 4
    row_h = 15.5
    rows = max(1, int((bottom - y) // row_h))
    cw = width / cols
    for c in range(cols):
        for r in range(rows):
            n = c * rows + r + 1
            bx, by = x + c * cw, y + (r + 1) * row_h
            pen.text(bx + 18, by - 2, str(n), 7.0, FONT, st.grey, "right")
            pen.line(bx + 22, by, bx + cw - 10, by, st.rule, 0.5)
    y += (rows + 1) * row_h + 6
    for k, field in enumerate(("Result", "Score", "Player", "Date")):
        bx = x + k * width / 4
        pen.text(bx, y + 4, field, 8.0, BOLD, st.ink)
        pen.line(bx + pen.width(field, 8.0, BOLD) + 4, y + 5, bx + width / 4 - 12, y + 5,
                 st.grey, 0.5)


# -- the public functions ----------------------------------------------------------------------

def render_sheets(positions, *, paper: str = "a4", mono: bool = False,
                  date: str | None = None, play_page: bool = True,
                  title: str | None = None) -> bytes:
    """The PDF of one setup sheet per seeded position (a booklet when there are several).

    ``date`` is printed on every sheet (default: today, ``YYYY-MM-DD``); ``play_page`` adds the
    rules, notation and move-log page after each setup page."""
    from io import BytesIO

    from reportlab.pdfgen.canvas import Canvas

    positions = list(positions)
    if not positions:
        raise SheetError("no deals to print")
    for pos in positions:
        if not pos.known_deal:
            raise SheetError("a setup sheet needs a seeded deal (a physical deal has no "
                             "known cards)")
    if paper not in PAPERS:
        raise SheetError(f"unknown paper {paper!r}: use one of {', '.join(PAPERS)}")
    date = date or today()
    _register_fonts()
    size = PAPERS[paper]
    buf = BytesIO()
    c = Canvas(buf, pagesize=size, invariant=1, pageCompression=1)
    c.setTitle(title or (f"{positions[0].variant.name}, {positions[0].deal_name}"
                         if len(positions) == 1 else "Setup sheets"))
    c.setAuthor("companion")
    c.setCreator(creator())
    c.setSubject(f"Setup sheets printed {date}")
    style = _Style(mono)
    forms: set[str] = set()
    per = 2 if play_page else 1
    for pos in positions:
        pen = _Pen(c, size[1], style, forms)
        _setup_page(pen, pos, size, date)
        _footer(pen, pos, MARGIN, size[0] - 2 * MARGIN, 1, per)
        c.showPage()
        if play_page:
            pen = _Pen(c, size[1], style, forms)
            _play_page(pen, pos, size, date)
            _footer(pen, pos, MARGIN, size[0] - 2 * MARGIN, 2, per)
            c.showPage()
    c.save()
    return buf.getvalue()


def atomic_write(path: str | os.PathLike, data: bytes, *, force: bool = False) -> Path:
    """Write ``data`` to ``path`` safely; returns the path written.

    A regular file (or a new one) is written through a temporary file in the same folder and
    a rename: a failure (a full disk) leaves either the old file or none, never half a file.
    A symbolic link is followed: the file it points to is replaced that way, and the link
    stays. Something that is not a regular file (a device such as ``/dev/stdout``, a FIFO)
    is written to directly, since it cannot be replaced. An existing file that is not a PDF
    (it does not start with ``%PDF``) is kept unless ``force``: it is not ours to overwrite."""
    import stat
    given = Path(path)
    try:
        st = os.stat(given)
    except (FileNotFoundError, NotADirectoryError):  # a new file (the folder is checked below)
        st = None
    except OSError as exc:
        raise SheetError(f"cannot write {given}: {exc.strerror or exc} (choose another place "
                         f"with -o)") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise SheetError(f"cannot write {given}: it is a folder; give a file name such as "
                         f"{given / 'sheet.pdf'}")
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_through(given, data)
        return given
    # a link (or a chain of them, perhaps to a file not made yet) names the file to replace
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    if st is not None and not force:
        _refuse_if_not_pdf(given, target)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise SheetError(f"cannot write {given}: there is no folder {folder} (create it, or "
                         f"choose another place with -o)")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
        if hasattr(os, "fchmod"):  # mkstemp makes the file private; give it the usual mode
            os.fchmod(fd, _mode_for(target))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise SheetError(f"cannot write {given}: {why} (choose another place with -o)") \
            from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return given


def _write_through(path: Path, data: bytes) -> None:
    """Write to a device or FIFO in place (it cannot be renamed over); errors say why."""
    try:
        with open(path, "wb") as f:
            f.write(data)
            f.flush()
    except OSError as exc:
        raise SheetError(f"cannot write {path}: {exc.strerror or exc} (choose another place "
                         f"with -o)") from None


def _refuse_if_not_pdf(given: Path, target: Path) -> None:
    """A SheetError when ``target`` holds something other than a PDF (an empty file is fine)."""
    try:
        with open(target, "rb") as f:
            head = f.read(4)
    except OSError:
        return  # unreadable: the write itself will say why, or succeed
    if head and head != b"%PDF":
        shown = f"{given} (a link to {target})" if given != target else str(given)
        raise SheetError(f"{shown} exists and is not a PDF, so it was left alone: choose "
                         f"another name with -o, or add --force to replace it")


def _mode_for(target: Path) -> int:
    """The existing file's permissions, or what a new file gets under the umask."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def write_sheets(path: str | os.PathLike, positions, *, force: bool = False,
                 **options) -> Written:
    """Render ``positions`` (see :func:`render_sheets`) and write the PDF with
    :func:`atomic_write` (``force`` replaces an existing file that is not a PDF)."""
    positions = list(positions)
    data = render_sheets(positions, **options)
    target = atomic_write(path, data, force=force)
    pages = len(positions) * (2 if options.get("play_page", True) else 1)
    return Written(target, pages, len(data))


__all__ = ["PAPERS", "SheetError", "Written", "atomic_write", "creator", "deal_lines",
           "default_paper", "notation_rows", "qr_text", "render_sheets", "today", "write_sheets"]
