"""With a variant: the detections grouped into piles, and a candidate position checked by the
rules engine.

The photo is turned so that the layout's "up" points up; distances are measured in index sizes
(the pip-rank distance), so the grouping does not depend on the photo's scale. Supported
layouts: cascaded columns (Klondike and the other games whose tableau piles are t1...tN, with
Klondike's top row), Gaps' rows, the Pyramid's rows, Golf's columns and waste. Face-down cards
are taken as dealt (counting card backs is not implemented): the position says so.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field


@dataclass
class PileReading:
    variant: str
    piles: dict                       # pile name -> list of Detection, bottom first
    problems: list = field(default_factory=list)
    unplaced: list = field(default_factory=list)
    position: object = None           # Position or None
    status: object = None


def _frame(dets, up):
    """Coordinates with up = (0, -1): x right, y down, in units of the median index size."""
    import statistics
    unit = statistics.median(d.size for d in dets) if dets else 1.0
    ux, uy = up
    # right vector = (-uy, ux) for up in image coordinates (y down)
    rx, ry = -uy, ux
    return [((d.x * rx + d.y * ry) / unit, -(d.x * ux + d.y * uy) / unit) for d in dets]


def _clusters(values, gap):
    """Groups of indices of values split where consecutive sorted values differ by > gap."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    groups, cur = [], []
    for i in order:
        if cur and values[i] - values[cur[-1]] > gap:
            groups.append(cur)
            cur = []
        cur.append(i)
    if cur:
        groups.append(cur)
    return groups


