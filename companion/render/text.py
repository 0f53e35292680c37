"""Draw a position in the terminal: a pure function of the position and display options.

Red suits in red when ``colour`` is on; suit symbols unless ``symbols`` is off (then ``7h``);
face-down cards as backs (``░░``/``##``); every pile labelled with the name the CLI uses.
"""

from __future__ import annotations

from ..cards import SUIT_COLOUR, SUIT_OF, UNKNOWN, code_text

RED = "\x1b[31m"
DIM = "\x1b[2m"
RESET = "\x1b[0m"
W = 3  # cell width: "10♥"


class Style:
    def __init__(self, symbols: bool = True, colour: bool = False):
        self.symbols = symbols
        self.colour = colour
        self.back = "░░░" if symbols else "###"
        self.empty = " · " if symbols else " . "

    def card(self, code: int, face_up: bool = True, width: int = W) -> str:
        if not face_up:
            return self.back[:width].rjust(width) if width < 3 else self.back.rjust(width)
        text = "??" if code == UNKNOWN else code_text(code, self.symbols)
        cell = text.rjust(width)
        if self.colour and code != UNKNOWN and SUIT_COLOUR[SUIT_OF[code]]:
            return RED + cell + RESET
        return cell

    def bare(self, code: int) -> str:
        """A face-up card with no padding (``A♦``), coloured like :meth:`card`: padding
        stripped from a coloured cell would stay inside its colour codes."""
        text = "??" if code == UNKNOWN else code_text(code, self.symbols)
        if self.colour and code != UNKNOWN and SUIT_COLOUR[SUIT_OF[code]]:
            return RED + text + RESET
        return text

    def dim(self, text: str) -> str:
        return DIM + text + RESET if self.colour else text


def render(pos, *, symbols: bool = True, colour: bool = False) -> str:
    """The whole layout as text, ready to print."""
    st = Style(symbols, colour)
    eng = pos.engine
    v = eng.variant
    out: list[str] = []
    head = _header_line(pos, st)
    if head:
        out.append(head)
    if v.pyramid:
        out += _pyramid(pos, st)
    if v.accordion:
        out += _line(pos, st)
    if v.gaps:
        out += _grid(pos, st)
    if eng.groups.reserve:
        out += _reserves(pos, st)
    if v.tableau:
        if v.tableau.layout == "wings":
            out += _wings(pos, st)
        elif v.tableau.layout == "fans":
            out += _fans(pos, st)
        else:
            out += _columns(pos, st)
    return "\n".join(out)


def _reserves(pos, st: Style) -> list[str]:
    """Reserve piles in one line; a pile of several cards is spread (top card last)."""
    eng = pos.engine
    cells = []
    for r in eng.groups.reserve:
        p = pos.piles[r]
        cards = " ".join(st.bare(c) for c in p) if p else st.empty.strip()
        cells.append(f"{eng.names[r]} {cards}")
    return ["   ".join(cells)]


def _fans(pos, st: Style, per_line: int = 5) -> list[str]:
    """Fans (House games, Intelligence): each pile as a short row, top card last."""
    eng = pos.engine
    T = eng.groups.tableau
    width = max((len(pos.piles[i]) for i in T), default=1)
    cells = []
    for i in T:
        p = pos.piles[i]
        cards = " ".join(st.card(c, k >= pos.down[i]) for k, c in enumerate(p)) if p \
            else st.empty
        pad = " " * ((width - len(p)) * (W + 1)) if p else " " * ((width - 1) * (W + 1))
        cells.append(f"{eng.names[i]:>3} {cards}{pad}")
    return ["   ".join(cells[k:k + per_line]).rstrip() for k in range(0, len(cells), per_line)]


def _pile_top(pos, st: Style, i: int) -> str:
    p = pos.piles[i]
    if not p:
        return st.empty
    return st.card(p[-1], len(p) > pos.down[i])


