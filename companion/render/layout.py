"""Where every pile of a dealt position goes on paper: pure geometry, no drawing library.

:func:`layout` places every pile of a position in a plane measured in card widths (a card is
1 wide and :data:`CARD_H` tall, ``y`` grows downwards). Placement is derived from the engine's
own data: the pile names, ``variant.tableau.layout`` (``columns``, ``rows`` of fans, ``wings``),
the Pyramid, Accordion and Gaps pieces, and the cards and face-down counts of the position. It
decides nothing about the rules. A pile of a kind it does not know is still placed, as a
labelled heap, so a new variant never breaks a sheet.

Every pile's cards are listed bottom first (the order they are put down). A *heap* is a pile
drawn squared up, showing only its top card; the sheet lists its cards in words beside the
diagram (``Place.listed``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

CARD_H = 1.4
"""Height of a card in card widths (a poker card is 63 x 88 mm)."""
GAP = 0.16
"""Space between neighbouring piles."""
LABEL = 0.32
"""Room above a pile for its name."""
STEP = 0.34
"""How far each card of a column shows below the one it covers."""
FAN = 0.5
"""How far each card of a fan (a horizontal pile) shows beside the one it covers."""
SIDE = 0.5
"""Room beside a fan or a wing row for its name."""
FAN_MAX = 6
"""Face-up piles beside the tableau of up to this many cards are fanned; bigger ones are heaps."""
LINE_PER_ROW = 13
COLUMNS_MAX = 13
"""More tableau columns than this wrap into a second row."""


@dataclass
class CardSpot:
    code: int
    face_up: bool
    x: float
    y: float
    visible: str = "full"
    """Which part of the card stays visible: ``full``, or the ``top``, ``left`` or ``right``
    strip of width/height ``strip`` (the rest is covered by the next card)."""
    strip: float = 0.0


@dataclass
class Place:
    name: str
    kind: str
    """``column``, ``fan`` (a pile spread sideways, in a wing, a row or beside the tableau),
    ``heap`` (squared up), ``slot`` (empty), ``cell`` (one card in a pyramid, line or grid)."""
    x: float
    y: float
    w: float
    h: float
    cards: list[CardSpot] = field(default_factory=list)
    label: tuple[float, float, str] = (0.0, 0.0, "centre")
    """Where the name goes: anchor ``x``, the middle of the text ``y``, and the alignment
    (``left``, ``centre``, ``right``; ``corner`` puts it small in the card's bottom-right)."""
    count: int = 0
    down: int = 0
    listed: bool = False
    """A heap: its cards are listed in words (bottom first), only the top card is drawn."""
    all_cards: tuple[int, ...] = ()


@dataclass
class Diagram:
    width: float
    height: float
    places: list[Place]
    notes: list[str] = field(default_factory=list)

    def place(self, name: str) -> Place:
        return next(p for p in self.places if p.name == name)


def _group(name: str) -> str:
    return name.rstrip("0123456789")


def layout(pos, aspect: float = 1.4) -> Diagram:
    """Place every pile of ``pos``; ``aspect`` (width / height of the space on paper) helps
    choose how many fans go in a row."""
    eng = pos.engine
    v = eng.variant
    names = eng.names
    piles, down = pos.piles, pos.down

    taken: set[int] = set()
    blocks: list[tuple[float, float, list[Place]]] = []  # (width, height, places) per block
    notes: list[str] = []
    centre_f: list[int] = []

    def grab(indices) -> list[int]:
        out = [i for i in indices if i not in taken]
        taken.update(out)
        return out

    groups: dict[str, list[int]] = {}
    for i, n in enumerate(names):
        groups.setdefault(_group(n), []).append(i)
    gaps_cells = [i for i, n in enumerate(names)
                  if v.gaps and len(n) > 1 and n[0] in "abcdefgh" and n[1:].isdigit()]

    if v.pyramid and groups.get("p"):
        blocks.append(_pyramid(pos, grab(groups["p"]), v.pyramid.rows))
    if v.accordion and groups.get("p"):
        block, note = _line(pos, grab(groups["p"]))
        blocks.append(block)
        if note:
            notes.append(note)
    if gaps_cells:
        blocks.append(_grid(pos, grab(gaps_cells), v.gaps.rows, v.gaps.columns))
    if groups.get("t"):
        tab = grab(groups["t"])
        style = v.tableau.layout if v.tableau else "columns"
        if style == "wings":
            centre_f = [i for i in groups.get("f", []) if i not in taken][: (len(tab) + 1) // 2]
            grab(centre_f)
            blocks.append(_wings(pos, tab, centre_f))
        elif style in ("rows", "fans"):
            blocks.append(_fans(pos, tab, aspect))
        elif style == "squared":
            blocks.append(_squared(pos, tab))
        else:
            blocks.append(_columns(pos, tab))

    # Everything else goes in a band above: stock, waste, reserves and unknown piles on the
    # left; foundations and cards put aside on the right.
    rest = [i for i in range(len(names)) if i not in taken]
    right = [i for i in rest if _group(names[i]) in ("f", "x")]
    reserves = [i for i in rest if _group(names[i]) == "r"]
    left = [i for i in rest if i not in right and i not in reserves]
    left.sort(key=lambda i: ({"s": 0, "w": 1}.get(names[i], 2), i))

    main_w = max((b[0] for b in blocks), default=0.0)
    band = _band(pos, left, right, reserves, main_w)

    width = max([main_w, band[0]] + [b[0] for b in blocks])
    places: list[Place] = []
    y = 0.0
    for bw, bh, bplaces in [band, *blocks]:
        if not bplaces:
            continue
        dx = (width - bw) / 2
        for p in bplaces:
            _shift(p, dx, y)
            places.append(p)
        y += bh + GAP
    height = max(y - GAP, CARD_H)
    del piles, down
    return Diagram(width, height, places, notes)


def _shift(p: Place, dx: float, dy: float) -> None:
    p.x += dx
    p.y += dy
    for c in p.cards:
        c.x += dx
        c.y += dy
    lx, ly, align = p.label
    p.label = (lx + dx, ly + dy, align)


def _base(pos, i: int) -> dict:
    cards = pos.piles[i]
    return {"name": pos.engine.names[i], "count": len(cards), "down": pos.down[i],
            "all_cards": tuple(cards)}


def _column(pos, i: int, x: float, y: float) -> Place:
    """A pile dealt downwards, each card showing a strip of the one beneath."""
    cards = pos.piles[i]
    d = pos.down[i]
    spots = []
    for k, c in enumerate(cards):
        last = k == len(cards) - 1
        spots.append(CardSpot(c, k >= d, x, y + LABEL + k * STEP,
                              "full" if last else "top", STEP))
    h = CARD_H + STEP * max(len(cards) - 1, 0)
    kind = "column" if cards else "slot"
    return Place(kind=kind, x=x, y=y + LABEL, w=1.0, h=h, cards=spots,
                 label=(x + 0.5, y + LABEL / 2, "centre"), **_base(pos, i))


def _fan(pos, i: int, x: float, y: float, leftwards: bool = False) -> Place:
    """A pile spread sideways: rightwards (top card on the right) or leftwards from ``x``."""
    cards = pos.piles[i]
    d = pos.down[i]
    spots = []
    w = 1.0 + FAN * max(len(cards) - 1, 0)
    for k, c in enumerate(cards):
        last = k == len(cards) - 1
        if leftwards:
            cx = x + w - 1.0 - k * FAN
            vis = "right"
        else:
            cx = x + k * FAN
            vis = "left"
        spots.append(CardSpot(c, k >= d, cx, y, "full" if last else vis, FAN))
    kind = "fan" if cards else "slot"
    return Place(kind=kind, x=x, y=y, w=w, h=CARD_H, cards=spots, **_base(pos, i))


def _slot(pos, i: int, x: float, y: float) -> Place:
    """A pile beside the tableau: empty, fanned (a few face-up cards) or a squared heap."""
    cards = pos.piles[i]
    d = pos.down[i]
    if cards and d == 0 and len(cards) <= FAN_MAX:
        p = _fan(pos, i, x, y + LABEL)
    else:
        spots = [CardSpot(cards[-1], len(cards) > d, x, y + LABEL)] if cards else []
        p = Place(kind="heap" if cards else "slot", x=x, y=y + LABEL, w=1.0, h=CARD_H,
                  cards=spots, listed=len(cards) > 1, **_base(pos, i))
    p.label = (x + p.w / 2, y + LABEL / 2, "centre")
    return p


def _slot_width(pos, i: int) -> float:
    cards = pos.piles[i]
    if cards and pos.down[i] == 0 and len(cards) <= FAN_MAX:
        return 1.0 + FAN * (len(cards) - 1)
    return 1.0


def _columns(pos, tab: list[int]) -> tuple[float, float, list[Place]]:
    """Piles dealt downwards side by side; more than thirteen wrap into further rows."""
    rows = math.ceil(len(tab) / COLUMNS_MAX)
    per = math.ceil(len(tab) / rows)
    places: list[Place] = []
    y = 0.0
    for r in range(rows):
        row = [_column(pos, i, k * (1 + GAP), y) for k, i in enumerate(tab[r * per:(r + 1) * per])]
        places += row
        y += max(LABEL + p.h for p in row) + GAP
    return per * (1 + GAP) - GAP, y - GAP, places


def _squared(pos, tab: list[int]) -> tuple[float, float, list[Place]]:
    """Piles squared up side by side (La Nivernaise's line): each drawn as a heap showing its
    top card, its cards listed in words under "Squared piles"."""
    pitch = 1 + GAP
    places = []
    for k, i in enumerate(tab):
        cards = pos.piles[i]
        x = k * pitch
        spots = [CardSpot(cards[-1], len(cards) > pos.down[i], x, LABEL)] if cards else []
        places.append(Place(kind="heap" if cards else "slot", x=x, y=LABEL, w=1.0, h=CARD_H,
                            cards=spots, listed=len(cards) > 1,
                            label=(x + 0.5, LABEL / 2, "centre"), **_base(pos, i)))
    return len(tab) * pitch - GAP, LABEL + CARD_H, places


def _wings(pos, tab: list[int], centre: list[int]) -> tuple[float, float, list[Place]]:
    """Streets and Alleys: rows spread outwards from a centre column of foundations; the
    outer card of each row is its top."""
    rows = (len(tab) + 1) // 2
    left, right = tab[:rows], tab[rows:]
    longest = max((len(pos.piles[i]) for i in tab), default=1)
    fan_w = 1.0 + FAN * max(longest - 1, 0)
    cx = SIDE + fan_w + GAP
    places = []
    row_h = CARD_H + 2 * GAP
    for r in range(rows):
        y = r * row_h
        if r < len(left):
            i = left[r]
            w = 1.0 + FAN * max(len(pos.piles[i]) - 1, 0)
            p = _fan(pos, i, cx - GAP - w, y, leftwards=True)
            p.label = (SIDE - 0.08, y + CARD_H / 2, "right")
            places.append(p)
        if r < len(centre):
            p = _slot(pos, centre[r], cx, y - LABEL)
            p.label = (cx + 0.95, y + CARD_H - 0.1, "corner")
            places.append(p)
        if r < len(right):
            i = right[r]
            p = _fan(pos, i, cx + 1 + GAP, y)
            p.label = (cx + 1 + 2 * GAP + fan_w + 0.08, y + CARD_H / 2, "left")
            places.append(p)
    width = 2 * SIDE + 2 * fan_w + 2 * GAP + 1
    return width, rows * row_h - 2 * GAP, places


def _fans(pos, tab: list[int], aspect: float) -> tuple[float, float, list[Place]]:
    """Piles spread sideways in rows (La Belle Lucie style), names on their left."""
    longest = max((len(pos.piles[i]) for i in tab), default=1)
    cell_w = SIDE + 1.0 + FAN * max(longest - 1, 0) + GAP
    row_h = CARD_H + GAP
    n = len(tab)
    best = 1
    best_scale = -1.0
    for per in range(1, n + 1):
        rows = math.ceil(n / per)
        w, h = per * cell_w, rows * row_h
        scale = min(aspect / w, 1.0 / h)
        if scale > best_scale + 1e-9:
            best, best_scale = per, scale
    places = []
    for k, i in enumerate(tab):
        r, c = divmod(k, best)
        x, y = c * cell_w, r * row_h
        p = _fan(pos, i, x + SIDE, y)
        p.label = (x + SIDE - 0.08, y + CARD_H / 2, "right")
        places.append(p)
    return best * cell_w - GAP, math.ceil(n / best) * row_h - GAP, places


def _pyramid(pos, cells: list[int], rows: int) -> tuple[float, float, list[Place]]:
    places = []
    k = 0
    pitch = 1 + GAP
    for r in range(rows):
        for c in range(r + 1):
            if k >= len(cells):
                break
            i = cells[k]
            x = (rows - 1 - r) * pitch / 2 + c * pitch
            y = r * CARD_H / 2
            places.append(_cell(pos, i, x, y, covered=r < rows - 1, strip=CARD_H / 2))
            k += 1
    width = rows * pitch - GAP
    return width, CARD_H + (rows - 1) * CARD_H / 2, places


def _cell(pos, i: int, x: float, y: float, covered: bool = False, strip: float = 0.0) -> Place:
    """One card standing alone (pyramid, line, grid); its name in its corner."""
    cards = pos.piles[i]
    d = pos.down[i]
    spots = []
    listed = False
    if cards:
        spots = [CardSpot(cards[-1], len(cards) > d, x, y, "top" if covered else "full", strip)]
        listed = len(cards) > 1
    return Place(kind="cell" if cards else "slot", x=x, y=y, w=1.0, h=CARD_H, cards=spots,
                 label=(x + 0.95, y + (strip if covered else CARD_H) - 0.1, "corner"),
                 listed=listed, **_base(pos, i))


def _line(pos, cells: list[int]) -> tuple[tuple[float, float, list[Place]], str]:
    """Accordion's line, left to right, wrapped thirteen to a row. Only dealt places show."""
    used = [i for i in cells if pos.piles[i]]
    if not used:
        first, last = pos.engine.names[cells[0]], pos.engine.names[cells[-1]]
        return (0.0, 0.0, []), (f"The line ({first}, {pos.engine.names[cells[1]]} ... {last}) "
                                f"starts empty: each s deals the next card at its right end.")
    places = []
    pitch = 1 + GAP
    for k, i in enumerate(used):
        r, c = divmod(k, LINE_PER_ROW)
        places.append(_cell(pos, i, c * pitch, r * (CARD_H + GAP)))
    per = min(len(used), LINE_PER_ROW)
    rows = math.ceil(len(used) / LINE_PER_ROW)
    return (per * pitch - GAP, rows * (CARD_H + GAP) - GAP, places), ""


def _grid(pos, cells: list[int], rows: int, columns: int) -> tuple[float, float, list[Place]]:
    places = []
    pitch = 1 + GAP / 2
    for k, i in enumerate(cells):
        r, c = divmod(k, columns)
        places.append(_cell(pos, i, c * pitch, r * (CARD_H + GAP / 2)))
    return columns * pitch - GAP / 2, rows * (CARD_H + GAP / 2) - GAP / 2, places


def _band(pos, left: list[int], right: list[int], reserves: list[int],
          main_w: float) -> tuple[float, float, list[Place]]:
    """The piles beside the tableau, in one or two rows on the tableau's column grid:
    stock, waste, reserves and unknown piles from the left, foundations to the right."""
    if not (left or right or reserves):
        return 0.0, 0.0, []
    pitch = 1 + GAP

    def span(items) -> int:
        return sum(math.ceil((_slot_width(pos, i) + GAP) / pitch - 1e-9) for i in items)

    columns = max(1, round((main_w + GAP) / pitch))
    if span(left) + span(reserves) + span(right) <= columns:
        rows = [(left + reserves, right)]
    else:
        rows = [(lft, rgt) for lft, rgt in ((left, right), (reserves, [])) if lft or rgt]
    width_cols = max([columns] + [span(lft) + span(rgt) for lft, rgt in rows])
    places: list[Place] = []
    y = 0.0
    for lft, rgt in rows:
        col = 0
        for i in lft:
            places.append(_slot(pos, i, col * pitch, y))
            col += span([i])
        col = width_cols - span(rgt)
        for i in rgt:
            places.append(_slot(pos, i, col * pitch, y))
            col += span([i])
        y += LABEL + CARD_H + GAP
    return width_cols * pitch - GAP, y - GAP, places


__all__ = ["CARD_H", "CardSpot", "Diagram", "Place", "layout"]