def map_piles(dets, variant_key: str) -> PileReading:
    from ..rules import load_variant
    from .read import dominant_up
    v = load_variant(variant_key)
    names = v.engine().names
    up = dominant_up(dets)
    # cards whose "up" disagrees with the layout (bottom corners of top cards) carry no order
    upright = [d for d in dets if d.up[0] * up[0] + d.up[1] * up[1] > 0.5]
    rest = [d for d in dets if d not in upright]
    out = PileReading(v.key, {}, unplaced=list(rest))
    if not upright:
        out.problems.append("no upright card index found")
        return out
    xy = _frame(upright, up)
    xs = [p[0] for p in xy]
    ys = [p[1] for p in xy]
    tabs = [n for n in names if n.startswith("t") and n[1:].isdigit()]
    if v.key == "gaps":
        rows = _clusters(ys, 2.5)
        if len(rows) != 4:
            out.problems.append(f"found {len(rows)} rows of cards; Gaps has 4")
        pitch = _pitch(xs, rows)
        x0 = min(xs)
        for r, row in zip("abcd", rows, strict=False):
            for i in row:
                col = round((xs[i] - x0) / pitch) + 1 if pitch else 1
                _put(out, f"{r}{col}", upright[i], names)
    elif v.key == "pyramid":
        # rows are evenly spaced and each row's cards sit half a pitch to either side of the
        # apex column, so a card missed does not shift the others
        rows = _clusters(ys, 1.8)
        cy = [sum(ys[i] for i in row) / len(row) for row in rows]
        steps = [b - a for a, b in itertools.pairwise(cy)]
        dy = sorted(steps)[len(steps) // 2] if steps else 1.0
        pitch = _pitch(xs, rows) or 1.0
        placed = {}
        full = [(len(row), row, k) for k, row in enumerate(rows)]
        apex = None
        for _, row, k in sorted(full, key=lambda t: -t[0]):
            r = round((cy[k] - cy[0]) / dy) if dy else k
            if len(row) == r + 1:
                apex = sum(xs[i] for i in row) / len(row)
                break
        if apex is None:
            apex = sum(xs[i] for i in rows[0]) / len(rows[0])
        for k, row in enumerate(rows):
            r = round((cy[k] - cy[0]) / dy) if dy else k
            for i in row:
                c = round((xs[i] - apex) / pitch + r / 2)
                if not (0 <= r < 7 and 0 <= c <= r) or (r, c) in placed:
                    out.unplaced.append(upright[i])
                    continue
                placed[(r, c)] = i
        for r in range(7):
            got = sum(1 for (rr, _) in placed if rr == r)
            if got != r + 1:
                out.problems.append(f"row {r + 1} of the pyramid: read {got} of {r + 1} cards")
        for (r, c), i in sorted(placed.items()):
            _put(out, f"p{r * (r + 1) // 2 + c + 1}", upright[i], names)
    elif tabs:
        idx = list(range(len(upright)))
        top: list[int] = []
        if v.key == "klondike":  # the top row (waste fan, foundations) lies apart, above
            ymin = min(ys)
            band = [i for i in idx if ys[i] < ymin + 3.0]
            below = [ys[i] for i in idx if i not in band]
            if below and min(below) - max(ys[i] for i in band) > 5.0:
                top = band
        bottom: list[int] = []
        if v.key == "golf" and "w" in names:  # Golf's waste lies apart, below the columns
            ymax = max(ys)
            band = [i for i in idx if ys[i] > ymax - 3.0]
            above = [ys[i] for i in idx if i not in band]
            if above and min(ys[i] for i in band) - max(above) > 5.0:
                bottom = band
        tab = [i for i in idx if i not in top and i not in bottom]
        groups = [[tab[k] for k in g] for g in _clusters([xs[i] for i in tab], 2.5)]
        centres = [sum(xs[i] for i in g) / len(g) for g in groups]
        steps = [b - a for a, b in itertools.pairwise(centres) if b - a > 4.0]
        pitch = min(steps) if steps else 1.0
        near = sorted(st for st in steps if st < 1.5 * pitch)
        pitch = near[len(near) // 2] if near else pitch
        x0 = centres[0] if centres else 0.0
        for g, cx in zip(groups, centres, strict=True):
            c = round((cx - x0) / pitch) if steps else 0
            if c >= len(tabs):
                out.unplaced.extend(upright[i] for i in g)
                continue
            for i in sorted(g, key=lambda i: ys[i]):
                _put(out, tabs[c], upright[i], names)
        if len(groups) > len(tabs):
            out.problems.append(f"found {len(groups)} columns of cards; {v.name} has "
                                f"{len(tabs)} tableau piles")
        for i in sorted(top, key=lambda i: xs[i]):
            c = math.floor((xs[i] - x0) / pitch + 0.3) if steps else 0
            target = _top_row_pile(v.key, c, names)
            if target:
                _put(out, target, upright[i], names)
            else:
                out.unplaced.append(upright[i])
        for i in sorted(bottom, key=lambda i: xs[i]):  # the waste fan, left to right
            _put(out, "w", upright[i], names)
    else:
        out.problems.append(f"piles of {v.name} are not mapped from photos yet; cards only")
        out.unplaced.extend(upright)
    build_position(out, v)
    return out


def _pitch(xs, rows):
    import statistics
    diffs = []
    for row in rows:
        s = sorted(xs[i] for i in row)
        diffs += [b - a for a, b in itertools.pairwise(s) if b - a > 2.0]
    if not diffs:
        return 0.0
    m = min(diffs)
    near = [d for d in diffs if d < 1.5 * m]
    return statistics.median(near)


def _top_row_pile(key, col, names):
    if key == "klondike":
        return {1: "w", 3: "f1", 4: "f2", 5: "f3", 6: "f4"}.get(col)
    if key == "golf" and "w" in names:
        return None
    return None


def _put(out, name, det, names):
    if name not in names:
        out.unplaced.append(det)
        return
    out.piles.setdefault(name, []).append(det)


def build_position(out: PileReading, v):
    """A candidate position: read cards where read, ``??`` elsewhere, face-down as dealt."""
    from ..cards import code_text
    from ..errors import CompanionError
    from ..rules import Position, deal
    template = deal(v.key, None).to_json()
    piles = template["piles"]
    for name, dets in out.piles.items():
        fd = piles.get(name, {}).get("face_down", 0)
        if name.startswith("f"):   # foundations: only the top card shows
            top = dets[-1]
            n = top.rank if v.key == "klondike" else 1
            cards = ["??"] * (n - 1) + [_json(top)]
            piles[name] = {"cards": cards, "face_down": 0}
            continue
        cards = ["??"] * fd + [_json(d) for d in dets]
        piles[name] = {"cards": cards, "face_down": fd}
        for d in dets:
            if d.uncertain:
                out.problems.append(f"{name}: {code_text(d.code, False)}? uncertain "
                                    f"({d.note}, {d.confidence:.0%})")
    # the rest of the deck: unseen, in the stock if there is one
    used = sum(len(p["cards"]) for n, p in piles.items() if n != "s")
    if "s" in piles:
        rest = max(0, v.deck_size - used)
        piles["s"] = {"cards": ["??"] * rest, "face_down": rest}
    template["seed"] = None
    try:
        pos = Position.from_json(template)
    except CompanionError as exc:
        out.problems.append(f"the position read is not valid: {exc}")
        return
    out.position = pos
    out.status = pos.status()
    for flag in type(out.status):
        if flag.value and flag in out.status:
            out.problems.append(f"position check: {flag.name.lower().replace('_', ' ')}")


def _json(d):
    from ..cards import RANK_CODE
    return RANK_CODE[d.rank] + "SHDC"[d.suit]


def angle_deg(up) -> float:
    return math.degrees(math.atan2(up[0], -up[1]))