def _header_line(pos, st: Style) -> str:
    eng = pos.engine
    groups = eng.groups
    v = eng.variant
    parts = []
    if groups.stock >= 0:
        s = pos.piles[groups.stock]
        turned = bool(s) and pos.down[groups.stock] < len(s)
        count = len(s) - (1 if turned else 0)
        text = f"s [{count}]"
        if v.stock.deal == "tableau" and s:
            per = max(len(groups.tableau) * v.stock.per_pile, 1)
            text += f" ({-(-count // per)} deal{'s' if count > per else ''})"
        if turned:
            text += " " + st.bare(s[-1])
        if eng.passes == 0:
            text += f" pass {pos.pass_no}"
        elif eng.passes > 1:
            text += f" pass {pos.pass_no}/{eng.passes}"
        parts.append(text)
    if groups.waste >= 0:
        w = pos.piles[groups.waste]
        shown = w[-3:] if v.stock and v.stock.draw > 1 else w[-1:]
        cards = " ".join(st.bare(c) for c in shown) if w else st.empty.strip()
        more = f"({len(w)}) " if len(w) > len(shown) else ""
        parts.append(f"w {more}{cards}")
    if groups.foundations and not (v.tableau and v.tableau.layout == "wings"):
        fs = []
        for f in groups.foundations:
            p = pos.piles[f]
            name = eng.names[f]
            if v.pairs:
                fs.append(f"{name} [{len(p)} removed]")
            elif eng.complete_runs:
                fs.append(f"{name} {'K-A ' + st.bare(p[-1]) if p else st.empty.strip()}")
            else:
                fs.append(f"{name} {st.bare(p[-1]) if p else st.empty.strip()}")
        parts.append("   ".join(fs))
    if groups.aside >= 0:
        x = pos.piles[groups.aside]
        parts.append("x " + (" ".join(st.bare(c) for c in x) if x else st.empty.strip()))
    return "    ".join(parts)


def _columns(pos, st: Style) -> list[str]:
    eng = pos.engine
    T = eng.groups.tableau
    width = W + 2
    lines = ["".join(eng.names[i].rjust(W).ljust(width) for i in T).rstrip()]
    depth = max((len(pos.piles[i]) for i in T), default=0)
    for row in range(max(depth, 1)):
        cells = []
        for i in T:
            p = pos.piles[i]
            if row < len(p):
                cells.append(st.card(p[row], row >= pos.down[i]).ljust(width)
                             if not st.colour else st.card(p[row], row >= pos.down[i]) + "  ")
            elif row == 0:
                cells.append(st.empty.ljust(width))
            else:
                cells.append(" " * width)
        lines.append("".join(cells).rstrip())
    return lines


def _wings(pos, st: Style) -> list[str]:
    """Streets and Alleys: left rows grow leftwards, right rows rightwards, foundations between."""
    eng = pos.engine
    groups = eng.groups
    T = groups.tableau
    half = len(T) // 2
    left_w = max((len(pos.piles[i]) for i in T[:half]), default=0)
    lines = []
    for r in range(half):
        li, ri = T[r], T[half + r]
        left = " ".join(st.card(c) for c in reversed(pos.piles[li]))
        pad = " " * ((left_w - len(pos.piles[li])) * (W + 1))
        right = " ".join(st.card(c) for c in pos.piles[ri])
        f = groups.foundations[r] if r < len(groups.foundations) else None
        fnd = f"{eng.names[f]} {_pile_top(pos, st, f)}" if f is not None else " " * 6
        lines.append(f"{eng.names[li]:>3} {pad}{left or st.empty} | {fnd} | "
                     f"{right or st.empty} {eng.names[ri]}")
    return lines


def _pyramid(pos, st: Style) -> list[str]:
    eng = pos.engine
    rows = eng.variant.pyramid.rows
    lines = []
    k = 0
    cell = W + 1
    for r in range(rows):
        indent = " " * ((rows - 1 - r) * cell // 2)
        cards, names = [], []
        for _ in range(r + 1):
            i = eng.groups.pyramid[k]
            p = pos.piles[i]
            cards.append(st.card(p[-1]) if p else st.empty)
            names.append(eng.names[i].rjust(W))
            k += 1
        lines.append(indent + " ".join(cards) + " " * (cell * (rows - r) // 2 + 6)
                     + indent + st.dim(" ".join(names)))
    return lines


def _line(pos, st: Style) -> list[str]:
    eng = pos.engine
    groups = eng.groups
    m = eng.line_length(pos.piles)
    if not m:
        return ["(the line is empty: type s to deal the first card)"]
    per = 13
    lines = []
    for start in range(0, m, per):
        names, cards = [], []
        for k in range(start, min(start + per, m)):
            p = pos.piles[groups.pyramid[k]]
            label = eng.names[groups.pyramid[k]]
            names.append(label.rjust(W).ljust(W + 2))
            extra = f"{len(p)}" if len(p) > 1 else ""
            cards.append(st.card(p[-1]).rjust(W) + st.dim(extra.ljust(2)))
        lines.append(st.dim("".join(names)))
        lines.append("".join(cards))
    return lines


def _grid(pos, st: Style) -> list[str]:
    eng = pos.engine
    g = eng.variant.gaps
    lines = ["  " + "".join(str(c).rjust(W + 1) for c in range(1, g.columns + 1))]
    for r in range(g.rows):
        cells = []
        for c in range(g.columns):
            p = pos.piles[eng.groups.grid[r * g.columns + c]]
            cells.append(" " + (st.card(p[0]) if p else " __"))
        lines.append("abcdefgh"[r] + " " + "".join(cells))
    return lines
